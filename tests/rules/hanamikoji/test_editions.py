"""Edition facts from the rules audit, each test named after the rule it checks.

Kosmos and Iello end the game after round 3 (their normal rule); Deep Water's tie-break is
inferred from the Geekach translation; EmperorS4 has no round limit at all.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.hanamikoji.model import load_rulebook
from rulebook.referee import referee

YAML = Path(__file__).resolve().parents[3] / "rulebook" / "hanamikoji" / "rulebook.yaml"
TIED = {"a": [1, 1, 1, 1, 1, 1, 2], "b": [1, 1, 1, 1, 1, 1, 2]}  # every geisha level
# Round 3 from these markers with all ties: A 1 geisha / 2 charm, B 2 geishas / 7 charm.
FAVOR = ["a", "b", None, None, None, None, "b"]


def third_round(edition: str, **variants) -> dict:
    request = {"game": "hanamikoji", "edition": edition, "start": {"round": 3, "favor": FAVOR},
               "rounds": [{"board": TIED}]}
    if variants:
        request["variants"] = variants
    return referee(request)


def messages(response: dict) -> str:
    return " ".join(e["message"] for e in response["rounds"][-1]["explanation"])


@pytest.mark.rule("hanamikoji", "edition.kosmos")
def test_edition_kosmos_ends_after_round_three_by_default():
    r = third_round("kosmos")
    assert r["variants"]["round_limit"] is True
    assert (r["result"]["status"], r["result"]["winner"]) == ("win", "b")
    assert r["result"]["reason"] == "limit_most_charm" and r["next"] is None
    assert "plays at most 3 rounds" in messages(r)


@pytest.mark.rule("hanamikoji", "edition.iello")
def test_edition_iello_ends_after_round_three_by_default():
    r = third_round("iello")
    assert r["variants"]["round_limit"] is True
    assert (r["result"]["status"], r["result"]["winner"]) == ("win", "b")


@pytest.mark.rule("hanamikoji", "edition.kosmos", "tiebreak.unknown")
def test_edition_kosmos_level_points_are_undecided():
    r = referee({"game": "hanamikoji", "edition": "kosmos", "rounds": [{"board": TIED}] * 3})
    assert r["result"]["status"] == "undecided"
    assert r["result"]["rules"][-1] == "tiebreak.unknown"


@pytest.mark.rule("hanamikoji", "variant.round-limit")
def test_variant_round_limit_false_plays_on_under_kosmos():
    r = third_round("kosmos", round_limit=False)
    assert r["result"]["status"] == "continue" and r["next"]["round"] == 4
    # the edition's own rule is named as the other reading
    assert any(a["variants"]["round_limit"] and a["winner"] == "b" for a in r["alternatives"])


@pytest.mark.rule("hanamikoji", "variant.round-limit")
def test_variant_round_limit_past_round_three_under_kosmos():
    r = referee({"game": "hanamikoji", "edition": "iello", "start": {"round": 4, "favor": FAVOR},
                 "rounds": [{"board": TIED}]})
    assert [e["code"] for e in r["errors"]] == ["round.past-edition-limit"]
    assert "Iello" in r["errors"][0]["message"]


@pytest.mark.rule("hanamikoji", "edition.deepwater")
def test_edition_deepwater_tiebreak_is_inferred_from_geekach():
    r = third_round("deepwater", round_limit=True)
    assert (r["result"]["winner"], r["result"]["reason"]) == ("b", "limit_most_charm")
    assert r["result"]["inferred"] is True
    assert "edition.deepwater" in r["result"]["rules"]
    assert "inferred from the Geekach Games edition" in messages(r)
    assert "could not be checked" in messages(r)
    geekach = third_round("geekach", round_limit=True)
    assert "inferred" not in geekach["result"]
    assert (geekach["result"]["winner"], geekach["result"]["reason"]) == ("b", "limit_most_charm")


@pytest.mark.rule("hanamikoji", "edition.deepwater")
def test_edition_deepwater_cites_no_page_of_an_unseen_book():
    text = YAML.read_text(encoding="utf-8")
    assert "RB p." not in text and "most_geishas" not in text


@pytest.mark.rule("hanamikoji", "edition.deepwater")
def test_edition_deepwater_limit_is_off_unless_chosen():
    r = third_round("deepwater")
    assert r["variants"]["round_limit"] is False and r["result"]["status"] == "continue"


@pytest.mark.rule("hanamikoji", "edition.emperors4")
def test_edition_emperors4_has_no_round_limit():
    rb = load_rulebook()
    assert rb.editions["emperors4"].round_limit.status == "none"
    assert third_round("emperors4")["result"]["status"] == "continue"


@pytest.mark.rule("hanamikoji", "edition.emperors4")
def test_edition_emperors4_limit_as_house_rule_is_undecided_without_claiming_a_tie():
    r = third_round("emperors4", round_limit=True)
    assert (r["result"]["status"], r["result"]["reason"]) == ("undecided", "limit_house")
    text = messages(r)
    assert "does not have" in text and "house rule" in text
    assert "level" not in text and "tie-break decides" not in text
    # B leads on charm: other editions say so
    assert any(a["edition"] == "geekach" and a["winner"] == "b" for a in r["alternatives"])


@pytest.mark.rule("hanamikoji", "edition.iello")
def test_edition_iello_action_names_are_the_guides():
    rb = load_rulebook()
    names = rb.editions["iello"].action_names
    assert (names.basis, names.sources) == ("guide", ("fr-guide",))
    assert "board-game.co.uk" in rb.sources["fr-guide"].about


@pytest.mark.rule("hanamikoji", "disagree.tie-marker")
def test_disagree_tie_marker_says_stays_in_the_middle():
    rb = load_rulebook()
    text = rb.rules["disagree.tie-marker"]
    assert "stays in the middle" in text and "returns" not in text


@pytest.mark.rule("hanamikoji", "disagree.clash")
def test_disagree_clash_drops_unverified_hobby_programs_and_names_the_article():
    rb = load_rulebook()
    assert "hobby" not in rb.rules["disagree.clash"]
    assert "board-game.co.uk" in rb.rules["disagree.clash"]
    assert rb.variants["simultaneous_goal"]["choices"]["geishas"]["sources"] == ["fr-guide"]


@pytest.mark.rule("hanamikoji", "scoring.tie-keeps-marker")
def test_scoring_tie_keeps_marker_empty_geisha_is_no_cards_not_a_tie():
    board = {"a": [0, 2, 0, 2, 1, 1, 2], "b": [0, 0, 2, 1, 2, 2, 1]}
    r = referee({"game": "hanamikoji", "rounds": [{"board": board}]})
    ayane = r["rounds"][0]["explanation"][0]
    assert ayane["rule"] == "scoring.tie-keeps-marker"
    assert "no cards on either side" in ayane["message"] and "tie" not in ayane["message"]


@pytest.mark.rule("hanamikoji", "refresh.switch-start")
def test_refresh_switch_start_wrong_starter_is_one_error_that_says_why():
    log = [{"player": p, "action": a, "cards": c, **extra} for p, a, c, extra in [
        ("a", "secret", ["ruri"], {}), ("b", "secret", ["anju"], {}),
        ("a", "tradeoff", ["ayane", "iroha"], {}), ("b", "tradeoff", ["yoko", "tomoyo"], {}),
    ]]
    r = referee({"game": "hanamikoji", "start": {"round": 2, "favor": [None] * 7},
                 "rounds": [{"actions": log}]})
    assert [e["code"] for e in r["errors"]] == ["log.wrong-starter"]
    error = r["errors"][0]
    assert error["rule"] == "refresh.switch-start" and error["path"] == "/rounds/0/actions/0/player"
    assert "Player B starts round 2" in error["message"] and "second in round 1" in error["message"]


# -- the second audit: tie messages, playing on, who starts, the canonical text --------------
@pytest.mark.rule("hanamikoji", "tiebreak.unknown")
def test_tiebreak_unknown_says_only_reviews_were_read():
    """tiebreak.unknown: Kosmos's book was not read, so the ruling says its reviews are silent."""
    r = referee({"game": "hanamikoji", "edition": "kosmos", "rounds": [{"board": TIED}] * 3})
    text = messages(r)
    assert "reviews" in text and "rulebook does not say" not in text
    rb = load_rulebook()
    assert rb.editions["kosmos"].round_limit.sourced.basis == "reported"
    assert "rather than its rulebook" in rb.rules["tiebreak.unknown"]


