"""Referee unit tests, each named after the rule id it checks."""
from __future__ import annotations

import pytest

from rulebook.hanamikoji.referee import referee

# Table order: ayane 2, iroha 2, tomoyo 2, yoko 3, chiharu 3, anju 4, ruri 5.
EXAMPLE_BOARD = {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}  # A 3/8, B 3/11


def request(*rounds, **extra):
    return {"game": "hanamikoji", "rounds": [{"board": b} for b in rounds], **extra}


def codes(response):
    assert response["valid"] is False, response
    return {e["code"] for e in response["errors"]}


@pytest.mark.rule("hanamikoji", "victory.charm")
def test_victory_charm_worked_example():
    """The rulebook's example: 3 geishas/8 points against 3 geishas/11 points - the 11 wins."""
    r = referee(request(EXAMPLE_BOARD))
    rnd = r["rounds"][0]
    assert (rnd["geishas"], rnd["charm"]) == ({"a": 3, "b": 3}, {"a": 8, "b": 11})
    assert r["result"] == r["result"] | {"status": "win", "winner": "b", "reason": "charm",
                                         "rules": ["victory.charm"]}
    assert r["next"] is None
    assert rnd["explanation"][-1]["rule"] == "victory.charm"


@pytest.mark.rule("hanamikoji", "scoring.majority", "scoring.tie-keeps-marker")
def test_scoring_majority_and_explanation_per_geisha():
    r = referee(request(EXAMPLE_BOARD))
    markers = r["rounds"][0]["explanation"][:7]
    assert [e["rule"] for e in markers] == ["scoring.majority", "scoring.tie-keeps-marker"] + [
        "scoring.majority"] * 5
    assert r["rounds"][0]["favor"] == ["a", None, "b", "a", "a", "b", "b"]


# A: ayane, iroha, tomoyo, yoko by majority (4 geishas, 9 charm); B: anju + ruri + chiharu? no:
# B takes chiharu(3)+anju(4)+ruri(5) = 12 charm, 3 geishas -> B reaches 11, A reaches 4.
CLASH_BOARD = {"a": [2, 2, 2, 2, 0, 0, 0], "b": [0, 0, 0, 1, 2, 2, 3]}


@pytest.mark.rule("hanamikoji", "victory.clash")
def test_victory_clash_charm_wins():
    r = referee(request(CLASH_BOARD))
    assert r["rounds"][0]["geishas"]["a"] == 4 and r["rounds"][0]["charm"]["b"] >= 11
    assert (r["result"]["winner"], r["result"]["reason"]) == ("b", "clash_charm")
    assert r["result"]["rules"] == ["victory.clash"]
    # The other reading is reported: players argue about exactly that.
    flips = [a for a in r["alternatives"] if a["variants"]["simultaneous_goal"] == "geishas"]
    assert flips and flips[0]["winner"] == "a"


@pytest.mark.rule("hanamikoji", "variant.simultaneous-goal")
def test_variant_simultaneous_goal_geishas_reading():
    r = referee(request(CLASH_BOARD, variants={"simultaneous_goal": "geishas"}))
    assert (r["result"]["winner"], r["result"]["reason"]) == ("a", "clash_geishas")
    assert r["result"]["rules"] == ["variant.simultaneous-goal"]
    assert any(a["winner"] == "b" and a["variants"]["simultaneous_goal"] == "charm"
               for a in r["alternatives"])


@pytest.mark.rule("hanamikoji", "scoring.tie-keeps-marker")
def test_scoring_tie_keeps_marker_from_an_earlier_round():
    # Round 1: A wins ruri 3-2 (no goal). Round 2: ruri tied 2-2 -> stays with A.
    r1 = {"a": [1, 1, 1, 1, 1, 0, 3], "b": [1, 1, 1, 1, 1, 1, 2]}
    r = referee(request(r1))
    assert r["result"]["status"] == "continue"
    assert r["rounds"][0]["favor"][6] == "a"
    nxt = r["next"]
    assert nxt["round"] == 2 and nxt["first_player"] == "b"
    r2 = {"a": [0, 1, 1, 1, 1, 2, 2], "b": [2, 1, 1, 1, 0, 1, 2]}
    r = referee({"game": "hanamikoji", "start": {"round": 2, "favor": nxt["favor"]},
                 "rounds": [{"board": r2}]})
    rnd = r["rounds"][0]
    assert rnd["first_player"] == "b"
    assert rnd["favor"][6] == "a"
    ruri = rnd["explanation"][6]
    assert ruri["rule"] == "scoring.tie-keeps-marker" and "stays with Player A" in ruri["message"]


