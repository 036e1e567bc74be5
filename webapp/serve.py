"""The production server: granian (Rust HTTP, WSGI interface) serving `webapp.wsgi:app`.

    python -m webapp.serve          # what `make serve` runs
    python -m webapp.serve tools.bench_app:app   # the same server, another WSGI app

Chosen by measurement over gunicorn (BENCHMARKS.md): granian parses HTTP and holds
connections in Rust, so idle and half-open sockets cost no Python thread, and its
per-request work is a fraction of gunicorn's. Settings come from the environment:

    HOST, PORT                  bind address (default 127.0.0.1:8000)
    WEB_CONCURRENCY             worker processes (default: one per core)
    SHINPAN_THREADS             Python threads per worker (default 32)
    SHINPAN_BACKLOG             listen backlog (default 1024)
    SHINPAN_HEADER_TIMEOUT      seconds a client may take to send its headers (default 10)
    SHINPAN_BODY_TIMEOUT        seconds a client may take to send its body (default 10)
    SHINPAN_ACCESS_LOG=0        no access log (default: one line per request on stdout)
    SHINPAN_PROXY_HOPS, SHINPAN_TRUSTED_HOSTS   read by the app (webapp/security.py)

Signals: SIGHUP respawns the workers one by one (graceful reload after a deploy);
SIGTERM/SIGINT stop gracefully. A worker that dies is respawned.
"""
from __future__ import annotations

import os
from typing import Any

APP = "webapp.wsgi:app"


def _number(environ: dict[str, str], name: str, default: float) -> float:
    value = environ.get(name, "").strip()
    try:
        return float(value) if value else default
    except ValueError:
        raise SystemExit(f"{name} must be a number, not {value!r}") from None


def settings(environ: dict[str, str] | None = None) -> dict[str, Any]:
    """Granian's keyword arguments for this deployment (one place for every number)."""
    from granian.constants import HTTPModes, Interfaces
    from granian.http import HTTP1Settings

    env = os.environ if environ is None else environ
    workers = int(_number(env, "WEB_CONCURRENCY", os.cpu_count() or 1))
    threads = int(_number(env, "SHINPAN_THREADS", 32))
    header_timeout = _number(env, "SHINPAN_HEADER_TIMEOUT", 10)
    return {
        "target": APP,
        "address": env.get("HOST", "127.0.0.1"),
        "port": int(_number(env, "PORT", 8000)),
        "interface": Interfaces.WSGI,
        "http": HTTPModes.http1,  # behind TLS/HTTP2 termination at the proxy, or direct
        "websockets": False,
        # CPU-bound Python: one process per core. The threads mostly wait (a slow body
        # parks one, without the GIL); the GIL lets one of them run at a time.
        "workers": max(1, workers),
        "blocking_threads": max(1, threads),
        # requests in flight per worker: beyond this they wait in the Rust layer
        "backpressure": max(1, threads) * 2,
        "backlog": int(_number(env, "SHINPAN_BACKLOG", 1024)),
        "http1_settings": HTTP1Settings(
            header_read_timeout=int(header_timeout * 1000),
            keep_alive=True,
            # request line + headers at most 16 KB (431 above): the app allows a 6 KB
            # query and answers an over-long one itself (414, localized)
            max_buffer_size=16 * 1024,
        ),
        # granian's own access log formats every line through `logging`: the app writes
        # its own, cheaper line (webapp/accesslog.py)
        "log_access": False,
        "log_level": env.get("SHINPAN_LOG_LEVEL", "info"),
        "respawn_failed_workers": True,
        "respawn_interval": 1.0,
        "workers_kill_timeout": 20,  # seconds a worker may take to finish on reload/stop
        "process_name": None,
    }


def main(argv: list[str] | None = None) -> None:
    import sys

    from granian.server import Server

    args = sys.argv[1:] if argv is None else argv
    options = settings()
    if args:
        options["target"] = args[0]
    Server(**options).serve()


if __name__ == "__main__":
    main()
