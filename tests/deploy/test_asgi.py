"""The ASGI entry (SHINPAN_INTERFACE=asgi, webapp/server/asgi.py) under granian on a loopback port:
a body that stops arriving gets one 408 within the body deadline and a closed connection;
the cap's 413 comes before the body is read; score requests, pages, slow bodies within the
deadline, the access log, respawn and reload work as under WSGI (tests/deploy/test_serving.py).
"""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.deploy.test_serving import SCORE_BODY, assert_headers, get, split
from tools import faulttest, loadgen
from tools.server import serve

pytestmark = pytest.mark.alone  # real servers under timed load: nothing beside them

BODY_TIMEOUT = 3.0  # above the fault run's 2 s slow bodies
HEAD = (b"POST /api/v1/hanamikoji/score HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\n")


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    log = tmp_path_factory.mktemp("granian-asgi") / "server.log"
    env = {"SHINPAN_INTERFACE": "asgi", "SHINPAN_BODY_TIMEOUT": str(BODY_TIMEOUT),
           "SHINPAN_HEADER_TIMEOUT": "1.5", "WEB_CONCURRENCY": "2"}
    with serve(env=env, log=log) as url:
        url.log = log  # granian's own lines: the reload test waits on what it says
        yield url
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]
    assert re.search(r'"GET /en/ HTTP/1\.1" 200 \d+ [\d.]+ms', text), "no access log line"
    assert re.search(r'"POST /api/v1/hanamikoji/score HTTP/1\.1" 408 \d+ [\d.]+ms', text)


def connect(base: str, timeout: float) -> socket.socket:
    url = urlsplit(base)
    return socket.create_connection((url.hostname, url.port), timeout=timeout)


def until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (the socket's timeout bounds the wait)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


@pytest.mark.parametrize("path, kind", [("/api/v1/hanamikoji/score", "application/problem+json"),
                                        ("/de/hanamikoji/", "text/plain")])
def test_a_body_that_stops_arriving_gets_one_408_and_a_closed_connection(base, path, kind):
    head = HEAD.replace(b"/api/v1/hanamikoji/score", path.encode())
    with connect(base, timeout=BODY_TIMEOUT + 5) as sock:
        start = time.monotonic()
        sock.sendall(head + b"Content-Length: %d\r\n\r\n" % len(SCORE_BODY)
                     + SCORE_BODY[:20])
        data = until_closed(sock)  # TimeoutError here: no deadline
        elapsed = time.monotonic() - start
    assert BODY_TIMEOUT - 0.2 <= elapsed <= BODY_TIMEOUT + 1.5
    status, headers, body = split(data)
    assert status == 408 and headers["content-type"].startswith(kind)
    assert len(body) == int(headers["content-length"])  # one answer, nothing after it
    assert data.count(b"HTTP/1.1 ") == 1
    assert_headers(headers)
    if kind == "application/problem+json":
        assert json.loads(body)["status"] == 408


def test_score_requests_and_pages_work(base):
    status, headers, body = get(base, "/api/v1/hanamikoji/score",
                                "Content-Type: application/json", method="POST", body=SCORE_BODY)
    assert status == 200 and json.loads(body)["valid"] is True
    assert_headers(headers)
    status, headers, body = get(base, "/en/hanamikoji/", "Accept-Encoding: br")
    assert status == 200 and headers["content-encoding"] == "br"
    assert_headers(headers)
    again = get(base, "/en/hanamikoji/", "Accept-Encoding: br", f"If-None-Match: {headers['etag']}")
    assert again[0] == 304
    assert get(base, "/en/")[0] == 200
    result = loadgen.run(base, [loadgen.get("/en/hanamikoji/"),
                                loadgen.post_json("/api/v1/hanamikoji/score", SCORE_BODY)],
                         concurrency=2, duration=1.0, max_requests=200)  # keep-alive
    assert result.error_count == 0 and result.requests > 10, dict(result.errors)
    url = urlsplit(base)
    assert faulttest.slow_body(url.hostname, url.port, 1.0) == "200"  # within the deadline


@pytest.mark.parametrize("path", ["/api/v1/hanamikoji/score", "/de/hanamikoji/"])
def test_a_body_over_the_cap_is_refused_before_it_is_read(base, path):
    head = HEAD.replace(b"/api/v1/hanamikoji/score", path.encode())
    with connect(base, timeout=BODY_TIMEOUT / 2) as sock:  # well before the body deadline
        sock.sendall(head + b"Content-Length: 100000\r\n\r\n")  # and not one byte of it
        data = b""
        while b"\r\n\r\n" not in data and (chunk := sock.recv(65536)):
            data += chunk
    status, headers, _ = split(data)
    assert status == 413
    assert_headers(headers)
    big = b'{"rounds": [' + b'{"board": {}},' * 6000 + b'{}]}'  # about 90 KB, chunked
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(big[i:i + 8192]), big[i:i + 8192])
                       for i in range(0, len(big), 8192)) + b"0\r\n\r\n"
    with connect(base, timeout=10) as sock:
        sock.sendall(HEAD + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunked)
        assert split(until_closed(sock))[0] == 413


def test_a_broken_chunk_is_a_400_problem(base):
    with connect(base, timeout=10) as sock:
        sock.sendall(HEAD + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n")
        status, _, body = split(until_closed(sock))
    assert status == 400 and b"/api/v1/problems/" in body


def test_dead_worker_is_respawned_and_hup_reloads(base):
    def workers() -> set[int]:
        return {int(pid) for pid in
                Path(f"/proc/{base.pid}/task/{base.pid}/children").read_text().split()}

    def wait_for(done, seconds: float = 15) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not done():
            time.sleep(0.2)

    before = workers()
    os.kill(next(iter(before)), signal.SIGKILL)
    wait_for(lambda: len(workers()) == 2 and workers() != before)
    after = workers()
    assert len(after) == 2 and after != before
    # a HUP before granian has finished this respawn races it (test_serving.py says more)
    wait_for(lambda: "Stopped old worker" in base.log.read_text())
    os.kill(base.pid, signal.SIGHUP)
    wait_for(lambda: workers().isdisjoint(after) and len(workers()) == 2, 20)
    assert workers().isdisjoint(after) and len(workers()) == 2
    settled = loadgen.run(base, [loadgen.get("/en/")], concurrency=2, duration=1.0)
    assert settled.error_count == 0 and settled.requests > 0, dict(settled.errors)


def test_faults_during_load(base):
    report, failures = faulttest.run(base, duration=4.0, header_timeout=1.5, idle=200, slow=20,
                                     slowloris_count=2, concurrency=4, stalled=10,
                                     body_timeout=BODY_TIMEOUT)
    assert not failures, "\n".join(report + failures[:20])
