"""HTTP caching: rendered rules pages (in-process, ETag, 304) and content-hashed static files.

Rules pages depend only on the URL (language, game, query) and the deployed code and
catalogs: no sessions, no cookies, no per-user state. So:

* a page of an endpoint in PAGE_CACHE_ENDPOINTS answers with a strong `ETag` and
  `Cache-Control: public, max-age=PAGE_MAX_AGE` (for browsers and CDNs), and with
  `304 Not Modified` for a matching `If-None-Match`;
* each worker keeps the pages it rendered in a small LRU keyed by (scheme, host, path,
  query) and serves them again from a WSGI middleware, in front of Flask's routing: a
  hit costs a dict lookup. The host is the one the page's absolute hreflang links were
  built with (Werkzeug's: Host, else the server's name and port), so a page rendered for
  another Host never leaks; a request without Host is never kept or served from the
  cache. The query in the key holds only the parameters some page reads (the
  PAGE_PARAMETERS of the page modules; pages never echo another one), in a canonical
  order, so `?utm_source=...` finds the page already kept;
* a kept page is stored with its compressed forms (webapp/http/compression.py: made once,
  when first asked for), each with its own ETag, chosen by Accept-Encoding. A hit skips
  Flask's before_request hooks, so the middleware itself only answers GET/HEAD
  requests without a body and with a query string under the global cap; a new hook
  that must see every request (rate limits, maintenance mode) belongs in a middleware.

Static files: templates call `static_url("css/site.css")`, which gives
`/static/css/site.<hash>.css` (the hash of the file's content). The static view maps
that name back and sends it from memory, compressed once per worker, with
`Cache-Control: public, max-age=31536000, immutable`; plain names
(`url_for('static', filename=...)`) still work, with a short max-age. Only regular files
inside the static folder, up to MAX_STATIC_FILE bytes, are ever read.
"""
from __future__ import annotations

import hashlib
import mimetypes
import os
import re
import stat
import threading
from collections import OrderedDict
from urllib.parse import parse_qsl

from flask import Flask, Response, abort, current_app, request, url_for
from werkzeug.security import safe_join
from werkzeug.wsgi import get_host

from . import compression
from .lean import lean

# Endpoints whose 200 answers are a pure function of the URL (every game's pages are
# served by these: a game adds none).
PAGE_ENDPOINTS = frozenset({"site.home", "site.search", "site.developers", "site.offline",
                            "rules.rules", "rules.disagreements", "rules.search",
                            "checker.checker", "finder.which", "aid.aid"})
PAGE_MAX_AGE = 300  # seconds a browser or CDN may reuse a rules page without asking
PAGE_CACHE_SIZE = 256  # pages kept per worker (about 50 KB each, 10 KB per compressed form)
# and at most this many bytes of them: a Koi-Koi checker page is 150 KB plain (the cards'
# chart), so 256 of them with their compressed forms would hold ~40 MB in every worker
PAGE_CACHE_BYTES = 16 * 1024 * 1024
MAX_STATIC_FILE = 2 * 1024 * 1024  # bytes: our CSS and JS are a few KB
STATIC_SHORT_MAX_AGE = 300  # unhashed static names may change with the next deploy
IMMUTABLE = "public, max-age=31536000, immutable"
HASH_LENGTH = 12
HASHED = re.compile(rf"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{{{HASH_LENGTH}}})(?P<ext>\.[A-Za-z0-9]+)$")
STORE = "shinpan.page_cache.store"  # environ key: the view's page may be kept
DEFAULT_PORTS = {"http": ":80", "https": ":443"}
# headers of a 304: the validators and caching metadata of the full answer (RFC 9110 15.4.5)
NOT_MODIFIED_HEADERS = frozenset({"etag", "cache-control", "vary", "content-location", "expires"})


