"""Start gunicorn with the repository's gunicorn.conf.py on a free loopback port.

    with serve() as base:              # "http://127.0.0.1:<port>"
        ...
    with serve("tools.bench_app:app"): # the same configuration, another WSGI app

Only ever binds 127.0.0.1. The server's access and error logs go to `log` (a path,
default: discarded), so load runs do not flood the terminal.
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
CONFIG = ROOT / "gunicorn.conf.py"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_ready(port: int, process: subprocess.Popen, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"GET /api/v1/problems/not-found HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Connection: close\r\n\r\n")
                if sock.recv(16).startswith(b"HTTP/1.1"):
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("gunicorn did not answer in time")


@contextlib.contextmanager
def serve(app: str = "webapp.wsgi:app", *, env: dict[str, str] | None = None,
          log: str | os.PathLike | None = None, extra_args: list[str] | None = None,
          python: str | None = None, cwd: str | os.PathLike | None = None) -> Iterator[str]:
    port = free_port()
    environ = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), **(env or {})}
    environ.pop("FLASK_DEBUG", None)
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    command = [python or sys.executable, "-m", "gunicorn", "-c", str(CONFIG),
               *(extra_args or []), app]
    process = subprocess.Popen(command, cwd=cwd or ROOT, env=environ, stdout=out,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_ready(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=25)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if out is not subprocess.DEVNULL:
            out.close()
