"""The modlights web service: a JSON API over the public library and the browser game.

>>> from modlights.web import create_app
>>> app = create_app()          # an ASGI application (FastAPI); run it with uvicorn

Needs the optional extra: ``pip install "modlights[web]"`` (imported on first use of
``create_app``, so :mod:`modlights.web.site`, the static game, needs no framework).
"""

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from modlights.web.app import create_app

        return create_app
    raise AttributeError(f"module 'modlights.web' has no attribute {name!r}")