@pytest.mark.rule("hanamikoji", "refresh.markers-stay", "refresh.switch-start")
def test_refresh_markers_stay_across_rounds_in_one_request():
    r1 = {"a": [1, 1, 1, 1, 1, 0, 3], "b": [1, 1, 1, 1, 1, 1, 2]}
    r2 = {"a": [0, 1, 1, 1, 1, 2, 2], "b": [2, 1, 1, 1, 0, 1, 2]}
    r = referee(request(r1, r2))
    assert [x["first_player"] for x in r["rounds"]] == ["a", "b"]
    assert r["rounds"][1]["favor_before"] == r["rounds"][0]["favor"]
    assert any(e["rule"] == "refresh.switch-start" for e in r["rounds"][0]["explanation"])


# Three rounds with no goal: B has more geishas, A more charm.
LIMIT_FAVOR = ["b", "b", "b", "a", None, None, "a"]  # B 3 geishas/6, A 2 geishas/8


def limit_request(edition, favor=LIMIT_FAVOR, board=None):
    board = board or {"a": [1, 1, 1, 1, 1, 2, 1], "b": [1, 1, 1, 1, 1, 2, 1]}  # all ties
    return {"game": "hanamikoji", "edition": edition, "variants": {"round_limit": True},
            "start": {"round": 3, "favor": favor}, "rounds": [{"board": board}]}


@pytest.mark.rule("hanamikoji", "edition.deepwater", "tiebreak.most-charm", "variant.round-limit")
def test_tiebreak_most_charm_deepwater_chain_is_inferred():
    r = referee(limit_request("deepwater"))
    assert (r["result"]["status"], r["result"]["winner"]) == ("win", "a")
    assert r["result"]["reason"] == "limit_most_charm"
    assert r["result"]["rules"] == ["variant.round-limit", "edition.deepwater", "tiebreak.most-charm"]
    assert r["result"]["inferred"] is True
    # EmperorS4 has no limit in its book: a house rule that nothing printed decides.
    assert any(a["edition"] == "emperors4" and a["status"] == "undecided" for a in r["alternatives"])


@pytest.mark.rule("hanamikoji", "tiebreak.most-charm")
def test_tiebreak_most_charm_geekach_chain():
    r = referee(limit_request("geekach"))
    assert (r["result"]["winner"], r["result"]["reason"]) == ("a", "limit_most_charm")


@pytest.mark.rule("hanamikoji", "tiebreak.highest-geisha", "tiebreak.most-charm")
def test_tiebreak_highest_geisha_geekach_chain():
    # A: ruri 5 + two 2s = 9 (3 geishas); B: anju 4 + yoko 3 + iroha 2 = 9 (3 geishas).
    favor = ["a", "b", "a", "b", None, "b", "a"]
    r = referee(limit_request("geekach", favor))
    assert (r["result"]["winner"], r["result"]["reason"]) == ("a", "limit_highest_geisha")
    rules = [e["rule"] for e in r["rounds"][0]["explanation"]]
    assert rules[-2:] == ["tiebreak.most-charm", "tiebreak.highest-geisha"]
    # Deep Water takes the Geekach chain over (inferred): the same verdict.
    r = referee(limit_request("deepwater", favor))
    assert (r["result"]["winner"], r["result"]["reason"]) == ("a", "limit_highest_geisha")


@pytest.mark.rule("hanamikoji", "tiebreak.shared")
def test_tiebreak_shared_win():
    favor = ["a", "b", None, "a", "b", None, None]  # 2 geishas/5 charm each
    for edition in ("deepwater", "geekach"):
        r = referee(limit_request(edition, favor))
        assert (r["result"]["status"], r["result"]["winner"]) == ("shared", None)
        assert r["result"]["rules"][-1] == "tiebreak.shared"


@pytest.mark.rule("hanamikoji", "tiebreak.unknown")
def test_tiebreak_unknown_is_never_invented():
    favor = ["a", "b", None, "a", "b", None, None]
    r = referee(limit_request("kosmos", favor))
    assert r["result"]["status"] == "undecided"
    assert r["result"]["rules"][-1] == "tiebreak.unknown"


@pytest.mark.rule("hanamikoji", "variant.round-limit")
def test_variant_round_limit_off_game_goes_on():
    req = limit_request("deepwater")
    req["variants"] = {"round_limit": False}
    r = referee(req)
    assert r["result"]["status"] == "continue" and r["next"]["round"] == 4


