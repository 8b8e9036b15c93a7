"""The modlights web service: a JSON API over the public library and the browser game.

>>> from modlights.web import create_app
>>> app = create_app()          # an ASGI application (FastAPI); run it with uvicorn

Needs the optional extra: ``pip install "modlights[web]"``.
"""
from modlights.web.app import create_app

__all__ = ["create_app"]