class PageCache:
    """A thread-safe LRU of rendered pages: key -> Page, bounded by a count and by bytes
    (each page's bodies: the plain one and the compressed forms made so far, which a hit
    may add to after the page is kept, hence `reweigh`)."""

    def __init__(self, size: int, max_bytes: int | None = None) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.nbytes = 0
        self._items: OrderedDict = OrderedDict()  # key -> (item, bytes counted for it)
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            entry = self._items.get(key)
            if entry is None:
                return None
            self._items.move_to_end(key)
            return entry[0]

    def put(self, key, item) -> None:
        if self.size <= 0:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.nbytes -= old[1]
            weight = _weight(item)
            self._items[key] = (item, weight)
            self.nbytes += weight
            self._evict()

    def reweigh(self, key) -> None:
        """Count the bytes a kept item has grown by (a compressed form made on a hit)."""
        with self._lock:
            entry = self._items.get(key)
            if entry is None:
                return
            weight = _weight(entry[0])
            if weight != entry[1]:
                self._items[key] = (entry[0], weight)
                self.nbytes += weight - entry[1]
                self._evict()

    def _evict(self) -> None:
        while self._items and (len(self._items) > self.size
                               or (self.max_bytes is not None and self.nbytes > self.max_bytes)):
            self.nbytes -= self._items.popitem(last=False)[1][1]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.nbytes = 0

    def __len__(self) -> int:
        return len(self._items)


def _weight(item) -> int:
    return getattr(item, "nbytes", 0)


class Page:
    """A kept page: its headers and bodies, one answer per content coding."""

    __slots__ = ("_answers", "headers", "variants")

    def __init__(self, headers, body: bytes, etag: str) -> None:
        skip = ("content-length", "etag", "content-encoding")
        self.headers = [h for h in headers if h[0].lower() not in skip]
        compression.add_vary(self.headers)
        self.variants = compression.Variants(body, etag)
        self._answers: dict = {}

    @property
    def nbytes(self) -> int:
        """The bytes of its bodies: the plain one and each compressed form made so far."""
        return len(self.variants.body) + sum(
            len(body) for _etag, _headers, body in self._answers.values()
            if body is not self.variants.body)

    def answer(self, encoding: str | None) -> tuple[str, tuple, bytes]:
        """(etag, headers, body) in `encoding` (None: identity)."""
        answer = self._answers.get(encoding)
        if answer is None:
            body, etag = self.variants.get(encoding)
            headers = [*self.headers, ("ETag", etag), ("Content-Length", str(len(body)))]
            if body is not self.variants.body:
                headers.append(("Content-Encoding", encoding))
            answer = self._answers[encoding] = (etag, tuple(headers), body)
        return answer


def page_key(environ: dict, known: frozenset[str] | None = None) -> tuple:
    """(scheme, host, script root, path, query): the query holds the `known` parameters
    (all when None) in a canonical order."""
    query: tuple = ()
    raw = environ.get("QUERY_STRING", "")
    if raw:
        pairs = parse_qsl(raw, keep_blank_values=True)
        if known is not None:
            pairs = [pair for pair in pairs if pair[0] in known]
        # sorted by name only: repeated values keep their order (views may read lists)
        query = tuple(sorted(pairs, key=lambda kv: kv[0]))
    scheme = environ.get("wsgi.url_scheme")
    host = environ.get("HTTP_HOST")
    if host is None:
        host = get_host(environ)  # the server's name and port, as Werkzeug builds links
    elif host.endswith(DEFAULT_PORTS.get(scheme, "\0")):
        host = host.rsplit(":", 1)[0]  # as Werkzeug's get_host: `a:80` links as `a`
    return (scheme, host, environ.get("SCRIPT_NAME", ""), environ.get("PATH_INFO", ""), query)


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


def etag_matches(etag: str, if_none_match: str | None) -> bool:
    """Weak comparison, as If-None-Match asks (RFC 9110 13.1.2)."""
    if not if_none_match:
        return False
    for tag in if_none_match.split(","):
        tag = tag.strip()
        if tag == "*" or tag == etag or tag.removeprefix("W/") == etag:
            return True
    return False