@pytest.mark.rule("hanamikoji", "variant.round-limit")
def test_variant_round_limit_no_round_four():
    req = limit_request("deepwater")
    req["start"]["round"] = 4
    assert codes(referee(req)) == {"round.past-limit"}


@pytest.mark.rule("hanamikoji", "victory.immediate")
def test_victory_immediate_no_round_after_a_win():
    r = referee(request(EXAMPLE_BOARD, EXAMPLE_BOARD))
    assert codes(r) == {"round.after-win"}
    assert r["errors"][0]["path"] == "/rounds/1" and r["errors"][0]["rule"] == "victory.immediate"


@pytest.mark.rule("hanamikoji", "victory.geishas")
def test_victory_geishas():
    board = {"a": [2, 2, 2, 1, 0, 0, 1], "b": [0, 0, 0, 0, 3, 4, 1]}  # A 4 geishas / 9 charm
    r = referee(request(board))
    assert (r["result"]["winner"], r["result"]["reason"]) == ("a", "geishas")


@pytest.mark.rule("hanamikoji", "scoring.eight-cards")
def test_scoring_eight_cards_and_component_limits_all_reported_at_once():
    r = referee(request({"a": [3, 0, 0, 0, 0, 0, 4], "b": [0, 0, 0, 0, 0, -1, 1.5]}))
    assert codes(r) >= {"board.geisha-overflow", "board.count"}
    r = referee(request({"a": [2, 0, 0, 0, 0, 0, 4], "b": [0, 0, 0, 0, 0, 4, 1]}))
    assert codes(r) == {"board.side-total"}
    assert {e["path"] for e in r["errors"]} == {"/rounds/0/board/a", "/rounds/0/board/b"}
    assert all(e["rule"] == "scoring.eight-cards" for e in r["errors"])


@pytest.mark.rule("hanamikoji", "deal.remove-one")
def test_deal_remove_one_counts_against_the_board():
    board = {"a": [1, 1, 1, 1, 1, 1, 2], "b": [1, 1, 1, 1, 1, 0, 3]}  # ruri 5 on the table
    req = request(board)
    req["rounds"][0]["removed"] = "ruri"
    assert codes(referee(req)) == {"board.geisha-overflow-removed"}


@pytest.mark.rule("hanamikoji", "referee.request")
def test_referee_request_malformed_input_is_an_error_not_an_exception():
    for bad in (None, [], "x", 3, {"game": "chess"}, {"game": "hanamikoji"},
                {"game": "hanamikoji", "rounds": "x"}, {"game": "hanamikoji", "rounds": []},
                {"game": "hanamikoji", "rounds": [{"board": {"a": "x"}}]},
                {"game": "hanamikoji", "rounds": [{"actions": [None, 3, {"action": []}]}]}):
        r = referee(bad)
        assert r["valid"] is False and r["errors"]
        assert all(set(e) == {"code", "path", "rule", "message", "kind"} for e in r["errors"])


@pytest.mark.rule("hanamikoji", "referee.request")
def test_referee_request_unknown_ids():
    r = referee({"game": "hanamikoji", "edition": "nope",
                 "variants": {"x": 1, "simultaneous_goal": "dice"},
                 "rounds": [{"board": EXAMPLE_BOARD, "removed": "hana"}]})
    assert codes(r) >= {"edition.unknown", "variant.unknown", "variant.value", "card.unknown"}


@pytest.mark.rule("hanamikoji", "setup.row")
def test_setup_row_no_markers_before_round_one():
    r = referee({"game": "hanamikoji", "start": {"favor": ["a"] + [None] * 6},
                 "rounds": [{"board": EXAMPLE_BOARD}]})
    assert codes(r) == {"start.favor-round1"}


# A complete, legal round log (A starts): A ends 8 cards, B ends 8 cards.
LOG = [
    {"player": "a", "action": "secret", "cards": ["ruri"]},
    {"player": "b", "action": "tradeoff", "cards": ["ayane", "iroha"]},
    {"player": "a", "action": "gift", "cards": ["ruri", "ruri", "anju"], "taken": "anju"},
    {"player": "b", "action": "competition", "cards": [["anju", "anju"], ["yoko", "tomoyo"]],
     "taken": 0},
    {"player": "a", "action": "competition", "cards": [["yoko", "yoko"], ["chiharu", "tomoyo"]],
     "taken": 1},
    {"player": "b", "action": "secret", "cards": ["ruri"]},
    {"player": "a", "action": "tradeoff", "cards": ["ayane", "iroha"]},
    {"player": "b", "action": "gift", "cards": ["chiharu", "chiharu", "anju"], "taken": "chiharu"},
]


