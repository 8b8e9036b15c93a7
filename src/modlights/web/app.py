"""The FastAPI application: JSON endpoints over the public modlights API, the browser
game (``static/``) at ``/``, and Prometheus metrics at ``/metrics``.

Each endpoint checks the request's sizes and estimated cost against :mod:`.limits` in
the event loop, before anything large is built (a POST body over
``limits.RAW_BODY_BYTES`` is not even parsed there: its worker parses and checks
it), then runs the library call in a worker process (:mod:`.workers`) with a
deadline, so a long, crashing or memory-hungry solve costs its own request an error
and never holds the server or the other requests (:mod:`.work` is what the workers
run, :mod:`.middleware` admits large bodies, :mod:`.errors` answers). Every error is JSON
``{"error": short-code, "detail": text}``: 400 for bad input and over-limit
requests, 422 for a body that does not match its model and for unsolvable boards,
413 for oversized bodies, 404 / 405 for unknown routes, 408 "deadline" for work
stopped at its deadline and for a body not sent within its deadline, 503
"engine_failure" when its worker died, 503 "busy" (with Retry-After) past the
concurrency cap; never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

from modlights import (
    PATTERNS,
    Campaign,
    __version__,
)
from modlights.play.campaign import LEVELS_PER_GROUP, MAP_SIZE, STARS_TO_OPEN
from modlights.web import limits, site
from modlights.web import workers as workers_module
from modlights.web.errors import add_error_handlers
from modlights.web.limits import TooLarge
from modlights.web.metrics import CONTENT_TYPE_LATEST, Metrics, Observe
from modlights.web.middleware import Admission, raw_route
from modlights.web.models import (
    AnalyseRequest,
    EncodeRequest,
    GenerateRequest,
    HintRequest,
    SolveRequest,
)
from modlights.web.work import (
    analyse,
    as_json,
    campaign_level,
    check_analyse,
    check_encode,
    check_generate,
    check_hint,
    check_solve,
    daily_puzzles,
    encode,
    from_body,
    hint,
    make_puzzle,
    puzzle_of_code,
    search_budget,
    solve,
)

__all__ = ["create_app", "TooLarge"]

STATIC_DIR = site.STATIC_DIR
log = logging.getLogger("modlights.web")


# ----------------------------------------------------------------------------- the app
def create_app(
    *,
    workers: int | None = None,
    queue: int | None = None,
    memory_bytes: int | None = None,
    cors_origins: Any = (),
    body_seconds: float | None = None,
    test_hooks: bool = False,
    cheap_workers: int | None = None,
    cheap_queue: int | None = None,
    worker_nice: int | None = None,
) -> FastAPI:
    """The web service: a FastAPI application (ASGI; run it with uvicorn, or
    ``modlights serve``). JSON endpoints under ``/api``, OpenAPI docs at ``/docs``,
    Prometheus metrics at ``/metrics``, and the browser game at ``/`` when the package
    ships it.

    Parameters
    ----------
    workers : int, optional
        Solver processes of the heavy lane (default: one a CPU).
    queue : int, optional
        Requests that may wait for a heavy-lane worker before the service answers 503
        "busy" (default: twice the workers).
    memory_bytes : int, optional
        Each worker's address-space cap (default: 2 GiB or a share of the RAM; 0: none).
    cors_origins : iterable of str
        Origins allowed to call the API from a browser (CORS; "*" for any).
    body_seconds : float, optional
        Seconds a client may take to send a request's body before the answer is 408
        "deadline" (default: ``limits.BODY_SECONDS``).
    test_hooks : bool
        Also route ``POST /api/_test/{hook}`` to the test hooks of :mod:`.workers`
        (for the test suite only).
    cheap_workers, cheap_queue : int, optional
        Solver processes of the cheap lane, where requests estimated cheap run (default:
        one per two CPUs, at least 1), and the requests that may wait for one (default:
        16 a worker).
    worker_nice : int, optional
        Niceness added to the workers, 0..19 (default 0: the server's priority).

    Returns
    -------
    fastapi.FastAPI

    Raises
    ------
    ValueError
        For workers < 1, queue < 0, memory_bytes < 0, body_seconds <= 0, cheap_workers
        < 1, cheap_queue < 0 or worker_nice outside 0..19.

    Notes
    -----
    Requests estimated cheap (small boards) run in their own lane of workers and never
    wait behind expensive ones; a deadline counts a request's work, not its wait for a
    worker. ``GET /api/health`` answers while the server lives (liveness), ``GET
    /api/ready`` with 200 only while every lane has a warm worker (readiness). The worker
    processes start with the app (or on first use) and stop on its
    shutdown; they come from a forkserver, which imports the main module of the program
    again, so a script that serves the app must guard its start with
    ``if __name__ == "__main__":``. The endpoints, their bodies and answers are listed
    in the web API reference, generated from ``app.openapi()``.

    Examples
    --------
    >>> from modlights.web import create_app
    >>> app = create_app(workers=1)
    >>> sorted(r.path for r in app.routes if r.path.startswith("/api/")
    ...        and "_test" not in r.path)[:4]
    ['/api/analyse', '/api/campaign', '/api/campaign/{row}/{col}/{level}', '/api/daily/{date}']
    >>> app.openapi()["info"]["title"]
    'modlights'
    >>> create_app(workers=0)
    Traceback (most recent call last):
        ...
    ValueError: workers must be an int >= 1, got 0
    """
    if body_seconds is not None and not (
        isinstance(body_seconds, (int, float)) and body_seconds > 0
    ):
        raise ValueError(f"body_seconds must be seconds > 0, got {body_seconds!r}")
    pool = workers_module.WorkerPool(
        workers,
        queue,
        memory_bytes,
        cheap_workers=cheap_workers,
        cheap_queue=cheap_queue,
        nice=worker_nice,
    )
    metrics = Metrics(pool)
    pool.on_event = metrics.pool_event

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> Any:
        pool.start()
        try:
            yield
        finally:
            pool.close()

    app = FastAPI(
        title="modlights",
        version=__version__,
        description="Solve, analyse and generate modular Lights Out puzzles.",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.pool = pool
    app.state.metrics = metrics
    _add_docs(app)
    campaign = Campaign()
    campaign_cache: dict = {}  # (row, col, level) -> the level's to_dict()

    async def work(
        request: Request,
        fn: Callable,
        *args: Any,
        budget: float | None = None,
        timeout: float | None = None,
        lane: str = "heavy",
    ) -> Response:
        """The JSON answer of fn(*args), made in a worker (see :func:`run`)."""
        body = await run(request, as_json, fn, *args, budget=budget, timeout=timeout, lane=lane)
        return Response(body, media_type="application/json")

    async def run(
        request: Request,
        fn: Callable,
        *args: Any,
        budget: float | None = None,
        timeout: float | None = None,
        lane: str = "heavy",
    ) -> Any:
        """fn(*args) in a worker of ``lane``, within the deadline of a request with this
        search budget (or within ``timeout`` seconds of work when given); the outcome
        counted."""
        if timeout is None:
            timeout = limits.deadline(budget)
        try:
            result = await pool.run(fn, *args, timeout=timeout, request=request, lane=lane)
        except workers_module.Busy:
            metrics.outcomes.labels("busy").inc()
            raise
        except workers_module.Deadline:
            metrics.outcomes.labels("deadline").inc()
            raise
        except workers_module.EngineFailure:
            metrics.outcomes.labels("engine_failure").inc()
            raise
        except workers_module.ClientGone:
            metrics.outcomes.labels("client_gone").inc()
            raise
        except Exception:
            metrics.outcomes.labels("error").inc()
            raise
        metrics.outcomes.labels("ok").inc()
        return result

    def raw(route: str) -> type:
        """The route class of a POST ``route``: bodies too large for the event loop go
        to a worker whole (:func:`from_body`)."""

        async def answer(request: Request, body: bytes) -> Response:
            # The budget is not known before the worker parses the body: the longest
            # deadline of any request bounds it (a search keeps to its own budget).
            return await work(
                request,
                from_body,
                route,
                body,
                request.headers.get("content-type"),
                timeout=limits.MAX_DEADLINE_SECONDS,
            )

        return raw_route(answer)

    async def api_solve(req: SolveRequest, request: Request) -> Response:
        check_solve(req)
        budget = search_budget(req.budget) if req.minimal else None
        lane = limits.board_lane(req.board, req.minimal)
        return await work(request, solve, req, budget, budget=budget, lane=lane)

    async def api_analyse(req: AnalyseRequest, request: Request) -> Response:
        check_analyse(req)
        return await work(request, analyse, req, lane=limits.board_lane(req.board, False))

    async def api_hint(req: HintRequest, request: Request) -> Response:
        check_hint(req)
        budget = search_budget(None)
        lane = limits.board_lane(req.board, True)
        return await work(request, hint, req, budget, budget=budget, lane=lane)

    async def api_generate(req: GenerateRequest, request: Request) -> Response:
        check_generate(req)
        lane = limits.generate_lane(req.model_dump())
        return await work(request, make_puzzle, req, lane=lane)

    async def api_encode(req: EncodeRequest, request: Request) -> Response:
        check_encode(req)
        return await work(request, encode, req, lane=limits.board_lane(req.board, False))

    for path, endpoint, summary in (
        ("/api/solve", api_solve, "Solve a board (fewest taps by default)"),
        ("/api/analyse", api_analyse, "Rank, nullity and kernel size of a board's tap matrix"),
        ("/api/hint", api_hint, "The next tap of a minimal plan"),
        ("/api/generate", api_generate, "Generate a puzzle"),
        ("/api/encode", api_encode, "The puzzle code of a board and a start"),
    ):
        # the handlers answer with the worker's JSON Response; the schema says a dict
        app.router.add_api_route(
            path,
            endpoint,
            methods=["POST"],
            summary=summary,
            response_model=dict,
            route_class_override=raw(path),
        )

    @app.get("/api/puzzle/{code}", summary="The puzzle of a code", response_model=dict)
    async def api_puzzle(code: str, request: Request) -> Response:
        if len(code) > limits.MAX_CODE_CHARS:
            raise TooLarge(
                f"puzzle codes are at most {limits.MAX_CODE_CHARS} characters here, got {len(code)}"
            )
        return await work(request, puzzle_of_code, code, lane=limits.code_lane(code))

    @app.get(
        "/api/daily/{date}",
        summary="The three daily puzzles of a date (YYYY-MM-DD)",
        response_model=list,
    )
    async def api_daily(date: str, request: Request) -> Response:
        return await work(request, daily_puzzles, date, lane="cheap")

    @app.get("/api/campaign", summary="The campaign's map")
    async def api_campaign() -> dict:
        return {
            "map_size": MAP_SIZE,
            "levels_per_group": LEVELS_PER_GROUP,
            "stars_to_open": STARS_TO_OPEN,
            "seed": campaign.seed,
        }

    @app.get(
        "/api/campaign/{row}/{col}/{level}",
        summary="A campaign level's puzzle",
        response_model=dict,
    )
    async def api_campaign_level(row: int, col: int, level: int, request: Request) -> Response:
        key = (row, col, level)
        if key not in campaign_cache:
            answer = await work(
                request, campaign_level, campaign.seed, row, col, level, lane="cheap"
            )
            if len(campaign_cache) < limits.MAX_CACHED_LEVELS:
                campaign_cache[key] = answer.body
            return answer
        return Response(campaign_cache[key], media_type="application/json")

    @app.get("/api/patterns", summary="The named tap patterns' offsets")
    async def api_patterns() -> dict:
        return {name: [list(o) for o in offs] for name, offs in PATTERNS.items()}

    @app.get("/api/health", summary="Liveness: the server answers")
    async def api_health() -> dict:
        return {"status": "ok", "version": __version__}

    @app.get(
        "/api/ready",
        summary="Readiness: the service can do solver work now (503 while it cannot)",
        response_model=dict,
    )
    async def api_ready() -> Response:
        ok, lanes = pool.readiness()
        doc: dict[str, Any] = {"status": "ready" if ok else "not_ready", "lanes": lanes}
        if ok:
            return JSONResponse(doc)
        doc["error"] = "not_ready"
        doc["detail"] = "the service cannot do solver work now: a lane has no warm worker"
        headers = {"Retry-After": str(limits.RETRY_AFTER_SECONDS)}
        return JSONResponse(doc, status_code=503, headers=headers)

    @app.get("/metrics", summary="Prometheus metrics", include_in_schema=False)
    async def get_metrics() -> Response:
        return Response(metrics.render(), media_type=CONTENT_TYPE_LATEST)

    if test_hooks:
        _add_test_hooks(app, run)
    add_error_handlers(app)
    # Outermost last: metrics and access log, CORS (so every answer, busy included,
    # carries its headers), the admission of large bodies, the body limit.
    app.add_middleware(limits.BodyLimit, max_bytes=limits.MAX_BODY_BYTES, seconds=body_seconds)
    app.add_middleware(Admission, pool=pool, metrics=metrics, body_seconds=body_seconds)
    origins = [cors_origins] if isinstance(cors_origins, str) else list(cors_origins)
    if origins:
        from starlette.middleware.cors import CORSMiddleware

        app.add_middleware(
            CORSMiddleware,
            allow_origins=origins,
            allow_methods=["GET", "POST"],
            allow_headers=["content-type"],
            expose_headers=["Retry-After"],
            max_age=600,
        )
    app.add_middleware(Observe, metrics=metrics)
    if (STATIC_DIR / "index.html").is_file():
        # The same files as `modlights site DIR` writes (site.site_files), appended
        # after the API routes and blind to /api/...: a wrong method on an API route
        # stays a JSON 405 and an unknown API path a JSON 404, instead of the game's.
        app.router.routes.append(
            _GameMount("/", app=_SiteFiles(site.site_files(STATIC_DIR)), name="game")
        )
    return app


class _SiteFiles:
    """An ASGI app answering GET / HEAD with the site's files (``/`` is index.html);
    anything else is a JSON 404 (405 for other methods). Files made from Python (the
    campaign) are made once, on a thread, on first request."""

    def __init__(self, files: dict):
        self.files = files
        self.made: dict[str, bytes] = {}

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        from starlette.responses import FileResponse

        if scope["method"] not in ("GET", "HEAD"):
            raise StarletteHTTPException(405)
        rel = scope["path"].lstrip("/") or "index.html"
        source = self.files.get(rel)
        if source is None:
            raise StarletteHTTPException(404)
        media = site.MEDIA_TYPES[Path(rel).suffix]
        if isinstance(source, Path):
            response: Response = FileResponse(source, media_type=media)
        else:
            if rel not in self.made:
                self.made[rel] = await asyncio.to_thread(source)
            response = Response(self.made[rel], media_type=media)
        await response(scope, receive, send)


def _add_test_hooks(app: FastAPI, run: Callable) -> None:
    """POST /api/_test/{hook}: the worker hooks of :mod:`.workers`, for the tests."""
    hooks = {
        "pid": workers_module.hook_pid,
        "abort": workers_module.hook_abort,
        "segfault": workers_module.hook_segfault,
        "allocate": workers_module.hook_allocate,
        "nested": workers_module.hook_nested,
        "spin": workers_module.hook_spin,
    }

    @app.post("/api/_test/{hook}", include_in_schema=False)
    async def test_hook(hook: str, request: Request) -> Any:
        if hook not in hooks:
            raise ValueError(f"no test hook {hook!r}")
        body = await request.json()
        budget = body.pop("budget", None)
        args = body.get("args", ())
        lane = body.get("lane", "heavy")
        return {"result": await run(request, hooks[hook], *args, budget=budget, lane=lane)}


def _add_docs(app: FastAPI) -> None:
    """The OpenAPI page at /docs, with Swagger UI's files from the fastapi-offline
    package (a dependency of the web extra; Swagger UI 5 reads OpenAPI 3.1) so it works
    with no internet; FastAPI's default page loads Swagger UI from a CDN, which is the
    fallback when that package is missing."""
    from fastapi.openapi.docs import get_swagger_ui_html

    try:
        import fastapi_offline

        assets_dir = Path(fastapi_offline.__file__).with_name("static")
    except ImportError:  # pragma: no cover
        assets_dir = None
    if assets_dir is not None and (assets_dir / "swagger-ui-bundle.js").is_file():
        from fastapi.staticfiles import StaticFiles

        app.mount("/docs-assets", StaticFiles(directory=assets_dir), name="docs-assets")
        assets: dict[str, Any] = {
            "swagger_js_url": "/docs-assets/swagger-ui-bundle.js",
            "swagger_css_url": "/docs-assets/swagger-ui.css",
            "swagger_favicon_url": "/docs-assets/favicon.png",
        }
    else:
        assets = {}

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Any:
        # openapi_url is FastAPI's default, "/openapi.json" (create_app leaves it on)
        return get_swagger_ui_html(
            openapi_url=str(app.openapi_url), title="modlights API", **assets
        )


class _GameMount(Mount):
    """The browser game's files at "/", matching every path but those under /api/."""

    def matches(self, scope: Any) -> tuple:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            return Match.NONE, {}
        return super().matches(scope)
