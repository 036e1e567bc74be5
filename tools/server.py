"""Start the production server (granian, webapp/server/serve.py) or, for comparison, gunicorn
with gunicorn.conf.py, on a free loopback port.

    with serve() as base:                          # "http://127.0.0.1:<port>", granian
        ...
    with serve("tools.bench_app:app"):             # the same server, another WSGI app
    with serve(server="gunicorn"):                 # the site under gunicorn.conf.py

Only ever binds 127.0.0.1. The server's logs go to `log` (a path, default: discarded),
so load runs do not flood the terminal; with a log, serve() returns once every worker
has said it is ready.
"""
from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONFIG = ROOT / "gunicorn.conf.py"
SERVERS = ("granian", "gunicorn")
SITE = "webapp.server.wsgi:app"
# A bound on waiting for the server's own signals (an answer, a log line): generous,
# because a worker's start takes seconds on a machine busy with other work.
READY_TIMEOUT = 120.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_ready(port: int, process: subprocess.Popen, timeout: float = READY_TIMEOUT) -> None:
    """Until the server answers a request (granian's master listens at once and a request
    waits in the backlog until a worker is ready; gunicorn listens when it is ready)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.settimeout(max(deadline - time.monotonic(), 0.1))
                sock.sendall(b"GET /api/v1/problems/not-found HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Connection: close\r\n\r\n")
                if sock.recv(16).startswith(b"HTTP/1.1"):
                    return
        except OSError:
            time.sleep(0.1)  # not listening yet (gunicorn), or the answer did not come
    raise RuntimeError(f"the server did not answer within {timeout:g} s")


def wait_for(done: Callable[[], object], what: str, timeout: float = READY_TIMEOUT) -> None:
    """Until done() is true; a RuntimeError naming `what` after `timeout` seconds (a bound
    on a signal the server gives, never the expected time)."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise RuntimeError(f"no {what} within {timeout:g} s")
        time.sleep(0.05)


def worker_pids(master: int) -> set[int]:
    """The server's worker processes (children of its master)."""
    try:
        return {int(pid) for pid in
                Path(f"/proc/{master}/task/{master}/children").read_text().split()}
    except OSError:
        return set()


def log_count(base: Base, pattern: str) -> int:
    """How many lines of the server's log match `pattern` (a regular expression)."""
    text = Path(base.log).read_text(errors="replace")
    return len(re.findall(pattern, text, re.MULTILINE))


READY = r"^\[INFO\] worker-\d+ \(PID \d+\) ready in "


class Base(str):
    """The server's base URL; `.pid` is the server's main process (for signals), `.log`
    the file its output goes to (None: discarded)."""

    pid: int
    log: Path | None


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
        base.log = Path(log) if log else None
        if base.log and server == "granian":  # every worker ready, not only the first
            workers = int(environ.get("WEB_CONCURRENCY") or os.cpu_count() or 1)
            wait_for(lambda: log_count(base, READY) >= workers, "ready line of every worker")
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
