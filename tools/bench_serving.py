"""What serving costs at start and in the background (BENCHMARKS.md, "Reload and respawn"):

* start-up: `import webapp; webapp.create_app()` in a fresh interpreter, the whole
  `shinpan score` process on one round, and a granian worker's time from its start to
  ready (imports, create_app(), the warm-up: the "ready in" lines of the log, at start
  and after two reloads);
* the watchdog's price: the score API and a kept page with wrk, the server as
  configured (heartbeat thread, watchdog) against SHINPAN_WORKER_TIMEOUT=0 (neither),
  in alternated rounds; each ratio as the median and the range of the rounds.

    python tools/bench_serving.py [--runs 11] [--rounds 5] [--seconds 3]

Medians and ranges, with the machine's load average: these shared cores drift.
"""
from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import bench_start, loadgen, server, wrk
from tools.bench_referee import board_requests
from tools.faulttest import RELOAD_DONE

ROOT = Path(__file__).resolve().parent.parent
READY_IN = re.compile(r"ready in ([\d.]+) s")


def spread(values: list[float], unit: str, digits: int = 0) -> str:
    return (f"median {statistics.median(values):.{digits}f} {unit} (min {min(values):.{digits}f}, "
            f"max {max(values):.{digits}f}, {len(values)} runs)")


def create_app_ms(runs: int) -> list[float]:
    """`import webapp; webapp.create_app()` in a fresh interpreter, wall ms: the parts
    tools/bench_start.py times (Flask's import, the app's, create_app()) added up."""
    parts = bench_start.site(runs).values()
    return [sum(part[run][0] for part in parts) for run in range(runs)]


def cli_ms(runs: int) -> list[float]:
    """`shinpan score` on one round, the whole process with the verdict kept, wall ms."""
    shinpan = str(Path(sys.executable).parent / "shinpan")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        handle.write(board_requests(1)[0])
    try:
        env = bench_start.child_env()
        bench_start.process([shinpan, "score", handle.name], env)  # leaves the verdict
        return [bench_start.process([shinpan, "score", handle.name], env)[0]
                for _ in range(runs)]
    finally:
        os.unlink(handle.name)


def worker_ready_s(reloads: int) -> list[float]:
    """Each worker's start-to-ready time, at start and over `reloads` reloads."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "server.log"
        with server.serve(env={"WEB_CONCURRENCY": "2"}, log=log) as base:
            for done in range(reloads):
                os.kill(base.pid, signal.SIGHUP)
                server.wait_for(lambda n=done: server.log_count(base, RELOAD_DONE) > n,
                                "reload done line")
            return [float(x) for x in READY_IN.findall(log.read_text())]


def watchdog_ratios(rounds: int, seconds: float) -> dict[str, list[float]]:
    """(with the watchdog) / (without it), per alternated round."""
    loads = {"score API": [loadgen.post_json("/api/v1/hanamikoji/score", body)
                           for body in board_requests(200)],
             "kept page": [loadgen.get("/en/hanamikoji/")]}
    ratios: dict[str, list[float]] = {name: [] for name in loads}
    with server.serve() as on, server.serve(env={"SHINPAN_WORKER_TIMEOUT": "0"}) as off:
        for requests in loads.values():  # warm both
            wrk.run(on, requests, 8, 1)
            wrk.run(off, requests, 8, 1)
        for index in range(rounds):
            for name, requests in loads.items():
                pair = [on, off] if index % 2 == 0 else [off, on]  # alternate who goes first
                rates = {id(base): wrk.run(base, requests, 8, seconds) for base in pair}
                ratios[name].append(rates[id(on)] / rates[id(off)])
    return ratios


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="fresh processes per start-up")
    parser.add_argument("--rounds", type=int, default=5, help="alternated rounds with wrk")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of a wrk run")
    args = parser.parse_args(argv)
    print(f"Serving benchmark, {os.cpu_count()} cores, load average at start "
          f"{os.getloadavg()[0]:.1f}")
    print(f"  create_app() in a fresh interpreter (imports included): "
          f"{spread(create_app_ms(args.runs), 'ms')}")
    print(f"  `shinpan score` on one round, the whole process: {spread(cli_ms(args.runs), 'ms')}")
    print(f"  a granian worker from its start to ready (at start and over 2 reloads): "
          f"{spread(worker_ready_s(2), 's', 2)}")
    if wrk.available():
        for name, ratios in watchdog_ratios(args.rounds, args.seconds).items():
            print(f"  {name} with the watchdog / without: ratio median {statistics.median(ratios):.3f}"
                  f" (min {min(ratios):.3f}, max {max(ratios):.3f}, {len(ratios)} alternated rounds)")
    else:
        print("  (wrk is not installed: `make wrk`; no watchdog measurement)")
    print(f"  load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
