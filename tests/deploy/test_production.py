"""Production readiness through the test client: security headers, request limits,
escaping, error pages without internals, and HTTP caching (ETag/304, hashed static files).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from webapp import caching, create_app, security
from webapp.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
BOARD = {"a": [2, 0, 0, 1, 1, 2, 2], "b": [0, 2, 2, 1, 1, 1, 1]}
XSS = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "'><svg onload=alert(1)>"]


@pytest.fixture(scope="module")
def prod():
    """The app as gunicorn serves it: no TESTING, exceptions become 500 pages."""
    app = create_app({"PROPAGATE_EXCEPTIONS": False})

    @app.get("/<lang:lang>/test-boom")
    def boom():
        raise RuntimeError("secret internals: /etc/passwd")

    return app


@pytest.fixture()
def api_boom(monkeypatch):
    """An API view that fails: /api/v1/problems/<name> raises an internal error."""
    from webapp import api

    def boom(request, name):
        raise RuntimeError("secret internals: /etc/passwd")

    monkeypatch.setitem(api.VIEWS, "problem_type", boom)
    return "/api/v1/problems/test-boom"


@pytest.fixture()
def web(prod):
    prod.extensions["shinpan.page_cache"].clear()
    return prod.test_client()


def page_urls(app) -> list[str]:
    """Every GET page of the site (each route with only lang/game arguments) in en and uk."""
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.rule.startswith(("/api", "/static")):
            continue
        if "test-boom" in rule.rule or not set(rule.arguments) <= {"lang", "game"}:
            continue
        for lang in ("en", "uk"):
            for game in (GAMES if "game" in rule.arguments else [None]):
                args = {"lang": lang, **({"game": game} if game else {})}
                path = rule.rule
                for key, value in args.items():
                    path = re.sub(rf"<[^>]*:?{key}>", value, path)
                urls.append(path)
    urls += ["/en/hanamikoji/search?q=geisha", "/en/hanamikoji/search?q=",
             "/en/hanamikoji/?compare=de&edition=nope", "/en/no-such-page"]
    return sorted(set(urls))


def assert_security_headers(response, https: bool = False) -> None:
    headers = response.headers
    assert headers["Content-Security-Policy"] == CSP
    assert "unsafe-inline" not in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert ("Strict-Transport-Security" in headers) == https
    assert "Server" not in headers or "/" not in headers["Server"]


# -- headers on every kind of response ------------------------------------------------
def test_security_headers_everywhere(web, api_boom):
    html = web.get("/en/hanamikoji/").get_data(as_text=True)
    css = re.search(r'href="(/static/css/site\.[0-9a-f]+\.css)"', html).group(1)
    responses = {
        "html": web.get("/en/hanamikoji/"),
        "html 304": web.get("/en/hanamikoji/", headers={
            "If-None-Match": web.get("/en/hanamikoji/").headers["ETag"]}),
        "redirect": web.get("/"),
        "json": web.get("/api/v1/hanamikoji/rulebook"),
        "score": web.post("/api/v1/hanamikoji/score", json={"rounds": [{"board": BOARD}]}),
        "static hashed": web.get(css),
        "static plain": web.get("/static/js/site.js"),
        "404 html": web.get("/en/nothing-here"),
        "404 api": web.get("/api/v1/nothing"),
        "405 api": web.get("/api/v1/hanamikoji/score"),
        "400 api": web.post("/api/v1/hanamikoji/score", data="{", content_type="application/json"),
        "413 api": web.post("/api/v1/hanamikoji/score", data="x" * 70000,
                            content_type="application/json"),
        "414 html": web.get("/en/hanamikoji/search?q=" + "x" * 7000),
        "415 api": web.post("/api/v1/hanamikoji/score", data="{}", content_type="text/plain"),
        "500 html": web.get("/en/test-boom"),
        "500 api": web.get(api_boom),
    }
    for name, response in responses.items():
        assert_security_headers(response), name
    assert responses["html 304"].status_code == 304


def test_hsts_only_over_https(prod):
    client = prod.test_client()
    assert_security_headers(client.get("/en/", base_url="https://shinpan.example"), https=True)
    assert_security_headers(client.get("/en/", base_url="http://shinpan.example"), https=False)
    # without trusted proxies a client cannot claim HTTPS
    spoofed = client.get("/en/", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" not in spoofed.headers


def test_proxy_fix_from_settings():
    assert security.proxy_hops({}) == 0
    assert security.proxy_hops({"SHINPAN_PROXY_HOPS": "1"}) == 1
    with pytest.raises(RuntimeError):
        security.proxy_hops({"SHINPAN_PROXY_HOPS": "yes"})
    app = create_app({"PROXY_HOPS": 1})
    client = app.test_client()
    response = client.get("/en/", headers={"X-Forwarded-Proto": "https",
                                           "X-Forwarded-Host": "rules.example",
                                           "X-Forwarded-For": "203.0.113.9"})
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")
    assert 'href="https://rules.example/de/"' in response.get_data(as_text=True)


def test_trusted_hosts_from_settings():
    assert security.trusted_hosts({}) is None
    assert security.trusted_hosts({"SHINPAN_TRUSTED_HOSTS": "a.example, b.example"}) == [
        "a.example", "b.example"]
    client = create_app({"TRUSTED_HOSTS": ["rules.example"]}).test_client()
    assert client.get("/en/", base_url="http://rules.example").status_code == 200
    assert client.get("/en/", base_url="http://evil.example").status_code == 400
    assert client.get("/en/", base_url="http://evil.example").status_code == 400  # not cached


# -- pages the CSP would break ----------------------------------------------------------
# code in a <script> without src (data blocks such as type="application/json" never run)
INLINE_SCRIPT = re.compile(
    r"<script\b(?![^>]*\bsrc=)(?![^>]*\btype=[\"']?application/(?:ld\+)?json)[^>]*>\s*\S",
    re.IGNORECASE)
DATA_BLOCK = re.compile(r"<script\b[^>]*application/json[^>]*>(.*?)</script>", re.DOTALL | re.IGNORECASE)
STYLE_ATTR = re.compile(r"<[^>]+\sstyle\s*=", re.IGNORECASE)
STYLE_ELEMENT = re.compile(r"<style\b", re.IGNORECASE)
HANDLER_ATTR = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)
JS_URL = re.compile(r"""(?:href|src|action)\s*=\s*["']?\s*javascript:""", re.IGNORECASE)


