"""Gunicorn settings, kept as the comparison for `make bench` (and `tools/loadtest.py
--server gunicorn`): the production server is granian (webapp/server/serve.py), chosen over this
configuration by measurement (BENCHMARKS.md).

Environment: HOST/PORT (default 127.0.0.1:8000), WEB_CONCURRENCY (workers, default one
per core, at least 2), GUNICORN_THREADS (threads per worker, default 4),
SHINPAN_READ_TIMEOUT (seconds a client may take to send one request, default 10),
SHINPAN_PROXY_HOPS (read by the app: trusted reverse proxies for ProxyFix, default 0).

The app is stateless (no sessions, no server-side storage): run as many workers or
instances as the cores and machines allow, behind any load balancer.
"""
from __future__ import annotations

import multiprocessing
import os
import time

wsgi_app = "webapp.server.wsgi:app"
bind = [f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"]

# The referee and the page renderer are CPU-bound Python: one process per core does the
# work, a few threads each keep slow clients and keep-alive connections from idling a core.
workers = int(os.environ.get("WEB_CONCURRENCY") or max(2, multiprocessing.cpu_count()))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS") or 4)
worker_connections = 200  # open connections per worker, kept-alive ones included
preload_app = True  # import once in the master; workers fork a warmed-up app

timeout = 30  # a silent worker is restarted after this long
graceful_timeout = 20
keepalive = 2  # seconds an idle keep-alive connection is kept (short: direct clients)
backlog = 256

# The app answers an over-long query string itself (414, HTML or problem+json); the
# request line limit only has to be above that (6 KB of query).
limit_request_line = 8190
limit_request_fields = 64
limit_request_field_size = 8190

accesslog = "-"  # access log to stdout, error log to stderr: the platform collects both
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'
proc_name = "shinpan"
# gunicornc's control socket lives at one fixed path per user: several instances on one
# machine (tests, load tests, blue/green) would fight over it.
control_socket_disable = True

READ_TIMEOUT = float(os.environ.get("SHINPAN_READ_TIMEOUT") or 10)


def _no_server_banner() -> None:
    """Send no `Server:` header at all (gunicorn adds `Server: gunicorn[/version]`)."""
    from gunicorn.http import wsgi

    if getattr(wsgi.Response, "_shinpan_patched", False):
        return
    original = wsgi.Response.default_headers

    def default_headers(self):
        return [line for line in original(self) if not line.lower().startswith("server:")]

    wsgi.Response.default_headers = default_headers
    wsgi.Response._shinpan_patched = True


def _request_deadline() -> None:
    """Close a connection whose request takes longer than READ_TIMEOUT to arrive (slowloris).

    Gunicorn's threaded worker reads a request with a blocking socket and no deadline, so a
    client dribbling its headers holds a thread for as long as it likes. Each read of a
    request gets the time left until its deadline as socket timeout; past it the client
    gets `408 Request Timeout` and the connection is closed. A buffering reverse proxy
    (nginx) does the same in front of the app; this is the app server's own guard.
    """
    from gunicorn.http import errors, unreader
    from gunicorn.workers import gthread

    if getattr(gthread.ThreadWorker, "_shinpan_patched", False):
        return
    deadlines: dict[int, float | None] = {}
    handle = gthread.ThreadWorker.handle
    chunk = unreader.SocketUnreader.chunk

    def handle_with_deadline(self, conn):
        key = id(conn.sock)
        deadlines[key] = None  # the clock starts with the first read
        try:
            return handle(self, conn)
        finally:
            deadlines.pop(key, None)

    def chunk_with_deadline(self, *args, **kwargs):
        key = id(self.sock)
        if key not in deadlines:
            return chunk(self, *args, **kwargs)
        deadline = deadlines[key]
        if deadline is None:
            deadline = deadlines[key] = time.monotonic() + READ_TIMEOUT
        left = deadline - time.monotonic()
        if left <= 0:
            return _timed_out(self.sock)
        self.sock.settimeout(left)
        try:
            return chunk(self, *args, **kwargs)
        except TimeoutError:
            return _timed_out(self.sock)
        finally:
            try:
                self.sock.settimeout(None)
            except OSError:
                pass

    def _timed_out(sock):
        try:
            sock.settimeout(1)
            sock.sendall(b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
                         b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 16\r\n\r\n"
                         b"Request Timeout\n")
        except OSError:
            pass
        raise errors.NoMoreData()

    gthread.ThreadWorker.handle = handle_with_deadline
    unreader.SocketUnreader.chunk = chunk_with_deadline
    gthread.ThreadWorker._shinpan_patched = True


def on_starting(server) -> None:
    try:
        _no_server_banner()
        _request_deadline()
    except (ImportError, AttributeError) as exc:  # another gunicorn version: say so, serve on
        server.log.warning("Shinpan gunicorn hardening not applied: %s", exc)
