"""A small HTTP/1.1 keep-alive load generator (asyncio, raw sockets, loopback only).

`run(base, requests, concurrency, duration)` opens `concurrency` persistent connections
to `base` (which must be http://127.0.0.1:<port>), and each sends the prepared requests
round-robin, one at a time, for `duration` seconds (and at most `max_requests` in all,
and only until `stop`, a threading.Event, is set). With `retry_reused`, it retries as a
browser does when a kept-alive connection closes under a request (see _exchange).
It returns a `Result` with the throughput, latency percentiles, the status counts and
the errors (connection failures, malformed answers, statuses other than expected).
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Req:
    """A prepared request: its bytes on the wire and the statuses counted as success."""

    label: str
    raw: bytes
    expect: tuple[int, ...] = (200,)


def get(path: str, label: str | None = None, headers: dict[str, str] | None = None,
        expect: tuple[int, ...] = (200,)) -> Req:
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return Req(label or path, ("\r\n".join(lines) + "\r\n\r\n").encode(), expect)


def post_json(path: str, body: bytes | str, label: str | None = None,
              content_type: str = "application/json", expect: tuple[int, ...] = (200,)) -> Req:
    data = body.encode() if isinstance(body, str) else body
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(data)}\r\n\r\n").encode()
    return Req(label or path, head + data, expect)


@dataclass
class Result:
    concurrency: int
    duration: float = 0.0
    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)  # description -> count
    retried: int = 0  # requests sent again after a reused connection closed (retry_reused)

    @property
    def requests(self) -> int:
        return len(self.latencies)

    @property
    def throughput(self) -> float:
        return self.requests / self.duration if self.duration else 0.0

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def line(self) -> str:
        return (f"c={self.concurrency:<3d} {self.requests:7d} req in {self.duration:5.1f} s  "
                f"{self.throughput:8.0f} req/s  p50 {self.percentile(50) * 1e3:7.2f} ms  "
                f"p99 {self.percentile(99) * 1e3:7.2f} ms  errors {self.error_count}")


async def read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    return await read_rest(reader, await reader.readuntil(b"\r\n\r\n"))


async def read_rest(reader: asyncio.StreamReader, head: bytes) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body of an answer whose head has been read."""
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    status = int(status_line.split(" ", 2)[1])
    headers = {}
    for line in header_lines:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip().split(b";")[0], 16)
            parts.append(await reader.readexactly(size + 2))
            if size == 0:
                break
        body = b"".join(p[:-2] for p in parts)
    elif status in (204, 304) or status < 200:
        body = b""
    else:
        body = await reader.read()
    return status, headers, body


# The server closed a kept-alive connection as the next request went out on it (a worker
# that stops closes its idle connections): nothing of an answer came.
CLOSED = (ConnectionResetError, BrokenPipeError, asyncio.IncompleteReadError)


async def _exchange(host: str, port: int, connection: list, req: Req, retry_reused: bool,
                    result: Result) -> tuple[int, dict[str, str]]:
    """Send `req` on connection = [reader, writer] (opened if empty) and read the answer.
    With `retry_reused`, a request that meets a reused connection closed before any byte
    of its answer is sent once more on a new connection, as browsers and HTTP libraries
    do (RFC 9112, 9.3.1); counted in `result.retried`."""
    reused = bool(connection)
    if not connection:
        # a large read buffer: a 50 KB page arrives in one or two reads
        connection[:] = await asyncio.open_connection(host, port, limit=1 << 20)
    reader, writer = connection
    writer.write(req.raw)
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except CLOSED as exc:
        if not (retry_reused and reused and not getattr(exc, "partial", b"")):
            raise
        writer.close()
        connection.clear()
        result.retried += 1
        return await _exchange(host, port, connection, req, False, result)
    status, headers, _ = await read_rest(reader, head)
    return status, headers


async def _client(host: str, port: int, requests: list[Req], start: int, deadline: float,
                  budget: list[int], result: Result, stop: threading.Event | None,
                  retry_reused: bool) -> None:
    cycle = itertools.islice(itertools.cycle(requests), start, None)
    connection: list = []  # [reader, writer] while a connection is open
    while time.perf_counter() < deadline and budget[0] > 0 and not (stop and stop.is_set()):
        budget[0] -= 1
        req = next(cycle)
        try:
            sent = time.perf_counter()
            async with asyncio.timeout(30):  # no task per request (as wait_for would make)
                status, headers = await _exchange(host, port, connection, req, retry_reused,
                                                  result)
            result.latencies.append(time.perf_counter() - sent)
            result.statuses[status] += 1
            if status not in req.expect:
                result.errors[f"{req.label}: status {status}"] += 1
            if headers.get("connection", "").lower() == "close":
                connection.pop().close()
                connection.clear()
        except (TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError) as exc:
            result.errors[f"{req.label}: {type(exc).__name__}"] += 1
            if connection:
                connection.pop().close()
                connection.clear()
    if connection:
        connection.pop().close()


async def _run(base: str, requests: list[Req], concurrency: int, duration: float,
               max_requests: int, stop: threading.Event | None, retry_reused: bool,
               result: Result) -> Result:
    url = urlsplit(base)
    if url.hostname not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError("load is only ever sent to the loopback interface")
    budget = [max_requests]
    start = time.perf_counter()
    deadline = start + duration
    await asyncio.gather(*(
        _client(url.hostname, url.port or 80, requests, i * 7, deadline, budget, result, stop,
                retry_reused)
        for i in range(concurrency)
    ))
    result.duration = time.perf_counter() - start
    return result


def run(base: str, requests: list[Req], concurrency: int, duration: float,
        max_requests: int = 1_000_000, stop: threading.Event | None = None,
        retry_reused: bool = False, result: Result | None = None) -> Result:
    """The load's Result; pass `result` to watch it fill from another thread."""
    result = result if result is not None else Result(concurrency)

    def go() -> Result:
        return asyncio.run(_run(base, requests, concurrency, duration, max_requests, stop,
                                retry_reused, result))

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return go()
    # this thread already runs an event loop (e.g. Playwright's sync API in a test run)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(go).result()
