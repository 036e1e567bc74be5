"""The request's Host field, checked once for the site and the API (webapp/http/security.py
marks a refused one in the environ; pages answer it with their 400, the API with a
problem)."""
from __future__ import annotations

import re

# What a Host field may hold (RFC 9110 7.2), as DNS and browsers use it: a name of letters,
# digits, dots, hyphens and underscores, or an IPv4 address, or an IPv6 one in brackets;
# then an optional port. Stricter than RFC 3986's reg-name, which would let a comma
# through: two Host fields reach the app joined by one.
HOST = re.compile(r"(?:[A-Za-z0-9._-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")
BAD_HOST = "shinpan.bad_host"  # in the environ: the request's Host was refused


def host_refused(environ: dict) -> bool:
    """400 for this request: a Host that is no host name, or none over HTTP/1.1."""
    return BAD_HOST in environ or (
        "HTTP_HOST" not in environ and environ.get("SERVER_PROTOCOL") == "HTTP/1.1")
