"""Start-up, measured as `make bench` prints it (tools/bench_http.py calls these):

* the site: a fresh interpreter's `import flask`, then `import webapp`, then `create_app()`
  (the issue's target, <= 150 ms, is on create_app() alone: the imports are printed beside
  it so a reader sees the whole start);
* `shinpan score` on one round as whole processes, wall and CPU time: cold (a fresh
  process, an empty cache folder), with the rulebooks' verdict kept, and warm (main()
  again in one process), from this checkout's editable install (a path in a `.pth`:
  pyproject.toml's package-dir); and cold from the wheel installed into a virtual
  environment of its own (`--wheel`), as a site runs it.

    python -m tools.bench_start [--runs 7] [--wheel]

Children run without PYTHONDONTWRITEBYTECODE (as make runs them): with it, every process
would compile every module again, which measures the compiler, not the start.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.bench_referee import board_requests

SITE_CODE = """
import json, time
t0, c0 = time.perf_counter(), time.process_time()
import flask
t1, c1 = time.perf_counter(), time.process_time()
import webapp
t2, c2 = time.perf_counter(), time.process_time()
webapp.create_app()
t3, c3 = time.perf_counter(), time.process_time()
print(json.dumps({"flask": [(t1 - t0) * 1e3, (c1 - c0) * 1e3],
                  "webapp": [(t2 - t1) * 1e3, (c2 - c1) * 1e3],
                  "create_app": [(t3 - t2) * 1e3, (c3 - c2) * 1e3]}))
"""
SOURCES = ("pyproject.toml", "README.md", "rulebook", "webapp")  # what the wheel is built from


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def process(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall ms, CPU ms: user + system) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd="/", env=env, check=False, capture_output=True)
    wall = (time.perf_counter() - start) * 1e3
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3
    return wall, cpu


def site(runs: int) -> dict[str, list[list[float]]]:
    """{"flask" | "webapp" | "create_app": [[wall ms, CPU ms] of each run]}."""
    out: dict[str, list[list[float]]] = {"flask": [], "webapp": [], "create_app": []}
    for _ in range(runs):
        text = subprocess.run([sys.executable, "-c", SITE_CODE], cwd="/", env=child_env(),
                              check=True, capture_output=True, text=True).stdout
        for key, value in json.loads(text.strip().splitlines()[-1]).items():
            out[key].append(value)
    return out


def cold_and_kept(shinpan: str, request: str, runs: int) -> dict[str, list[tuple[float, float]]]:
    """Cold: a fresh process and an empty cache folder each time (the first run after an
    install); kept: the verdict the first run left in the cache folder."""
    cold = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="shinpan-cold-") as folder:
            cold.append(process([shinpan, "score", request], child_env(SHINPAN_CACHE_DIR=folder)))
    with tempfile.TemporaryDirectory(prefix="shinpan-kept-") as folder:
        env = child_env(SHINPAN_CACHE_DIR=folder)
        process([shinpan, "score", request], env)  # the first run leaves the verdict
        kept = [process([shinpan, "score", request], env) for _ in range(runs)]
    return {"cold": cold, "kept": kept}


def warm(request: str, runs: int) -> list[float]:
    """main() again in this process (everything imported and loaded), wall ms."""
    from rulebook import cli

    times = []
    with open(os.devnull, "w") as null:
        stdout, sys.stdout = sys.stdout, null
        try:
            for _ in range(runs + 1):
                start = time.perf_counter()
                cli.main(["score", request])
                times.append((time.perf_counter() - start) * 1e3)
        finally:
            sys.stdout = stdout
    return times[1:]


def wheel_install(folder: Path) -> Path:
    """The wheel built from this checkout, installed without dependencies into a venv of
    its own under `folder`, which finds its dependencies in this venv's site-packages
    (a plain path line): the `shinpan` script of that venv."""
    import sysconfig

    src = folder / "src"
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            src.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "--no-index", "-w", str(folder / "dist"), str(src)],
                   check=True, capture_output=True, cwd=folder, env=child_env())
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    wheel = next((folder / "dist").glob("shinpan-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                    "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True, env=child_env())
    purelib = subprocess.run([str(venv / "bin" / "python"), "-c",
                              "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             check=True, capture_output=True, text=True).stdout.strip()
    Path(purelib, "shinpan-bench-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return venv / "bin" / "shinpan"


def cli(runs: int, wheel: bool) -> dict[str, list]:
    """`shinpan score` on one round: {"cold", "kept": [(wall, CPU)], "warm": [wall],
    "wheel_cold": [(wall, CPU)] (with `wheel`)}."""
    with tempfile.TemporaryDirectory(prefix="shinpan-bench-") as folder:
        request = Path(folder) / "round.json"
        request.write_text(board_requests(1)[0])
        out: dict[str, list] = dict(cold_and_kept(str(Path(sys.executable).parent / "shinpan"),
                                                  str(request), runs))
        out["warm"] = warm(str(request), runs)
        if wheel:
            shinpan = wheel_install(Path(folder))
            process([str(shinpan), "score", str(request)], child_env())  # compiles its modules
            out["wheel_cold"] = cold_and_kept(str(shinpan), str(request), runs)["cold"]
        return out


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):6.1f} ms ({min(values):.1f}-{max(values):.1f})"


def lines(starts: dict[str, list[list[float]]], times: dict[str, list],
          start_target: float, cli_target: float) -> list[str]:
    """What `make bench` prints: medians (min-max) of wall and CPU time."""
    def ok(value: float, target: float) -> str:
        return f"target <= {target:g} ms: {'met' if value <= target else 'NOT met'}"

    runs = len(starts["create_app"])
    made = statistics.median(wall for wall, _ in starts["create_app"])
    out = [f"  site start-up in a fresh interpreter, median (min-max) of {runs}, wall / CPU:"]
    for key, label in (("flask", "import flask"), ("webapp", "import webapp (after Flask)"),
                       ("create_app", "create_app()")):
        walls, cpus = zip(*starts[key])
        out.append(f"    {label:<28s} {spread(list(walls))} / {spread(list(cpus))}"
                   + (f"; {ok(made, start_target)} (the target is on this line)"
                      if key == "create_app" else ""))
    out.append(f"  `shinpan score` one round, whole processes, median (min-max) of {runs}, "
               "wall / CPU:")
    labels = (("cold", "cold (empty cache folder)"), ("kept", "the verdict kept"),
              ("wheel_cold", "cold, from the wheel"))
    for key, label in labels:
        if key not in times:
            continue
        walls, cpus = zip(*times[key])
        median = statistics.median(walls)
        out.append(f"    {label:<28s} {spread(list(walls))} / {spread(list(cpus))}"
                   + (f"; {ok(median, cli_target)}" if key in ("cold", "wheel_cold") else ""))
    out.append(f"    {'warm (main() again)':<28s} {spread(times['warm'])}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--wheel", action="store_true", help="also time an installed wheel")
    args = parser.parse_args(argv)
    os.environ["SHINPAN_ACCESS_LOG"] = "0"
    print(f"load average (1 min): {os.getloadavg()[0]:.1f}")
    for line in lines(site(args.runs), cli(args.runs, args.wheel), 150.0, 100.0):
        print(line)
    print(f"load average (1 min): {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
