"""The production server: granian (Rust HTTP, WSGI interface) serving `webapp.server.wsgi:app`.

    python -m webapp.server.serve          # what `make serve` runs
    python -m webapp.server.serve tools.bench_app:app   # the same server, another WSGI app

Chosen by measurement over gunicorn (BENCHMARKS.md): granian parses HTTP and holds
connections in Rust, so idle and half-open sockets cost no Python thread, and its
per-request work is a fraction of gunicorn's. Settings come from the environment:

    HOST, PORT                  bind address (default 127.0.0.1:8000)
    WEB_CONCURRENCY             worker processes (default: one per core)
    SHINPAN_THREADS             Python threads per worker (default 64)
    SHINPAN_CONNECTIONS         open connections per worker (default 2048; granian's
                                "backpressure": a worker accepts no more until one closes)
    SHINPAN_BACKLOG             listen backlog (default 2048)
    SHINPAN_HEADER_TIMEOUT      seconds a client may take to send its headers, and the
                                longest a kept-alive connection may idle (default 10)
    SHINPAN_INTERFACE           wsgi (default) or asgi: see "Request bodies" below
    SHINPAN_ACCESS_LOG=0        no access log (default: one line per request on stdout)
    SHINPAN_WORKER_TIMEOUT      seconds without a heartbeat after which a worker counts as
                                frozen and is killed and replaced (default 10; 0: off)
    SHINPAN_BOOT_TIMEOUT        seconds a new worker may take to be ready (default 60)
    SHINPAN_PROXY_HOPS, SHINPAN_TRUSTED_HOSTS   read by the app (webapp/http/security.py)

Processes (webapp/server/supervisor.py, granian's process manager with three changes): the
master listens for the server's whole life, one socket per worker slot, and each worker
accepts from its slot's socket, so no connection is ever refused while a worker boots,
stops or hangs (it waits in the backlog); SIGHUP replaces the workers one by one, each
old one stopping once its successor is ready ("Reload done" in the log when all are,
"Reload stopped" and the old worker kept if a new one cannot start); a worker that dies
is respawned, one that freezes is killed and respawned by the watchdog. SIGTERM/SIGINT
stop gracefully. A stopping worker closes its idle kept-alive connections, as HTTP
allows: a client's next request on one meets a closed connection and is sent again on
a new one (browsers do).

Request bodies: granian 2.8 has no read timeout for a WSGI body, and a body can only be
read on the request's own thread (a read handed to another thread stalls the worker's
I/O: tried, see BENCHMARKS.md). A body that dribbles in parks one of the worker's
threads, without the GIL, until it is complete or the client leaves; SHINPAN_THREADS is
how many such bodies a worker absorbs before valid requests wait. The body cap is the
app's (64 KB, 413, before any byte of an announced larger body is read). On the open
internet, a buffering reverse proxy bounds slow bodies (README, Deploy).

    SHINPAN_INTERFACE=asgi      the option with a body deadline: granian's ASGI interface
                                and webapp/server/asgi.py, which reads each body in the event loop
                                and answers 408 past SHINPAN_BODY_TIMEOUT (default 10 s,
                                for the whole body), then runs the same WSGI site on
                                SHINPAN_THREADS threads of its own. Not the default: it
                                measured 0.30-0.45 of the WSGI interface's throughput for
                                score requests and kept pages (BENCHMARKS.md, "Body
                                deadline"), against a budget of 0.85.
"""
from __future__ import annotations

import os
from typing import Any

from . import supervisor

APP = "webapp.server.wsgi:app"
ASGI_APP = "webapp.server.asgi:app"
INTERFACES = ("wsgi", "asgi")


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
    threads = int(_number(env, "SHINPAN_THREADS", 64))
    header_timeout = _number(env, "SHINPAN_HEADER_TIMEOUT", 10)
    worker_timeout = max(_number(env, "SHINPAN_WORKER_TIMEOUT", 10), 0.0)
    interface = env.get("SHINPAN_INTERFACE", "wsgi").strip().lower() or "wsgi"
    if interface not in INTERFACES:
        raise SystemExit(f"SHINPAN_INTERFACE must be one of {', '.join(INTERFACES)}, "
                         f"not {interface!r}")
    asgi = interface == "asgi"
    return {
        "target": ASGI_APP if asgi else APP,
        "address": env.get("HOST", "127.0.0.1"),
        "port": int(_number(env, "PORT", 8000)),
        # ASGI without lifespan events: webapp/server/asgi.py reads bodies in the event loop and
        # runs the site on its own SHINPAN_THREADS threads (granian allows one here)
        "interface": Interfaces.ASGINL if asgi else Interfaces.WSGI,
        "http": HTTPModes.http1,  # behind TLS/HTTP2 termination at the proxy, or direct
        "websockets": False,
        # CPU-bound Python: one process per core. The threads mostly wait (a slow body
        # parks one, without the GIL); the GIL lets one of them run at a time.
        "workers": max(1, workers),
        "blocking_threads": 1 if asgi else max(1, threads),
        # Open connections per worker, idle and kept-alive ones included (granian holds a
        # permit per accepted connection): a few KB each in Rust, so many; requests
        # beyond the threads wait there for a thread.
        "backpressure": int(_number(env, "SHINPAN_CONNECTIONS", 2048)),
        "backlog": int(_number(env, "SHINPAN_BACKLOG", 2048)),
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
        # webapp/server/supervisor.py: an old worker stops once its successor is ready (not
        # after granian's respawn_interval); a worker whose heartbeat is older than
        # worker_timeout, or that is not ready boot_timeout after its start, is killed
        # and respawned. A worker that dies within 5.5 s of its respawn is a crash loop
        # to granian, which then exits: hence the floors.
        "worker_timeout": worker_timeout and max(worker_timeout, 2 * supervisor.BEAT_SECONDS),
        "boot_timeout": max(_number(env, "SHINPAN_BOOT_TIMEOUT", 60), 6.0),
        "workers_kill_timeout": 20,  # seconds a worker may take to finish on reload/stop
    }


def main(argv: list[str] | None = None) -> None:
    import sys

    args = sys.argv[1:] if argv is None else argv
    options = settings()
    if args:
        options["target"] = args[0]
    # Library data every worker reads (Ukrainian's dictionary, about a second and 60 MB):
    # loaded once here, before granian forks the workers, which share it (copy on write)
    # instead of each loading it at its start. A library's data only: a reload (SIGHUP)
    # must take up a deploy's rules and texts, which each worker loads itself.
    from ..pages import analyzers

    analyzers.preload()
    supervisor.Supervisor(**options).serve(target_loader=supervisor.load_app)


if __name__ == "__main__":
    main()
