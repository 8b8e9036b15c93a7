"""``modlights serve``: run the web service with uvicorn and print its URL."""
from __future__ import annotations

import socket
import sys
from typing import TextIO

__all__ = ["serve"]


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: a free port the system picks);
    ValueError when the address cannot be used."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise ValueError(f"cannot resolve host {host!r}: {e}") from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise ValueError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock


def serve(host: str = "127.0.0.1", port: int = 8000, out: TextIO = sys.stdout) -> None:
    """Serve ``create_app()`` on host:port until interrupted; prints the URL first
    (with the port actually used when ``port`` is 0)."""
    if not 0 <= port <= 65535:
        raise ValueError(f"port must be from 0 to 65535, got {port}")
    try:
        import uvicorn

        from .app import create_app
    except ImportError as e:
        raise ValueError(f'the web service needs its extra ({e.name or e} is missing): '
                         'pip install "modlights[web]"') from None
    sock = _bind(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(f"modlights serving on http://{shown}:{bound}/ (API docs at /docs; "
          "Ctrl-C stops)", file=out, flush=True)
    config = uvicorn.Config(create_app(), log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])
