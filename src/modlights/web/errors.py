"""Every error of the web service as JSON ``{"error", "detail"}`` (the exception
handlers of the app)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from modlights import Unsolvable
from modlights.web import limits
from modlights.web import workers as workers_module
from modlights.web.limits import TooLarge
from modlights.web.work import describe_errors

log = logging.getLogger("modlights.web")


def error(status: int, error: str, detail: str) -> JSONResponse:
    """The service's error answer: ``{"error": error, "detail": detail}`` with ``status``."""
    return JSONResponse({"error": error, "detail": detail}, status_code=status)


def add_error_handlers(app: FastAPI) -> None:
    """Every error as JSON ``{"error", "detail"}``: the library's Unsolvable (422) and
    ValueError (400), the pool's Busy (503, Retry-After), Deadline (408) and
    EngineFailure (503) and ClientGone (499, logged only: nobody reads it), the
    limits' TooLarge (400), bodies that fail their model (422)
    or do not parse (400), HTTP errors with their status, and anything else as 500
    "internal" with the traceback logged on the server, never sent."""

    @app.exception_handler(Unsolvable)
    async def unsolvable(_: Request, e: Unsolvable) -> JSONResponse:
        return error(422, "unsolvable", str(e))

    @app.exception_handler(workers_module.Busy)
    async def busy(_: Request, e: Exception) -> JSONResponse:
        seconds = getattr(e, "retry_after", limits.RETRY_AFTER_SECONDS)
        return JSONResponse(
            {"error": "busy", "detail": str(e)},
            status_code=503,
            headers={"Retry-After": str(seconds)},
        )

    @app.exception_handler(workers_module.Deadline)
    async def deadline(_: Request, e: Exception) -> JSONResponse:
        return error(408, "deadline", str(e))

    @app.exception_handler(workers_module.EngineFailure)
    async def engine_failure(_: Request, e: Exception) -> JSONResponse:
        return error(503, "engine_failure", str(e))

    @app.exception_handler(workers_module.ClientGone)
    async def client_gone(_: Request, e: Exception) -> JSONResponse:
        return error(499, "client_gone", str(e))  # nobody reads it; logged as 499

    @app.exception_handler(limits.Invalid)
    async def invalid_body(_: Request, e: Exception) -> JSONResponse:
        return error(422, "invalid_request", str(e))

    @app.exception_handler(limits.Unparsable)
    async def unparsable_body(_: Request, e: Exception) -> JSONResponse:
        return error(400, "http_error", str(e))

    @app.exception_handler(limits.TooDeep)
    async def too_deep(_: Request, e: Exception) -> JSONResponse:
        return error(400, "too_deep", str(e))

    @app.exception_handler(TooLarge)
    async def too_large(_: Request, e: TooLarge) -> JSONResponse:
        return error(400, "too_large", str(e))

    @app.exception_handler(ValueError)
    async def bad_input(_: Request, e: ValueError) -> JSONResponse:
        return error(400, "bad_input", str(e))

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        return error(422, "invalid_request", describe_errors(e.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, e: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "http_error")
        return JSONResponse(
            {"error": code, "detail": str(e.detail)},
            status_code=e.status_code,
            headers=getattr(e, "headers", None),
        )

    @app.exception_handler(Exception)
    async def internal(_: Request, e: Exception) -> JSONResponse:
        log.exception("unexpected error")  # logged on the server, never sent
        return error(500, "internal", "unexpected server error")
