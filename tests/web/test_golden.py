"""The rulings and pages are the same bytes as before the lean request path (issue 21):
tools/golden.py answers its corpus (every page type, checkers with boards, errors and
button presses, JSON rulings of both games, every language) and compares each answer with
tests/golden/answers.json, made from the commit before the change."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tools.golden import GOLDEN, LANGUAGES, key_language

ROOT = Path(__file__).resolve().parents[2]


def test_answers_are_byte_identical_to_the_golden_file():
    # every language in one process, so the app and its templates are made once (4 s of
    # CPU, against 13 s for a process per language), with the repository's compiled
    # catalogs, as the golden file was made (not the tests' own)
    env = {k: v for k, v in os.environ.items() if k != "SHINPAN_TRANSLATIONS"}
    run = subprocess.run([sys.executable, "-m", "tools.golden", "--check"],
                         cwd=ROOT, env=env, check=False, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_languages_checked_cover_the_whole_golden_file():
    keys = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert keys and all(key_language(key) in LANGUAGES for key in keys)
