"""The ASGI entry (SHINPAN_INTERFACE=asgi, webapp/server/serve.py): a request's body is read in
granian's event loop under a deadline, then the unchanged WSGI site (webapp.server.wsgi:app)
answers on a thread. Not the default: it measured 0.30-0.45 of the WSGI interface's
throughput for score requests and kept pages (BENCHMARKS.md, "Body deadline").

* The whole body must arrive within SHINPAN_BODY_TIMEOUT seconds (default 10), else the
  answer is 408 and the connection is closed: a body that dribbles in or never comes
  waits in the event loop, not on one of the site's threads.
* The cap is the app's (api.MAX_BODY, 413 from webapp/http/security.py and webapp/api/): a
  larger announced body goes to the site unread; a chunked one is read one byte past
  the cap, so the site sees it is too large.
* The site runs on SHINPAN_THREADS threads (default 64), one hop per request: the WSGI
  environ is the one granian's WSGI interface would build (environ() below), the answer
  is collected on the thread and sent from the loop (a2wsgi's WSGIMiddleware hops between
  thread and loop per message: 0.11-0.20 of WSGI).
* If this glue ever fails, the answer is still the app's kind of answer: 500 with the
  security headers and an access-log line (granian's own 500 would be bare).
"""
from __future__ import annotations

import asyncio
import io
import logging
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote_to_bytes

from .. import api
from ..http import security
from . import wsgi

BODY_TIMEOUT = float(os.environ.get("SHINPAN_BODY_TIMEOUT", "").strip() or 10)
threads = ThreadPoolExecutor(int(os.environ.get("SHINPAN_THREADS", "").strip() or 64), "site")
deployment = wsgi.app.wsgi_app  # webapp/server/deployment.py: the access log
OWN_HEADERS = [(name.lower().encode(), value.encode()) for name, value in security.HEADERS]
OWN_HEADERS += [(b"server", b""), (b"connection", b"close")]
log = logging.getLogger(__name__)


def environ(scope: dict, body: bytes) -> dict:
    """The WSGI environ granian's WSGI interface builds for this request, so the site sees
    the same either way (PEP 3333): the path percent-decoded and, like the query string,
    the latin-1 text of its bytes (a non-ASCII byte is no error); repeated header fields
    joined with commas, cookies with semicolons."""
    raw_path = scope.get("raw_path")
    path = unquote_to_bytes(raw_path) if raw_path is not None else scope["path"].encode()
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    env = {
        "REQUEST_METHOD": scope["method"], "SCRIPT_NAME": "",
        "PATH_INFO": path.decode("latin-1"),
        "QUERY_STRING": scope["query_string"].decode("latin-1"),
        "SERVER_PROTOCOL": "HTTP/" + scope["http_version"],
        "SERVER_NAME": server[0], "SERVER_PORT": str(server[1]),
        "REMOTE_ADDR": client[0], "REMOTE_PORT": str(client[1]),
        "wsgi.version": (1, 0), "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr,
        "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
    }
    for name, value in scope["headers"]:
        key = name.decode("latin-1").upper().replace("-", "_")
        if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            key = "HTTP_" + key
        text = value.decode("latin-1")
        if key in env:
            text = env[key] + (";" if key == "HTTP_COOKIE" else ",") + text
        env[key] = text
    return env


def run_site(environ: dict) -> tuple[str, list, bytes]:
    """The WSGI site's whole answer (on a thread): status, headers, body."""
    answer: list = []
    chunks: list[bytes] = []

    def start_response(status, headers, exc_info=None):
        answer[:] = [status, headers]
        return chunks.append

    result = wsgi.app(environ, start_response)
    try:
        chunks.extend(result)
    finally:
        getattr(result, "close", lambda: None)()
    return answer[0], answer[1], b"".join(chunks)


async def site(scope, body: bytes, send) -> None:
    loop = asyncio.get_running_loop()
    status, headers, data = await loop.run_in_executor(threads, run_site, environ(scope, body))
    await send({"type": "http.response.start", "status": int(status[:3]), "headers": [
        (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers]})
    await send({"type": "http.response.body", "body": data})


async def read_body(receive) -> bytes:
    """The body, at most one byte past the cap; cut short if the client went away or
    broke a chunk (granian: `http.disconnect`), which the site answers with 400."""
    chunks, size, more = [], 0, True
    while more and size <= api.MAX_BODY:
        message = await receive()
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        more = message.get("more_body", False)
    return b"".join(chunks)[:api.MAX_BODY + 1]


PLAIN = {408: b"Request Timeout\n", 500: b"Internal Server Error\n"}


async def own_answer(scope, send, status: int, began: float) -> None:
    """An answer of this module's own (408, 500): problem+json on the API, else plain
    text; the security headers, the connection closed, one access-log line."""
    path = scope["path"]
    if path == "/api" or path.startswith("/api/"):  # in the caller's language
        problem = api.problem(api.Call(environ(scope, b"")), api.STATUS_PROBLEM[status])
        body = problem.body
        headers = [(name.lower().encode(), value.encode()) for name, value in problem.headers]
    else:
        body = PLAIN[status]
        headers = [(b"content-type", b"text/plain; charset=utf-8"),
                   (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": status,
                "headers": headers + OWN_HEADERS})
    await send({"type": "http.response.body", "body": body})
    deployment.record(scope, str(status), [("Content-Length", str(len(body)))], began)


async def app(scope, receive, send) -> None:
    if scope["type"] != "http":  # granian's ASGINL: no lifespan; websockets are off
        return
    began = time.perf_counter()
    try:
        await answer(scope, receive, send, began)
    except Exception:  # a bug here: still the app's kind of answer
        log.exception("ASGI entry error on %s %s", scope.get("method"), scope.get("path"))
        await own_answer(scope, send, 500, began)


async def answer(scope, receive, send, began: float) -> None:
    fields = dict(scope["headers"])  # a repeated Content-Length is refused by granian
    length = fields.get(b"content-length", b"")
    if b"transfer-encoding" not in fields and (
            length in (b"", b"0") or (length.isdigit() and int(length) > api.MAX_BODY)):
        return await site(scope, b"", send)  # no body, or one the site refuses (413) unread
    try:
        body = await asyncio.wait_for(read_body(receive), BODY_TIMEOUT)
    except TimeoutError:
        return await own_answer(scope, send, 408, began)
    await site(scope, body, send)
