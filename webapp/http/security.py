"""Security headers, request limits and reverse-proxy trust, for every response.

Registered by `create_app()` through `init_app(app)`:

* headers on every answer (pages, JSON, static files, errors): a strict
  Content-Security-Policy (no inline script or style), nosniff, a referrer policy,
  COOP, CORP, a Permissions-Policy that turns off the devices a rules site never uses
  and, only for HTTPS requests, Strict-Transport-Security;
* a request without Host: granian passes an absent Host as an empty one; it is dropped,
  so Werkzeug builds links from the server's name and port, and an HTTP/1.1 request
  without it is 400 (RFC 9112 3.2);
* a Host that is no host name (`127.0.0.1@evil.example`, or two Host fields, which the
  server joins with a comma) is 400 too, before anything builds a link from it: a
  page in the URL's language, a problem on the API (`bad-host`);
* limits before any view runs: a request body over MAX_CONTENT_LENGTH is 413 on every
  route (not only where a view reads the body), a query string over MAX_QUERY_STRING
  bytes is 414 (an HTML page, or problem+json under /api/);
* ProxyFix from the environment: `SHINPAN_PROXY_HOPS=N` trusts N proxies for
  X-Forwarded-For/-Proto/-Host (off by default: direct clients cannot spoof them);
  `SHINPAN_TRUSTED_HOSTS=a.example,b.example` refuses (400) any other Host.
"""
from __future__ import annotations

import os
from functools import lru_cache

from flask import Flask, abort, render_template, request
from werkzeug.exceptions import RequestURITooLarge
from werkzeug.middleware.proxy_fix import ProxyFix

from .. import api
from .host import BAD_HOST, HOST, host_refused

MAX_QUERY_STRING = api.MAX_QUERY  # bytes of the raw query string (granian: head <= 16 KB)

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "worker-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "strict-origin-when-cross-origin"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
)
HSTS = "max-age=31536000; includeSubDomains"

# The API answers every error as problem+json; add the one this module can produce.


def proxy_hops(environ: dict[str, str] | None = None) -> int:
    """SHINPAN_PROXY_HOPS as a non-negative int (0 = no proxy is trusted)."""
    value = (environ if environ is not None else os.environ).get("SHINPAN_PROXY_HOPS", "")
    try:
        return max(0, int(value.strip() or 0))
    except ValueError:
        raise RuntimeError(f"SHINPAN_PROXY_HOPS must be a number, not {value!r}") from None


@lru_cache(maxsize=256)  # a site is asked under a few names: match each once
def _host_ok(host: str) -> bool:
    return HOST.fullmatch(host) is not None


class SecurityHeaders:
    """WSGI middleware: the headers above on every response, whoever produced it.

    Wrapping the WSGI app (inside ProxyFix, so the scheme is the client's) covers Flask's
    views, error handlers, static files and redirects alike, and costs a list extend per
    response. A header the response already has is left as it is.
    """

    def __init__(self, app) -> None:
        self.app = app
        self.plain = list(HEADERS)
        self.secure = [*HEADERS, ("Strict-Transport-Security", HSTS)]
        self.names = {name.lower() for name, _ in self.secure}

    def __call__(self, environ, start_response):
        host = environ.get("HTTP_HOST")
        if not host:
            environ.pop("HTTP_HOST", None)  # granian: "" for a request without Host
        elif not _host_ok(host):
            del environ["HTTP_HOST"]  # no link is ever built from it: 400 (host_refused)
            environ[BAD_HOST] = True
        extra = self.secure if environ.get("wsgi.url_scheme") == "https" else self.plain

        def start(status, headers, exc_info=None):
            present = [name.lower() for name, _ in headers]
            if self.names.isdisjoint(present):
                headers.extend(extra)
            else:
                headers.extend(h for h in extra if h[0].lower() not in present)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def request_limiter(max_body: int):
    def limit_request() -> None:
        """before_request: 414 for an over-long query string, 413 for an announced big body,
        400 for a Host that is no host name, or none over HTTP/1.1."""
        environ = request.environ
        if host_refused(environ):
            abort(400)
        if len(environ.get("QUERY_STRING", "")) > MAX_QUERY_STRING:
            abort(414)
        length = environ.get("CONTENT_LENGTH")
        if length and length.isdigit() and int(length) > max_body:
            abort(413)

    return limit_request


def uri_too_long(error: RequestURITooLarge):
    if api.is_api_request(request):
        return api.problem(request, "uri-too-long")
    return render_template("errors/414.html", error_page=True), 414


def trusted_hosts(environ: dict[str, str] | None = None) -> list[str] | None:
    """SHINPAN_TRUSTED_HOSTS=rules.example,www.rules.example -> Flask's TRUSTED_HOSTS."""
    value = (environ if environ is not None else os.environ).get("SHINPAN_TRUSTED_HOSTS", "")
    hosts = [host.strip() for host in value.split(",") if host.strip()]
    return hosts or None


def init_app(app: Flask) -> None:
    # Absolute links (hreflang alternates) use the request's host: in production, name
    # the public hosts and any other Host header gets 400 before a page is rendered.
    if app.config.get("TRUSTED_HOSTS") is None:
        app.config["TRUSTED_HOSTS"] = trusted_hosts()
    app.wsgi_app = SecurityHeaders(app.wsgi_app)
    hops = app.config.get("PROXY_HOPS")
    if hops is None:
        hops = proxy_hops()
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    # Flask's default config has MAX_CONTENT_LENGTH = None, so setdefault() would keep it
    # unlimited: set a cap for every route unless the caller chose one. One byte above the
    # API's limit: Werkzeug cuts a chunked body (no Content-Length) at the cap without an
    # error, and the API view then sees MAX_BODY + 1 bytes and answers 413 (at exactly
    # MAX_BODY it would parse a truncated body and answer 400).
    if app.config.get("MAX_CONTENT_LENGTH") is None:
        app.config["MAX_CONTENT_LENGTH"] = api.MAX_BODY + 1
    # First in line: refuse oversized requests before language or page work happens.
    max_body = min(app.config["MAX_CONTENT_LENGTH"], api.MAX_BODY)
    app.before_request_funcs.setdefault(None, []).insert(0, request_limiter(max_body))
    app.register_error_handler(414, uri_too_long)
