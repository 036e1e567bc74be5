"""The rulings and pages are the same bytes as before the lean request path (issue 21):
tools/golden.py answers its corpus (every page type, checkers with boards, errors and
button presses, JSON rulings of both games, every language) and compares each answer with
tests/golden/answers.json, made from the commit before the change."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_answers_are_byte_identical_to_the_golden_file():
    # the repository's compiled catalogs, as the golden file was made (not the tests' own)
    env = {k: v for k, v in os.environ.items() if k != "SHINPAN_TRANSLATIONS"}
    run = subprocess.run([sys.executable, "-m", "tools.golden", "--check"], cwd=ROOT, env=env, check=False,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
