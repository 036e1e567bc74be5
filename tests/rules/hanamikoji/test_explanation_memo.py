"""A round's explanation is kept for the same inputs (rulebook/hanamikoji/referee.py:
explain_round): a kept one is the one made afresh, and anything it depends on (language,
names, reading, markers before the round) gives its own."""
from __future__ import annotations

import copy

from rulebook.hanamikoji.model import load_rulebook
from rulebook.hanamikoji.referee import referee

RB = load_rulebook()
BOARD = {"a": [2, 0, 1, 2, 0, 1, 2], "b": [0, 2, 1, 0, 2, 1, 2]}  # the game goes on
BASE = {"game": "hanamikoji", "rounds": [{"board": BOARD}, {"board": BOARD}]}
CHANGED = {
    "names": {"players": {"a": "Olena", "b": "Jonas"}},
    "edition": {"edition": "iello"},
    "clash": {"variants": {"simultaneous_goal": "geishas"}},
    "markers": {"start": {"round": 2, "favor": ["a", None, "b", None, None, "a", None]}},
}


def fresh(request: dict, lang: str) -> dict:
    RB.cache.pop("round-explanations", None)
    return referee(copy.deepcopy(request), lang, RB)


def test_a_kept_explanation_is_the_one_made_afresh():
    """Every variation made afresh, then all of them one after the other through one memo
    (twice): each gets its own explanation, not one kept for another."""
    variations = [(lang, {**BASE, **CHANGED.get(change, {})})
                  for lang in ("en", "es", "uk", "ja") for change in ("", *CHANGED)]
    expected = [fresh(request, lang) for lang, request in variations]
    assert all(made["valid"] for made in expected)
    RB.cache.pop("round-explanations", None)
    for _ in range(2):
        for (lang, request), made in zip(variations, expected):
            assert referee(copy.deepcopy(request), lang, RB) == made, (lang, request)
    assert len(RB.cache["round-explanations"]) == 2 * len(variations)


def test_a_kept_explanation_is_not_changed_by_its_reader():
    first = fresh(BASE, "en")
    first["rounds"][0]["explanation"][0]["message"] = "changed"
    first["rounds"][0]["explanation"].clear()
    assert referee(copy.deepcopy(BASE), "en", RB) == fresh(BASE, "en")
