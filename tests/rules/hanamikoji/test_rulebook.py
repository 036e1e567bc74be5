"""The rulebook YAML: schema-checked on load, and the referee follows its numbers."""
from __future__ import annotations

import pytest

from rulebook.hanamikoji.model import DEFAULT_PATH, load_rulebook
from rulebook.hanamikoji.referee import referee
from rulebook.loader import RulebookError

from ..copies import modified_copy


@pytest.fixture
def rulebook_copy(tmp_path):
    """Write a modified copy of the shipped YAML and return its path."""
    return lambda change: modified_copy(DEFAULT_PATH, tmp_path, change)


@pytest.mark.rule("hanamikoji", "components.geishas")
def test_components_geishas_in_table_order():
    rb = load_rulebook()
    assert [g.id for g in rb.geishas] == ["ayane", "iroha", "tomoyo", "yoko", "chiharu", "anju", "ruri"]
    assert [g.charm for g in rb.geishas] == [2, 2, 2, 3, 3, 4, 5]
    assert rb.total_cards == 21 and rb.draw_pile == 8


def test_actions_as_data():
    rb = load_rulebook()
    assert {a: (x.cards, x.scored, x.face) for a, x in rb.actions.items()} == {
        "secret": (1, True, "down"), "tradeoff": (2, False, "down"),
        "gift": (3, True, "up"), "competition": (4, True, "up")}


def test_editions_tiebreak_chains():
    rb = load_rulebook()
    chains = {key: e.round_limit.tiebreak for key, e in rb.editions.items()}
    assert chains["geekach"] == ("most_charm", "highest_geisha", "shared")
    assert chains["deepwater"] == chains["geekach"]  # inferred from the Geekach translation
    assert rb.editions["deepwater"].round_limit.sourced.basis == "inferred"
    assert rb.editions["deepwater"].round_limit.inferred_from == "geekach"
    assert rb.editions["geekach"].actions["tradeoff"] == "Непотріб"
    assert chains["emperors4"] == ("unknown",)
    assert chains["kosmos"] == chains["iello"] == ("most_charm", "unknown")


@pytest.mark.rule("hanamikoji", "victory.charm")
def test_victory_charm_threshold_comes_from_the_yaml(rulebook_copy):
    board = {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}  # A 8 charm, B 11
    req = {"game": "hanamikoji", "rounds": [{"board": board}]}
    assert referee(req)["result"]["winner"] == "b"
    changed = load_rulebook(rulebook_copy(lambda d: d["victory"].update(charm=12)))
    assert referee(req, rulebook=changed)["result"]["status"] == "continue"


@pytest.mark.rule("hanamikoji", "scoring.eight-cards")
def test_scoring_eight_cards_count_comes_from_the_yaml(rulebook_copy):
    changed = load_rulebook(rulebook_copy(lambda d: d["round"].update(scored_per_side=9)))
    board = {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}
    r = referee({"game": "hanamikoji", "rounds": [{"board": board}]}, rulebook=changed)
    assert {e["code"] for e in r["errors"]} == {"board.side-total"}


def test_schema_error_names_file_and_yaml_path(rulebook_copy):
    path = rulebook_copy(lambda d: d["geishas"][3].update(charm="three"))
    with pytest.raises(RulebookError) as info:
        load_rulebook(path)
    message = str(info.value)
    assert str(path) in message and "geishas[3].charm" in message


def test_unknown_rule_reference_is_reported(rulebook_copy):
    path = rulebook_copy(lambda d: d["faq"][0].update(rules=["no.such-rule"]))
    with pytest.raises(RulebookError, match="no.such-rule"):
        load_rulebook(path)


def test_broken_yaml_is_reported_with_a_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("game: [hanamikoji\n", encoding="utf-8")
    with pytest.raises(RulebookError, match="line"):
        load_rulebook(path)
