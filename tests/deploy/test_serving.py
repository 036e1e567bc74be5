"""The site under the production server (granian, webapp/server/serve.py) on a loopback port: what
only a real server shows. No Server banner, headers on the wire, compression, keep-alive,
requests without Host, broken and slow bodies, a kill -9 followed by a reload, a frozen
worker, and a bounded fault run (idle, slow and bad connections during valid load).
"""
from __future__ import annotations

import gzip
import os
import re
import signal
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit

import brotli
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tools import faulttest, loadgen, server
from tools.faulttest import RELOAD_DONE
from tools.server import serve

pytestmark = pytest.mark.alone  # a real server under timed load: nothing beside it

HEADER_TIMEOUT = 1.5
WORKER_TIMEOUT = 4  # the watchdog's, short for the frozen-worker test (default 10)
SCORE_BODY = b'{"rounds":[{"board":{"a":[2,0,0,1,1,2,2],"b":[0,2,2,1,1,1,1]}}]}'


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    log = tmp_path_factory.mktemp("granian") / "server.log"
    with serve(env={"SHINPAN_HEADER_TIMEOUT": str(HEADER_TIMEOUT), "WEB_CONCURRENCY": "2",
                    "SHINPAN_WORKER_TIMEOUT": str(WORKER_TIMEOUT)}, log=log) as url:
        yield url  # serve() returns once the log says every worker is ready
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]
    assert re.search(r'"GET /en/ HTTP/1\.1" 200 \d+ [\d.]+ms', text), "no access log line"


def raw(base: str, request: bytes, timeout: float = 10) -> bytes:
    url = urlsplit(base)
    with socket.create_connection((url.hostname, url.port), timeout=timeout) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return data


def split(data: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split(" ")[1]), headers, body


def get(base: str, path: str, *headers: str, method: str = "GET", body: bytes = b"",
        host: str | None = "127.0.0.1", version: str = "1.1") -> tuple[int, dict, bytes]:
    lines = [f"{method} {path} HTTP/{version}", *headers, "Connection: close"]
    if host is not None:
        lines.insert(1, f"Host: {host}")
    if body:
        lines.append(f"Content-Length: {len(body)}")
    return split(raw(base, ("\r\n".join(lines) + "\r\n\r\n").encode() + body))


def assert_headers(headers: dict[str, str]) -> None:
    assert headers.get("server", "") == ""  # the app sends it empty: no banner
    assert headers["content-security-policy"].startswith("default-src 'self'")
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["cross-origin-resource-policy"] == "same-origin"
    assert "camera=()" in headers["permissions-policy"]
    assert "strict-transport-security" not in headers  # plain HTTP


def test_no_server_banner_and_security_headers_on_every_answer_type(base):
    html = get(base, "/en/hanamikoji/")[2].decode()
    css = re.search(r'href="(/static/css/site\.[0-9a-f]+\.css)"', html).group(1)
    answers = {
        "page": get(base, "/en/hanamikoji/"),
        "checker": get(base, "/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3"),
        "json": get(base, "/api/v1/openapi.json"),
        "score": get(base, "/api/v1/hanamikoji/score", "Content-Type: application/json",
                     method="POST", body=SCORE_BODY),
        "static": get(base, css), "static plain": get(base, "/static/js/site.js"),
        "redirect": get(base, "/"), "404": get(base, "/nope"),
        "405": get(base, "/de/hanamikoji/", method="POST"),
        "405 api": get(base, "/api/v1/hanamikoji/score"),
        "413": get(base, "/de/hanamikoji/", body=b"x" * 70000),
        "414": get(base, "/uk/hanamikoji/search?q=" + "x" * 7000),
        "400 no host": get(base, "/fr/hanamikoji/", host=None),
        "400 json": get(base, "/api/v1/hanamikoji/score", "Content-Type: application/json",
                        method="POST", body=b"{"),
    }
    for name, (status, headers, _) in answers.items():
        assert status < 500, name
        assert_headers(headers), name
    assert answers["405"][0] == 405 and "GET" in answers["405"][1]["allow"]
    # the app's own refusals are pages in the URL's language (or problem+json on the API)
    assert b'<html lang="de"' in answers["405"][2] and b'<html lang="de"' in answers["413"][2]
    assert answers["405 api"][1]["content-type"].startswith("application/problem+json")


