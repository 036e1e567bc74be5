"""The players' names of one request: the language's defaults are shared, a given name is not."""
from __future__ import annotations

import pytest

from rulebook.koikoi.referee import referee
from rulebook.players import Names


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_given_name_stays_in_its_own_request(lang):
    default = Names(lang)
    named = Names(lang)
    named.set("a", "Aiko")
    assert (named["a"], named.labels["a"]) == ("Aiko", "Aiko")
    # the shared defaults are untouched: this request and the next still have them
    assert default["a"] == Names(lang)["a"] != "Aiko"
    assert default.labels["a"] == Names(lang).labels["a"] != "Aiko"
    assert named["b"] == default["b"] and named.labels["b"] == default.labels["b"]


def test_a_request_without_names_after_one_with_names_gets_the_defaults():
    request = {"game": "koikoi", "ruleset": "nintendo",
               "rounds": [{"winner": None, "captured": {"a": [], "b": []}}]}
    named = referee({**request, "players": {"a": "Aiko", "b": "Ben"}})
    assert named["valid"] and named["players"] == {"a": "Aiko", "b": "Ben"}
    assert referee(request)["players"] == {"a": "Player A", "b": "Player B"}
