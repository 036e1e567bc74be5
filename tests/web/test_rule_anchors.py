"""Every rule id a ruling or an error cites is an anchor of the game's pages, in every
language: the end of the rule-id thread (YAML -> referee -> test -> page anchor)."""
from __future__ import annotations

import random
import re

import pytest
from api.test_hanamikoji import ERROR_CASES as HANAMIKOJI_ERRORS
from api.test_koikoi import ERROR_CASES as KOIKOI_ERRORS
from rules.hanamikoji import sim

from rulebook.i18n import LANGUAGES
from rulebook.referee import referee

KOIKOI_RULINGS = [
    {"game": "koikoi", "rounds": [{"winner": "a", "captured": {"a": [0, 2, 8, 10, 28, 30]},
                                   "koikoi": {"b": 1}}]},
    {"game": "koikoi", "ruleset": "gamedesign", "rounds": [{"winner": None}]},
    {"game": "koikoi", "ruleset": "fudawiki", "start": {"round": 3, "dealer": "b"},
     "rounds": [{"winner": "a", "captured": {"a": [8, 9, 10, 11]}}]},
    {"game": "koikoi", "options": {"rain_man_spoils_viewings": True, "double_cap": 2},
     "rounds": [{"winner": "b", "captured": {"b": [8, 10, 32, 34, 40, 41, 28, 29]},
                 "koikoi": {"a": 1}}]},
    {"game": "koikoi", "rounds": [{"winner": "a", "hand": {"a": [0, 1, 2, 3, 4, 5, 8, 9]}}]},
]


def hanamikoji_requests() -> list[dict]:
    rng = random.Random(3)
    out = [case for case in HANAMIKOJI_ERRORS.values() if case is not None]
    for edition in ("deepwater", "emperors4", "geekach", "kosmos", "iello"):
        for limit in (True, False):
            rounds = [sim.simulate_round(rng, sim.first_player(n)) for n in (1, 2, 3)]
            out.append({"game": "hanamikoji", "edition": edition,
                        "variants": {"round_limit": limit},
                        "rounds": [rounds[0].round(True), rounds[1].board_round(False),
                                   rounds[2].round(False, upto=5)]})
            out.append({**sim.request([r.board_round(True) for r in rounds]),
                        "edition": edition, "variants": {"round_limit": limit,
                                                         "simultaneous_goal": "geishas"}})
    return out


def cited(document) -> set[str]:
    """Every `rule` and `rules` value anywhere in a response document."""
    found: set[str] = set()
    if isinstance(document, dict):
        for key, value in document.items():
            if key == "rule" and isinstance(value, str):
                found.add(value)
            elif key == "rules" and isinstance(value, list):
                found.update(v for v in value if isinstance(v, str))
            else:
                found |= cited(value)
    elif isinstance(document, list):
        for value in document:
            found |= cited(value)
    return found


CORPUS = {
    "hanamikoji": hanamikoji_requests(),
    "koikoi": [case for case in KOIKOI_ERRORS.values() if case is not None] + KOIKOI_RULINGS,
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(CORPUS))
def test_every_cited_rule_is_an_anchor(client, game, lang):
    rules: set[str] = set()
    for request in CORPUS[game]:
        rules |= cited(referee(request, lang))
    assert len(rules) > 20, rules  # the corpus reaches many rules
    pages = "".join(client.get(f"/{lang}/{game}/{page}").text for page in ("", "disagreements"))
    anchors = set(re.findall(r'\bid="([^"]+)"', pages))
    assert rules - anchors == set()
    assert rules & anchors  # and the pages are the game's