class PageCacheMiddleware:
    """Serves kept pages before Flask routes the request; keeps the pages views mark."""

    def __init__(self, app, cache: PageCache, max_query: int,
                 known: frozenset[str] | None = None) -> None:
        self.app = app
        self.cache = cache
        self.max_query = max_query
        self.known = known

    def __call__(self, environ, start_response):
        method = environ.get("REQUEST_METHOD")
        if method not in ("GET", "HEAD"):
            return self.app(environ, start_response)
        eligible = (len(environ.get("QUERY_STRING", "")) <= self.max_query
                    and environ.get("HTTP_HOST")
                    and environ.get("CONTENT_LENGTH", "") in ("", "0")
                    and "HTTP_TRANSFER_ENCODING" not in environ)
        key = page_key(environ, self.known) if eligible else None
        if key is not None:
            page = self.cache.get(key)
            if page is not None:
                forms = len(page._answers)
                answer = self._send(page, environ, start_response)
                if len(page._answers) != forms:  # a compressed form made now: count it
                    self.cache.reweigh(key)
                return answer

        if key is None or method != "GET":
            return self.app(environ, start_response)
        captured: list = []

        def start(status, headers, exc_info=None):  # held back: a kept page goes compressed
            captured[:] = [status, headers, exc_info]
            return _no_write

        result = self.app(environ, start)
        if not captured:
            result = [b"".join(result)]
        status, headers, exc_info = captured
        if not environ.get(STORE) or not status.startswith("200 "):
            start_response(status, headers, exc_info)
            return result
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        page = Page(headers, body, environ[STORE])
        answer = self._send(page, environ, start_response)
        self.cache.put(key, page)
        return answer

    @staticmethod
    def _send(page: Page, environ, start_response):
        encoding = compression.negotiate(environ.get("HTTP_ACCEPT_ENCODING", ""))
        etag, headers, body = page.answer(encoding)
        if etag_matches(etag, environ.get("HTTP_IF_NONE_MATCH")):
            start_response("304 Not Modified",
                           [h for h in headers if h[0].lower() in NOT_MODIFIED_HEADERS])
            return []
        start_response("200 OK", list(headers))
        return [] if environ.get("REQUEST_METHOD") == "HEAD" else [body]


def _no_write(data: bytes) -> None:  # pragma: no cover - no view of ours uses write()
    raise RuntimeError("the WSGI write() callable is not supported by the page cache")


def mark_page(response: Response) -> Response:
    """after_request (runs after every other hook): ETag, Cache-Control, 304, keep. An
    answer its view marked `no-store` (a checker's live regions, not the page at its
    address) is neither kept nor given an ETag."""
    if (request.method not in ("GET", "HEAD") or response.status_code != 200
            or request.endpoint not in current_app.config["PAGE_CACHE_ENDPOINTS"]
            or response.is_streamed or "Set-Cookie" in response.headers
            or response.cache_control.no_store):
        return response
    etag = etag_of(response.get_data())
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = f"public, max-age={current_app.config['PAGE_MAX_AGE']}"
    if etag_matches(etag, request.headers.get("If-None-Match")):
        not_modified = Response(status=304)
        for name, value in response.headers.items():
            if name.lower() in NOT_MODIFIED_HEADERS:
                not_modified.headers[name] = value
        return not_modified
    request.environ[STORE] = etag
    return response


# -- static files with content-hashed names --------------------------------------------
class StaticFile:
    """A static file as served under its hashed name: the name, bodies and type."""

    __slots__ = ("mimetype", "name", "variants")

    def __init__(self, name: str, variants: compression.Variants, mimetype: str) -> None:
        self.name = name
        self.variants = variants
        self.mimetype = mimetype


_files: dict[str, tuple[int, int, StaticFile]] = {}


