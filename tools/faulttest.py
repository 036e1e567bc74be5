"""Fault test: bad, idle and slow connections during valid load; the server must stay healthy.

While tools/loadgen drives valid rules-page and score requests, this

* holds IDLE connections open that send nothing or half a request (reopened when the
  server closes them after its header timeout),
* sends SLOW bodies: score requests whose body dribbles in over a few seconds; each must
  get exactly one answer (200) and nothing after it on the connection,
* sends bursts of bad requests, each with its expected status: malformed, oversized,
  chunked and broken-chunked bodies, NaN, deep nesting, an unpaired surrogate, wrong
  content types, over-long query strings, link-option parameters, a static path out of
  the folder, a POST to a page, HTTP/1.1 without Host, a Host that is no host name, two
  Host fields, and what only the HTTP layer sees
  (an unparsable request line, headers past the buffer); the app's answers must carry
  the security headers,
* dribbles headers (slowloris): the server must close those after its header timeout,
* sends STALLED bodies: score requests that announce their length, send half the body,
  then nothing. Under the ASGI entry (--interface asgi, webapp/server/asgi.py) each must get one
  408 within the body deadline and a closed connection; under WSGI (no body deadline)
  each holds a thread until the client leaves, which is reported, not failed.

Fails (exit 1) on any error or unexpected status of valid requests, a p99 of valid
requests above P99_LIMIT, or any bad request without its answer.

    python tools/faulttest.py [--duration 10] [--idle 500] [--slow 50] [--stalled 50]
                              [--header-timeout 2] [--interface wsgi|asgi] [--body-timeout 6]
"""
from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import loadgen, server
from tools.bench_referee import board_requests
from tools.server import serve

SCORE = "/api/v1/hanamikoji/score"
P99_LIMIT = 0.100  # seconds
# Answers the HTTP layer (granian, hyper) gives itself, before the app sees a request:
# empty bodies without the app's headers. Every other answer must carry these.
SERVER_LAYER = "server layer"
REQUIRED_HEADERS = ("content-security-policy", "x-content-type-options",
                    "cross-origin-resource-policy", "permissions-policy")


def exchange(host: str, port: int, raw: bytes, timeout: float = 10.0) -> tuple[int | None, str]:
    """Send raw bytes; (status, lower-cased head) of the answer (None: closed unanswered)."""
    with socket.create_connection((host, port), timeout=timeout) as sock:
        try:
            sock.sendall(raw)
        except OSError:
            pass  # the server may answer (and close) before the whole body is sent
        data = b""
        try:
            while b"\r\n\r\n" not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
    if not data.startswith(b"HTTP/1."):
        return None, ""
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
    return int(data.split(b" ", 2)[1]), head


