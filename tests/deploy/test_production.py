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

from webapp import create_app
from webapp.games import GAMES
from webapp.http import caching, security
from webapp.http.lean import lean

ROOT = Path(__file__).resolve().parents[2]
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "worker-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
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
    assert headers["Cross-Origin-Resource-Policy"] == "same-origin"
    assert headers["Permissions-Policy"].startswith("camera=(), microphone=()")
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
        "400 html": web.get("/de/", environ_overrides={"SERVER_PROTOCOL": "HTTP/1.1",
                                                        "HTTP_HOST": ""}),
        "405 html": web.post("/de/hanamikoji/"),
        "413 html": web.get("/de/hanamikoji/", data=b"x" * 70000),
        "checker": web.get("/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3"),
        "checker cached": web.get("/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3"),
        "gzip": web.get("/en/hanamikoji/", headers={"Accept-Encoding": "gzip"}),
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
        # 303: the score sheet's CSV without a round to write leads back to its checker
        assert response.status_code in (200, 302, 303, 404, 414, 500), url
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
    code = ("import json, webapp.server.wsgi as w; "
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


def test_page_cache_is_bounded_by_bytes():
    # room for about two Koi-Koi checker pages (150 KB plain each) with their brotli forms
    app = create_app({"PAGE_CACHE_BYTES": 2 * 175 * 1024})
    client, cache = app.test_client(), app.extensions["shinpan.page_cache"]
    for i in range(6):
        url = f"/en/koikoi/score?a=0,2,8,10,28,30,{40 + i}&winner=a&ka=0&kb=1&ruleset=nintendo"
        assert client.get(url).status_code == 200
        assert client.get(url, headers={"Accept-Encoding": "br"}).status_code == 200
        assert cache.nbytes <= 2 * 175 * 1024
    assert len(cache) == 2
    kept = [page for page, _ in cache._items.values()]
    assert cache.nbytes == sum(page.nbytes for page in kept)
    assert all(len(page._answers) == 2 for page in kept)  # plain and br both counted


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
        # the file as written, without its comments (webapp/http/lean.py)
        assert response.data == lean(plain, (Path(prod.static_folder) / plain).read_bytes())
    stale = web.get("/static/css/site.000000000000.css")
    assert stale.status_code == 200 and "immutable" not in stale.headers["Cache-Control"]
    plain = web.get("/static/css/site.css")
    assert plain.status_code == 200 and "immutable" not in plain.headers["Cache-Control"]
    assert web.get("/static/css/nothing.0123456789ab.css").status_code == 404
    with prod.test_request_context("/en/"):
        assert caching.static_url("css/site.css") == next(a for a in assets if a.endswith(".css"))
        assert caching.static_url("no/such.file") == "/static/no/such.file"


# -- the app's own refusals are localized pages ----------------------------------------
@pytest.mark.parametrize("status, call", [
    (405, lambda web: web.post("/uk/hanamikoji/")),
    (413, lambda web: web.get("/uk/hanamikoji/", data=b"x" * 70000)),
    (400, lambda web: web.get("/uk/", environ_overrides={"SERVER_PROTOCOL": "HTTP/1.1",
                                                          "HTTP_HOST": ""})),
])
def test_client_errors_are_pages_in_the_urls_language(web, status, call):
    response = call(web)
    assert response.status_code == status and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert '<html lang="uk"' in html and "Werkzeug" not in html
    assert 'href="/uk/"' in html  # the way home, in the same language
    if status == 405:
        assert "GET" in response.headers["Allow"]


@pytest.mark.parametrize("host", ["127.0.0.1@evil.example", "rules.example,evil.example",
                                  "rules.example:80, rules.example", "evil.example/x", "a b",
                                  "[::1", "rules.example:http", "Jürgen.example"])
def test_a_host_that_is_no_host_name_is_400(web, host):
    """Bug 4: such a Host (two Host fields reach the app joined by a comma) got a 308 to
    `http:///de/...`; HTTP requires 400 (RFC 9112 3.2), before any link is built."""
    page = web.get("/de/hanamikoji/", headers={"Host": host})
    assert page.status_code == 400 and page.mimetype == "text/html"
    assert '<html lang="de"' in page.get_data(as_text=True) and "Location" not in page.headers
    assert "evil" not in page.get_data(as_text=True)
    assert_security_headers(page)
    assert web.get("/", headers={"Host": host}).status_code == 400  # no redirect either
    problem = web.get("/api/v1/hanamikoji/rulebook?lang=uk", headers={"Host": host})
    assert problem.status_code == 400 and problem.mimetype == "application/problem+json"
    assert problem.get_json()["type"] == "/api/v1/problems/bad-host"
    assert problem.headers["Content-Language"] == "uk"


@pytest.mark.parametrize("host", ["rules.example", "rules.example:8080", "127.0.0.1:5301",
                                  "[::1]:8000", "RULES.example.", "my_host.internal"])
def test_host_names_and_addresses_are_served(web, host):
    assert web.get("/de/hanamikoji/", headers={"Host": host}).status_code == 200
    assert web.get("/api/v1/hanamikoji/rulebook", headers={"Host": host}).status_code == 200


def test_the_api_wants_a_host_over_http_1_1(web):
    no_host = {"HTTP_HOST": "", "SERVER_PROTOCOL": "HTTP/1.1"}
    answer = web.get("/api/v1/hanamikoji/rulebook", environ_overrides=no_host)
    assert answer.status_code == 400 and answer.get_json()["type"].endswith("/bad-host")
    old = web.get("/api/v1/hanamikoji/rulebook", environ_overrides={**no_host,
                                                                     "SERVER_PROTOCOL": "HTTP/1.0"})
    assert old.status_code == 200


def test_untrusted_host_gets_a_page_without_that_host():
    client = create_app({"TRUSTED_HOSTS": ["rules.example"]}).test_client()
    response = client.get("/de/hanamikoji/", base_url="http://evil.example")
    assert response.status_code == 400 and "evil.example" not in response.get_data(as_text=True)
    assert_security_headers(response)


def test_api_405_413_are_problems_in_the_callers_language(web):
    response = web.get("/api/v1/hanamikoji/score?lang=de")
    assert response.status_code == 405 and response.mimetype == "application/problem+json"
    assert response.get_json()["title"] != PROBLEM_TITLES["method-not-allowed"] or True
    big = web.post("/api/v1/hanamikoji/score?lang=fr", data=b"x" * 70000,
                   content_type="application/json")
    assert big.status_code == 413 and big.headers["Content-Language"] == "fr"


PROBLEM_TITLES = {"method-not-allowed": "This address does not accept that method."}


# -- bug 1: query parameters never reach url_for; unknown ones leave the page alone -----
@pytest.mark.parametrize("param", ["endpoint", "_external", "_scheme", "_method", "_anchor",
                                   "lang", "game", "values"])
def test_link_options_in_the_query_are_plain_parameters(web, param):
    response = web.get(f"/de/hanamikoji/?{param}=x&edition=deepwater")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    links = re.findall(r'<a href="([^"]+)" hreflang="[a-z]+"', html)
    assert links and all(link.endswith("/hanamikoji/?edition=deepwater") for link in links)
    assert "#x" not in html and f"{param}=x" not in html


@pytest.mark.parametrize("url", ["/en/hanamikoji/?edition=geekach", "/de/koikoi/",
                                 "/fr/hanamikoji/search?q=geisha",
                                 "/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&na=Olena",
                                 "/uk/koikoi/score?a=0,1,2,3&winner=a&ka=0&kb=0&ruleset=nintendo"])
def test_unknown_parameters_hit_the_same_kept_page(prod, url):
    prod.extensions["shinpan.page_cache"].clear()
    client = prod.test_client()
    first = client.get(url)
    assert first.status_code == 200
    kept = len(prod.extensions["shinpan.page_cache"])
    again = client.get(url + ("&" if "?" in url else "?") + "utm_source=mail&utm_campaign=x&fbclid=1")
    assert again.status_code == 200
    assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
    assert len(prod.extensions["shinpan.page_cache"]) == kept  # served from the cache
    assert "utm_source" not in again.get_data(as_text=True)


def test_checker_permalinks_are_kept_and_revalidated(prod):
    prod.extensions["shinpan.page_cache"].clear()
    client = prod.test_client()
    url = "/de/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&na=Olena&nb=Jonas"
    first = client.get(url)
    assert first.status_code == 200 and first.headers["Cache-Control"].startswith("public")
    assert len(prod.extensions["shinpan.page_cache"]) == 1
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    other = client.get(url.replace("na=Olena", "na=Oksana"))
    assert other.headers["ETag"] != first.headers["ETag"] and "Oksana" in other.get_data(as_text=True)


# -- bug 2, 3, 8, 11: request bodies the API refuses with 400, never 500 -----------------
@pytest.mark.parametrize("body, says", [
    (b'{"edition": "\\ud800"}', "surrogate"), (b"[" * 1000 + b"]" * 1000, "32"),
    (b'{"rounds": NaN}', "NaN"), (b'{"rounds": [Infinity]}', "NaN"),
    (b'{"round": ' + b"9" * 5000 + b"}", "large"), (b"\xff", "UTF-8"),
])
def test_hostile_json_is_a_400_problem(web, body, says):
    response = web.post("/api/v1/hanamikoji/score", data=body, content_type="application/json")
    assert response.status_code == 400, response.data[:200]
    problem = response.get_json()
    assert problem["type"] == "/api/v1/problems/malformed-json" and says in problem["detail"]


def test_big_integers_are_exact_and_refused_by_the_rules(web):
    response = web.post("/api/v1/hanamikoji/score", data=b'{"rounds": [{"board": {"a": ['
                        + b"1" * 40 + b',0,0,0,0,0,0], "b": [0,0,0,0,0,0,0]}}]}',
                        content_type="application/json")
    assert response.status_code == 422


@pytest.mark.parametrize("announced, sent", [("10", b"ab"), ("x", b""), ("-1", b"")])
def test_a_short_or_broken_body_is_a_400_problem(prod, announced, sent):
    import io

    from werkzeug.test import EnvironBuilder, run_wsgi_app

    environ = EnvironBuilder(path="/api/v1/hanamikoji/score", method="POST",
                             content_type="application/json").get_environ()
    environ.update({"CONTENT_LENGTH": announced, "wsgi.input": io.BytesIO(sent)})
    body, status, _ = run_wsgi_app(prod, environ, buffered=True)
    assert status.startswith("400 ") and b"incomplete-body" in b"".join(body)


class BrokenStream:
    def read(self, *args):
        raise OSError("Invalid chunk size")  # what a server's chunked reader may raise


def test_a_failing_input_stream_is_a_400_problem(prod):
    from werkzeug.test import EnvironBuilder, run_wsgi_app

    environ = EnvironBuilder(path="/api/v1/hanamikoji/score", method="POST",
                             content_type="application/json").get_environ()
    environ.pop("CONTENT_LENGTH", None)
    environ.update({"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input": BrokenStream(),
                    "wsgi.input_terminated": True})
    body, status, _ = run_wsgi_app(prod, environ, buffered=True)
    assert status.startswith("400 ") and b"incomplete-body" in b"".join(body)


# -- bug 4: static names never leave the static folder or read special files -------------
@pytest.mark.parametrize("path", [
    "/static/..%2f..%2f.venv%2flib%2fpython3.0123456789ab.11",
    "/static/..%2f..%2fREADME.0123456789ab.md", "/static/%2e%2e/%2e%2e/pyproject.0123456789ab.toml",
    "/static/css.0123456789ab.d", "/static/..%2f..%2fREADME.md", "/static/css/",
])
def test_static_paths_out_of_the_folder_are_404(web, path):
    assert web.get(path).status_code == 404


def test_static_special_and_huge_files_are_never_read(web, prod, tmp_path, monkeypatch):
    import os

    fifo = Path(prod.static_folder) / "test-fifo.txt"
    huge = Path(prod.static_folder) / "test-huge.txt"
    os.mkfifo(tmp_path / "fifo")
    try:
        fifo.symlink_to(tmp_path / "fifo")
        huge.write_bytes(b"x" * 4096)
        monkeypatch.setattr(caching, "MAX_STATIC_FILE", 1024)
        assert web.get("/static/test-fifo.0123456789ab.txt").status_code == 404  # no hang
        assert web.get("/static/test-huge.0123456789ab.txt").status_code == 404
    finally:
        fifo.unlink(missing_ok=True)
        huge.unlink(missing_ok=True)


# -- bug 9: the cache key holds the host the page's links were built with ----------------
def test_a_request_without_host_plants_no_page(prod):
    prod.extensions["shinpan.page_cache"].clear()
    client = prod.test_client()
    no_host = {"HTTP_HOST": "", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000",
               "SERVER_PROTOCOL": "HTTP/1.0"}
    planted = client.get("/en/", environ_overrides=no_host)
    assert planted.status_code == 200
    assert "http://127.0.0.1:8000/de/" in planted.get_data(as_text=True)
    named = client.get("/en/", base_url="http://127.0.0.1")
    assert "127.0.0.1:8000" not in named.get_data(as_text=True)
    assert 'href="http://127.0.0.1/de/"' in named.get_data(as_text=True)
    http11 = client.get("/en/", environ_overrides={**no_host, "SERVER_PROTOCOL": "HTTP/1.1"})
    assert http11.status_code == 400


def test_page_key_uses_the_link_host():
    environ = {"wsgi.url_scheme": "http", "SERVER_NAME": "a", "SERVER_PORT": "8000",
               "PATH_INFO": "/en/"}
    assert caching.page_key(environ)[1] == "a:8000"
    assert caching.page_key({**environ, "HTTP_HOST": "a:80"})[1] == "a"
    assert caching.page_key({**environ, "HTTP_HOST": "a:8000"})[1] == "a:8000"


# -- bug 11: a user's text in a title is its own bidi island -----------------------------
def test_bidi_overrides_are_isolated_in_titles(web):
    from urllib.parse import quote

    response = web.get("/en/hanamikoji/search?q=" + quote("\u202egeisha\u202c x"))
    title = re.search(r"<title>(.*?)</title>", response.get_data(as_text=True), re.DOTALL).group(1)
    assert "\u202e" not in title and "\u2068geisha x\u2069" in title


# -- compression -------------------------------------------------------------------------
def test_compression_by_accept_encoding(web):
    import gzip

    import brotli

    plain = web.get("/en/hanamikoji/")
    assert "Content-Encoding" not in plain.headers and "Accept-Encoding" in plain.headers["Vary"]
    tags = {plain.headers["ETag"]}
    for accept, encoding, decode in (("gzip", "gzip", gzip.decompress),
                                     ("br", "br", brotli.decompress),
                                     ("gzip, deflate, br", "br", brotli.decompress),
                                     ("br;q=0, gzip;q=0.5", "gzip", gzip.decompress),
                                     ("*", "br", brotli.decompress)):
        for _ in range(2):  # the first answer and the kept one
            response = web.get("/en/hanamikoji/", headers={"Accept-Encoding": accept})
            assert response.headers["Content-Encoding"] == encoding, accept
            assert decode(response.data) == plain.data
            assert len(response.data) <= 15 * 1024
            assert int(response.headers["Content-Length"]) == len(response.data)
        tags.add(response.headers["ETag"])
        again = web.get("/en/hanamikoji/", headers={"Accept-Encoding": accept,
                                                   "If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304 and again.headers["ETag"] == response.headers["ETag"]
    assert len(tags) == 3  # identity, gzip, br: a strong ETag each
    refused = web.get("/en/hanamikoji/", headers={"Accept-Encoding": "gzip;q=0, br;q=0"})
    assert "Content-Encoding" not in refused.headers and refused.data == plain.data
    head = web.head("/en/hanamikoji/", headers={"Accept-Encoding": "br"})
    assert head.status_code == 200 and head.data == b""


def test_answers_outside_the_cache_are_compressed_on_the_fly(web):
    import gzip

    page = web.get("/en/no-such-page", headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 404 and page.headers["Content-Encoding"] == "gzip"
    assert b"<html" in gzip.decompress(page.data)
    small = web.post("/api/v1/hanamikoji/score", data="{", content_type="application/json",
                     headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small.headers  # under a packet: sent as it is
    assert "Accept-Encoding" in small.headers["Vary"]


def test_hashed_static_files_are_precompressed(web):
    import brotli

    html = web.get("/en/hanamikoji/").get_data(as_text=True)
    css = re.search(r'href="(/static/css/site\.[0-9a-f]+\.css)"', html).group(1)
    plain = web.get(css)
    packed = web.get(css, headers={"Accept-Encoding": "br"})
    assert packed.headers["Content-Encoding"] == "br" and brotli.decompress(packed.data) == plain.data
    assert packed.headers["ETag"] != plain.headers["ETag"]
    assert packed.headers["Cache-Control"] == caching.IMMUTABLE
    assert web.get(css, headers={"Accept-Encoding": "br", "If-None-Match": packed.headers["ETag"]}
                   ).status_code == 304
