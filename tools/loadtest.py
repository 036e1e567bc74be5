"""`make loadtest`: the production server (granian, webapp/server/serve.py) on a free loopback port,
driven by tools/loadgen.

A mix of rules pages (every language, search) and score requests (board and action-log
rounds) for DURATION seconds at each concurrency level; prints throughput, p50/p99
latency and errors, and exits non-zero on any error or unexpected status.

    python tools/loadtest.py [--duration 10] [--levels 1,8,64,256] [--max-requests 200000]
    python tools/loadtest.py --server gunicorn     # the same load against gunicorn.conf.py
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulebook.i18n import LANGUAGES
from tools import loadgen
from tools.bench_referee import board_requests, log_requests
from tools.server import serve


def mix() -> list[loadgen.Req]:
    pages = []
    for lang in LANGUAGES:
        pages += [loadgen.get(f"/{lang}/"), loadgen.get(f"/{lang}/hanamikoji/"),
                  loadgen.get(f"/{lang}/hanamikoji/disagreements"),
                  loadgen.get(f"/{lang}/hanamikoji/search?q=geisha")]
    pages.append(loadgen.get("/en/hanamikoji/?edition=deepwater&round_limit=1"))
    scores = [loadgen.post_json(f"/api/v1/hanamikoji/score?lang={LANGUAGES[i % 5]}", body,
                                label="score")
              for i, body in enumerate(board_requests(40) + log_requests(2))]
    out = []
    for i in range(max(len(pages), len(scores))):  # interleaved: pages and scores alternate
        out.append(pages[i % len(pages)])
        out.append(scores[i % len(scores)])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per level")
    parser.add_argument("--levels", default="1,8,64,256", help="concurrency levels")
    parser.add_argument("--server", default="granian", choices=("granian", "gunicorn"))
    parser.add_argument("--max-requests", type=int, default=200_000, help="cap per level")
    parser.add_argument("--log", default=None, help="server log file (default: a temp file)")
    args = parser.parse_args(argv)
    levels = [int(x) for x in args.levels.split(",")]
    log = args.log or tempfile.mkstemp(prefix=f"shinpan-{args.server}-", suffix=".log")[1]
    requests = mix()
    failed = False
    print(f"Load test: {len(requests)} distinct requests (rules pages and score requests, "
          f"alternating), {args.duration:g} s per level, {args.server}, log {log}")
    with serve(log=log, server=args.server) as base:
        loadgen.run(base, requests, 4, 1.0)  # warm-up: page caches, imports, catalogs
        for level in levels:
            result = loadgen.run(base, requests, level, args.duration, args.max_requests)
            print("  " + result.line())
            for what, count in result.errors.most_common(10):
                print(f"      {count:6d} x {what}")
            failed |= result.error_count > 0 or result.requests == 0
    print("FAILED: errors or unexpected statuses" if failed else "OK: no errors")
    if not failed and not args.log:
        Path(log).unlink(missing_ok=True)  # kept only when something went wrong
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
