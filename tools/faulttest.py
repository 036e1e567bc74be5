"""Fault test: bad and slow requests during valid load; the server must stay healthy.

While tools/loadgen drives valid rules-page and score requests, this sends bursts of
malformed JSON (400), oversized bodies with and without Content-Length (413), wrong
content types (415), over-long query strings (414), and a few slowloris connections
that dribble their headers (the server answers 408 or closes them after its read
timeout, SHINPAN_READ_TIMEOUT). Every answer is checked; exit status 1 on any miss.

    python tools/faulttest.py [--duration 8] [--read-timeout 2] [--slow 4]
"""
from __future__ import annotations

import argparse
import socket
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulebook.bench import board_requests
from tools import loadgen
from tools.server import serve

SCORE = "/api/v1/hanamikoji/score"


def _exchange(host: str, port: int, raw: bytes, timeout: float = 10.0) -> int | None:
    """Send raw bytes, return the response status (None: closed without an answer)."""
    with socket.create_connection((host, port), timeout=timeout) as sock:
        try:
            sock.sendall(raw)
        except OSError:
            pass  # the server may answer (and close) before the whole body is sent
        data = b""
        try:
            while b"\r\n" not in data:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
    if not data.startswith(b"HTTP/1."):
        return None
    return int(data.split(b" ", 2)[1])


def bad_requests() -> list[tuple[str, bytes, int]]:
    big = b'{"rounds": [' + b'{"board": {}},' * 6000 + b'{}]}'  # about 90 KB
    json_head = "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {ctype}\r\n"
    out = []
    for body in (b'{"rounds": [', b"not json", b'{"a": 1,}', b"\xff\xfe\x00"):
        head = json_head.format(path=SCORE, ctype="application/json")
        out.append(("malformed JSON", f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body,
                    400))
    head = json_head.format(path=SCORE, ctype="application/json")
    out.append(("oversized body", f"{head}Content-Length: {len(big)}\r\n\r\n".encode() + big, 413))
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(big[i:i + 8192]), big[i:i + 8192])
                       for i in range(0, len(big), 8192)) + b"0\r\n\r\n"
    out.append(("oversized chunked body",
                f"{head}Transfer-Encoding: chunked\r\n\r\n".encode() + chunked, 413))
    body = board_requests(1)[0].encode()
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "application/xml"):
        head = json_head.format(path=SCORE, ctype=ctype)
        out.append(("wrong content type",
                    f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body, 415))
    out.append(("query too long", f"GET /en/hanamikoji/search?q={'x' * 7000} HTTP/1.1\r\n"
                "Host: 127.0.0.1\r\nConnection: close\r\n\r\n".encode(), 414))
    out.append(("page with a body too large",
                b"GET /en/hanamikoji/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n"
                + b"x" * 100000, 413))
    return out


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
                if data.startswith(b"HTTP/1.1 408"):
                    return "408", time.monotonic() - start
                return ("closed" if not data else "answered " + data[:12].decode("latin-1"),
                        time.monotonic() - start)
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


def run(base: str, duration: float, read_timeout: float, slow: int) -> tuple[list[str], list[str]]:
    """Returns (report lines, failures)."""
    url = urlsplit(base)
    host, port = url.hostname, url.port
    valid = [loadgen.get("/en/hanamikoji/"), loadgen.get("/de/hanamikoji/search?q=geisha")]
    valid += [loadgen.post_json(SCORE, body, label="score") for body in board_requests(20)]
    load: dict[str, loadgen.Result] = {}
    loader = threading.Thread(target=lambda: load.setdefault(
        "result", loadgen.run(base, valid, 4, duration, max_requests=200_000)))
    loader.start()

    slow_results: list[tuple[str, float]] = []
    dribble_for = read_timeout + 3
    slowpokes = [threading.Thread(target=lambda: slow_results.append(
        slowloris(host, port, dribble_for, 0.25))) for _ in range(slow)]
    for thread in slowpokes:
        thread.start()

    failures: list[str] = []
    statuses: Counter = Counter()
    bursts = 0
    deadline = time.monotonic() + max(duration - 1.0, 1.0)
    while time.monotonic() < deadline:
        for label, raw, expected in bad_requests():
            status = _exchange(host, port, raw)
            statuses[(label, status)] += 1
            if status != expected:
                failures.append(f"{label}: expected {expected}, got {status}")
        bursts += 1
    for thread in slowpokes:
        thread.join()
    loader.join()
    result = load["result"]

    report = [f"valid load during the faults: {result.line()}"]
    if result.error_count or result.requests == 0:
        failures.append(f"valid requests failed: {dict(result.errors)}")
    report.append(f"bad requests: {bursts} bursts of {len(bad_requests())}")
    for (label, status), count in sorted(statuses.items(), key=str):
        report.append(f"    {count:5d} x {label} -> {status}")
    for outcome, seconds in slow_results:
        report.append(f"slowloris connection: {outcome} after {seconds:.1f} s")
        if outcome not in ("408", "closed"):
            failures.append(f"slowloris connection {outcome} after {seconds:.1f} s")
    return report, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=8.0)
    parser.add_argument("--read-timeout", type=float, default=2.0)
    parser.add_argument("--slow", type=int, default=4, help="slowloris connections")
    args = parser.parse_args(argv)
    env = {"SHINPAN_READ_TIMEOUT": str(args.read_timeout)}
    with serve(env=env) as base:
        loadgen.run(base, [loadgen.get("/en/hanamikoji/")], 2, 0.5)
        report, failures = run(base, args.duration, args.read_timeout, args.slow)
    print("Fault test (" + base + ")")
    for line in report:
        print("  " + line)
    for line in failures[:20]:
        print("  FAIL " + line)
    print("FAILED" if failures else "OK: every bad request got its 4xx, valid load unharmed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