def bad_requests() -> list[tuple[str, bytes, int, str]]:
    """(label, raw request, expected status, who answers: "app" or SERVER_LAYER)."""
    big = b'{"rounds": [' + b'{"board": {}},' * 6000 + b'{}]}'  # about 90 KB
    post = "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {ctype}\r\n"
    head = post.format(path=SCORE, ctype="application/json")
    out = []
    for label, body in (("malformed JSON", b'{"rounds": ['), ("malformed JSON", b"not json"),
                        ("malformed JSON", b'{"a": 1,}'), ("not UTF-8", b"\xff\xfe\x00"),
                        ("NaN", b'{"rounds": NaN}'), ("nested 1000 deep", b"[" * 1000 + b"]" * 1000),
                        ("unpaired surrogate", b'{"edition": "\\ud800"}'),
                        ("5000-digit number", b'{"round": ' + b"7" * 5000 + b"}")):
        out.append((label, f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body, 400, "app"))
    out.append(("oversized body", f"{head}Content-Length: {len(big)}\r\n\r\n".encode() + big,
                413, "app"))
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(big[i:i + 8192]), big[i:i + 8192])
                       for i in range(0, len(big), 8192)) + b"0\r\n\r\n"
    out.append(("oversized chunked body",
                f"{head}Transfer-Encoding: chunked\r\n\r\n".encode() + chunked, 413, "app"))
    out.append(("broken chunk", f"{head}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                .encode() + b"zz\r\n", 400, "app"))
    body = board_requests(1)[0].encode()
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "application/xml"):
        out.append(("wrong content type", post.format(path=SCORE, ctype=ctype).encode()
                    + f"Content-Length: {len(body)}\r\n\r\n".encode() + body, 415, "app"))
    get = "GET {} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    out.append(("query too long", get.format(f"/en/hanamikoji/search?q={'x' * 7000}").encode(),
                414, "app"))
    out.append(("link options in the query",
                get.format("/de/hanamikoji/?endpoint=x&_external=1&_anchor=x&_scheme=x").encode(),
                200, "app"))
    out.append(("static path out of the folder",
                get.format("/static/..%2f..%2f.venv%2flib%2fpython3.0123456789ab.11").encode(),
                404, "app"))
    post_page = (b"POST /de/hanamikoji/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 b"Content-Length: 0\r\nConnection: close\r\n\r\n")
    out.append(("POST to a page", post_page, 405, "app"))
    out.append(("HTTP/1.1 without Host",
                b"GET /en/hanamikoji/ HTTP/1.1\r\nConnection: close\r\n\r\n", 400, "app"))
    out.append(("Host that is no host name", (b"GET /en/hanamikoji/ HTTP/1.1\r\nHost: "
                b"127.0.0.1@evil.example\r\nConnection: close\r\n\r\n"), 400, "app"))
    out.append(("two Host fields", (b"GET /en/hanamikoji/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Host: evil.example\r\nConnection: close\r\n\r\n"), 400, "app"))
    out.append(("page with a body too large",
                b"GET /en/hanamikoji/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n"
                + b"x" * 100000, 413, "app"))
    out.append(("unparsable request line", b"GARBAGE\r\n\r\n", 400, SERVER_LAYER))
    out.append(("headers past the buffer", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
                + b"a" * 20000 + b"\r\n\r\n", 431, SERVER_LAYER))
    return out


class IdleSockets:
    """COUNT connections that send nothing or half a request; reopened when closed."""

    def __init__(self, host: str, port: int, count: int) -> None:
        self.host, self.port, self.count = host, port, count
        self.sockets: list[socket.socket] = []
        self.reopened = 0
        self.stop = threading.Event()
        self.opened = threading.Event()  # every socket is open (or refused)

    def _open(self, i: int) -> socket.socket | None:
        try:
            sock = socket.create_connection((self.host, self.port), timeout=2)
            if i % 2:
                sock.sendall(b"GET /en/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # half a request
            sock.setblocking(False)
            return sock
        except OSError:
            return None

    def run(self) -> None:
        self.sockets = [s for i in range(self.count) if (s := self._open(i))]
        self.opened.set()
        while not self.stop.wait(0.5):
            for i, sock in enumerate(self.sockets):
                try:
                    alive = sock.recv(1, socket.MSG_PEEK) != b""
                except BlockingIOError:
                    alive = True
                except OSError:
                    alive = False
                if not alive:
                    sock.close()
                    self.sockets[i] = self._open(i) or sock
                    self.reopened += 1
        for sock in self.sockets:
            sock.close()


def slow_body(host: str, port: int, seconds: float) -> str:
    """A score request whose body arrives over `seconds`; the outcome as text."""
    return timed_slow_body(host, port, seconds)[0]


def timed_slow_body(host: str, port: int, seconds: float) -> tuple[str, float]:
    """A score request whose body arrives over `seconds`: (the outcome as text, the
    seconds the body really took to send, or until the server ended it)."""
    body = board_requests(1)[0].encode()
    pieces = [body[i:i + 8] for i in range(0, len(body), 8)]
    pause = seconds / len(pieces)
    start = time.monotonic()
    try:
        with socket.create_connection((host, port), timeout=seconds + 10) as sock:
            sock.sendall(f"POST {SCORE} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                         f"application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode())
            try:
                for piece in pieces:
                    time.sleep(pause)
                    sock.sendall(piece)
            except OSError:  # the server answered and closed before the body was complete
                return "cut while sending", time.monotonic() - start
            sent = time.monotonic() - start
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    return "closed unanswered", sent
                data += chunk
            head, rest = data.split(b"\r\n\r\n", 1)
            length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            while len(rest) < length:
                rest += sock.recv(65536)
            sock.settimeout(0.5)  # a second answer on the same connection would be a bug
            try:
                extra = sock.recv(65536)
            except TimeoutError:
                extra = b""
            status = data.split(b" ", 2)[1].decode()
            return status + (" then more" if len(rest) > length or extra else ""), sent
    except OSError as exc:
        return type(exc).__name__, time.monotonic() - start


def stalled_body(host: str, port: int, wait: float) -> tuple[str, float]:
    """A score request that sends half its announced body, then nothing: (outcome, seconds
    until the answer, or until the client gave up after `wait`)."""
    body = board_requests(1)[0].encode()
    start = time.monotonic()
    try:
        with socket.create_connection((host, port), timeout=wait) as sock:
            sock.sendall(f"POST {SCORE} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                         f"application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                         + body[:len(body) // 2])
            data = b""
            try:
                while chunk := sock.recv(65536):  # until the server closes the connection
                    data += chunk
            except TimeoutError:
                if not data:
                    return "no answer", time.monotonic() - start
                return data.split(b" ", 2)[1].decode() + " left open", time.monotonic() - start
    except OSError as exc:
        return type(exc).__name__, time.monotonic() - start
    if not data.startswith(b"HTTP/1."):
        return "closed unanswered", time.monotonic() - start
    return data.split(b" ", 2)[1].decode() + " closed", time.monotonic() - start


def slowloris(host: str, port: int, dribble_for: float, interval: float) -> tuple[str, float]:
    """Dribble header lines; return (outcome, seconds until the server ended it)."""
    start = time.monotonic()
    sock = socket.create_connection((host, port), timeout=interval)
    try:
        sock.sendall(b"GET /en/hanamikoji/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        i = 0
        while time.monotonic() - start < dribble_for:
            try:
                data = sock.recv(64)
                outcome = "closed" if not data else "answered " + data[:12].decode("latin-1")
                return outcome, time.monotonic() - start
            except TimeoutError:
                pass
            except OSError:
                return "closed", time.monotonic() - start
            try:
                sock.sendall(b"X-Slow-%d: %s\r\n" % (i, b"a" * 8))
            except OSError:
                return "closed", time.monotonic() - start
            i += 1
        return "still open", time.monotonic() - start
    finally:
        sock.close()


def run(base: str, duration: float, header_timeout: float, idle: int = 500, slow: int = 50,
        slowloris_count: int = 4, concurrency: int = 8, stalled: int = 0,
        body_timeout: float | None = None) -> tuple[list[str], list[str]]:
    """Returns (report lines, failures). `body_timeout`: the server's body deadline (the
    ASGI entry), None for none (WSGI); stalled clients give up after `stall_wait`."""
    url = urlsplit(base)
    host, port = url.hostname, url.port
    valid = [loadgen.get("/en/hanamikoji/"), loadgen.get("/de/hanamikoji/search?q=geisha")]
    valid += [loadgen.post_json(SCORE, body, label="score") for body in board_requests(20)]

    idlers = IdleSockets(host, port, idle)
    idle_thread = threading.Thread(target=idlers.run)
    idle_thread.start()
    idlers.opened.wait()  # the idle sockets are open before the load starts

    load: dict[str, loadgen.Result] = {}
    loader = threading.Thread(target=lambda: load.setdefault(
        "result", loadgen.run(base, valid, concurrency, duration, max_requests=500_000)))
    loader.start()
    slow_seconds = min(4.0, max(duration - 2.0, 1.0))
    slow_results: list[tuple[str, float]] = []
    slow_threads = [threading.Thread(target=lambda: slow_results.append(
        timed_slow_body(host, port, slow_seconds))) for _ in range(slow)]
    stall_wait = (body_timeout or slow_seconds) + 2.0
    stalled_results: list[tuple[str, float]] = []
    slow_threads += [threading.Thread(target=lambda: stalled_results.append(
        stalled_body(host, port, stall_wait))) for _ in range(stalled)]
    loris_results: list[tuple[str, float]] = []
    loris_threads = [threading.Thread(target=lambda: loris_results.append(
        slowloris(host, port, header_timeout + 3, 0.25))) for _ in range(slowloris_count)]
    for thread in slow_threads + loris_threads:
        thread.start()

    failures: list[str] = []
    statuses: Counter = Counter()
    bursts = 0
    deadline = time.monotonic() + max(duration - 1.0, 1.0)
    while time.monotonic() < deadline:
        for label, raw, expected, who in bad_requests():
            status, head = exchange(host, port, raw)
            statuses[(label, status)] += 1
            if status != expected:
                failures.append(f"{label}: expected {expected}, got {status}")
            elif who == "app":
                missing = [h for h in REQUIRED_HEADERS if f"\r\n{h}:" not in head]
                if missing:
                    failures.append(f"{label}: {status} without {', '.join(missing)}")
        bursts += 1
    for thread in slow_threads + loris_threads:
        thread.join()
    loader.join()
    idlers.stop.set()
    idle_thread.join()
    result = load["result"]

    # the slowest valid request too: 8 connections stuck behind parked threads are under 1 %
    slowest = max(result.latencies, default=0.0)
    report = [f"valid load during the faults: {result.line()}  max {slowest * 1e3:.0f} ms"]
    if result.error_count or result.requests == 0:
        failures.append(f"valid requests failed: {dict(result.errors)}")
    if result.percentile(99) > P99_LIMIT:
        failures.append(f"valid p99 {result.percentile(99) * 1e3:.1f} ms > "
                        f"{P99_LIMIT * 1e3:.0f} ms")
    report.append(f"idle connections held: {idle} (reopened after the server closed them: "
                  f"{idlers.reopened})")
    # A body sent within the deadline gets its 200 (one answer, nothing after it); one
    # that took longer, because the client itself was starved of CPU, its 408 (ASGI).
    outcomes = Counter(outcome for outcome, _ in slow_results)
    late = [(outcome, took) for outcome, took in slow_results
            if body_timeout is not None and took > body_timeout - 0.5]
    report.append(f"slow bodies ({slow}, each over {slow_seconds:.1f} s): "
                  + ", ".join(f"{n} x {o}" for o, n in sorted(outcomes.items()))
                  + (f"; {len(late)} of them took {min(t for _, t in late):.1f} s or more to "
                     f"send, past the {body_timeout:g} s deadline" if late else ""))
    wrong = [outcome for outcome, took in slow_results if outcome != "200" and not (
        (outcome, took) in late and outcome in ("408", "cut while sending"))]
    if wrong:
        failures.append(f"slow bodies: {dict(outcomes)} (expected 200, one answer each, "
                        "or a 408 for a body sent past the deadline)")
    if stalled:
        outcomes = Counter(outcome for outcome, _ in stalled_results)
        slowest = max(seconds for _, seconds in stalled_results)
        report.append(f"stalled bodies ({stalled}, half sent, then silence): "
                      + ", ".join(f"{n} x {o}" for o, n in sorted(outcomes.items()))
                      + f", the last after {slowest:.1f} s"
                      + ("" if body_timeout else " (no body deadline: each held a thread until"
                         " the client left)"))
        if body_timeout is not None:
            if outcomes != Counter({"408 closed": stalled}):
                failures.append(f"stalled bodies: {dict(outcomes)} (expected {stalled} x 408 "
                                "closed)")
            if slowest > body_timeout + 1.0:
                failures.append(f"stalled bodies: the last answered after {slowest:.1f} s "
                                f"(deadline {body_timeout:g} s)")
    report.append(f"bad requests: {bursts} bursts of {len(bad_requests())}")
    for (label, status), count in sorted(statuses.items(), key=str):
        report.append(f"    {count:5d} x {label} -> {status}")
    for outcome, seconds in loris_results:
        report.append(f"slowloris connection: {outcome} after {seconds:.1f} s")
        if outcome != "closed":
            failures.append(f"slowloris connection {outcome} after {seconds:.1f} s")
    return report, failures


RELOAD_DONE = r"^\[INFO\] Reload done: "
FROZEN = r"^\[ERROR\] worker-\d+ \(PID {pid}\) is frozen "
MAX_FAILED_SHARE = 0.001  # requests a kill -9 and a reload may cost: 0.1 %


@contextlib.contextmanager
def cpu_hogs(count: int) -> Iterator[None]:
    """`count` busy processes (`yes > /dev/null`) beside the run: both cores taken."""
    hogs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(count)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def kill_then_reload(base: server.Base, concurrency: int = 8, duration: float = 10.0,
                     min_requests: int = 5000,
                     max_failed: int | None = None) -> tuple[list[str], list[str]]:
    """Under valid load as browsers send it (kept-alive connections, compressed pages,
    every fifth request on a fresh connection): SIGKILL one worker once 200 requests are
    answered, at once SIGHUP the master, and go on for `duration` seconds and `min_requests` answers in
    all, and at least one second after the log says the reload is done. No connection may
    be refused, at most MAX_FAILED_SHARE of the requests may fail (those the killed worker
    was answering), and every worker must be new. A stopping worker closes its idle
    kept-alive connections, which a client's next request may meet: the client sends it
    again on a new connection, as browsers do (loadgen's retry_reused); those are counted
    apart. With `max_failed`, at most that many may fail instead, in a run of any length
    (`concurrency`: each connection loses at most the request it had at the killed worker)."""
    compressed = {"Accept-Encoding": "br, gzip"}
    score = loadgen.post_json(SCORE, board_requests(1)[0], label="score")
    valid = [loadgen.get("/en/hanamikoji/", headers=compressed), score,
             loadgen.get("/uk/koikoi/", headers=compressed), score,
             loadgen.get("/de/koikoi/", headers={**compressed, "Connection": "close"})]
    before = server.worker_pids(base.pid)
    reloads = server.log_count(base, RELOAD_DONE)
    stop = threading.Event()
    result = loadgen.Result(concurrency)
    loader = threading.Thread(target=lambda: loadgen.run(
        base, valid, concurrency, duration=3600, stop=stop, retry_reused=True, result=result))
    loader.start()
    began = time.monotonic()
    try:
        server.wait_for(lambda: result.requests >= 200, "200 answers before the fault")
        start = time.monotonic()
        os.kill(min(before), signal.SIGKILL)
        os.kill(base.pid, signal.SIGHUP)
        server.wait_for(lambda: server.log_count(base, RELOAD_DONE) > reloads, "reload done line")
        reload_seconds = time.monotonic() - start
        done = time.monotonic()
        server.wait_for(lambda: time.monotonic() - done >= 1.0
                        and time.monotonic() - began >= duration
                        and result.requests >= min_requests,
                        f"{min_requests} answers and {duration:g} s of load", timeout=600)
    finally:
        stop.set()
        loader.join()
    result.duration = time.monotonic() - began
    after = server.worker_pids(base.pid)
    refused = sum(n for label, n in result.errors.items() if "ConnectionRefused" in label)
    share = result.error_count / max(result.requests + result.error_count, 1)
    report = [(f"kill -9 of a worker, then HUP at once: reload done in {reload_seconds:.1f} s; "
               f"{result.requests} requests answered, {result.error_count} failed "
               f"({share:.3%}), {refused} connections refused; {dict(result.errors)}; "
               f"{result.retried} sent again after their kept-alive connection closed "
               "before any byte of the answer (as a browser does)"),
              f"    valid load: {result.line()}"]
    failures = []
    if refused:
        failures.append(f"kill then reload: {refused} connections refused")
    if max_failed is not None and result.error_count > max_failed:
        failures.append(f"kill then reload: {result.error_count} requests failed "
                        f"(at most {max_failed}): {dict(result.errors)}")
    elif max_failed is None and share > MAX_FAILED_SHARE:
        failures.append(f"kill then reload: {share:.3%} of the requests failed "
                        f"(at most {MAX_FAILED_SHARE:.1%}): {dict(result.errors)}")
    if len(after) != len(before) or not after.isdisjoint(before):
        failures.append(f"kill then reload: workers {sorted(before)} -> {sorted(after)}")
    return report, failures


def frozen_worker(base: server.Base, limit: float = 30.0) -> tuple[list[str], list[str]]:
    """SIGSTOP one worker: it must be killed and replaced within `limit` seconds, with a
    log line that says so, and every fresh connection opened meanwhile (one every 0.2 s)
    answered: at once by the other workers, or, if the kernel put it in the frozen
    worker's slot, once that worker's replacement is ready (the slot's socket holds it)."""
    victim = min(server.worker_pids(base.pid))
    ready = server.log_count(base, server.READY)
    url = urlsplit(base)
    waits: list[tuple[int | None, float]] = []  # (status, seconds to the answer)
    replaced = threading.Event()

    def probe() -> None:
        began = time.monotonic()
        status, _ = exchange(url.hostname, url.port, b"GET /en/ HTTP/1.1\r\nHost: "
                             b"127.0.0.1\r\nConnection: close\r\n\r\n", timeout=limit + 60)
        waits.append((status, time.monotonic() - began))

    start = time.monotonic()
    os.kill(victim, signal.SIGSTOP)
    probes: list[threading.Thread] = []

    def open_probes() -> None:
        while not replaced.wait(0.2):
            probes.append(threading.Thread(target=probe))
            probes[-1].start()

    opener = threading.Thread(target=open_probes)
    opener.start()
    try:
        server.wait_for(lambda: victim not in server.worker_pids(base.pid)
                        and server.log_count(base, server.READY) > ready,
                        "replacement of the frozen worker", timeout=limit + 60)
        seconds = time.monotonic() - start
    finally:
        replaced.set()
        opener.join()
        for thread in probes:
            thread.join()
        if victim in server.worker_pids(base.pid):
            os.kill(victim, signal.SIGKILL)
    logged = server.log_count(base, FROZEN.format(pid=victim))
    answered = [wait for status, wait in waits if status == 200]
    waited = [wait for wait in answered if wait > 1.0]
    report = [f"kill -STOP of a worker: killed and replaced by a ready worker after "
              f"{seconds:.1f} s (log: {logged} line saying so); fresh connections meanwhile: "
              f"{len(waits)}, {len(answered) - len(waited)} answered at once, {len(waited)} "
              "after waiting in the frozen worker's slot for its replacement"
              + (f" (the longest {max(waited):.1f} s)" if waited else "")]
    failures = []
    if seconds > limit:
        failures.append(f"frozen worker: replaced after {seconds:.1f} s (at most {limit:g} s)")
    if not logged:
        failures.append("frozen worker: no log line says it was frozen and killed")
    if len(answered) != len(waits):
        failures.append(f"frozen worker: fresh connections not answered: "
                        f"{Counter(status for status, _ in waits if status != 200)}")
    return report, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--header-timeout", type=float, default=2.0)
    parser.add_argument("--idle", type=int, default=500, help="idle connections held")
    parser.add_argument("--slow", type=int, default=50, help="slow bodies")
    parser.add_argument("--slowloris", type=int, default=4, help="dribbled headers")
    parser.add_argument("--stalled", type=int, default=50, help="bodies that stop arriving")
    parser.add_argument("--interface", choices=("wsgi", "asgi"), default="wsgi",
                        help="granian's interface (SHINPAN_INTERFACE)")
    parser.add_argument("--body-timeout", type=float, default=6.0,
                        help="the ASGI entry's body deadline, above the slow bodies' 4 s")
    parser.add_argument("--hogs", type=int, default=0,
                        help="busy processes beside the kill and reload cases (2: both cores)")
    args = parser.parse_args(argv)
    asgi = args.interface == "asgi"
    env = {"SHINPAN_HEADER_TIMEOUT": str(args.header_timeout),
           "SHINPAN_INTERFACE": args.interface, "SHINPAN_BODY_TIMEOUT": str(args.body_timeout)}
    with tempfile.TemporaryDirectory() as folder, \
            serve(env=env, log=Path(folder) / "server.log") as base:
        loadgen.run(base, [loadgen.get("/en/hanamikoji/")], 2, 0.5)
        report, failures = run(base, args.duration, args.header_timeout, args.idle, args.slow,
                               args.slowloris, stalled=args.stalled,
                               body_timeout=args.body_timeout if asgi else None)
        with cpu_hogs(args.hogs):
            for case in (kill_then_reload, frozen_worker):
                lines, failed = case(base)
                report += lines
                failures += failed
    print(f"Fault test ({base}, granian {args.interface.upper()} via webapp/server/serve.py, header "
          f"timeout {args.header_timeout:g} s"
          + (f", body deadline {args.body_timeout:g} s" if asgi else ", no body deadline")
          + (f", {args.hogs} CPU hogs beside the kill cases)" if args.hogs else ")"))
    for line in report:
        print("  " + line)
    for line in failures[:20]:
        print("  FAIL " + line)
    print("FAILED" if failures else
          f"OK: valid p99 under {P99_LIMIT * 1e3:.0f} ms with no errors, every bad request "
          "got its answer, slow bodies one answer each"
          + (", stalled bodies 408 within the deadline" if asgi else "")
          + "; kill -9 + reload refused nothing, a frozen worker was replaced")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