@pytest.mark.rule("hanamikoji", "victory.game-length")
def test_victory_game_length_playing_on_is_sourced_for_kosmos_only():
    """victory.game-length: Kosmos names playing on as the option; for Iello no source says."""
    rb = load_rulebook()
    assert rb.editions["kosmos"].round_limit.status == "normal"
    assert rb.editions["iello"].round_limit.status == "final"
    assert rb.round_limit_default("iello") and rb.round_limit_default("kosmos")
    r = third_round("iello")
    assert "plays at most 3 rounds" in messages(r)


@pytest.mark.rule("hanamikoji", "setup.first-player")
def test_setup_first_player_kosmos_birthday():
    """setup.first-player: EmperorS4's youngest player; Kosmos's most recent birthday."""
    rb = load_rulebook()
    assert rb.editions["emperors4"].first_player == "youngest"
    assert rb.editions["kosmos"].first_player == "birthday"
    assert rb.provenance("kosmos", "first_player").basis == "reported"
    assert rb.provenance("iello", "first_player").basis == "unknown"
    assert "birthday" in rb.rules["setup.first-player"] and "youngest" in rb.rules["setup.first-player"]


@pytest.mark.rule("hanamikoji", "edition.action-names")
def test_edition_action_names_canonical_source_is_emperors4():
    """edition.action-names: the canonical rules are EmperorS4's text, named as Deep Water's."""
    rb = load_rulebook()
    assert rb.canonical_source == "rb-e4" and rb.sources["rb-e4"].about.startswith("The EmperorS4")
    text = rb.rules["edition.action-names"]
    assert "follow the original EmperorS4 rulebook (2016)" in text and "Deep Water Games rulebook" not in text