def test_no_inline_script_or_style_on_any_page(web, prod):
    urls = page_urls(prod)
    assert len(urls) >= 10
    for url in urls + ["/en/test-boom", "/en/hanamikoji/search?q=" + "x" * 7000]:
        response = web.get(url)
        assert response.status_code in (200, 302, 404, 414, 500), url
        html = response.get_data(as_text=True)
        for pattern in (INLINE_SCRIPT, STYLE_ATTR, STYLE_ELEMENT, HANDLER_ATTR, JS_URL):
            match = pattern.search(html)
            assert match is None, (url, html[max(0, match.start() - 80):match.end() + 80])
        for block in DATA_BLOCK.findall(html):  # JSON in HTML: no way out of the element
            assert "<" not in block, (url, block[:200])
            json.loads(block)


# -- limits -----------------------------------------------------------------------------
def test_query_string_cap_page_and_api(web):
    ok = web.get("/en/hanamikoji/?edition=" + "x" * 5000)
    assert ok.status_code == 200
    long = "x" * (security.MAX_QUERY_STRING + 1)
    page = web.get(f"/de/hanamikoji/search?q={long}")
    assert page.status_code == 414
    assert page.mimetype == "text/html"
    assert '<html lang="de"' in page.get_data(as_text=True)
    problem = web.get(f"/api/v1/hanamikoji/rulebook?lang={long}")
    assert problem.status_code == 414
    assert problem.mimetype == "application/problem+json"
    assert problem.get_json()["type"] == "/api/v1/problems/uri-too-long"
    assert web.get("/api/v1/problems/uri-too-long").status_code == 200


