"""`make bench`, HTTP part: the production server against gunicorn and against bare
baselines, as ratios measured side by side in one run.

Every pair runs at the same time on this machine, measured alternately (A, B, A, B, ...)
with the same load generator (wrk, through tools/wrk.py: keep-alive connections, the
same prepared requests round-robin), so machine noise hits both. Each pair runs ROUNDS
paired rounds; a line prints each side's best req/s and the ratio of each round's pair as
the median (min-max): one best-of ratio hid a spread of 0.84-1.87 (issue 21). The load
average is printed at four points: the machine is shared. (The Python load generator costs
more CPU per request than granian does for a kept page, so it would measure itself.)

* granian vs gunicorn: the same app (webapp.server.wsgi:app), granian configured by
  webapp/server/serve.py, gunicorn by today's gunicorn.conf.py:
    score API  POST /api/v1/hanamikoji/score, 200 different one-round boards  target >= 2
    rules page GET /en/hanamikoji/ (a kept page), without Accept-Encoding      target >= 4
               and as a browser asks for it (Accept-Encoding: gzip, deflate, br)
* the ASGI entry (webapp/server/asgi.py: a body deadline, the site on threads) vs the WSGI
  interface, the same app, workers and threads (SHINPAN_INTERFACE=asgi):
    score API, rules page (plain and br asked)   the budget to be the default >= 0.85
    (not met: WSGI stays the default, the ASGI entry an option; README, "Deploy")
* the score APIs vs baselines on the same granian config (tools/bench_app.py): a Flask
  JSON echo (target >= 0.9), a raw 6-line WSGI JSON echo (Hanamikoji >= 0.6, Koi-Koi with
  200 different one-round requests >= 0.55) and a floor that sends the body back unparsed
  (a reference line: no target)
* first visit on the wire of every page type (home, both rules pages, both checkers) in
  every language: the HTML and every stylesheet, script and image it names, /sw.js and
  the offline page the service worker keeps, compressed as a browser asks (br, gzip)
                                                                             target <= 15 KB
* a checker permalink asked twice: the second answer comes from the page cache (same
  ETag and bytes); the CPU of a fresh render beside a kept one, in-process
* a checker tap (one control changed), server CPU in-process: the live update
  (`Shinpan-Live: regions`: live.js's live parts) beside the full page  target <= 1.5 ms;
  for Koi-Koi also the form as live.js sends it, which is answered at its tidy address
* start-up (tools/bench_start.py): a fresh interpreter's import of Flask, then of the app,
  then create_app() (target <= 150 ms, on create_app() alone), and `shinpan score` on one
  round, wall and CPU: cold (a fresh process, an empty cache folder; target <= 100 ms), a
  fresh process with the rulebooks' verdict kept, cold from an installed wheel, and warm (main() again in one process)
* in-process CPU per score request (no HTTP): product, Flask echo, referee + JSON alone
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import socket
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulebook.i18n import LANGUAGES
from tools import bench_start, loadgen, wrk
from tools.bench_referee import board_requests, koikoi_requests
from tools.server import serve

SERVER_SCORE_TARGET = 2.0
SERVER_PAGE_TARGET = 4.0
ECHO_TARGET = 0.9
ASGI_TARGET = 0.85
FIRST_VISIT_TARGET = 15 * 1024
START_TARGET_MS = 150.0
CLI_TARGET_MS = 100.0
CHECKER = "/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&na=Olena&nb=Jonas"
KOIKOI_CHECKER = "/en/koikoi/score?a=0,2,8,10,28,30&winner=a&ka=0&kb=1&ruleset=nintendo"
RAW_ECHO_SCORE_TARGET = 0.6
RAW_ECHO_KOIKOI_TARGET = 0.55


def best(base: str, requests: list[loadgen.Req], concurrency: int, duration: float) -> float:
    return wrk.run(base, requests, concurrency, duration)


def compare(a: str, b: str, requests: list[loadgen.Req], concurrency: int, duration: float,
            rounds: int, b_requests: list[loadgen.Req] | None = None
            ) -> tuple[list[float], list[float]]:
    """Requests per second of A and B in `rounds` paired runs, alternated (A, B, A, B...)
    so that the machine's noise hits both sides of a pair alike."""
    ours, theirs = [], []
    for _ in range(rounds):
        ours.append(best(a, requests, concurrency, duration))
        theirs.append(best(b, b_requests or requests, concurrency, duration))
    return ours, theirs


