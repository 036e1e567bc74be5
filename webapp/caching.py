"""HTTP caching: rendered rules pages (in-process, ETag, 304) and content-hashed static files.

Rules pages depend only on the URL (language, game, query) and the deployed code and
catalogs: no sessions, no cookies, no per-user state. So each worker keeps the bytes it
rendered in a small LRU keyed by (root URL, path, normalized query), answers with a
strong `ETag` and `Cache-Control: public, max-age=PAGE_MAX_AGE`, and `304 Not Modified`
for a matching `If-None-Match`. The root URL is part of the key because pages carry
absolute hreflang links (a page rendered for another Host never leaks).

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

from flask import Flask, Response, current_app, g, request, url_for

# Endpoints whose 200 answers are a pure function of the URL (add game pages here).
PAGE_ENDPOINTS = frozenset({"site.home", "rules.rules", "rules.disagreements", "rules.search"})
PAGE_MAX_AGE = 300  # seconds a browser or CDN may reuse a rules page without asking
PAGE_CACHE_SIZE = 256  # pages kept per worker (about 50 KB each)
STATIC_SHORT_MAX_AGE = 300  # unhashed static names may change with the next deploy
IMMUTABLE = "public, max-age=31536000, immutable"
HASH_LENGTH = 12
HASHED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{%d})(?P<ext>\.[A-Za-z0-9]+)$" % HASH_LENGTH)


class PageCache:
    """A thread-safe LRU of rendered pages: key -> (body, etag, content type)."""

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


def page_key() -> tuple:
    # The first value of each parameter is what views and links use; order does not matter.
    args = tuple(sorted(request.args.items(multi=False)))
    return (request.root_url, request.path, args)


def etag_of(body: bytes) -> str:
    return hashlib.blake2b(body, digest_size=12).hexdigest()


def _cached_response(body: bytes, etag: str, content_type: str, max_age: int) -> Response:
    if etag in request.if_none_match:
        response = Response(status=304)
    else:
        response = Response(body, content_type=content_type)
    response.headers["ETag"] = f'"{etag}"'
    response.headers["Cache-Control"] = f"public, max-age={max_age}"
    return response


def serve_cached_page():
    """before_request: answer a page from the cache, skipping the view."""
    if request.method not in ("GET", "HEAD"):
        return None
    app = current_app
    if request.endpoint not in app.config["PAGE_CACHE_ENDPOINTS"]:
        return None
    g.page_key = key = page_key()
    item = app.extensions["shinpan.page_cache"].get(key)
    if item is None:
        return None
    g.page_cached = True
    return _cached_response(*item, app.config["PAGE_MAX_AGE"])


def store_page(response: Response) -> Response:
    """after_request: keep a freshly rendered page and make it conditional."""
    key = g.get("page_key")
    if key is None or g.get("page_cached"):
        return response
    if response.status_code != 200 or response.is_streamed or "Set-Cookie" in response.headers:
        return response
    app = current_app
    body = response.get_data()
    item = (body, etag_of(body), response.content_type)
    app.extensions["shinpan.page_cache"].put(key, item)
    cached = _cached_response(*item, app.config["PAGE_MAX_AGE"])
    # keep any header the view or an earlier hook set (Vary, Content-Language, ...)
    for name, value in response.headers.items():
        if name.lower() not in ("content-length", "content-type") and name not in cached.headers:
            cached.headers[name] = value
    return cached


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


def init_app(app: Flask) -> None:
    app.config.setdefault("PAGE_CACHE_ENDPOINTS", set(PAGE_ENDPOINTS))
    app.config.setdefault("PAGE_MAX_AGE", PAGE_MAX_AGE)
    app.config.setdefault("PAGE_CACHE_SIZE", PAGE_CACHE_SIZE)
    app.extensions["shinpan.page_cache"] = PageCache(app.config["PAGE_CACHE_SIZE"])
    app.before_request(serve_cached_page)
    app.after_request(store_page)
    if "static" in app.view_functions:
        app.view_functions["static"] = _static_view(app)
    app.jinja_env.globals["static_url"] = static_url