def test_server_layer_answers(base):
    """What granian answers itself, before the app sees a request: empty bodies, no app
    headers. README (Deploy) lists these."""
    status, headers, body = split(raw(base, b"GARBAGE\r\n\r\n"))
    assert status == 400 and body == b"" and "content-security-policy" not in headers
    status, headers, body = split(raw(base, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
                                      + b"a" * 20000 + b"\r\n\r\n"))
    assert status == 431 and body == b""


@pytest.mark.parametrize("hosts", [["127.0.0.1@evil.example"], ["127.0.0.1", "evil.example"],
                                   ["127.0.0.1", "127.0.0.1"]])
def test_a_malformed_or_repeated_host_is_400(base, hosts):
    """Bug 4: these got a 308 to `http:///de/...`."""
    fields = [f"Host: {host}" for host in hosts]
    status, headers, body = get(base, "/de/hanamikoji/", *fields, host=None)
    assert status == 400 and b'<html lang="de"' in body and "location" not in headers
    assert_headers(headers)
    status, headers, body = get(base, "/api/v1/hanamikoji/rulebook", *fields, host=None)
    assert status == 400 and b"/api/v1/problems/bad-host" in body
    assert_headers(headers)


def test_compression_on_the_wire(base):
    plain = get(base, "/en/hanamikoji/")
    first_gzip = get(base, "/de/hanamikoji/disagreements", "Accept-Encoding: gzip")
    assert first_gzip[1]["content-encoding"] == "gzip"  # a page's first visit, too
    for encoding, decode in (("gzip", gzip.decompress), ("br", brotli.decompress)):
        status, headers, body = get(base, "/en/hanamikoji/", f"Accept-Encoding: {encoding}")
        assert status == 200 and headers["content-encoding"] == encoding
        assert "accept-encoding" in headers["vary"].lower()
        assert decode(body) == plain[2]
        assert len(body) <= 15 * 1024 < len(plain[2])
        assert headers["etag"] != plain[1]["etag"]
        again = get(base, "/en/hanamikoji/", f"Accept-Encoding: {encoding}",
                    f"If-None-Match: {headers['etag']}")
        assert again[0] == 304 and again[1]["etag"] == headers["etag"]
    score = get(base, "/api/v1/hanamikoji/score", "Content-Type: application/json",
                "Accept-Encoding: br", method="POST", body=SCORE_BODY)
    assert score[0] == 200 and score[1]["content-encoding"] == "br"
    assert brotli.decompress(score[2]).startswith(b'{"valid":true')


def test_keep_alive_and_conditional_requests(base):
    page = loadgen.get("/en/hanamikoji/")
    result = loadgen.run(base, [page, loadgen.post_json("/api/v1/hanamikoji/score", SCORE_BODY)],
                         concurrency=2, duration=1.0, max_requests=200)
    assert result.error_count == 0 and result.requests > 10
    _, headers, _ = get(base, "/en/")
    again = get(base, "/en/", f"If-None-Match: {headers['etag']}")
    assert again[0] == 304


def test_a_request_without_host_plants_nothing(base):
    """Bug 9: a page rendered without Host (HTTP/1.0) carries the server's address with
    its port; it must never be served to a request that names the host."""
    port = urlsplit(base).port
    _, _, body = get(base, "/es/hanamikoji/?edition=geekach", host=None, version="1.0")
    assert f"http://127.0.0.1:{port}/fr/hanamikoji/".encode() in body
    _, _, named = get(base, "/es/hanamikoji/?edition=geekach", host="127.0.0.1")
    assert b'href="http://127.0.0.1/fr/hanamikoji/?edition=geekach"' in named
    assert f"127.0.0.1:{port}".encode() not in named


def test_checker_permalink_served_from_the_cache(base):
    url = "/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&na=Olena"
    first = get(base, url)
    again = get(base, url + "&utm_source=newsletter")
    assert first[0] == again[0] == 200
    assert again[1]["etag"] == first[1]["etag"] and again[2] == first[2]
    assert first[1]["cache-control"].startswith("public")


