"""How many examples the property tests (hypothesis, schemathesis) try.

`make test` runs a quarter of each full budget, so the suite stays fast on a busy machine;
`make test-deep` (SHINPAN_DEEP=1) runs the full budgets. tests/conftest.py sets the same
split for the tests that keep hypothesis's default budget (its profiles "quick", "deep").
"""
from __future__ import annotations

import os

DEEP = os.environ.get("SHINPAN_DEEP") == "1"
QUICK_SHARE = 4  # make test tries 1 in QUICK_SHARE of the full budget
DEFAULT_BUDGET = 100  # hypothesis's own default, for tests that name no budget


def examples(full: int) -> int:
    """The number of examples to try, of a full budget of `full`."""
    return full if DEEP else max(10, full // QUICK_SHARE)
