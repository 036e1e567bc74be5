"""The production server's settings (webapp/server/serve.py) and the access log (webapp/server/deployment.py)."""
from __future__ import annotations

import os
import re
import threading
import time

import pytest

from webapp.server import deployment, serve


def test_settings_from_the_environment():
    default = serve.settings({})
    assert default["workers"] == (os.cpu_count() or 1)
    assert default["blocking_threads"] == 64 and default["backpressure"] == 2048
    assert default["http1_settings"].header_read_timeout == 10_000
    assert default["respawn_failed_workers"] and not default["log_access"]
    assert str(default["interface"]) == "wsgi" and default["target"] == "webapp.server.wsgi:app"
    assert (default["worker_timeout"], default["boot_timeout"]) == (10, 60)
    assert "respawn_interval" not in default  # a new worker takes over when it is ready
    chosen = serve.settings({"HOST": "0.0.0.0", "PORT": "8080", "WEB_CONCURRENCY": "4",
                             "SHINPAN_THREADS": "8", "SHINPAN_HEADER_TIMEOUT": "2.5",
                             "SHINPAN_CONNECTIONS": "100", "SHINPAN_BACKLOG": "512"})
    assert (chosen["address"], chosen["port"], chosen["workers"]) == ("0.0.0.0", 8080, 4)
    assert chosen["blocking_threads"] == 8 and chosen["backpressure"] == 100
    assert chosen["http1_settings"].header_read_timeout == 2500 and chosen["backlog"] == 512
    with pytest.raises(SystemExit, match="WEB_CONCURRENCY"):
        serve.settings({"WEB_CONCURRENCY": "many"})
    # the watchdog off, or floors under which granian would see a crash loop
    assert serve.settings({"SHINPAN_WORKER_TIMEOUT": "0"})["worker_timeout"] == 0
    assert serve.settings({"SHINPAN_WORKER_TIMEOUT": "0.5"})["worker_timeout"] == 2
    assert serve.settings({"SHINPAN_BOOT_TIMEOUT": "1"})["boot_timeout"] == 6


def test_heartbeat_marks_ready_and_beats(tmp_path, monkeypatch):
    from webapp.server import supervisor

    monkeypatch.setattr(supervisor, "BEAT_SECONDS", 0.05)
    assert supervisor.read_heartbeat(str(tmp_path), os.getpid()) is None  # not ready yet
    supervisor.start_heartbeat(str(tmp_path))
    ready, first = supervisor.read_heartbeat(str(tmp_path), os.getpid())
    assert ready <= first <= time.monotonic()
    deadline = time.monotonic() + 30
    while supervisor.read_heartbeat(str(tmp_path), os.getpid())[1] == first:
        assert time.monotonic() < deadline, "the heartbeat thread never beat"
        time.sleep(0.01)
    assert supervisor.read_heartbeat(str(tmp_path), os.getpid())[0] == ready
    (tmp_path / str(os.getpid())).unlink()  # a cleaner of temporary files: beats again
    while supervisor.read_heartbeat(str(tmp_path), os.getpid()) is None:
        assert time.monotonic() < deadline, "the heartbeat file was not made again"
        time.sleep(0.01)


def test_asgi_interface_is_an_option():
    asgi = serve.settings({"SHINPAN_INTERFACE": "ASGI", "SHINPAN_THREADS": "8"})
    # granian runs an ASGI app on its event loop only: webapp/server/asgi.py has the threads
    assert str(asgi["interface"]) == "asginl" and asgi["target"] == "webapp.server.asgi:app"
    assert asgi["blocking_threads"] == 1
    assert asgi["http1_settings"].header_read_timeout == 10_000
    with pytest.raises(SystemExit, match="SHINPAN_INTERFACE"):
        serve.settings({"SHINPAN_INTERFACE": "rsgi"})


def test_access_log_line_and_server_field(tmp_path):
    read, write = os.pipe()
    log = deployment.LogWriter(fd=write, interval=3600)

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
        return [b"ok"]

    seen = {}

    def start_response(status, headers, exc_info=None):
        seen["headers"] = headers

    wrapped = deployment.Deployment(app, log)
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/en/\nforged", "QUERY_STRING": "q=1",
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "203.0.113.9"}
    assert wrapped(environ, start_response) == [b"ok"]
    assert ("Server", "") in seen["headers"]
    log.flush()
    os.close(write)
    line = os.read(read, 4096).decode()
    os.close(read)
    assert line.count("\n") == 1  # a decoded %0A cannot start a second line
    assert '203.0.113.9 "GET /en/\\nforged?q=1 HTTP/1.1" 200 2 ' in line
    assert line.rstrip().endswith("ms")