def ratios(pair: tuple[list[float], list[float]]) -> list[float]:
    """A / B of each round: the ratio of runs made side by side."""
    return [a / b for a, b in zip(*pair)]


def fetch(base: str, path: str, *headers: str) -> tuple[dict[str, str], bytes]:
    """One GET on a fresh connection: (headers, body as sent on the wire)."""
    url = urlsplit(base)
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", *headers, "Connection: close", "", ""]
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall("\r\n".join(lines).encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    fields = {}
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    return fields, body


def unpack(body: bytes, encoding: str | None) -> bytes:
    import gzip

    import brotli

    return {"br": brotli.decompress, "gzip": gzip.decompress}.get(encoding or "", bytes)(body)


HASHED_NAME = re.compile(r"\.[0-9a-f]{12}(?=\.[a-z]+$)")  # site.<hash>.css -> site.css
ASSET = re.compile(r'<(?:link|script|img|source)\b[^>]*?\b(?:href|src|srcset)="(/[^"]+)"[^>]*>')
PAGE_TYPES = {
    "home": "/{lang}/",
    "Hanamikoji rules": "/{lang}/hanamikoji/",
    "Koi-Koi rules": "/{lang}/koikoi/",
    "Hanamikoji checker": CHECKER.replace("/en/", "/{lang}/"),
    "Koi-Koi checker": KOIKOI_CHECKER.replace("/en/", "/{lang}/"),
}


class Visit(NamedTuple):
    """A first visit's bytes (see first_visit)."""

    total: int  # everything on the wire
    html: int  # the HTML as sent
    plain: int  # the HTML unpacked
    best: int  # the HTML at brotli's best: what no server setting beats without changing it
    files: dict[str, int]  # what else it fetched, in the page's order: `css/site.css` -> bytes

    @property
    def at_best(self) -> int:
        """The whole visit with the HTML at brotli's best."""
        return self.best + sum(self.files.values())


def first_visit(base: str, path: str) -> Visit:
    """Bytes of a first visit on the wire as a browser with an empty cache fetches it (its
    bodies as sent, compressed when `br, gzip` is accepted; headers not counted): the
    HTML, then every stylesheet, script and image it names (`<link href>`, `<script src>`,
    `<img src>`, `<source srcset>`; `data:` ones are inside the HTML), and the service
    worker the site script registers (/sw.js; registered after the page's load, but a first
    visit fetches it) with the offline page of the page's language, which the worker keeps
    when it starts (static/js/sw.js, keepOfflinePage: that page alone, not its files; the
    worker's fetch of the open page again is a 304, headers only). File names are given
    without their hashes."""
    import brotli

    headers, body = fetch(base, path, "Accept-Encoding: br, gzip")
    html = unpack(body, headers.get("content-encoding"))
    named = [m.group(1).replace("&amp;", "&") for m in ASSET.finditer(html.decode())]
    if b'data-service-worker="' in html:
        named.append(re.search(rb'data-service-worker="([^"]+)"', html).group(1).decode())
    fetched: dict[str, int] = {}
    for asset in dict.fromkeys(named):  # each once, in the page's order
        if asset != path and (asset.startswith("/static/") or asset == "/sw.js"):
            name = HASHED_NAME.sub("", asset.removeprefix("/static/").lstrip("/"))
            fetched[name] = len(fetch(base, asset, "Accept-Encoding: br, gzip")[1])
    if "sw.js" in fetched:
        offline = "/" + path.lstrip("/").split("/", 1)[0] + "/offline"
        fetched["offline page"] = len(fetch(base, offline, "Accept-Encoding: br, gzip")[1])
    return Visit(len(body) + sum(fetched.values()), len(body), len(html),
                 len(brotli.compress(html, quality=11)), fetched)


def in_process_us(bodies: list[str]) -> dict[str, float]:
    """CPU time per score request without HTTP: where the product's time goes."""
    from werkzeug.test import EnvironBuilder

    from rulebook import jsonio
    from rulebook.referee import referee
    from tools import bench_app
    from webapp.server import wsgi

    def per_request(app) -> float:
        fastest = float("inf")
        for _ in range(5):
            environs = [EnvironBuilder(path="/api/v1/hanamikoji/score", method="POST", data=body,
                                       content_type="application/json").get_environ()
                        for body in bodies]
            start = time.process_time()
            for environ in environs:
                b"".join(app(environ, lambda *args: None))
            fastest = min(fastest, (time.process_time() - start) / len(environs))
        return fastest * 1e6

    raw = [body.encode() for body in bodies]
    fastest = float("inf")
    for _ in range(5):
        start = time.process_time()
        for data in raw:
            jsonio.dumps(referee(jsonio.loads(data), "en"))
        fastest = min(fastest, (time.process_time() - start) / len(raw))
    return {"product": per_request(wsgi.app), "baseline": per_request(bench_app.app),
            "referee": fastest * 1e6}


def render_ms() -> tuple[float, float]:
    """CPU of the checker permalink through the whole WSGI stack (no HTTP): rendered afresh
    (page cache emptied first) vs answered from the page cache."""
    from werkzeug.test import EnvironBuilder

    from webapp.server import wsgi

    cache = wsgi.app.extensions["shinpan.page_cache"]
    path, _, query = CHECKER.partition("?")

    def cpu(clear: bool, runs: int) -> float:
        fastest = float("inf")
        for _ in range(3):
            environs = [EnvironBuilder(path=path, query_string=query,
                                       headers={"Host": "127.0.0.1"}).get_environ()
                        for _ in range(runs)]
            total = 0.0
            for environ in environs:
                if clear:
                    cache.clear()
                start = time.process_time()
                b"".join(wsgi.app(environ, lambda *args: None))
                total += time.process_time() - start
            fastest = min(fastest, total / runs)
        return fastest * 1000

    return cpu(True, 30), cpu(False, 2000)


TAPS = {  # one control changed per tap: a count stepped, a card ticked
    "Hanamikoji": [f"/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,{i % 3},{3 - i % 3}"
                   f"&na=Olena&nb=Jonas&round={1 + i // 3}" for i in range(9)],
    "Koi-Koi": [f"/en/koikoi/score?a=0,2,8,10,28,30,{32 + i}&winner=a&ka=0&kb=1&ruleset=nintendo"
                for i in range(9)],
}
TAP_TARGET_MS = 1.5


def sent_koikoi_taps() -> list[str]:
    """The Koi-Koi taps of TAPS as static/js/live.js sends the form (every field by its name,
    a card per `a=`): the checker answers their live update with the live parts of the tidy
    address of TAPS (webapp/pages/checker.py), where the page without JavaScript gets a 303."""
    from webapp.games import GAMES

    options = "".join(f"&{key}=" for key in GAMES["koikoi"].rulebook.options)
    return ["/en/koikoi/score?na=&nb=&round=1&dealer=a&ta=0&tb=0&winner=a&ka=0&kb=1"
            + "".join(f"&a={card}" for card in (0, 2, 8, 10, 28, 30, 32 + i))
            + f"&ruleset=nintendo&house={options}" for i in range(9)]


def tap_ms() -> dict[str, tuple[float, ...]]:
    """Server CPU of a checker tap through the whole WSGI stack, in-process (page cache
    emptied: every tap is a new address): the live update (`Shinpan-Live: regions`: the
    live parts static/js/live.js puts in place) and the full page (no JavaScript); for
    Koi-Koi also the form as live.js sends it (its own query, answered at the tidy address).
    Medians over TAPS, best of 3."""
    from werkzeug.test import EnvironBuilder

    from webapp.server import wsgi

    cache = wsgi.app.extensions["shinpan.page_cache"]

    def median_ms(urls: list[str], live: bool) -> float:
        rounds = []
        for _ in range(3):
            each = []
            for url in urls:
                path, _, query = url.partition("?")
                headers = {"Host": "127.0.0.1", **({"Shinpan-Live": "regions"} if live else {})}
                environ = EnvironBuilder(path=path, query_string=query,
                                         headers=headers).get_environ()
                cache.clear()
                start = time.process_time()
                b"".join(wsgi.app(environ, lambda *args: None))
                each.append(time.process_time() - start)
            rounds.append(statistics.median(each) * 1000)
        return min(rounds)

    taps: dict[str, tuple[float, ...]] = {
        game: (median_ms(urls, True), median_ms(urls, False)) for game, urls in TAPS.items()}
    taps["Koi-Koi"] += (median_ms(sent_koikoi_taps(), True),)
    return taps


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}, "
            f"{time.strftime('%Y-%m-%d %H:%M %Z')}, load average {os.getloadavg()[0]:.1f}")


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def line(label: str, pair: tuple[list[float], list[float]], a_name: str, b_name: str,
         target: float | None, what: str = "target") -> str:
    """Best req/s of each side, then the paired rounds' ratios: median (min-max); the target
    is judged on the median (None: a reference line, judged by nothing)."""
    each = ratios(pair)
    ratio = statistics.median(each)
    judged = ("a reference, no target" if target is None
              else f"{what} >= {target:g}: {verdict(ratio >= target)}")
    return (f"  {label:<11s}{max(pair[0]):7.0f} req/s  {b_name:<9s}{max(pair[1]):7.0f} req/s   "
            f"ratio {ratio:5.2f} ({min(each):.2f}-{max(each):.2f}, {len(each)} rounds; "
            f"{a_name} / {b_name}, {judged})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per run")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs per side")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--starts", type=int, default=7, help="fresh processes for start-up")
    parser.add_argument("--json", help="also write the numbers to this file")
    args = parser.parse_args(argv)
    if not wrk.available():
        raise SystemExit("wrk is not installed: `make bench` installs it (Debian's wrk)")

    scores = [loadgen.post_json("/api/v1/hanamikoji/score", body, label="score")
              for body in board_requests(200)]
    koikoi = [loadgen.post_json("/api/v1/koikoi/score", body, label="koikoi")
              for body in koikoi_requests(200)]
    pages = [loadgen.get("/en/hanamikoji/")]
    browser = [loadgen.get("/en/hanamikoji/", headers={"Accept-Encoding": "gzip, deflate, br"})]
    run = (args.concurrency, args.duration, args.rounds)
    loads = [os.getloadavg()[0]]
    with serve() as granian, serve(server="gunicorn") as gunicorn, \
            serve("tools.bench_app:app") as echo, \
            serve("tools.bench_app:echo") as raw, serve("tools.bench_app:floor") as floor, \
            serve(env={"SHINPAN_INTERFACE": "asgi"}) as asgi:
        for base in (granian, gunicorn, echo, asgi):  # warm-up: imports, page cache, catalogs
            loadgen.run(base, scores + koikoi + pages, 4, 1.0)
        for base in (raw, floor):
            loadgen.run(base, scores, 4, 0.5)
        server_score = compare(granian, gunicorn, scores, *run)
        server_page = compare(granian, gunicorn, pages, *run)
        server_browser = compare(granian, gunicorn, browser, *run)
        echo_score = compare(granian, echo, scores, *run)
        raw_score = compare(granian, raw, scores, *run)
        floor_score = compare(granian, floor, scores, *run)
        raw_koikoi = compare(granian, raw, koikoi, *run)
        loads.append(os.getloadavg()[0])
        asgi_score = compare(asgi, granian, scores, *run)
        asgi_page = compare(asgi, granian, pages, *run)
        asgi_browser = compare(asgi, granian, browser, *run)
        visits = {name: {lang: first_visit(granian, path.format(lang=lang)) for lang in LANGUAGES}
                  for name, path in PAGE_TYPES.items()}
        permalink = [fetch(granian, CHECKER, "Accept-Encoding: gzip") for _ in range(2)]
    loads.append(os.getloadavg()[0])
    os.environ["SHINPAN_ACCESS_LOG"] = "0"  # in-process measurements below print no log
    starts = bench_start.site(args.starts)
    cli = bench_start.cli(args.starts, wheel=True)
    cpu = in_process_us(board_requests(300))
    fresh_ms, kept_ms = render_ms()
    taps = tap_ms()
    loads.append(os.getloadavg()[0])

    print(f"HTTP benchmark (127.0.0.1, wrk, {args.concurrency} keep-alive connections, "
          f"{args.rounds} paired rounds of {args.duration:g} s, each pair's two sides alternated)")
    print(f"  machine: {machine()}")
    print(f"  load average (1 min) at start, after the score ratios, after HTTP, at the end: "
          f"{', '.join(f'{load:.1f}' for load in loads)} (a shared machine: the ratios move "
          f"with it; req/s is each side's best round, the ratio the median (min-max) of the "
          f"rounds' ratios)")
    print("  granian (webapp/server/serve.py) vs gunicorn (gunicorn.conf.py), the same app:")
    print(line("score API", server_score, "granian", "gunicorn", SERVER_SCORE_TARGET))
    print(line("rules page", server_page, "granian", "gunicorn", SERVER_PAGE_TARGET))
    print(line("  br asked", server_browser, "granian", "gunicorn", SERVER_PAGE_TARGET))
    print("  the ASGI entry (webapp/server/asgi.py, body deadline) vs the WSGI interface, both granian:")
    for label, pair in (("score API", asgi_score), ("rules page", asgi_page),
                        ("  br asked", asgi_browser)):
        print(line(label, pair, "ASGI", "WSGI", ASGI_TARGET, "budget to be the default"))
    print("  the score APIs vs baselines on the same granian config (tools/bench_app.py): a Flask")
    print("  JSON echo, a raw 6-line WSGI JSON echo, and a floor that sends the body back unparsed:")
    print(line("score API", echo_score, "product", "Flask echo", ECHO_TARGET))
    print(line("score API", raw_score, "product", "raw echo", RAW_ECHO_SCORE_TARGET))
    print(line("Koi-Koi API", raw_koikoi, "product", "raw echo", RAW_ECHO_KOIKOI_TARGET))
    print(line("score API", floor_score, "product", "floor", None))
    print("  first visit on the wire (HTML + CSS + JS + images + /sw.js + the offline page it "
          "keeps, compressed as a browser asks; "
          f"target <= {FIRST_VISIT_TARGET // 1024} KB for every page type):")
    for name, by_lang in visits.items():
        en = by_lang["en"]
        worst = max(by_lang, key=lambda lang: by_lang[lang].total)
        print(f"    {name:<19s} en {en.total / 1024:5.1f} KB (HTML {en.html / 1024:.1f} KB, "
              f"{en.plain / 1024:.1f} KB unpacked); largest {worst} "
              f"{by_lang[worst].total / 1024:5.1f} KB: "
              f"{verdict(by_lang[worst].total <= FIRST_VISIT_TARGET)}")
        print("      fetched: " + ", ".join(f"{asset} {size / 1024:.1f}"
                                          for asset, size in en.files.items()) + " KB")
        print(f"      the same page at brotli's best: HTML {en.best / 1024:.1f} KB, with the files "
              f"{en.at_best / 1024:.1f} KB (largest {worst}: "
              f"{by_lang[worst].at_best / 1024:.1f} KB)")
    same = (permalink[0][0].get("etag") == permalink[1][0].get("etag")
            and permalink[0][1] == permalink[1][1])
    print(f"  checker permalink asked twice: {'same ETag and bytes' if same else 'DIFFERENT'}; "
          f"CPU in-process: fresh render {fresh_ms:.2f} ms, from the page cache "
          f"{kept_ms * 1000:.0f} us")
    for game, (live, full, *sent) in taps.items():
        judged = sent[0] if sent else live  # what a tap costs as live.js sends it
        print(f"  {game} checker tap, server CPU in-process (median of {len(TAPS[game])} taps): "
              f"live regions {live:.2f} ms"
              + (f", {sent[0]:.2f} ms for the form as live.js sends it (answered at its tidy "
                 f"address)" if sent else "")
              + f", full page {full:.2f} ms (target <= {TAP_TARGET_MS:g} ms for the live "
              f"update: {verdict(judged <= TAP_TARGET_MS)})")
    for text in bench_start.lines(starts, cli, START_TARGET_MS, CLI_TARGET_MS):
        print(text)
    print(f"  in-process CPU per score request (no HTTP): product {cpu['product']:.0f} us, "
          f"bare echo {cpu['baseline']:.0f} us; referee + response JSON alone "
          f"{cpu['referee']:.0f} us")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "server_score": server_score, "server_page": server_page,
            "server_browser": server_browser, "echo_score": echo_score,
            "raw_score": raw_score, "floor_score": floor_score, "raw_koikoi": raw_koikoi,
            "loads": loads, "first_visit": visits,
            "asgi_score": asgi_score, "asgi_page": asgi_page, "asgi_browser": asgi_browser,
            "startup_ms": starts, "cli_ms": cli,
            "in_process_us": cpu, "render_ms": [fresh_ms, kept_ms], "tap_ms": taps,
            "date": time.strftime("%Y-%m-%d"),
        }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