# -- editions added from reviews -------------------------------------------------------------
@pytest.mark.rule("hanamikoji", "edition.msedizioni")
def test_edition_msedizioni_reviews_disagree():
    """edition.msedizioni: reviews disagree on three rounds: the referee plays on, unsettled."""
    rb = load_rulebook()
    e = rb.editions["msedizioni"]
    assert (e.language, e.year, e.round_limit.status) == ("it", 2019, "unknown")
    assert e.actions["secret"] == "Segreto" and e.actions["gift"] is None
    assert rb.provenance("msedizioni", "actions.gift").basis == "unknown"
    assert not rb.round_limit_default("msedizioni")
    r = third_round("msedizioni")
    assert r["result"]["status"] == "continue"
    limited = third_round("msedizioni", round_limit=True)
    assert limited["result"]["status"] == "undecided"
    assert "do not settle whether the MS Edizioni edition has this limit" in messages(limited)


@pytest.mark.rule("hanamikoji", "edition.whynot", "edition.jixia")
def test_edition_whynot_and_jixia_themes():
    """edition.whynot, edition.jixia: dancers and scholars; names and limits not documented."""
    rb = load_rulebook()
    assert rb.editions["whynot"].theme == "dancers" and rb.editions["jixia"].theme == "scholars"
    assert rb.editions["jixia"].name == "Jixia Academy"
    for edition in ("whynot", "jixia"):
        assert all(name is None for name in rb.editions[edition].actions.values())
        assert rb.provenance(edition, "round_limit").basis == "unknown"