def static_file(filename: str, static_folder: str | None = None) -> StaticFile | None:
    """The file `filename` of the static folder, read once per change; None unless it is
    a regular file inside the folder of at most MAX_STATIC_FILE bytes (no `..`, no
    directory, no FIFO that would block a worker, no huge file read into memory)."""
    folder = static_folder or current_app.static_folder
    path = safe_join(folder, filename)
    if path is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_STATIC_FILE:
            return None
        known = _files.get(path)
        if known and known[0] == info.st_mtime_ns and known[1] == info.st_size:
            return known[2]
        data = lean(filename, handle.read(MAX_STATIC_FILE + 1))  # comments stay in the source
    digest = hashlib.sha256(data).hexdigest()[:HASH_LENGTH]
    stem, ext = os.path.splitext(filename)
    mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    if mimetype.startswith("text/") or mimetype == "application/javascript":
        mimetype += "; charset=utf-8"
    file = StaticFile(f"{stem}.{digest}{ext}",
                      compression.Variants(data, f'"{digest}"', compression.STATIC), mimetype)
    _files[path] = (info.st_mtime_ns, info.st_size, file)
    return file


def hashed_name(filename: str, static_folder: str | None = None) -> str | None:
    """`css/site.css` -> `css/site.<hash>.css`; None when there is no such file."""
    file = static_file(filename, static_folder)
    return file.name if file else None


def static_url(filename: str, **kwargs) -> str:
    """Drop-in for `url_for('static', filename=...)` that gives a content-hashed name."""
    return url_for("static", filename=hashed_name(filename) or filename, **kwargs)


def _send_static(file: StaticFile, cache_control: str) -> Response:
    """The file from memory, compressed as the client accepts (made once per worker)."""
    encoding = compression.negotiate(request.headers.get("Accept-Encoding", ""))
    body, etag = file.variants.get(encoding)
    if compression.compressible(file.mimetype):
        headers = {"Vary": "Accept-Encoding"}
    else:
        headers = {}
        body, etag = file.variants.body, file.variants.etag
    headers.update({"ETag": etag, "Cache-Control": cache_control})
    if etag_matches(etag, request.headers.get("If-None-Match")):
        return Response(status=304, headers=headers)
    if body is not file.variants.body:
        headers["Content-Encoding"] = encoding
    return Response(body, headers=headers, content_type=file.mimetype)


def send_static(filename: str, cache_control: str) -> Response:
    """A static file under an address of its own (the service worker at /sw.js), lean and
    compressed once as the hashed files are."""
    file = static_file(filename)
    if file is None:
        abort(404)
    return _send_static(file, cache_control)


def _static_view(app: Flask):
    def static(filename: str):
        match = HASHED.match(filename)
        if match:
            file = static_file(match["stem"] + match["ext"])
            if file is not None:
                # an outdated hash (a page from the previous deploy) still gets the file,
                # but must not pin it forever
                return _send_static(file, IMMUTABLE if file.name == filename
                                    else f"public, max-age={STATIC_SHORT_MAX_AGE}")
        if safe_join(app.static_folder, filename) is None:
            abort(404)
        response = app.send_static_file(filename)
        response.headers["Cache-Control"] = f"public, max-age={STATIC_SHORT_MAX_AGE}"
        return response

    return static


def init_app(app: Flask, max_query: int = 6 * 1024) -> None:
    """Call before wrapping app.wsgi_app in other middleware (ProxyFix, headers)."""
    app.config.setdefault("PAGE_CACHE_ENDPOINTS", set(PAGE_ENDPOINTS))
    app.config.setdefault("PAGE_MAX_AGE", PAGE_MAX_AGE)
    app.config.setdefault("PAGE_CACHE_SIZE", PAGE_CACHE_SIZE)
    app.config.setdefault("PAGE_CACHE_BYTES", PAGE_CACHE_BYTES)
    cache = app.extensions["shinpan.page_cache"] = PageCache(app.config["PAGE_CACHE_SIZE"],
                                                             app.config["PAGE_CACHE_BYTES"])
    parameters = app.config.get("PAGE_PARAMETERS")
    known = frozenset().union(*parameters.values()) if parameters else None
    app.wsgi_app = PageCacheMiddleware(app.wsgi_app, cache, max_query, known)
    # after_request hooks run last-registered first: first in the list = after all others
    app.after_request_funcs.setdefault(None, []).insert(0, mark_page)
    if "static" in app.view_functions:
        app.view_functions["static"] = _static_view(app)
    app.jinja_env.globals["static_url"] = static_url