def test_body_cap_on_every_route(web):
    big = b"x" * 70000
    api = web.post("/api/v1/hanamikoji/score", data=big, content_type="application/json")
    assert api.status_code == 413 and api.mimetype == "application/problem+json"
    page = web.get("/en/hanamikoji/", data=big)
    assert page.status_code == 413
    # a chunked body (no Content-Length) is cut at the cap and refused, not parsed
    import io

    chunked = web.post("/api/v1/hanamikoji/score", input_stream=io.BytesIO(b"[" + b"1," * 40000 + b"1]"),
                       headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"})
    assert chunked.status_code == 413


def test_rounds_per_request_capped(web):
    fifty_one = {"rounds": [{"board": BOARD}] * 51}
    response = web.post("/api/v1/hanamikoji/score", json=fifty_one)
    assert response.status_code == 422
    codes = [error["code"] for error in response.get_json()["errors"]]
    assert "rounds.too-many" in codes


# -- escaping ---------------------------------------------------------------------------
def assert_inert(html: str, payload: str) -> None:
    assert payload not in html
    assert "<script>alert" not in html
    assert "<img src=x" not in html and "<svg onload" not in html


@pytest.mark.parametrize("payload", XSS)
def test_user_strings_are_escaped(web, payload):
    from urllib.parse import quote

    q = quote(payload)
    urls = [f"/en/hanamikoji/search?q={q}", f"/en/hanamikoji/?edition={q}&compare={q}",
            f"/en/hanamikoji/disagreements?simultaneous_goal={q}&round_limit={q}",
            f"/uk/hanamikoji/search?q={q}&{q}={q}", f"/en/{q}/hanamikoji/"]
    if any(r.endpoint == "checker.checker" for r in web.application.url_map.iter_rules()):
        urls += [f"/en/hanamikoji/score?na={q}&nb={q}",
                 f"/en/hanamikoji/score?mode=log&na={q}&nb={q}&act={q}&removed={q}",
                 f"/en/hanamikoji/score?a={q}&b={q}&fav={q}&round={q}&edition={q}"]
    for url in urls:
        response = web.get(url)
        assert response.status_code in (200, 404), url
        assert_inert(response.get_data(as_text=True), payload)


def test_api_echoes_names_as_json_only(web):
    response = web.post("/api/v1/hanamikoji/score", json={
        "players": {"a": XSS[0], "b": XSS[1]}, "rounds": [{"board": BOARD}]})
    assert response.mimetype in ("application/json", "application/problem+json")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    json.loads(response.get_data(as_text=True))


# -- no internals -----------------------------------------------------------------------
def test_errors_show_no_internals(web, api_boom):
    page = web.get("/en/test-boom")
    assert page.status_code == 500 and page.mimetype == "text/html"
    problem = web.get(api_boom)
    assert problem.status_code == 500 and problem.mimetype == "application/problem+json"
    assert problem.get_json()["type"] == "/api/v1/problems/internal"
    for response in (page, problem):
        body = response.get_data(as_text=True)
        assert "Traceback" not in body and "secret internals" not in body
        assert "RuntimeError" not in body and ".py" not in body


def test_production_entry_point_never_debugs():
    code = ("import json, webapp.wsgi as w; "
            "print(json.dumps([w.app.debug, w.app.testing, w.app.config['PROPAGATE_EXCEPTIONS']]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, text=True,
                         capture_output=True,
                         env={"FLASK_DEBUG": "1", "SHINPAN_WARMUP": "0", "PATH": "/usr/bin:/bin"})
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [False, False, False]


# -- HTTP caching -----------------------------------------------------------------------
CACHEABLE = ["/en/", "/uk/hanamikoji/", "/de/hanamikoji/disagreements",
             "/fr/hanamikoji/search?q=geisha", "/es/hanamikoji/?edition=deepwater"]


@pytest.mark.parametrize("url", CACHEABLE)
def test_pages_have_etag_and_answer_304(web, url):
    first = web.get(url)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{16,}"', etag)
    assert first.headers["Cache-Control"] == f"public, max-age={caching.PAGE_MAX_AGE}"
    assert "Set-Cookie" not in first.headers
    assert "Cookie" not in first.headers.get("Vary", "")
    again = web.get(url)  # from the in-process cache: the same bytes and validator
    assert again.headers["ETag"] == etag and again.data == first.data
    not_modified = web.get(url, headers={"If-None-Match": etag})
    assert not_modified.status_code == 304 and not_modified.data == b""
    assert not_modified.headers["ETag"] == etag
    assert "Set-Cookie" not in not_modified.headers
    assert web.get(url, headers={"If-None-Match": '"other"'}).status_code == 200
    head = web.head(url)
    assert head.status_code == 200 and head.headers["ETag"] == etag


def test_cache_key_is_the_whole_url(web):
    a = web.get("/en/hanamikoji/search?q=geisha")
    b = web.get("/en/hanamikoji/search?q=favour")
    assert a.headers["ETag"] != b.headers["ETag"]
    # parameter order does not matter; the language and host do
    assert (web.get("/en/hanamikoji/?edition=deepwater&compare=de").headers["ETag"]
            == web.get("/en/hanamikoji/?compare=de&edition=deepwater").headers["ETag"])
    assert web.get("/de/").headers["ETag"] != web.get("/en/").headers["ETag"]
    one = web.get("/en/", base_url="http://one.example").get_data(as_text=True)
    two = web.get("/en/", base_url="http://two.example").get_data(as_text=True)
    assert "one.example" in one and "one.example" not in two and "two.example" in two


def test_page_cache_is_bounded():
    app = create_app({"PAGE_CACHE_SIZE": 3})
    client = app.test_client()
    for i in range(10):
        assert client.get(f"/en/hanamikoji/search?q=w{i}").status_code == 200
    assert len(app.extensions["shinpan.page_cache"]) == 3


def test_negotiation_varies_on_accept_language(web):
    response = web.get("/", headers={"Accept-Language": "uk"})
    assert response.status_code in (301, 302, 303, 307, 308)
    assert "Accept-Language" in response.headers["Vary"]
    assert "Cookie" not in response.headers["Vary"]


def test_static_files_have_hashed_immutable_names(web, prod):
    html = web.get("/en/hanamikoji/").get_data(as_text=True)
    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets)
    for asset in assets:
        name = asset.rsplit("/", 1)[1]
        assert caching.HASHED.match(name), asset
        response = web.get(asset)
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        plain = caching.HASHED.sub(r"\g<stem>\g<ext>", asset.split("/static/", 1)[1])
        assert response.data == (Path(prod.static_folder) / plain).read_bytes()
    stale = web.get("/static/css/site.000000000000.css")
    assert stale.status_code == 200 and "immutable" not in stale.headers["Cache-Control"]
    plain = web.get("/static/css/site.css")
    assert plain.status_code == 200 and "immutable" not in plain.headers["Cache-Control"]
    assert web.get("/static/css/nothing.0123456789ab.css").status_code == 404
    with prod.test_request_context("/en/"):
        assert caching.static_url("css/site.css") == next(a for a in assets if a.endswith(".css"))
        assert caching.static_url("no/such.file") == "/static/no/such.file"
