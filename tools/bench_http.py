"""`make bench`, HTTP part: the production server against gunicorn and against bare
baselines, as ratios measured side by side in one run.

Every pair runs at the same time on this machine, measured alternately (A, B, A, B, ...)
with the same load generator (wrk, through tools/wrk.py: keep-alive connections, the
same prepared requests round-robin), so machine noise hits both; the best of ROUNDS runs
counts. (The Python load generator costs more CPU per request than granian does for a
kept page, so it would measure itself: see tools/wrk.py.)

* granian vs gunicorn: the same app (webapp.server.wsgi:app), granian configured by
  webapp/server/serve.py, gunicorn by today's gunicorn.conf.py:
    score API  POST /api/v1/hanamikoji/score, 200 different one-round boards  target >= 2
    rules page GET /en/hanamikoji/ (a kept page), without Accept-Encoding      target >= 4
               and as a browser asks for it (Accept-Encoding: gzip, deflate, br)
* the ASGI entry (webapp/server/asgi.py: a body deadline, the site on threads) vs the WSGI
  interface, the same app, workers and threads (SHINPAN_INTERFACE=asgi):
    score API, rules page (plain and br asked)                                 target >= 0.85
  (at or above it the ASGI entry could be the default: webapp/server/serve.py, BENCHMARKS.md)
* score API vs a bare JSON echo (tools/bench_app.py) on the same server (granian):
                                                                               target >= 0.9
* bytes on the wire of a rules page's first visit (Accept-Encoding: br, gzip)  target <= 15 KB
* a checker permalink asked twice: the second answer comes from the page cache (same
  ETag and bytes); the CPU of a fresh render beside a kept one, in-process
* start-up: create_app() in a fresh interpreter, and the whole `shinpan score` process on
  one round (median of STARTS)                                  targets < 300 ms, <= 150 ms
* in-process CPU per score request (no HTTP): product, bare echo, referee + JSON alone
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import loadgen, wrk
from tools.bench_referee import board_requests
from tools.server import serve

SERVER_SCORE_TARGET = 2.0
SERVER_PAGE_TARGET = 4.0
ECHO_TARGET = 0.9
ASGI_TARGET = 0.85
FIRST_VISIT_TARGET = 15 * 1024
START_TARGET_MS = 300.0
CLI_TARGET_MS = 150.0
CHECKER = "/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&na=Olena&nb=Jonas"


def best(base: str, requests: list[loadgen.Req], concurrency: int, duration: float) -> float:
    return wrk.run(base, requests, concurrency, duration)


def compare(a: str, b: str, requests: list[loadgen.Req], concurrency: int, duration: float,
            rounds: int) -> tuple[float, float]:
    ours, theirs = [], []
    for _ in range(rounds):
        ours.append(best(a, requests, concurrency, duration))
        theirs.append(best(b, requests, concurrency, duration))
    return max(ours), max(theirs)


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


def process_ms(command: list[str], runs: int, cwd: str = "/") -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, check=False, capture_output=True)
        times.append((time.perf_counter() - start) * 1000)
    return times


def startup_ms(runs: int) -> list[float]:
    code = ("import time; t = time.perf_counter(); import webapp; webapp.create_app(); "
            "print((time.perf_counter() - t) * 1000)")
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], cwd="/", check=True,
                             capture_output=True, text=True).stdout
        times.append(float(out.strip().splitlines()[-1]))
    return times


def cli_ms(runs: int) -> list[float]:
    shinpan = str(Path(sys.executable).parent / "shinpan")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        handle.write(board_requests(1)[0])
    try:
        process_ms([shinpan, "score", handle.name], 1)  # the first run leaves the verdict
        return process_ms([shinpan, "score", handle.name], runs)
    finally:
        os.unlink(handle.name)


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


def line(label: str, a: float, a_name: str, b: float, b_name: str, target: float) -> str:
    ratio = a / b
    return (f"  {label:<11s}{a:7.0f} req/s  {b_name:<15s}{b:7.0f} req/s   ratio {ratio:5.2f}  "
            f"({a_name} / {b_name}, target >= {target:g}: {verdict(ratio >= target)})")


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
    pages = [loadgen.get("/en/hanamikoji/")]
    browser = [loadgen.get("/en/hanamikoji/", headers={"Accept-Encoding": "gzip, deflate, br"})]
    run = (args.concurrency, args.duration, args.rounds)
    with serve() as granian, serve(server="gunicorn") as gunicorn, \
            serve("tools.bench_app:app") as echo, \
            serve(env={"SHINPAN_INTERFACE": "asgi"}) as asgi:
        for base in (granian, gunicorn, echo, asgi):  # warm-up: imports, page cache, catalogs
            loadgen.run(base, scores + pages, 4, 1.0)
        server_score = compare(granian, gunicorn, scores, *run)
        server_page = compare(granian, gunicorn, pages, *run)
        server_browser = compare(granian, gunicorn, browser, *run)
        echo_score = compare(granian, echo, scores, *run)
        asgi_score = compare(asgi, granian, scores, *run)
        asgi_page = compare(asgi, granian, pages, *run)
        asgi_browser = compare(asgi, granian, browser, *run)
        first_headers, first_body = fetch(granian, "/fr/hanamikoji/", "Accept-Encoding: br, gzip")
        plain_size = len(fetch(granian, "/fr/hanamikoji/")[1])
        permalink = [fetch(granian, CHECKER, "Accept-Encoding: gzip") for _ in range(2)]
    os.environ["SHINPAN_ACCESS_LOG"] = "0"  # in-process measurements below print no log
    starts = startup_ms(args.starts)
    cli = cli_ms(args.starts)
    cpu = in_process_us(board_requests(300))
    fresh_ms, kept_ms = render_ms()

    print(f"HTTP benchmark (127.0.0.1, wrk, {args.concurrency} keep-alive connections, best of "
          f"{args.rounds} alternating {args.duration:g} s runs)")
    print(f"  machine: {machine()}")
    print("  granian (webapp/server/serve.py) vs gunicorn (gunicorn.conf.py), the same app:")
    print(line("score API", server_score[0], "granian", server_score[1], "gunicorn",
               SERVER_SCORE_TARGET))
    print(line("rules page", server_page[0], "granian", server_page[1], "gunicorn",
               SERVER_PAGE_TARGET))
    print(line("  br asked", server_browser[0], "granian", server_browser[1], "gunicorn",
               SERVER_PAGE_TARGET))
    print("  the ASGI entry (webapp/server/asgi.py, body deadline) vs the WSGI interface, both granian:")
    print(line("score API", asgi_score[0], "ASGI", asgi_score[1], "WSGI", ASGI_TARGET))
    print(line("rules page", asgi_page[0], "ASGI", asgi_page[1], "WSGI", ASGI_TARGET))
    print(line("  br asked", asgi_browser[0], "ASGI", asgi_browser[1], "WSGI", ASGI_TARGET))
    print("  the score API vs a bare JSON echo (Flask, tools/bench_app.py), both on granian:")
    print(line("score API", echo_score[0], "product", echo_score[1], "echo", ECHO_TARGET))
    size = len(first_body)
    print(f"  rules page, first visit: {size / 1024:.1f} KB on the wire "
          f"({first_headers.get('content-encoding', 'identity')}; {plain_size / 1024:.1f} KB "
          f"plain; target <= {FIRST_VISIT_TARGET // 1024} KB: {verdict(size <= FIRST_VISIT_TARGET)})")
    same = (permalink[0][0].get("etag") == permalink[1][0].get("etag")
            and permalink[0][1] == permalink[1][1])
    print(f"  checker permalink asked twice: {'same ETag and bytes' if same else 'DIFFERENT'}; "
          f"CPU in-process: fresh render {fresh_ms:.2f} ms, from the page cache "
          f"{kept_ms * 1000:.0f} us")
    print(f"  create_app() start-up {statistics.median(starts):5.0f} ms median of {len(starts)} "
          f"(min {min(starts):.0f}, max {max(starts):.0f}; target < {START_TARGET_MS:.0f} ms: "
          f"{verdict(statistics.median(starts) < START_TARGET_MS)})")
    print(f"  `shinpan score` one round {statistics.median(cli):5.0f} ms median of {len(cli)} "
          f"whole processes (min {min(cli):.0f}, max {max(cli):.0f}; target <= "
          f"{CLI_TARGET_MS:.0f} ms: {verdict(statistics.median(cli) <= CLI_TARGET_MS)})")
    print(f"  in-process CPU per score request (no HTTP): product {cpu['product']:.0f} us, "
          f"bare echo {cpu['baseline']:.0f} us; referee + response JSON alone "
          f"{cpu['referee']:.0f} us")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "server_score": server_score, "server_page": server_page,
            "server_browser": server_browser, "echo_score": echo_score,
            "asgi_score": asgi_score, "asgi_page": asgi_page, "asgi_browser": asgi_browser,
            "first_visit_bytes": size, "startup_ms": starts, "cli_ms": cli,
            "in_process_us": cpu, "render_ms": [fresh_ms, kept_ms],
            "date": time.strftime("%Y-%m-%d"),
        }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
