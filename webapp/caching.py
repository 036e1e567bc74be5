"""HTTP caching: rendered rules pages (in-process, ETag, 304) and content-hashed static files.

Rules pages depend only on the URL (language, game, query) and the deployed code and
catalogs: no sessions, no cookies, no per-user state. So:

* a page of an endpoint in PAGE_CACHE_ENDPOINTS answers with a strong `ETag` and
  `Cache-Control: public, max-age=PAGE_MAX_AGE` (for browsers and CDNs), and with
  `304 Not Modified` for a matching `If-None-Match`;
* each worker keeps the pages it rendered in a small LRU keyed by (scheme, host, path,
  normalized query) and serves them again from a WSGI middleware, in front of Flask's
  routing: a hit costs a dict lookup. The host is part of the key because pages carry
  absolute hreflang links (a page rendered for another Host never leaks). A hit skips
  Flask's before_request hooks, so the middleware itself only answers GET/HEAD
  requests without a body and with a query string under the global cap; a new hook
  that must see every request (rate limits, maintenance mode) belongs in a middleware.

Static files: templates call `static_url("css/site.css")`, which gives
`/static/css/site.<hash>.css` (the hash of the file's content). The static view maps
that name back and sends it with `Cache-Control: public, max-age=31536000, immutable`;
plain names (`url_for('static', filename=...)`) still work, with a short max-age.
"""
from __future__ import annotations

import hashlib
import os
import re
import threading
from collections import OrderedDict
from urllib.parse import parse_qsl

from flask import Flask, Response, current_app, request, url_for

# Endpoints whose 200 answers are a pure function of the URL (add game pages here).
PAGE_ENDPOINTS = frozenset({"site.home", "rules.rules", "rules.disagreements", "rules.search"})
PAGE_MAX_AGE = 300  # seconds a browser or CDN may reuse a rules page without asking
PAGE_CACHE_SIZE = 256  # pages kept per worker (about 50 KB each)
STATIC_SHORT_MAX_AGE = 300  # unhashed static names may change with the next deploy
IMMUTABLE = "public, max-age=31536000, immutable"
HASH_LENGTH = 12
HASHED = re.compile(rf"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{{{HASH_LENGTH}}})(?P<ext>\.[A-Za-z0-9]+)$")
STORE = "shinpan.page_cache.store"  # environ key: the view's page may be kept
# headers of a 304: the validators and caching metadata of the full answer (RFC 9110 15.4.5)
NOT_MODIFIED_HEADERS = frozenset({"etag", "cache-control", "vary", "content-location", "expires"})


class PageCache:
    """A thread-safe LRU of rendered pages: key -> (etag, headers, body)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key, item) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._items[key] = item
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


def page_key(environ: dict) -> tuple:
    """(scheme, host, script root, path, query) with the parameters in a canonical order."""
    query = environ.get("QUERY_STRING", "")
    if query:
        # sorted by name only: repeated values keep their order (views may read lists)
        query = tuple(sorted(parse_qsl(query, keep_blank_values=True), key=lambda kv: kv[0]))
    return (environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST") or environ.get("SERVER_NAME"),
            environ.get("SCRIPT_NAME", ""), environ.get("PATH_INFO", ""), query)


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

    def __init__(self, app, cache: PageCache, max_query: int) -> None:
        self.app = app
        self.cache = cache
        self.max_query = max_query

    def __call__(self, environ, start_response):
        method = environ.get("REQUEST_METHOD")
        if method not in ("GET", "HEAD"):
            return self.app(environ, start_response)
        eligible = (len(environ.get("QUERY_STRING", "")) <= self.max_query
                    and environ.get("CONTENT_LENGTH", "") in ("", "0")
                    and "HTTP_TRANSFER_ENCODING" not in environ)
        key = page_key(environ) if eligible else None
        if key is not None:
            item = self.cache.get(key)
            if item is not None:
                etag, headers, body = item
                if etag_matches(etag, environ.get("HTTP_IF_NONE_MATCH")):
                    start_response("304 Not Modified",
                                   [h for h in headers if h[0].lower() in NOT_MODIFIED_HEADERS])
                    return []
                start_response("200 OK", list(headers))
                return [] if method == "HEAD" else [body]

        captured = []

        def start(status, headers, exc_info=None):
            captured.append((status, headers))
            return start_response(status, headers, exc_info)

        result = self.app(environ, start)
        if key is None or method != "GET" or not environ.get(STORE):
            return result
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        status, headers = captured[-1]
        if status.startswith("200 "):
            self.cache.put(key, (environ[STORE], tuple(headers), body))
        return [body]


def mark_page(response: Response) -> Response:
    """after_request (runs after every other hook): ETag, Cache-Control, 304, keep."""
    if (request.method not in ("GET", "HEAD") or response.status_code != 200
            or request.endpoint not in current_app.config["PAGE_CACHE_ENDPOINTS"]
            or response.is_streamed or "Set-Cookie" in response.headers):
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
_hashes: dict[str, tuple[int, int, str]] = {}


def hashed_name(filename: str, static_folder: str | None = None) -> str | None:
    """`css/site.css` -> `css/site.<hash>.css`; None when there is no such file."""
    folder = static_folder or current_app.static_folder
    path = os.path.join(folder, filename)
    try:
        stat = os.stat(path)
    except OSError:
        return None
    known = _hashes.get(path)
    if known and known[0] == stat.st_mtime_ns and known[1] == stat.st_size:
        return known[2]
    with open(path, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()[:HASH_LENGTH]
    stem, ext = os.path.splitext(filename)
    name = f"{stem}.{digest}{ext}"
    _hashes[path] = (stat.st_mtime_ns, stat.st_size, name)
    return name


def static_url(filename: str, **kwargs) -> str:
    """Drop-in for `url_for('static', filename=...)` that gives a content-hashed name."""
    return url_for("static", filename=hashed_name(filename) or filename, **kwargs)


def _static_view(app: Flask):
    def static(filename: str):
        match = HASHED.match(filename)
        if match:
            original = match["stem"] + match["ext"]
            current = hashed_name(original)
            if current is not None:
                response = app.send_static_file(original)
                # an outdated hash (a page from the previous deploy) still gets the file,
                # but must not pin it forever
                response.headers["Cache-Control"] = (
                    IMMUTABLE if current == filename
                    else f"public, max-age={STATIC_SHORT_MAX_AGE}"
                )
                return response
        response = app.send_static_file(filename)
        response.headers["Cache-Control"] = f"public, max-age={STATIC_SHORT_MAX_AGE}"
        return response

    return static


def init_app(app: Flask, max_query: int = 6 * 1024) -> None:
    """Call before wrapping app.wsgi_app in other middleware (ProxyFix, headers)."""
    app.config.setdefault("PAGE_CACHE_ENDPOINTS", set(PAGE_ENDPOINTS))
    app.config.setdefault("PAGE_MAX_AGE", PAGE_MAX_AGE)
    app.config.setdefault("PAGE_CACHE_SIZE", PAGE_CACHE_SIZE)
    cache = app.extensions["shinpan.page_cache"] = PageCache(app.config["PAGE_CACHE_SIZE"])
    app.wsgi_app = PageCacheMiddleware(app.wsgi_app, cache, max_query)
    # after_request hooks run last-registered first: first in the list = after all others
    app.after_request_funcs.setdefault(None, []).insert(0, mark_page)
    if "static" in app.view_functions:
        app.view_functions["static"] = _static_view(app)
    app.jinja_env.globals["static_url"] = static_url
