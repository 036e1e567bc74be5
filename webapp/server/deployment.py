"""What the production entry point (webapp/server/wsgi.py) adds around the site: the access log
and the answer's `Server` field.

* Access log: one line per answer on stdout,
  `2026-12-01T09:16:42Z 127.0.0.1 "GET /en/hanamikoji/ HTTP/1.1" 200 12034 0.4ms`.
  A request only appends a tuple of what it saw to a queue; a background thread formats
  the lines and writes them every FLUSH_SECONDS (and at exit). So a request pays no
  formatting, no `logging` machinery and no write call, and never waits on stdout. The
  queue holds at most MAX_PENDING entries: while stdout does not take the lines (a pipe
  nobody reads), the ones past that are dropped and counted, and the log says how many
  once it can write again. Granian's own access log would format every line through
  `logging` and flush it (see BENCHMARKS.md).
* `Server`: granian names itself (`server: granian`) unless the app sends the field,
  so the app sends it empty: no banner.
"""
from __future__ import annotations

import atexit
import collections
import os
import threading
import time

FLUSH_SECONDS = 0.5
MAX_PENDING = 8192  # entries waiting for the writer: a few MB at most
EXIT_SECONDS = 1.0  # how long an exiting worker waits for its last lines to be written
SERVER = ("Server", "")


class _Clock:
    """A Unix time's second as UTC text, formatted once per second."""

    __slots__ = ("second", "text")

    def __init__(self) -> None:
        self.second = -1
        self.text = ""

    def text_of(self, moment: float) -> str:
        second = int(moment)
        if second != self.second:
            self.text = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second))
            self.second = second
        return self.text


class LogWriter:
    """A bounded queue of access-log entries, formatted and written to a file descriptor
    by one background thread per process."""

    def __init__(self, fd: int = 1, interval: float = FLUSH_SECONDS,
                 limit: int = MAX_PENDING) -> None:
        self.fd = fd
        self.interval = interval
        self.limit = limit
        self.pending: collections.deque[tuple] = collections.deque()
        self.dropped = 0  # entries not queued since the last line saying so
        self.clock = _Clock()
        self._drop_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._wake = threading.Event()
        self._closing = False
        self._thread: threading.Thread | None = None
        self._pid = 0

    def put(self, entry: tuple) -> None:
        """Queue one entry (see Deployment.__call__); never blocks, drops when full."""
        if len(self.pending) < self.limit:
            self.pending.append(entry)  # atomic under the GIL
        else:
            with self._drop_lock:
                self.dropped += 1
        if self._pid != os.getpid():  # first entry in this (forked or spawned) worker
            self._start()

    def _start(self) -> None:
        with self._drop_lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
            self._thread = threading.Thread(target=self._run, name="access-log", daemon=True)
            self._thread.start()
            atexit.register(self.close)

    def _run(self) -> None:
        while not self._closing:
            self._wake.wait(self.interval)
            self.flush()

    def close(self, timeout: float = EXIT_SECONDS) -> None:
        """At exit: the last lines, unless stdout has not taken them within `timeout`."""
        self._closing = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def flush(self) -> None:
        """Format and write what is queued (on the writer thread, or in a test)."""
        with self._write_lock:
            lines = [self.line(self.pending.popleft()) for _ in range(len(self.pending))]
            with self._drop_lock:
                dropped, self.dropped = self.dropped, 0
            if dropped:
                lines.append(f"{self.clock.text_of(time.time())} access log: {dropped} lines "
                             "dropped (stdout did not take them in time)\n")
            if lines:
                self._write("".join(lines).encode("utf-8", "backslashreplace"))

    def _write(self, data: bytes) -> None:
        try:
            while data:  # blocks while stdout does not take it: requests go on, see put()
                data = data[os.write(self.fd, data):]
        except OSError:
            pass  # stdout closed: the log is lost, the site goes on

    def line(self, entry: tuple) -> str:
        moment, remote, method, path, query, protocol, status, headers, seconds = entry
        target = path + "?" + query if query else path
        if not target.isprintable():  # a decoded %0A must not start a forged log line
            target = target.encode("unicode_escape").decode("ascii")
        size = "-"
        for name, value in headers:
            if name == "Content-Length":
                size = value
                break
        return (f'{self.clock.text_of(moment)} {remote} "{method} {target} {protocol}" '
                f"{status[:3]} {size} {seconds * 1000:.1f}ms\n")


class Deployment:
    """WSGI middleware: the empty `Server` field and one access-log entry per answer."""

    def __init__(self, app, log: LogWriter | None = None) -> None:
        self.app = app
        self.log = log

    def __call__(self, environ, start_response):
        if self.log is None:
            def start(status, headers, exc_info=None):
                headers.append(SERVER)
                return start_response(status, headers, exc_info)

            return self.app(environ, start)

        began = time.perf_counter()
        seen: list = ["-", ()]

        def start_logged(status, headers, exc_info=None):
            headers.append(SERVER)
            seen[0] = status
            seen[1] = headers
            return start_response(status, headers, exc_info)

        # read before the call: the API's mount moves the prefix from PATH_INFO to SCRIPT_NAME
        path = environ.get("PATH_INFO", "")
        result = self.app(environ, start_logged)
        self.log.put((time.time(), environ.get("REMOTE_ADDR", "-"),
                      environ.get("REQUEST_METHOD"), path, environ.get("QUERY_STRING"),
                      environ.get("SERVER_PROTOCOL", ""), seen[0], seen[1],
                      time.perf_counter() - began))
        return result

    def record(self, scope: dict, status: str, headers: list, began: float) -> None:
        """An entry for an answer given outside the WSGI site (the ASGI entry's own
        answers): `scope` is the ASGI request, `began` a time.perf_counter()."""
        if self.log is not None:
            self.log.put((time.time(), (scope.get("client") or ("-",))[0], scope["method"],
                          scope["path"], scope["query_string"].decode("latin-1"),
                          "HTTP/" + scope["http_version"], status, headers,
                          time.perf_counter() - began))
