"""The site under gunicorn (gunicorn.conf.py) on a loopback port: what only a real server
shows. No Server banner, headers on the wire, keep-alive, and a bounded fault run (bad and
slow requests during valid load; about 6 s).
"""
from __future__ import annotations

import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tools import faulttest, loadgen
from tools.server import serve

READ_TIMEOUT = 1.5


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    with serve(env={"SHINPAN_READ_TIMEOUT": str(READ_TIMEOUT), "WEB_CONCURRENCY": "2"},
               log=log) as url:
        yield url
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]


def raw(base: str, request: bytes) -> bytes:
    url = urlsplit(base)
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return data


def test_no_server_banner_and_security_headers(base):
    for path in (b"/en/hanamikoji/", b"/api/v1/openapi.json", b"/static/js/site.js", b"/nope"):
        data = raw(base, b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
        assert "\r\nserver:" not in head, head
        assert "gunicorn" not in head
        assert "content-security-policy: default-src 'self'" in head
        assert "x-content-type-options: nosniff" in head
        assert "strict-transport-security" not in head  # plain HTTP


def test_keep_alive_and_conditional_requests(base):
    page = loadgen.get("/en/hanamikoji/")
    result = loadgen.run(base, [page, loadgen.post_json(
        "/api/v1/hanamikoji/score", '{"rounds":[{"board":{"a":[2,0,0,1,1,2,2],"b":[0,2,2,1,1,1,1]}}]}')],
        concurrency=2, duration=1.0, max_requests=200)
    assert result.error_count == 0 and result.requests > 10
    first = raw(base, b"GET /en/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    etag = next(line.split(b":", 1)[1].strip() for line in first.split(b"\r\n")
                if line.lower().startswith(b"etag:"))
    again = raw(base, b"GET /en/ HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: " + etag
                + b"\r\nConnection: close\r\n\r\n")
    assert again.startswith(b"HTTP/1.1 304")


def test_faults_during_load(base):
    report, failures = faulttest.run(base, duration=4.0, read_timeout=READ_TIMEOUT, slow=3)
    assert not failures, "\n".join(report + failures[:20])