def test_access_log_is_bounded_while_stdout_takes_nothing():
    """Bug 3: stdout into a pipe nobody reads. Requests go on at once; the log keeps at
    most `limit` entries waiting, drops the rest and counts them; once the pipe is read
    again, every request is accounted for: written, or counted as dropped."""
    read, write = os.pipe()
    os.set_blocking(read, False)
    log = deployment.LogWriter(fd=write, interval=0.01, limit=500)

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
        return [b"ok"]

    wrapped = deployment.Deployment(app, log)
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/en/", "QUERY_STRING": "",
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "203.0.113.9"}
    requests = 20_000  # about 1.4 MB of lines: far more than the pipe holds (64 KB)
    most_waiting = 0

    def load() -> None:
        nonlocal most_waiting
        for _ in range(requests):
            wrapped(dict(environ), lambda status, headers, exc_info=None: None)
            most_waiting = max(most_waiting, len(log.pending))

    loader = threading.Thread(target=load)
    loader.start()
    loader.join(120)
    assert not loader.is_alive(), "a request waited on the stalled stdout"
    assert most_waiting <= 500

    data = b""
    deadline = time.monotonic() + 60
    while not re.search(rb"access log: \d+ lines dropped", data):
        assert time.monotonic() < deadline, data[-300:]
        try:
            data += os.read(read, 1 << 16)
        except BlockingIOError:
            time.sleep(0.01)
    log.close()
    os.close(write)
    while True:
        try:
            chunk = os.read(read, 1 << 16)
        except BlockingIOError:
            break
        if not chunk:
            break
        data += chunk
    os.close(read)
    text = data.decode()
    written = text.count('"GET /en/ HTTP/1.1" 200 2 ')
    dropped = sum(map(int, re.findall(r"access log: (\d+) lines dropped", text)))
    assert written + dropped + log.dropped + len(log.pending) == requests
    assert 500 <= written < requests // 2 < dropped + log.dropped  # the pipe held little


def test_the_environ_is_granians_wsgi_one():
    from webapp.server import asgi

    scope = {"type": "http", "method": "GET", "path": "/de/a b", "raw_path": b"/de/a%20b%FF",
             "query_string": "q=é&na=J%C3%BCrgen".encode(), "http_version": "1.1",
             "headers": [(b"host", b"rules.example"), (b"cookie", b"a=1"), (b"cookie", b"b=2"),
                         (b"accept", b"text/html"), (b"accept", b"*/*"),
                         (b"content-type", b"application/json"), (b"content-length", b"2")],
             "server": ("127.0.0.1", 8000), "client": ("203.0.113.9", 4242)}
    environ = asgi.environ(scope, b"{}")
    assert environ["PATH_INFO"] == "/de/a b\xff"  # percent-decoded, latin-1 text of the bytes
    assert environ["QUERY_STRING"] == "q=\xc3\xa9&na=J%C3%BCrgen"  # as sent, latin-1 text
    assert environ["HTTP_COOKIE"] == "a=1;b=2" and environ["HTTP_ACCEPT"] == "text/html,*/*"
    assert (environ["CONTENT_TYPE"], environ["CONTENT_LENGTH"]) == ("application/json", "2")
    assert environ["HTTP_HOST"] == "rules.example" and environ["REMOTE_ADDR"] == "203.0.113.9"
    assert environ["SERVER_PROTOCOL"] == "HTTP/1.1" and environ["wsgi.input"].read() == b"{}"


@pytest.mark.parametrize("path, kind", [("/api/v1/hanamikoji/rulebook", b"application/problem+json"),
                                        ("/de/hanamikoji/", b"text/plain; charset=utf-8")])
def test_a_failure_in_the_asgi_glue_is_still_the_apps_kind_of_500(monkeypatch, path, kind):
    """Bug 2's other half: what the ASGI entry cannot handle was granian's bare 500,
    without the security headers and without an access-log line."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from webapp.server import asgi

    async def broken(scope, body, send):
        raise RuntimeError("a bug in the glue")

    monkeypatch.setattr(asgi, "site", broken)
    logged: list[tuple] = []
    monkeypatch.setattr(asgi.deployment, "log", type("Log", (), {"put": logged.append})())
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
             "query_string": b"lang=fr", "http_version": "1.1", "scheme": "http",
             "headers": [(b"host", b"127.0.0.1")], "server": ("127.0.0.1", 80),
             "client": ("203.0.113.9", 4242)}
    # in a thread of its own: a pool worker that ran a browser test holds Playwright's
    # event loop in this one
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, asgi.app(scope, receive, send)).result()
    start, body = sent
    headers = dict(start["headers"])
    assert start["status"] == 500 and headers[b"content-type"].startswith(kind)
    assert headers[b"content-security-policy"].startswith(b"default-src 'self'")
    assert headers[b"x-content-type-options"] == b"nosniff"
    if kind.startswith(b"application"):
        assert headers[b"content-language"] == b"fr"  # the problem in the caller's language
        assert b'"status":500' in body["body"]
    assert len(logged) == 1 and logged[0][6] == "500"
