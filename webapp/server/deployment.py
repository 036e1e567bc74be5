"""What the production entry point (webapp/server/wsgi.py) adds around the site: the access log
and the answer's `Server` field.

* Access log: one line per answer on stdout,
  `2026-12-01T09:16:42Z 127.0.0.1 "GET /en/hanamikoji/ HTTP/1.1" 200 12034 0.4ms`.
  A line is an f-string appended to a list; a background thread writes the lines every
  FLUSH_SECONDS (and at exit), so a request pays no `logging` machinery, no timestamp
  formatting (one per second) and no write call. Granian's own access log would format
  every line through `logging` and flush it (see BENCHMARKS.md).
* `Server`: granian names itself (`server: granian`) unless the app sends the field,
  so the app sends it empty: no banner.
"""
from __future__ import annotations

import atexit
import os
import threading
import time

FLUSH_SECONDS = 0.5
SERVER = ("Server", "")


class _Clock:
    """The current UTC second as text, formatted once per second."""

    __slots__ = ("second", "text")

    def __init__(self) -> None:
        self.second = -1
        self.text = ""

    def now(self) -> str:
        second = int(time.time())
        if second != self.second:
            self.text = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second))
            self.second = second
        return self.text


class LogWriter:
    """Collects lines and writes them to a file descriptor from one background thread."""

    def __init__(self, fd: int = 1, interval: float = FLUSH_SECONDS) -> None:
        self.fd = fd
        self.interval = interval
        self.lines: list[str] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pid = 0

    def write(self, line: str) -> None:
        self.lines.append(line)  # atomic under the GIL
        if self._pid != os.getpid():  # first line in this (forked or spawned) worker
            self._start()

    def _start(self) -> None:
        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
            self._thread = threading.Thread(target=self._run, name="access-log", daemon=True)
            self._thread.start()
            atexit.register(self.flush)

    def _run(self) -> None:
        while True:
            time.sleep(self.interval)
            self.flush()

    def flush(self) -> None:
        with self._lock:
            lines, self.lines = self.lines, []
            if lines:
                data = "".join(lines).encode("utf-8", "backslashreplace")
                try:
                    while data:
                        data = data[os.write(self.fd, data):]
                except OSError:
                    pass  # stdout closed: the log is lost, the site goes on


class Deployment:
    """WSGI middleware: the empty `Server` field and one access-log line per answer."""

    def __init__(self, app, log: LogWriter | None = None) -> None:
        self.app = app
        self.log = log
        self.clock = _Clock()

    def __call__(self, environ, start_response):
        if self.log is None:
            def start(status, headers, exc_info=None):
                headers.append(SERVER)
                return start_response(status, headers, exc_info)

            return self.app(environ, start)

        began = time.perf_counter()
        seen: list = []

        def start_logged(status, headers, exc_info=None):
            headers.append(SERVER)
            seen.append(status)
            seen.append(headers)
            return start_response(status, headers, exc_info)

        # before the call: the API's mount moves the prefix from PATH_INFO to SCRIPT_NAME
        query = environ.get("QUERY_STRING")
        request = self.request(environ.get("REMOTE_ADDR", "-"), environ.get("REQUEST_METHOD"),
                               environ.get("PATH_INFO", "") + ("?" + query if query else ""),
                               environ.get("SERVER_PROTOCOL", ""))
        result = self.app(environ, start_logged)
        status, headers = (seen[-2], seen[-1]) if seen else ("-", ())
        size = "-"
        for name, value in headers:
            if name == "Content-Length":
                size = value
                break
        self.record(request, status[:3], size, began)
        return result

    @staticmethod
    def request(remote: str, method: str, target: str, protocol: str) -> str:
        if not target.isprintable():  # a decoded %0A must not start a forged log line
            target = target.encode("unicode_escape").decode("ascii")
        return f'{remote} "{method} {target} {protocol}"'

    def record(self, request: str, status: str, size: str, began: float) -> None:
        """One line for an answer (`request` from request()); `began`: perf_counter()."""
        if self.log is not None:
            self.log.write(f"{self.clock.now()} {request} {status} {size} "
                           f"{(time.perf_counter() - began) * 1000:.1f}ms\n")