@pytest.mark.rule("hanamikoji", "edition.compare")
def test_edition_compare_every_fact_has_its_provenance():
    """edition.compare: each cell of the comparison names how it was read and from where."""
    from rulebook.sources import BASES
    rb = load_rulebook()
    keys = rb.compared()
    assert {f"actions.{a}" for a in rb.actions} <= set(keys)
    for edition in rb.editions:
        for key in keys:
            read = rb.provenance(edition, key)
            assert read.basis in BASES and all(s in rb.sources for s in read.sources), (edition, key)
            assert read.basis == "unknown" or read.sources, (edition, key)


# -- the disagreements and the FAQ say what the data says -----------------------------------
# How their prose names each edition: an edition added without a name here fails the test.
PROSE = {"deepwater": "Deep Water Games", "emperors4": "EmperorS4", "geekach": "Geekach",
         "kosmos": "Kosmos", "iello": "Iello", "msedizioni": "MS Edizioni",
         "whynot": "WhyNot Games", "jixia": "Jixia Academy"}
SAYS = {  # what each text says of an edition's three-round limit, by its status
    "disagree.round-limit-tiebreak": {"normal": "end the game after three rounds",
                                      "final": "end the game after three rounds",
                                      "optional": "offer the limit", "none": "does not have it",
                                      "unknown": ("disagree", "do not say")},
    "faq.how-many-rounds": {"normal": "stop after the third round",
                            "final": "stop after the third round",
                            "optional": "play on until", "none": "play on until",
                            "unknown": ("disagree", "do not say")}}


def said_of(text: str, name: str, phrases) -> str | None:
    """Which of the phrases the text says first after it names the edition."""
    start = text.index(name)
    found = {p: text.find(p, start) for p in phrases if text.find(p, start) >= 0}
    return min(found, key=found.get) if found else None


@pytest.mark.rule("hanamikoji", "disagree.round-limit-tiebreak", "faq.how-many-rounds")
@pytest.mark.parametrize("rule_id", sorted(SAYS))
def test_disagree_round_limit_matches_the_data(rule_id):
    rb = load_rulebook()
    assert set(PROSE) == set(rb.editions)
    text = rb.rules[rule_id]
    phrases = [p for v in SAYS[rule_id].values() for p in ((v,) if isinstance(v, str) else v)]
    for edition, name in PROSE.items():
        status = rb.editions[edition].round_limit.status
        expected = SAYS[rule_id][status]
        assert said_of(text, name, phrases) in ((expected,) if isinstance(expected, str) else expected), edition
        if status == "optional":  # named where the option is offered too
            offer = next(s for s in text.split(". ") if "offer the" in s)
            assert name in offer, edition


@pytest.mark.rule("hanamikoji", "disagree.first-player", "setup.first-player")
def test_disagree_first_player_matches_the_data():
    rb = load_rulebook()
    text = rb.rules["disagree.first-player"]
    for edition, name in PROSE.items():
        first = rb.editions[edition].first_player
        if first == "unknown":
            assert rb.provenance(edition, "first_player").basis == "unknown"
            continue
        assert said_of(text, name, ("youngest", "birthday")) == first, edition
        basis = rb.provenance(edition, "first_player").basis
        start = text.index(name)
        ends = [i for other in PROSE.values() if other != name for i in [text.find(other, start)] if i > 0]
        assert ("reviews report" in text[start:min(ends, default=len(text))]) is (basis == "reported")


@pytest.mark.rule("hanamikoji", "faq.how-many-rounds", "edition.compare")
def test_faq_how_many_rounds_points_to_the_comparison():
    rb = load_rulebook()
    entry = next(e for e in rb.faq if e["id"] == "faq.how-many-rounds")
    assert "edition.compare" in entry["rules"] and "comparison page" in rb.rules["faq.how-many-rounds"]
