"""`make lighthouse`: Lighthouse (npm, run on Debian's Chromium) on the pages people open
most, served by the production server on a free loopback port; mobile preset.

The pages are in one language (`LIGHTHOUSE_LANG`, default en: `LIGHTHOUSE_LANG=ja make
lighthouse`). Each page is measured RUNS times (`LIGHTHOUSE_RUNS`, default 3) and the median score of
each category counts (the performance score moves with the machine's load: Lighthouse
itself advises a median). Prints the scores, the machine's load average and the time taken,
and fails when one of performance, accessibility, best practices or SEO is under MINIMUM.
The reports land in tests/artifacts/lighthouse/. Not part of `make test`: on a quiet
machine a run takes about four minutes. The screenshots Lighthouse takes for its HTML
report are left out (SKIPPED): the scores do not use them, and the full-page one of a long
rules page cost more than the audit itself.
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rulebook.i18n import LANGUAGES
from tools.server import serve

ROOT = Path(__file__).resolve().parents[1]
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
REPORTS = ROOT / "tests" / "artifacts" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
MINIMUM = 95
RUNS = int(os.environ.get("LIGHTHOUSE_RUNS", "3"))
SKIPPED = "full-page-screenshot,screenshot-thumbnails,final-screenshot"
LANG = os.environ.get("LIGHTHOUSE_LANG", "en")
PAGES = {
    "home": f"/{LANG}/",
    "rules-hanamikoji": f"/{LANG}/hanamikoji/",
    "rules-koikoi": f"/{LANG}/koikoi/",
    "checker-hanamikoji": f"/{LANG}/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3",
    "checker-koikoi": f"/{LANG}/koikoi/score?a=0,2,8,10,28,30&winner=a&ka=0&kb=1&ruleset=nintendo",
}
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"


def audit(url: str, name: str) -> dict[str, int]:
    """The page's score per category (0-100), from a fresh Lighthouse run, and the
    machine's speed as Lighthouse measured it then (`benchmark`, its benchmarkIndex)."""
    report = REPORTS / f"{name}.json"
    env = {**os.environ, "CHROME_PATH": shutil.which("chromium") or "/usr/bin/chromium"}
    command = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
               f"--chrome-flags={CHROME_FLAGS}",
               f"--only-categories={','.join(CATEGORIES)}", f"--skip-audits={SKIPPED}"]
    # Lighthouse sometimes loses its own trace (NO_NAVSTART: "Please run Lighthouse
    # again"); one more run, said so, before giving up
    if subprocess.run(command, check=False, env=env, cwd=ROOT, timeout=300).returncode:
        print(f"  {name}: Lighthouse failed, running it once more", file=sys.stderr)
        subprocess.run(command, check=True, env=env, cwd=ROOT, timeout=300)
    result = json.loads(report.read_text(encoding="utf-8"))
    scores = {key: round(result["categories"][key]["score"] * 100) for key in CATEGORIES}
    return {**scores, "benchmark": round(result["environment"]["benchmarkIndex"])}


def main() -> int:
    if not LIGHTHOUSE.exists():
        print("lighthouse is missing: `make lighthouse` installs it (npm ci)", file=sys.stderr)
        return 2
    if LANG not in LANGUAGES:
        print(f"LIGHTHOUSE_LANG={LANG}: not one of {', '.join(LANGUAGES)}", file=sys.stderr)
        return 2
    REPORTS.mkdir(parents=True, exist_ok=True)
    low = []
    started = time.monotonic()
    print(f"load average before: {' '.join(f'{n:.2f}' for n in os.getloadavg())}; "
          f"{RUNS} runs per page, in {LANG}")
    with serve(env={"WEB_CONCURRENCY": "1"}) as base:
        print(f"{'page':<20}" + "".join(f"{key:>16}" for key in (*CATEGORIES, "benchmark")))
        for name, path in PAGES.items():
            runs = [audit(base + path, f"{name}-{LANG}-{i}") for i in range(RUNS)]
            scores = {key: round(statistics.median(run[key] for run in runs))
                      for key in (*CATEGORIES, "benchmark")}
            print(f"{name:<20}" + "".join(f"{scores[key]:>16}" for key in (*CATEGORIES, "benchmark")))
            low += [f"{name} {key} {scores[key]}" for key in CATEGORIES if scores[key] < MINIMUM]
    minutes, seconds = divmod(round(time.monotonic() - started), 60)
    print(f"load average after: {' '.join(f'{n:.2f}' for n in os.getloadavg())}; "
          f"took {minutes}:{seconds:02d}")
    if low:
        print(f"under {MINIMUM}:", *low, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
