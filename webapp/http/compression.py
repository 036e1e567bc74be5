"""Response compression: brotli or gzip, chosen by Accept-Encoding.

* Kept pages (webapp/http/caching.py) and hashed static files are compressed once, when they
  are first asked for in an encoding, at a high level, and kept beside the plain bytes.
* Every other answer of a compressible type and at least MIN_SIZE bytes is compressed
  on the fly, at a fast level, by `CompressionMiddleware`.

Each encoding is its own representation: its own strong ETag (`"<tag>-br"`), and every
answer that could have been compressed says `Vary: Accept-Encoding`.
"""
from __future__ import annotations

import gzip
from functools import lru_cache

import brotli

MIN_SIZE = 1024  # below about one packet, compressing saves nothing worth its CPU
MAX_SIZE = 4 * 1024 * 1024  # larger answers pass as they are (none of ours is)
ENCODINGS = ("br", "gzip")  # the server's preference among the ones a client accepts
COMPRESSIBLE = ("text/", "application/json", "application/problem+json",
                "application/javascript", "image/svg+xml")
# (brotli quality, gzip level). Measured on a 49 KB rules page: brotli 5 gives 8.1 KB in
# 2 ms, 11 gives 7.2 KB in 63 ms, too slow for a page's first visit (and a way to make
# the site burn CPU with made-up URLs); static files are few and made once per worker.
KEPT = (5, 9)
STATIC = (11, 9)
ON_THE_FLY = (4, 6)


@lru_cache(maxsize=256)
def negotiate(accept_encoding: str) -> str | None:
    """The encoding to send for this Accept-Encoding header, None for identity."""
    accepted: dict[str, float] = {}
    for item in accept_encoding.lower().split(","):
        name, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if name:
            accepted[name.strip()] = quality
    best, best_q = None, 0.0
    for encoding in ENCODINGS:
        quality = accepted.get(encoding, accepted.get("*", 0.0))
        if quality > best_q:
            best, best_q = encoding, quality
    return best


def compress(body: bytes, encoding: str, levels: tuple[int, int] = KEPT) -> bytes:
    if encoding == "br":
        return brotli.compress(body, quality=levels[0])
    return gzip.compress(body, compresslevel=levels[1], mtime=0)


def compressible(content_type: str | None) -> bool:
    return bool(content_type) and content_type.startswith(COMPRESSIBLE)


def variant_etag(etag: str, encoding: str) -> str:
    """`"abc"` -> `"abc-br"` (a weak tag stays weak)."""
    weak, tag = ("W/", etag[2:]) if etag.startswith("W/") else ("", etag)
    return f'{weak}{tag[:-1]}-{encoding}"' if tag.endswith('"') else etag


def add_vary(headers: list[tuple[str, str]], value: str = "Accept-Encoding") -> None:
    for i, (name, current) in enumerate(headers):
        if name.lower() == "vary":
            if value.lower() not in current.lower():
                headers[i] = (name, f"{current}, {value}")
            return
    headers.append(("Vary", value))


class Variants:
    """One body and its compressed forms, each made once, when first asked for."""

    __slots__ = ("_encoded", "body", "etag", "levels")

    def __init__(self, body: bytes, etag: str | None = None,
                 levels: tuple[int, int] = KEPT) -> None:
        self.body = body
        self.etag = etag
        self.levels = levels
        self._encoded: dict[str, bytes] = {}

    def get(self, encoding: str | None) -> tuple[bytes, str | None]:
        """(body, etag) in `encoding` (None: identity; also when compressing saves nothing).
        Made once and kept, so a body under MIN_SIZE is worth it too (share.js: 811 -> 262)."""
        if encoding is None:
            return self.body, self.etag
        encoded = self._encoded.get(encoding)
        if encoded is None:
            encoded = self._encoded[encoding] = compress(self.body, encoding, self.levels)
        if len(encoded) >= len(self.body):
            return self.body, self.etag
        return encoded, variant_etag(self.etag, encoding) if self.etag else None


class CompressionMiddleware:
    """Compresses the answers nobody compressed yet (dynamic pages, JSON, errors); not
    those whose environ has `skip` set (a page the page cache keeps and compresses)."""

    def __init__(self, app, skip: str | None = None) -> None:
        self.app = app
        self.skip = skip

    def __call__(self, environ, start_response):
        encoding = negotiate(environ.get("HTTP_ACCEPT_ENCODING", ""))
        captured: list = []

        def start(status, headers, exc_info=None):
            captured[:] = [status, headers, exc_info]
            return _noop_write

        result = self.app(environ, start)
        if not captured:  # an app that starts its answer while iterating
            result = [b"".join(result)]
        status, headers, exc_info = captured
        if self.skip and environ.get(self.skip):
            start_response(status, headers, exc_info)
            return result
        content_type = length = None
        for name, value in headers:
            lower = name.lower()
            if lower == "content-type":
                content_type = value
            elif lower == "content-length":
                length = value
            elif lower == "content-encoding":
                content_type = None  # already encoded (a kept page, a static file)
                break
        if not compressible(content_type) or status[:3] in ("204", "304"):
            start_response(status, headers, exc_info)
            return result
        add_vary(headers)
        if (encoding is None or environ.get("REQUEST_METHOD") == "HEAD" or not length
                or not length.isdigit() or not MIN_SIZE <= int(length) <= MAX_SIZE):
            start_response(status, headers, exc_info)
            return result
        try:
            body = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        encoded = compress(body, encoding, ON_THE_FLY)
        if len(encoded) >= len(body):
            start_response(status, headers, exc_info)
            return [body]
        out = []
        for name, value in headers:
            lower = name.lower()
            if lower == "content-length":
                value = str(len(encoded))
            elif lower == "etag":
                value = variant_etag(value, encoding)
            out.append((name, value))
        out.append(("Content-Encoding", encoding))
        start_response(status, out, exc_info)
        return [encoded]


def _noop_write(data: bytes) -> None:  # pragma: no cover - no view of ours uses write()
    raise RuntimeError("the WSGI write() callable is not supported behind compression")