def test_broken_and_slow_bodies_get_one_answer(base):
    head = (b"POST /api/v1/hanamikoji/score HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\n")
    status, _, body = split(raw(base, head + b"Transfer-Encoding: chunked\r\n"
                                      b"Connection: close\r\n\r\nzz\r\n"))
    assert status == 400 and b"/api/v1/problems/" in body
    outcome = faulttest.slow_body(urlsplit(base).hostname, urlsplit(base).port, 1.0)
    assert outcome == "200"  # one answer, nothing after it on the connection


def test_kill_then_reload_refuses_nothing(base):
    """kill -9 of a worker and at once HUP, under load: no connection refused, at most
    0.1 % of at least 5,000 requests failed, every worker new (tools/faulttest.py says
    how; the requests the killed worker was answering are lost, so the share needs
    that many)."""
    report, failures = faulttest.kill_then_reload(base, concurrency=4, duration=4.0,
                                                  min_requests=5000)
    assert not failures, "\n".join(report + failures)
    settled = loadgen.run(base, [loadgen.get("/en/")], concurrency=2, duration=1.0)
    assert settled.error_count == 0 and settled.requests > 0, dict(settled.errors)


def test_a_worker_killed_just_after_a_reload_is_respawned(base):
    """granian takes a worker that dies within 5.5 s of its respawn for a crash loop and
    exits, with the whole site; a worker that was ready had started fine, so a kill -9 (an
    operator, the OOM killer) right after a reload only gets it respawned."""
    reloads = server.log_count(base, RELOAD_DONE)
    os.kill(base.pid, signal.SIGHUP)
    server.wait_for(lambda: server.log_count(base, RELOAD_DONE) > reloads, "reload done line")
    ready = server.log_count(base, server.READY)
    victim = max(server.worker_pids(base.pid))  # the last one replaced: seconds old
    os.kill(victim, signal.SIGKILL)
    server.wait_for(lambda: server.log_count(base, server.READY) > ready, "a new ready worker")
    assert server.log_count(base, r"crash loop") == 0
    assert len(server.worker_pids(base.pid)) == 2 and victim not in server.worker_pids(base.pid)
    settled = loadgen.run(base, [loadgen.get("/en/")], concurrency=2, duration=0.5)
    assert settled.error_count == 0 and settled.requests > 0, dict(settled.errors)


def test_frozen_worker_is_killed_and_replaced(base):
    """kill -STOP of a worker: the watchdog kills it after WORKER_TIMEOUT without a
    heartbeat and says so; a new worker replaces it; new connections are answered by the
    other worker meanwhile, and the ones the kernel put in its slot once the replacement
    is ready (the slot's socket holds them)."""
    report, failures = faulttest.frozen_worker(base, limit=30.0)
    assert not failures, "\n".join(report + failures)


def test_a_deploy_that_cannot_start_leaves_the_old_workers_serving(tmp_path):
    """HUP after a deploy of code that fails at import: the first new worker exits, the
    reload stops there, the old workers go on answering, and the log says so; once the
    code is fixed, the next HUP replaces them all."""
    broken = tmp_path / "broken"
    log = tmp_path / "server.log"
    env = {"SHINPAN_TEST_BREAK": str(broken), "WEB_CONCURRENCY": "2"}
    with serve("tests.deploy.fragile_app:app", env=env, log=log) as url:
        before = server.worker_pids(url.pid)
        broken.touch()
        os.kill(url.pid, signal.SIGHUP)
        server.wait_for(lambda: server.log_count(url, r"^\[ERROR\] Reload stopped at worker-1")
                        == 1, "reload stopped line")
        answers = loadgen.run(url, [loadgen.get("/")], concurrency=2, duration=0.5)
        assert answers.error_count == 0 and answers.requests > 0, dict(answers.errors)
        assert server.worker_pids(url.pid) == before
        assert server.log_count(url, r"did not become ready: exited with code 1") == 1
        broken.unlink()
        os.kill(url.pid, signal.SIGHUP)
        server.wait_for(lambda: server.log_count(url, RELOAD_DONE) == 1, "reload done line")
        after = server.worker_pids(url.pid)
        assert len(after) == 2 and after.isdisjoint(before)
        assert server.log_count(url, r"Unexpected exit|crash loop") == 0


def test_faults_during_load(base):
    report, failures = faulttest.run(base, duration=4.0, header_timeout=HEADER_TIMEOUT,
                                     idle=200, slow=20, slowloris_count=2, concurrency=4)
    assert not failures, "\n".join(report + failures[:20])