@pytest.mark.rule("hanamikoji", "deal.remove-one", "turn.alternate")
def test_turn_alternate_full_log_scores_and_infers_removed():
    r = referee({"game": "hanamikoji", "rounds": [{"actions": LOG}]})
    assert r["valid"], r
    rnd = r["rounds"][0]
    assert sum(rnd["board"]["a"]) == 8 and sum(rnd["board"]["b"]) == 8
    assert rnd["removed"] == "ruri"
    assert rnd["explanation"][0]["rule"] == "deal.remove-one"


@pytest.mark.rule("hanamikoji", "turn.alternate")
def test_turn_alternate_in_progress_reports_turn_actions_and_pile():
    r = referee({"game": "hanamikoji", "rounds": [{"actions": LOG[:3]}]})
    assert r["result"]["status"] == "in_progress"
    progress = r["rounds"][0]["progress"]
    assert progress["to_act"] == "b" and progress["draw_pile"] == 5
    assert progress["actions_left"] == {"a": ["tradeoff", "competition"],
                                        "b": ["secret", "gift", "competition"]}


@pytest.mark.rule("hanamikoji", "turn.alternate")
def test_turn_alternate_wrong_player():
    log = [dict(LOG[0]), dict(LOG[1], player="a")]
    r = referee({"game": "hanamikoji", "rounds": [{"actions": log}]})
    assert codes(r) == {"log.wrong-player"}
    assert r["errors"][0]["path"] == "/rounds/0/actions/1/player"


@pytest.mark.rule("hanamikoji", "turn.each-action-once")
def test_turn_each_action_once():
    log = LOG[:2] + [{"player": "a", "action": "secret", "cards": ["yoko"]}]
    assert codes(referee({"game": "hanamikoji", "rounds": [{"actions": log}]})) == {"log.action-reused"}


@pytest.mark.rule("hanamikoji", "action.gift")
def test_action_gift_taken_must_be_offered():
    log = LOG[:2] + [dict(LOG[2], taken="yoko")]
    r = referee({"game": "hanamikoji", "rounds": [{"actions": log}]})
    assert codes(r) == {"log.taken-not-offered"} and r["errors"][0]["rule"] == "action.gift"


@pytest.mark.rule("hanamikoji", "action.competition")
def test_action_competition_split_is_two_sets_of_two():
    log = LOG[:3] + [dict(LOG[3], cards=[["anju", "anju", "yoko"], ["tomoyo"]])]
    r = referee({"game": "hanamikoji", "rounds": [{"actions": log}]})
    assert codes(r) == {"log.competition-split"} and r["errors"][0]["rule"] == "action.competition"


@pytest.mark.rule("hanamikoji", "action.secret")
def test_action_secret_uses_one_card():
    log = [dict(LOG[0], cards=["ruri", "yoko"])]
    assert codes(referee({"game": "hanamikoji", "rounds": [{"actions": log}]})) == {"log.card-count"}


@pytest.mark.rule("hanamikoji", "components.item-cards")
def test_components_item_cards_log_cannot_use_more_than_exist():
    log = [dict(LOG[0], cards=["ayane"]), dict(LOG[1], cards=["ayane", "ayane"])]
    assert codes(referee({"game": "hanamikoji", "rounds": [{"actions": log}]})) == {"log.card-overflow"}


@pytest.mark.rule("hanamikoji", "deal.remove-one")
def test_deal_remove_one_named_card_must_match_log():
    r = referee({"game": "hanamikoji", "rounds": [{"actions": LOG, "removed": "ayane"}]})
    # The log is possible; the card named as put aside is what conflicts with it.
    assert codes(r) == {"log.removed-mismatch"}
    assert r["errors"][0]["path"] == "/rounds/0/removed"


@pytest.mark.parametrize("lang", ["de", "uk", "es", "fr"])
def test_messages_follow_the_language(lang):
    en = referee(request({"a": [3, 0, 0, 0, 0, 0, 4], "b": [0] * 7}))
    other = referee(request({"a": [3, 0, 0, 0, 0, 0, 4], "b": [0] * 7}), lang=lang)
    assert [e["code"] for e in en["errors"]] == [e["code"] for e in other["errors"]]
