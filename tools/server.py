"""Start the production server (granian, webapp/server/serve.py) or, for comparison, gunicorn
with gunicorn.conf.py, on a free loopback port.

    with serve() as base:                          # "http://127.0.0.1:<port>", granian
        ...
    with serve("tools.bench_app:app"):             # the same server, another WSGI app
    with serve(server="gunicorn"):                 # the site under gunicorn.conf.py

Only ever binds 127.0.0.1. The server's logs go to `log` (a path, default: discarded),
so load runs do not flood the terminal.
"""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONFIG = ROOT / "gunicorn.conf.py"
SERVERS = ("granian", "gunicorn")
SITE = "webapp.server.wsgi:app"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_ready(port: int, process: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"GET /api/v1/problems/not-found HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Connection: close\r\n\r\n")
                if sock.recv(16).startswith(b"HTTP/1.1"):
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("the server did not answer in time")


class Base(str):
    """The server's base URL; `.pid` is the server's main process (for signals)."""

    pid: int


def command(server: str, app: str, python: str | None = None) -> list[str]:
    python = python or sys.executable
    if server == "gunicorn":
        return [python, "-m", "gunicorn", "-c", str(GUNICORN_CONFIG), app]
    # the site itself is webapp/server/serve.py's own target (WSGI or ASGI, SHINPAN_INTERFACE)
    return [python, "-m", "webapp.server.serve", *([] if app == SITE else [app])]


@contextlib.contextmanager
def serve(app: str = SITE, *, server: str = "granian",
          env: dict[str, str] | None = None, log: str | os.PathLike | None = None,
          python: str | None = None, cwd: str | os.PathLike | None = None) -> Iterator[str]:
    if server not in SERVERS:
        raise ValueError(f"unknown server {server!r}")
    port = free_port()
    environ = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), **(env or {})}
    environ.pop("FLASK_DEBUG", None)
    if server == "gunicorn":  # gunicorn writes its own access log (gunicorn.conf.py)
        environ.setdefault("SHINPAN_ACCESS_LOG", "0")
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    process = subprocess.Popen(command(server, app, python), cwd=cwd or ROOT, env=environ,
                               stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_ready(port, process)
        base = Base(f"http://127.0.0.1:{port}")
        base.pid = process.pid
        yield base
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=25)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if out is not subprocess.DEVNULL:
            out.close()
