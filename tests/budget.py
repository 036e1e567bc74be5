"""How much the slow sweeps try: property tests' examples, browser sweeps' languages and pages.

`make test` runs a quarter of each property test's full budget and each browser sweep over
the languages and pages it names, so the suite stays under five minutes on a busy machine;
`make test-deep` (SHINPAN_DEEP=1) runs the full budgets, every language and every page.
tests/conftest.py sets the same split for the tests that keep hypothesis's default budget
(its profiles "quick", "deep"). The tests without a browser (the Flask test client) always
visit every language.
"""
from __future__ import annotations

import os
from collections.abc import Sequence

from rulebook.i18n import LANGUAGES

DEEP = os.environ.get("SHINPAN_DEEP") == "1"
# The pictures browser tests take for a person to look at (tests/artifacts/): in make
# test-deep, or with SHINPAN_PICTURES=1; not in make test, where a long page's picture costs
# a busy machine a second or more and nobody looks. (make screenshots takes its own.)
PICTURES = DEEP or os.environ.get("SHINPAN_PICTURES") == "1"
QUICK_SHARE = 4  # make test tries 1 in QUICK_SHARE of the full budget
DEFAULT_BUDGET = 100  # hypothesis's own default, for tests that name no budget


def examples(full: int) -> int:
    """The number of examples to try, of a full budget of `full`."""
    return full if DEEP else max(10, full // QUICK_SHARE)


def languages(quick: Sequence[str], every: Sequence[str] = tuple(LANGUAGES)) -> tuple[str, ...]:
    """The languages a browser sweep visits: `every` one (all the site's, unless the test
    names its own) in make test-deep; in make test only `quick`, the ones the sweep's test
    names as likeliest to fail it (the longest words, the longest text, another script)."""
    return cases(every, quick)


def cases(every: Sequence, quick: Sequence) -> tuple:
    """The cases (page types, pages) a browser sweep visits: `every` one in make test-deep;
    in make test only `quick`, the ones its test names as the likeliest to fail (the
    largest pages, the regions no other case shows)."""
    missing = [case for case in quick if case not in every]
    assert not missing, f"quick cases not in the sweep: {missing}"
    return tuple(every) if DEEP else tuple(quick)


def in_turn(cases: Sequence[tuple], every: Sequence[str] = tuple(LANGUAGES)) -> list[tuple]:
    """A sweep of every case in every language, as (*case, language): the whole product in
    make test-deep; in make test each case once, in the languages taken in turn, so every
    case and (given as many cases as languages) every language is still tried."""
    if DEEP:
        return [(*case, lang) for case in cases for lang in every]
    return [(*case, every[index % len(every)]) for index, case in enumerate(cases)]
