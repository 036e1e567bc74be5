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
* The site runs on SHINPAN_THREADS threads (default 64), one hop per request: a2wsgi
  builds the WSGI environ, the answer is collected on the thread and sent from the loop
  (a2wsgi's WSGIMiddleware hops between thread and loop per message: 0.11-0.20 of WSGI).
"""
from __future__ import annotations

import asyncio
import io
import os
import time
from concurrent.futures import ThreadPoolExecutor

from a2wsgi.wsgi import build_environ

from .. import api
from ..http import security
from . import wsgi

BODY_TIMEOUT = float(os.environ.get("SHINPAN_BODY_TIMEOUT", "").strip() or 10)
threads = ThreadPoolExecutor(int(os.environ.get("SHINPAN_THREADS", "").strip() or 64), "site")
deployment = wsgi.app.wsgi_app  # webapp/server/deployment.py: the access log
TIMEOUT_HEADERS = [(name.lower().encode(), value.encode()) for name, value in security.HEADERS]
TIMEOUT_HEADERS += [(b"server", b""), (b"connection", b"close")]


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
    status, headers, data = await loop.run_in_executor(
        threads, run_site, build_environ(scope, io.BytesIO(body)))
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


async def timed_out(scope, send, began: float) -> None:
    """408, as problem+json on the API, else plain text; one access-log line."""
    path = scope["path"]
    if path == "/api" or path.startswith("/api/"):
        kind = b"application/problem+json"
        body = b'{"type":"about:blank","title":"Request Timeout","status":408}'
    else:
        kind, body = b"text/plain; charset=utf-8", b"Request Timeout\n"
    headers = [(b"content-type", kind), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": 408,
                "headers": headers + TIMEOUT_HEADERS})
    await send({"type": "http.response.body", "body": body})
    deployment.record(scope, "408", [("Content-Length", str(len(body)))], began)


async def app(scope, receive, send) -> None:
    if scope["type"] != "http":  # granian's ASGINL: no lifespan; websockets are off
        return
    fields = dict(scope["headers"])  # a repeated Content-Length is refused by granian
    length = fields.get(b"content-length", b"")
    if b"transfer-encoding" not in fields and (
            length in (b"", b"0") or (length.isdigit() and int(length) > api.MAX_BODY)):
        return await site(scope, b"", send)  # no body, or one the site refuses (413) unread
    began = time.perf_counter()
    try:
        body = await asyncio.wait_for(read_body(receive), BODY_TIMEOUT)
    except TimeoutError:
        return await timed_out(scope, send, began)
    await site(scope, body, send)
