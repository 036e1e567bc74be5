"""`make bench`, HTTP part: the site against bare Flask baselines, as ratios in one run.

Both run at the same time under the same gunicorn configuration (gunicorn.conf.py) on
this machine, and are measured alternately (product, baseline, product, ...) with the
same load generator, so machine noise hits both; the best of ROUNDS runs counts.

* score API: POST /api/v1/hanamikoji/score (one-round board requests) against an endpoint
  that only parses and echoes the same JSON;                          target >= 0.85
* rules page: GET /en/hanamikoji/ against an endpoint returning the same bytes;
                                                                       target >= 0.9
* start-up: `import webapp; webapp.create_app()` in a fresh interpreter, median of
  STARTS runs;                                                         target < 300 ms
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulebook.bench import board_requests
from tools import loadgen
from tools.server import serve

SCORE_TARGET = 0.85
PAGE_TARGET = 0.90
START_TARGET_MS = 300.0


def startup_ms(runs: int) -> list[float]:
    code = ("import time; t = time.perf_counter(); import webapp; webapp.create_app(); "
            "print((time.perf_counter() - t) * 1000)")
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], cwd="/", check=True,
                             capture_output=True, text=True).stdout
        times.append(float(out.strip().splitlines()[-1]))
    return times


def best(base: str, requests: list[loadgen.Req], concurrency: int, duration: float) -> float:
    result = loadgen.run(base, requests, concurrency, duration)
    if result.error_count:
        raise SystemExit(f"errors against {base}: {dict(result.errors)}")
    return result.throughput


def compare(product: str, baseline: str, requests: list[loadgen.Req], concurrency: int,
            duration: float, rounds: int) -> tuple[float, float]:
    ours, theirs = [], []
    for _ in range(rounds):
        ours.append(best(product, requests, concurrency, duration))
        theirs.append(best(baseline, requests, concurrency, duration))
    return max(ours), max(theirs)


def in_process_us(bodies: list[str]) -> dict[str, float]:
    """CPU time per score request without HTTP: where the product's time goes."""
    from werkzeug.test import EnvironBuilder

    from rulebook.referee import referee
    from tools import bench_app
    from webapp import wsgi

    def per_request(app) -> float:
        best = float("inf")
        for _ in range(5):
            environs = [EnvironBuilder(path="/api/v1/hanamikoji/score", method="POST", data=body,
                                       content_type="application/json").get_environ()
                        for body in bodies]
            start = time.process_time()
            for environ in environs:
                b"".join(app(environ, lambda *args: None))
            best = min(best, (time.process_time() - start) / len(environs))
        return best * 1e6

    documents = [json.loads(body) for body in bodies]
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for document in documents:
            json.dumps(referee(dict(document), "en"), ensure_ascii=False)
        best = min(best, (time.process_time() - start) / len(documents))
    return {"product": per_request(wsgi.app), "baseline": per_request(bench_app.app),
            "referee": best * 1e6}


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per run")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs per side")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--starts", type=int, default=7, help="fresh interpreters for start-up")
    parser.add_argument("--json", help="also write the numbers to this file")
    args = parser.parse_args(argv)

    scores = [loadgen.post_json("/api/v1/hanamikoji/score", body, label="score")
              for body in board_requests(200)]
    pages = [loadgen.get("/en/hanamikoji/")]
    with serve() as product, serve("tools.bench_app:app") as baseline:
        for base in (product, baseline):  # warm-up: imports, page cache, catalogs
            loadgen.run(base, scores + pages, 4, 1.0)
        score = compare(product, baseline, scores, args.concurrency, args.duration, args.rounds)
        page = compare(product, baseline, pages, args.concurrency, args.duration, args.rounds)
    starts = startup_ms(args.starts)
    cpu = in_process_us([body for body in board_requests(300)])
    start = statistics.median(starts)

    score_ratio = score[0] / score[1]
    page_ratio = page[0] / page[1]
    print(f"HTTP benchmark (gunicorn.conf.py on 127.0.0.1, {args.concurrency} keep-alive "
          f"connections, best of {args.rounds} alternating {args.duration:g} s runs)")
    print(f"  machine: {machine()}")
    print(f"  score API   {score[0]:7.0f} req/s   bare JSON echo  {score[1]:7.0f} req/s   "
          f"ratio {score_ratio:.3f}  (target >= {SCORE_TARGET}: {verdict(score_ratio >= SCORE_TARGET)})")
    print(f"  rules page  {page[0]:7.0f} req/s   bare same bytes {page[1]:7.0f} req/s   "
          f"ratio {page_ratio:.3f}  (target >= {PAGE_TARGET}: {verdict(page_ratio >= PAGE_TARGET)})")
    print(f"  create_app() start-up {start:5.0f} ms median of {len(starts)} fresh interpreters "
          f"(min {min(starts):.0f}, max {max(starts):.0f}; target < {START_TARGET_MS:.0f} ms: "
          f"{verdict(start < START_TARGET_MS)})")
    print(f"  in-process CPU per score request (no HTTP): product {cpu['product']:.0f} us, "
          f"bare echo {cpu['baseline']:.0f} us; referee + response JSON alone "
          f"{cpu['referee']:.0f} us")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "score": {"product": score[0], "baseline": score[1], "ratio": score_ratio},
            "page": {"product": page[0], "baseline": page[1], "ratio": page_ratio},
            "startup_ms": starts, "in_process_us": cpu, "date": time.strftime("%Y-%m-%d"),
        }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
