"""pytest plugin of .ci/sanitize (loaded with ``-p sanitize_plugin``): every hypothesis
test derandomised, with at most MODLIGHTS_SAN_EXAMPLES examples (default 6), no
deadline (sanitized code runs several times slower) and no example database, so the
sanitizer run is bounded and the same on every run."""
import os

from hypothesis import HealthCheck, settings

CAP = int(os.environ.get("MODLIGHTS_SAN_EXAMPLES", "6"))


def pytest_collection_modifyitems(items):
    for item in items:
        fn = getattr(item, "obj", None)
        s = getattr(fn, "_hypothesis_internal_use_settings", None)
        if s is None:
            continue
        fn._hypothesis_internal_use_settings = settings(
            s, max_examples=min(s.max_examples, CAP), derandomize=True, deadline=None,
            database=None, suppress_health_check=list(HealthCheck))
