"""Security headers, request limits and reverse-proxy trust, for every response.

Registered by `create_app()` through `init_app(app)`:

* headers on every answer (pages, JSON, static files, errors): a strict
  Content-Security-Policy (no inline script or style), nosniff, a referrer policy,
  COOP and, only for HTTPS requests, Strict-Transport-Security;
* limits before any view runs: a request body over MAX_CONTENT_LENGTH is 413 on every
  route (not only where a view reads the body), a query string over MAX_QUERY_STRING
  bytes is 414 (an HTML page, or problem+json under /api/);
* ProxyFix from the environment: `SHINPAN_PROXY_HOPS=N` trusts N proxies for
  X-Forwarded-For/-Proto/-Host (off by default: direct clients cannot spoof them).
"""
from __future__ import annotations

import os

from flask import Flask, Response, abort, render_template, request
from werkzeug.exceptions import RequestURITooLarge
from werkzeug.middleware.proxy_fix import ProxyFix

from rulebook.i18n import N_

from . import api

MAX_QUERY_STRING = 6 * 1024  # bytes of the raw query string (gunicorn: request line <= 8190)

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
])
HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "strict-origin-when-cross-origin"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
)
HSTS = "max-age=31536000; includeSubDomains"

# The API answers every error as problem+json; add the one this module can produce.
api.PROBLEMS.setdefault("uri-too-long", (414, N_("The address is too long.")))
api.STATUS_PROBLEM.setdefault(414, "uri-too-long")


def proxy_hops(environ: dict[str, str] | None = None) -> int:
    """SHINPAN_PROXY_HOPS as a non-negative int (0 = no proxy is trusted)."""
    value = (environ if environ is not None else os.environ).get("SHINPAN_PROXY_HOPS", "")
    try:
        return max(0, int(value.strip() or 0))
    except ValueError:
        raise RuntimeError(f"SHINPAN_PROXY_HOPS must be a number, not {value!r}") from None


def add_headers(response: Response) -> Response:
    headers = response.headers
    for name, value in HEADERS:
        headers[name] = value
    if request.is_secure:
        headers["Strict-Transport-Security"] = HSTS
    return response


def limit_request() -> None:
    if len(request.query_string) > MAX_QUERY_STRING:
        abort(414)
    length = request.content_length
    limit = request.max_content_length
    if length is not None and limit is not None and length > limit:
        abort(413)


def uri_too_long(error: RequestURITooLarge):
    if api.is_api_request():
        return api.problem("uri-too-long")
    return render_template("errors/414.html", error_page=True), 414


def init_app(app: Flask) -> None:
    hops = app.config.get("PROXY_HOPS")
    if hops is None:
        hops = proxy_hops()
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    app.config.setdefault("MAX_CONTENT_LENGTH", api.MAX_BODY)
    # First in line: refuse oversized requests before language or page work happens.
    app.before_request_funcs.setdefault(None, []).insert(0, limit_request)
    app.after_request(add_headers)
    app.register_error_handler(414, uri_too_long)
