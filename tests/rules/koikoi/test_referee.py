"""The Koi-Koi referee, test by test named after the rule it checks."""
from __future__ import annotations

import pytest

from rulebook.koikoi.model import load_rulebook
from rulebook.koikoi.referee import referee
from rulebook.koikoi.scoring import score_pile

RB = load_rulebook()

BRIGHTS5 = [0, 8, 28, 40, 44]
ANIMALS9 = [4, 12, 16, 20, 24, 29, 32, 36, 41]
PLAINS24 = [c.index for c in RB.cards if c.kind == "plain"]
MINIMAL = {
    "goko": [0, 8, 28, 40, 44],
    "shiko": [0, 8, 28, 44],
    "ameshiko": [0, 8, 28, 40],
    "sanko": [0, 8, 28],
    "hanami": [8, 32],
    "tsukimi": [28, 32],
    "inoshikacho": [20, 24, 36],
    "tane": [4, 12, 16, 29, 41],
    "akatan": [1, 5, 9],
    "aotan": [21, 33, 37],
    "akatan_aotan": [1, 5, 9, 21, 33, 37],
    "tan": [1, 13, 17, 25, 42],
    "kasu": [2, 3, 6, 7, 10, 11, 14, 15, 18, 19],
}
B_AKATAN = [1, 3, 5, 7, 9, 11]  # the other player's pile beside a padded [0, 8, 28]
HANDS = {"teshi": [0, 1, 2, 3, 4, 8, 12, 16], "kuttsuki": [0, 1, 4, 5, 8, 9, 12, 13]}
# The research table, per ruleset (None: not part of the ruleset / value not documented).
EXPECTED = {
    "nintendo": {"goko": 10, "shiko": 8, "ameshiko": 7, "sanko": 5, "hanami": 5, "tsukimi": 5, "inoshikacho": 5,
                     "tane": 1, "akatan": 5, "aotan": 5, "akatan_aotan": 10, "tan": 1, "kasu": 1, "teshi": 6, "kuttsuki": 6},
    "fudawiki": {"goko": 15, "shiko": 8, "ameshiko": 7, "sanko": 6, "hanami": 5, "tsukimi": 5, "inoshikacho": 5,
                     "tane": 1, "akatan": 5, "aotan": 5, "akatan_aotan": 10, "tan": 1, "kasu": 1, "teshi": 6, "kuttsuki": 6},
    "gamedesign": {"goko": 15, "shiko": 10, "ameshiko": 8, "sanko": 6, "hanami": None, "tsukimi": None,
                       "inoshikacho": 5, "tane": 1, "akatan": 6, "aotan": 6, "akatan_aotan": None, "tan": 1, "kasu": 1,
                       "teshi": None, "kuttsuki": None},
    "yakuza": {"goko": 10, "shiko": 8, "ameshiko": 7, "sanko": 6, "hanami": 5, "tsukimi": 5, "inoshikacho": 5,
                   "tane": 1, "akatan": 5, "aotan": 5, "akatan_aotan": None, "tan": 1, "kasu": 1, "teshi": None,
                   "kuttsuki": None},
    # FudaWiki's page on Clubhouse Games (DS): the Nintendo pamphlet's values.
    "clubhouse": {"goko": 10, "shiko": 8, "ameshiko": 7, "sanko": 5, "hanami": 5, "tsukimi": 5, "inoshikacho": 5,
                  "tane": 1, "akatan": 5, "aotan": 5, "akatan_aotan": 10, "tan": 1, "kasu": 1, "teshi": 6,
                  "kuttsuki": 6},
    # Board Game Arena: the help page gives only the hand yaku's 6 points.
    "bga": {**dict.fromkeys(MINIMAL), "teshi": 6, "kuttsuki": 6},
}


def pad(cards):
    """Complete every odd month with another card of it (a plain when possible)."""
    pile = list(dict.fromkeys(cards))
    for month in RB.months:
        held = [c for c in pile if RB.cards[c].month == month.number]
        if len(held) % 2:
            spare = [c.index for c in RB.cards if c.month == month.number and c.index not in pile]
            spare.sort(key=lambda i: RB.cards[i].kind != "plain")
            pile.append(spare[0])
    return pile


def request(rounds, **extra):
    return {"game": "koikoi", "players": {"a": "Aiko", "b": "Ben"}, "rounds": rounds, **extra}


def won(cards, winner="a", koikoi=None, other=(), **extra):
    rnd = {"winner": winner, "captured": {winner: pad(cards), "b" if winner == "a" else "a": list(other)}}
    if koikoi:
        rnd["koikoi"] = koikoi
    return request([rnd], **extra)


def first_round(result):
    assert result["valid"], result
    return result["rounds"][0]


def codes(result):
    assert result["valid"] is False, result
    return [(e["code"], e["path"], e["rule"]) for e in result["errors"]]


def ids(score):
    return {s.yaku.id: s.points for s in score.scored}


# -- every yaku under every ruleset ------------------------------------------------------
@pytest.mark.parametrize("ruleset", list(EXPECTED))
@pytest.mark.parametrize("yaku_id", list(MINIMAL))
def test_yaku_value_per_ruleset(ruleset, yaku_id):
    expected = EXPECTED[ruleset][yaku_id]
    got = ids(score_pile(MINIMAL[yaku_id], ruleset, {"viewings": "on"} if ruleset != "gamedesign" else None))
    if expected is None:
        assert yaku_id not in got
    else:
        assert got.get(yaku_id) == expected, got


@pytest.mark.parametrize("ruleset", list(EXPECTED))
@pytest.mark.parametrize("yaku_id", list(HANDS))
@pytest.mark.rule("koikoi", "round.winner-needs-yaku")
def test_yaku_hand_per_ruleset(ruleset, yaku_id):
    expected = EXPECTED[ruleset][yaku_id]
    rnd = {"winner": "a", "hand": {"a": HANDS[yaku_id]}}
    result = referee(request([rnd], ruleset=ruleset))
    if expected is None:
        assert ("winner.no-yaku", "/rounds/0/winner", "round.winner-needs-yaku") in codes(result)
    else:
        r = first_round(result)
        assert [(y["id"], y["points"]) for y in r["yaku"]] == [(yaku_id, expected)]
        taken = RB.effective_options(ruleset)["zero_sum"]  # scoring.zero-sum
        assert r["score"] == {"a": expected, "b": -expected if taken else 0}


# -- test vectors from public implementations ----------------------------------------------
GO_KOIKOI = {"sake_cup_as_plain": False}  # go-koikoi does not count the sake cup as a plain


@pytest.mark.parametrize("cards,expected", [
    ([0, 8, 28, 40, 44], {"goko": 10}),
    ([0, 8, 28, 44], {"shiko": 8}),
    ([0, 8, 28, 40], {"ameshiko": 7}),
    ([0, 8, 28], {"sanko": 5}),
    ([0, 8, 40], {}),
    ([24, 36, 20], {"inoshikacho": 5}),
    ([24, 36, 20, 4], {"inoshikacho": 6}),
    ([8, 32], {"hanami": 5}),
    ([1, 5, 9], {"akatan": 5}),
    ([1, 5, 9, 21, 33, 37], {"akatan_aotan": 10}),
    (PLAINS24[:10], {"kasu": 1}),
    (PLAINS24[:11], {"kasu": 2}),
    (PLAINS24[:9] + [32], {}),
])
def test_vectors_go_koikoi(cards, expected):
    assert ids(score_pile(cards, "nintendo", GO_KOIKOI)) == expected


def test_vectors_sidsryu():
    assert score_pile(BRIGHTS5).base == 10
    assert score_pile([0, 8, 28, 44]).base == 8
    assert score_pile(PLAINS24).base == 15
    # sidsryu's "all 9 animals -> 10" is Ino-shika-cho 5 stacked with Tane 1+4: the Yakuza
    # reading. Under Nintendo's values Ino-shika-cho grows instead: 5 + 6 extra animals.
    assert ids(score_pile(ANIMALS9, "yakuza")) == {"inoshikacho": 5, "tane": 5}
    assert ids(score_pile(ANIMALS9, "nintendo")) == {"inoshikacho": 11}
    assert first_round(referee(won(BRIGHTS5)))["score"]["a"] == 20


# -- yaku details ----------------------------------------------------------------------------
@pytest.mark.rule("koikoi", "yaku.sanko")
def test_yaku_sanko_rain_man_does_not_count():
    assert ids(score_pile([0, 8, 40])) == {}
    assert ids(score_pile([0, 8, 28, 40])) == {"ameshiko": 7}


@pytest.mark.rule("koikoi", "yaku.extra-cards")
def test_yaku_extra_cards():
    assert ids(score_pile([1, 5, 9, 13, 17])) == {"akatan": 7}
    assert ids(score_pile([21, 33, 37, 13])) == {"aotan": 6}
    assert ids(score_pile([1, 5, 9, 21, 33, 37, 13])) == {"akatan_aotan": 11}
    assert ids(score_pile([4, 12, 16, 29, 41, 20])) == {"tane": 2}
    # ruleset.gamedesign: fixed 6 points, scoring together with Ribbons (FudaWiki's page)
    assert ids(score_pile([1, 5, 9, 13, 17], "gamedesign")) == {"akatan": 6, "tan": 1}


@pytest.mark.rule("koikoi", "yaku.best-in-group")
def test_yaku_best_in_group():
    score = score_pile(BRIGHTS5)
    assert ids(score) == {"goko": 10}
    assert {d.yaku.id for d in score.dropped} == {"shiko", "ameshiko", "sanko"}
    assert ids(score_pile([1, 5, 9, 13, 17, 20, 24, 36])) == {"akatan": 7, "inoshikacho": 5}


@pytest.mark.rule("koikoi", "ruleset.yakuza")
def test_ruleset_yakuza_stacks():
    """ruleset.yakuza: Boar-Deer-Butterflies, Poetry and Blue Ribbons also score with Animals/Ribbons."""
    assert ids(score_pile([1, 5, 9, 13, 17], "yakuza")) == {"akatan": 5, "tan": 1}
    assert ids(score_pile([21, 33, 37, 13, 17], "yakuza")) == {"aotan": 5, "tan": 1}
    assert ids(score_pile([21, 33, 37, 13, 17, 25], "yakuza")) == {"aotan": 5, "tan": 2}
    assert ids(score_pile([20, 24, 36, 4, 12], "yakuza")) == {"inoshikacho": 5, "tane": 1}
    # Poetry and Blue Ribbons together: both score, with Ribbons (the referee's reading).
    assert ids(score_pile([1, 5, 9, 21, 33, 37], "yakuza")) == {"akatan": 5, "aotan": 5, "tan": 2}
    # Elsewhere the group still scores only its best yaku.
    assert ids(score_pile([21, 33, 37, 13, 17], "nintendo")) == {"aotan": 7}


def test_yaku_other_group_stacks():
    got = ids(score_pile([0, 8, 28, 32] + PLAINS24[:9]))
    assert got == {"sanko": 5, "hanami": 5, "tsukimi": 5, "kasu": 1}


@pytest.mark.rule("koikoi", "options.sake-cup")
def test_options_sake_cup():
    pile = PLAINS24[:9] + [32]
    assert ids(score_pile(pile)) == {"kasu": 1}
    assert ids(score_pile(pile, options={"sake_cup_as_plain": False})) == {}
    assert ids(score_pile(pile + [4, 12, 16], "yakuza")) == {"kasu": 1}
    assert ids(score_pile(pile + [4, 12, 16, 29], "yakuza")) in ({"kasu": 1}, {"tane": 1})
    # "choose": never both at once.
    assert ids(score_pile(PLAINS24[:9] + [32, 4, 12, 16, 29], "yakuza", {"sake_cup_as_plain": True})) == {
        "kasu": 1, "tane": 1}


# -- scoring -----------------------------------------------------------------------------
@pytest.mark.rule("koikoi", "scoring.seven-double")
def test_scoring_seven_double():
    r = first_round(referee(won([0, 8, 28, 40])))
    assert r["base"] == 7 and r["score"]["a"] == 14
    assert r["multipliers"] == [{"reason": "seven-points", "factor": 2, "rule": "scoring.seven-double"}]
    assert first_round(referee(won([20, 24, 36, 4])))["score"]["a"] == 6
    off = first_round(referee(won([0, 8, 28, 40], options={"seven_point_double": False})))
    assert off["score"]["a"] == 7 and off["multipliers"] == []


@pytest.mark.rule("koikoi", "scoring.koikoi-double")
def test_scoring_koikoi_double_opponent_called():
    r = first_round(referee(won([0, 8, 28], koikoi={"b": 1}, other=B_AKATAN)))
    assert r["score"]["a"] == 10
    assert [m["reason"] for m in r["multipliers"]] == ["opponent-koikoi"]
    # The winner's own call does not double in the Nintendo rules.
    assert first_round(referee(won([0, 8, 28], koikoi={"a": 1})))["score"]["a"] == 5
    # Both doubles: x4.
    both = first_round(referee(won([0, 8, 28, 44], koikoi={"b": 1}, other=B_AKATAN)))
    assert both["score"]["a"] == 32 and both["multiplier"] == 4


@pytest.mark.rule("koikoi", "options.koikoi-multiplier")
def test_options_koikoi_multiplier_winner_called():
    opts = {"koikoi_multiplier": "winner_called"}
    assert first_round(referee(won([0, 8, 28], koikoi={"a": 1}, options=opts)))["score"]["a"] == 10
    r = first_round(referee(won([0, 8, 28], koikoi={"b": 1}, other=B_AKATAN, options=opts)))
    assert r["score"]["a"] == 5


@pytest.mark.parametrize("calls, factor", [({"a": 1}, 2), ({"b": 1}, 2), ({"a": 2, "b": 1}, 4),
                                           ({"a": 3, "b": 2}, 6)])
@pytest.mark.rule("koikoi", "scoring.koikoi-calls")
def test_scoring_koikoi_calls(calls, factor):
    """scoring.koikoi-calls: per_call is FudaWiki's x(calls + 1), not x2 per call."""
    opts = {"koikoi_multiplier": "per_call", "koikoi_limit": None}
    other = B_AKATAN if "b" in calls else ()
    r = first_round(referee(won([0, 8, 28], koikoi=calls, other=other, options=opts)))
    assert r["multipliers"] == [{"reason": "koikoi-calls", "factor": factor, "rule": "scoring.koikoi-calls"}]
    assert r["score"]["a"] == 5 * factor and r["multiplier"] == factor
    # With the seven-point double: Sanko + Poetry Ribbons = 10, x2, x3 for two calls.
    r = first_round(referee(won([0, 8, 28, 1, 5, 9], koikoi={"a": 2}, options=opts)))
    assert r["score"]["a"] == 60 and r["multiplier"] == 6


@pytest.mark.rule("koikoi", "options.koikoi-multiplier", "scoring.koikoi-calls")
def test_options_koikoi_multiplier_per_call():
    """options.koikoi-multiplier: the per_call value follows scoring.koikoi-calls (YAML step)."""
    rb = RB
    assert rb.koikoi_call_step == 1 and rb.koikoi_calls_rule == "scoring.koikoi-calls"
    opts = {"koikoi_multiplier": "per_call"}
    assert first_round(referee(won([0, 8, 28], options=opts)))["multipliers"] == []


@pytest.mark.rule("koikoi", "options.double-cap", "scoring.double-cap")
def test_scoring_double_cap():
    opts = {"koikoi_multiplier": "per_call", "koikoi_limit": None, "double_cap": 4}
    r = first_round(referee(won([0, 8, 28], koikoi={"a": 3, "b": 2}, other=B_AKATAN, options=opts)))
    assert r["score"]["a"] == 20 and r["capped"] is True and r["multiplier"] == 4
    assert any(e["rule"] == "options.double-cap" for e in r["explanation"])
    r = first_round(referee(won([0, 8, 28, 44], koikoi={"b": 1}, other=B_AKATAN,
                                options={"double_cap": 2})))
    assert r["score"]["a"] == 16


@pytest.mark.rule("koikoi", "options.viewings", "round.winner-needs-yaku")
def test_options_viewings():
    assert first_round(referee(won([8, 32])))["score"]["a"] == 5
    off = referee(won([8, 32], options={"viewings": "off"}))
    assert codes(off) == [("winner.no-yaku", "/rounds/0/winner", "round.winner-needs-yaku")]
    alone = referee(won([8, 32], options={"viewings": "with_other"}))
    assert codes(alone)[0][0] == "winner.no-yaku"
    r = first_round(referee(won([8, 32, 1, 5, 9], options={"viewings": "with_other"})))
    assert {y["id"] for y in r["yaku"]} == {"hanami", "akatan"} and r["base"] == 10


@pytest.mark.rule("koikoi", "options.rain-man")
def test_options_rain_man():
    opts = {"rain_man_spoils_viewings": True}
    r = first_round(referee(won([0, 8, 28, 32, 40], options=opts)))
    assert [y["id"] for y in r["yaku"]] == ["ameshiko"]
    assert any(e["rule"] == "options.rain-man" for e in r["explanation"])
    r = first_round(referee(won([0, 8, 28, 32, 40])))
    assert {y["id"] for y in r["yaku"]} == {"ameshiko", "hanami", "tsukimi"}


@pytest.mark.rule("koikoi", "options.hand-yaku", "scoring.hand-yaku")
def test_scoring_hand_yaku():
    r = first_round(referee(request([{"winner": "b", "hand": {"b": HANDS["kuttsuki"]}}])))
    assert r["yaku"][0]["id"] == "kuttsuki" and r["score"] == {"a": 0, "b": 6}
    off = referee(request([{"winner": "b", "hand": {"b": HANDS["kuttsuki"]}}], options={"hand_yaku": False}))
    assert codes(off)[0][0] == "winner.no-yaku"
    played = referee(request([{"winner": "a", "hand": {"a": HANDS["teshi"]},
                               "captured": {"a": pad([0, 8, 28])}}]))
    assert codes(played) == [("hand.round-played", "/rounds/0/hand/a", "scoring.hand-yaku")]
    undocumented = referee(request([{"winner": None}], ruleset="yakuza", options={"hand_yaku": True}))
    assert codes(undocumented) == [("option.value", "/options/hand_yaku", "options.hand-yaku")]


@pytest.mark.rule("koikoi", "deal.hands")
def test_deal_hands_size():
    result = referee(request([{"winner": None, "hand": {"a": [0, 1, 2]}}]))
    assert codes(result) == [("hand.size", "/rounds/0/hand/a", "deal.hands")]
    assert "8 cards" in result["errors"][0]["message"]


@pytest.mark.rule("koikoi", "round.exhaustive")
def test_round_exhaustive():
    rnd = {"winner": None, "captured": {"a": pad([0, 8, 28]), "b": []}, "koikoi": {"a": 1}}
    r = first_round(referee(request([rnd])))
    assert r["score"] == {"a": 0, "b": 0} and r["winner"] is None and r["yaku"] == []
    assert any(e["rule"] == "round.exhaustive" for e in r["explanation"])
    gd = first_round(referee(request([{"winner": None}], ruleset="gamedesign")))
    assert gd["score"] == {"a": 6, "b": -6}  # the dealer's privilege, taken from the other


# -- the match ---------------------------------------------------------------------------
@pytest.mark.rule("koikoi", "match.dealer")
def test_match_dealer():
    rounds = [
        {"winner": "b", "captured": {"b": pad([0, 8, 28])}},
        {"winner": "b", "captured": {"b": pad([0, 8, 28])}},
        {"winner": None},
        {"winner": "a", "captured": {"a": pad([1, 5, 9])}},
        {"winner": None},
    ]
    result = referee(request(rounds))
    assert [r["dealer"] for r in result["rounds"]] == ["a", "b", "b", "a", "a"]
    alt = referee(request(rounds, options={"dealer_rotation": "alternate"}))
    assert [r["dealer"] for r in alt["rounds"]] == ["a", "b", "a", "b", "a"]


@pytest.mark.rule("koikoi", "match.rounds", "match.winner")
def test_match_winner_after_rounds():
    rounds = [
        {"winner": "a", "captured": {"a": pad([0, 8, 28])}},
        {"winner": "b", "captured": {"b": pad([1, 5, 9, 13])}},
        {"winner": "b", "captured": {"b": pad([20, 24, 36])}},
    ]
    result = referee(request(rounds, options={"rounds": 3}))
    assert result["totals"] == {"a": 5, "b": 11}
    assert result["result"] == {"status": "win", "winner": "b", "reason": "match.higher-total",
                                "rules": ["match.rounds", "match.winner"], "rounds_played": 3,
                                "rounds_total": 3}
    cont = referee(request(rounds))
    assert cont["result"]["status"] == "continue" and cont["result"]["rounds_total"] == 12


@pytest.mark.rule("koikoi", "match.tie")
def test_match_tie():
    rounds = [{"winner": "a", "captured": {"a": pad([0, 8, 28])}},
              {"winner": "b", "captured": {"b": pad([1, 5, 9])}}, {"winner": None}]
    result = referee(request(rounds, options={"rounds": 3}))
    assert result["result"]["status"] == "draw" and result["result"]["winner"] is None


@pytest.mark.rule("koikoi", "match.rounds")
def test_match_rounds_after_end():
    rounds = [{"winner": None}] * 5
    assert codes(referee(request(rounds, options={"rounds": 3}))) == [
        ("round.after-end", "/rounds/3", "match.rounds"), ("round.after-end", "/rounds/4", "match.rounds")]


# -- the request ---------------------------------------------------------------------------
@pytest.mark.rule("koikoi", "referee.cards", "yaku.sanko")
def test_referee_cards_indexes_and_slugs_mixed():
    cards = ["pine-crane", 2, "cherry-curtain", 10, 28, "susuki-plain-1"]
    r = first_round(referee(request([{"winner": "a", "captured": {"a": cards}}])))
    assert r["yaku"] == [{"id": "sanko", "points": 5, "cards": ["pine-crane", "cherry-curtain", "susuki-moon"],
                          "rule": "yaku.sanko"}]


def test_referee_defaults():
    result = referee({"game": "koikoi", "rounds": [{"winner": None}]})
    assert result["valid"] and result["ruleset"] == "nintendo"
    assert result["players"] == {"a": "Player A", "b": "Player B"}


@pytest.mark.parametrize("req,expected", [
    ([], [("request.not-object", "", "referee.request")]),
    ({"game": "koikoi", "rounds": [{"winner": None}], "x": 1}, [("request.unknown-field", "/x", "referee.request")]),
    ({"rounds": [{"winner": None}]}, [("request.missing-field", "/game", "referee.request")]),
    ({"game": "hanamikoji", "rounds": [{"winner": None}]}, [("game.unknown", "/game", "referee.request")]),
    ({"game": "koikoi", "ruleset": "casino", "rounds": [{"winner": None}]},
     [("ruleset.unknown", "/ruleset", "referee.request")]),
    ({"game": "koikoi", "options": {"jokers": True}, "rounds": [{"winner": None}]},
     [("option.unknown", "/options/jokers", "referee.request")]),
    ({"game": "koikoi", "options": {"viewings": True}, "rounds": [{"winner": None}]},
     [("option.value", "/options/viewings", "options.viewings")]),
    ({"game": "koikoi", "options": {"double_cap": 10**100}, "rounds": [{"winner": None}]},
     [("option.value", "/options/double_cap", "options.double-cap")]),
    ({"game": "koikoi", "rounds": []}, [("rounds.empty", "/rounds", "referee.request")]),
    ({"game": "koikoi", "rounds": [{"winner": None}] * 101}, [("rounds.too-many", "/rounds", "referee.limits")]),
    ({"game": "koikoi", "rounds": "all of them"}, [("request.type", "/rounds", "referee.request")]),
    ({"game": "koikoi", "rounds": [{"captured": {}}]}, [("request.missing-field", "/rounds/0/winner", "referee.request")]),
    ({"game": "koikoi", "rounds": [{"winner": "c"}]}, [("winner.value", "/rounds/0/winner", "round.winner-needs-yaku")]),
    ({"game": "koikoi", "rounds": [{"winner": None, "captured": {"a": [48, 0, 1]}}]},
     [("card.unknown", "/rounds/0/captured/a/0", "referee.cards")]),
    ({"game": "koikoi", "rounds": [{"winner": None, "captured": {"a": [0, 1, "pine-crane"]}}]},
     [("card.duplicate", "/rounds/0/captured/a/2", "deck.months")]),
    ({"game": "koikoi", "rounds": [{"winner": None, "captured": {"a": [0, 1], "b": [1, 0]}}]},
     [("card.both-piles", "/rounds/0/captured/b/0", "deck.months"),
      ("card.both-piles", "/rounds/0/captured/b/1", "deck.months")]),
    ({"game": "koikoi", "rounds": [{"winner": None, "captured": {"a": "0 1"}}]},
     [("request.type", "/rounds/0/captured/a", "referee.request")]),
    ({"game": "koikoi", "rounds": [{"winner": None, "koikoi": {"a": "once"}}]},
     [("koikoi.type", "/rounds/0/koikoi/a", "koikoi.call")]),
    ({"game": "koikoi", "rounds": [{"winner": None, "koikoi": {"a": 10**100}}]},
     [("koikoi.too-many", "/rounds/0/koikoi/a", "koikoi.call")]),
    ({"game": "koikoi", "rounds": [{"winner": None, "koikoi": {"a": 2}}]},
     [("koikoi.too-many", "/rounds/0/koikoi/a", "koikoi.limit")]),
    ({"game": "koikoi", "rounds": [{"winner": None, "captured": {"b": []}, "koikoi": {"b": 1}}]},
     [("koikoi.no-yaku", "/rounds/0/koikoi/b", "koikoi.needs-yaku")]),
    ({"game": "koikoi", "rounds": [{"winner": "a", "captured": {"a": [0, 1]}}]},
     [("winner.no-yaku", "/rounds/0/winner", "round.winner-needs-yaku")]),
    ({"game": "koikoi", "players": {"a": "", "c": "x"}, "rounds": [{"winner": None}]},
     [("request.type", "/players/a", "referee.request"), ("request.unknown-field", "/players/c", "referee.request")]),
])
@pytest.mark.rule("koikoi", "deck.months", "koikoi.call", "koikoi.limit", "koikoi.needs-yaku",
                  "options.double-cap", "options.viewings", "referee.cards", "referee.limits",
                  "referee.request", "round.winner-needs-yaku")
def test_referee_request_errors(req, expected):
    assert codes(referee(req)) == expected


@pytest.mark.rule("koikoi", "capture.pairs")
def test_capture_pairs_message_names_month_and_count():
    result = referee(request([{"winner": None, "captured": {"b": [40, 41, 42]}}]))
    assert codes(result) == [("pile.month-count", "/rounds/0/captured/b", "capture.pairs")]
    message = result["errors"][0]["message"]
    assert "Ben" in message and "3 cards" in message and "Willow" in message and "(11)" in message
    one = referee(request([{"winner": None, "captured": {"a": [44]}}]))["errors"][0]["message"]
    assert "1 card of the Paulownia month" in one


@pytest.mark.rule("koikoi", "referee.request")
def test_referee_request_all_problems_at_once():
    req = {"game": "shogi", "ruleset": "x", "options": {"rounds": 5, "nope": 1}, "extra": True,
           "rounds": [{"winner": "z", "captured": {"a": [99, 0], "b": [0]}, "koikoi": {"a": -1}},
                      "not a round", {"winner": None, "oops": 1}]}
    got = {c for c, _, _ in codes(referee(req))}
    assert got >= {"game.unknown", "ruleset.unknown", "option.value", "option.unknown",
                   "request.unknown-field", "winner.value", "card.unknown", "card.both-piles",
                   "pile.month-count", "koikoi.type", "request.type"}


@pytest.mark.parametrize("junk", [
    None, 0, 10**400, "koikoi", 1.5, True, [{"game": "koikoi"}],
    {"game": None, "rounds": None}, {"game": ["koikoi"], "rounds": {"0": {}}},
    {"game": "koikoi", "options": [], "players": "Aiko", "rounds": [None, 3, []]},
    {"game": "koikoi", "rounds": [{"winner": [], "captured": [], "koikoi": [], "hand": "x"}]},
    {"game": "koikoi", "rounds": [{"winner": None, "captured": {"a": [True, None, 1.0, {}, [], -1, 10**400]}}]},
    {"game": "koikoi", "ruleset": {"x": 1}, "options": {"rounds": "12", "double_cap": True}, "rounds": [{}]},
    {"game": "koikoi", "rounds": [{"winner": None, "hand": {"a": None, "b": [0] * 8}}]},
])
@pytest.mark.rule("koikoi", "referee.request")
def test_referee_request_malformed_never_raises(junk):
    result = referee(junk)
    assert result["valid"] is False
    assert all(e["code"] != "request.internal" for e in result["errors"])
    assert all(set(e) == {"code", "path", "rule", "message", "kind"} for e in result["errors"])


def test_referee_languages_never_raise():
    for lang in ("de", "uk", "es", "fr", "xx", None, 5):
        assert referee(won([0, 8, 28]), lang=lang)["valid"]
        assert referee({"rounds": 1}, lang=lang)["valid"] is False


def test_referee_answers_the_same_twice():
    """The compiled scorers are cached on the rulebook: a second answer is the first one."""
    req = won([0, 8, 28, 20, 24, 36, 1, 5, 9], koikoi={"b": 1}, other=pad([21, 33, 37]))
    assert referee(req) == referee(req)


@pytest.mark.parametrize("captured", [None, {}, {"a": [0, 2, 8, 10, 28, 30]}])
@pytest.mark.rule("koikoi", "koikoi.needs-yaku", "referee.unlisted-pile")
def test_referee_unlisted_pile(captured):
    """referee.unlisted-pile: a call by a player whose pile is not given is accepted."""
    rnd = {"winner": None, "koikoi": {"b": 1}}
    if captured is not None:
        rnd["captured"] = captured
    assert referee(request([rnd]))["valid"]
    if captured and "a" in captured:
        won = referee(request([{**rnd, "winner": "a"}]))
        assert won["valid"]
        assert won["rounds"][0]["score"]["a"] == 10  # Sanko 5, x2 for B's call
        listed = {"a": [0, 2, 8, 10, 28, 30], "b": [1, 3]}
        bad = referee(request([{**rnd, "winner": "a", "captured": listed}]))
        assert codes(bad) == [("koikoi.no-yaku", "/rounds/0/koikoi/b", "koikoi.needs-yaku")]


# -- rules fidelity: Cards of the Month, lucky hands, draws, calls, new options -----------------
def month_cards(number):
    return [c.index for c in RB.cards if c.month == number]


def nth_round(n, rnd, **extra):
    """A request whose round `n` (1, 2, ...) is `rnd`, after n - 1 rounds without a winner."""
    return request([{"winner": None}] * (n - 1) + [rnd], **extra)


@pytest.mark.parametrize("ruleset, points", [("fudawiki", 4), ("yakuza", 4), ("gamedesign", 4),
                                             ("nintendo", None)])
@pytest.mark.parametrize("n", [1, 2, 5, 8, 11, 12])
@pytest.mark.rule("koikoi", "yaku.tsukifuda")
def test_yaku_tsukifuda_per_ruleset_and_round(ruleset, points, n):
    """yaku.tsukifuda: all four cards of the round's month (round 1 = January), 4 points."""
    four = month_cards(n)
    score = score_pile(four, ruleset, round_number=n)
    assert ids(score).get("tsukifuda") == points
    # The same four cards in another round are no Cards of the Month.
    assert "tsukifuda" not in ids(score_pile(four, ruleset, round_number=n % 12 + 1))
    if points is None:
        return
    r = referee(nth_round(n, {"winner": "a", "captured": {"a": four}}, ruleset=ruleset,
                          options={"rounds": 12, "match_target": None, "end_at_zero": False}))["rounds"][-1]
    assert r["round"] == n and r["month"] == n
    found = {y["id"]: y for y in r["yaku"]}
    assert found["tsukifuda"]["points"] == points
    assert found["tsukifuda"]["cards"] == [RB.cards[i].slug for i in four]
    assert found["tsukifuda"]["rule"] == "yaku.tsukifuda"


@pytest.mark.rule("koikoi", "yaku.tsukifuda")
def test_yaku_tsukifuda_adds_to_other_yaku():
    """yaku.best-in-group: Cards of the Month is in the "other" group and adds to every yaku."""
    pile = month_cards(1) + [8, 10, 28, 30]  # January's four cards hold the crane: Sanko too
    r = first_round(referee(request([{"winner": "a", "captured": {"a": pile}}], ruleset="fudawiki")))
    assert {y["id"]: y["points"] for y in r["yaku"]} == {"sanko": 6, "tsukifuda": 4}
    assert r["base"] == 10 and r["score"]["a"] == 20


@pytest.mark.rule("koikoi", "match.round-month")
def test_match_round_month():
    """match.round-month: round n is month ((n - 1) mod 12) + 1; shorter matches start in January."""
    assert [RB.round_month(n) for n in (1, 2, 12, 13, 24, 25, 100)] == [1, 2, 12, 1, 12, 1, 4]
    result = referee(request([{"winner": None}] * 3, ruleset="fudawiki", options={"rounds": 3}))
    assert [r["month"] for r in result["rounds"]] == [1, 2, 3]
    steps = [e for e in result["rounds"][2]["explanation"] if e["rule"] == "match.round-month"]
    assert steps == [{"rule": "match.round-month", "message": "Round 3 is played in the Cherry blossom month (3)."}]
    # Where Cards of the Month is not played, the month is not explained.
    plain = referee(request([{"winner": None}]))
    assert plain["rounds"][0]["month"] == 1
    assert all(e["rule"] != "match.round-month" for e in plain["rounds"][0]["explanation"])


@pytest.mark.rule("koikoi", "options.tsukifuda", "round.winner-needs-yaku")
def test_options_tsukifuda():
    """options.tsukifuda: a house rule elsewhere (4 points, SID); switchable where it is played."""
    rnd = {"winner": "a", "captured": {"a": month_cards(1)}}
    nin = codes(referee(request([rnd])))
    assert nin == [("winner.no-yaku", "/rounds/0/winner", "round.winner-needs-yaku")]
    on = first_round(referee(request([rnd], options={"tsukifuda": True})))
    assert [(y["id"], y["points"]) for y in on["yaku"]] == [("tsukifuda", 4)]
    off = referee(request([rnd], ruleset="yakuza", options={"tsukifuda": False}))
    assert codes(off)[0][0] == "winner.no-yaku"
    assert RB.effective_options("yakuza")["tsukifuda"] is True
    assert score_pile(month_cards(3), "fudawiki", round_number=3).ids == ("tsukifuda",)
    assert score_pile(month_cards(3), "fudawiki").ids == ()  # no round: the month is unknown


HAND_A, HAND_B = HANDS["teshi"], [5, 6, 9, 10, 13, 14, 17, 18]  # B: four pairs (Kuttsuki)


@pytest.mark.rule("koikoi", "scoring.hand-yaku")
def test_scoring_hand_yaku_wins_at_the_deal():
    """scoring.hand-yaku: the holder wins at the deal; nothing is captured and nobody calls."""
    r = first_round(referee(request([{"winner": "a", "hand": {"a": HAND_A}}])))
    assert r["yaku"][0]["id"] == "teshi" and r["score"] == {"a": 6, "b": 0}
    assert r["explanation"][1]["rule"] == "scoring.hand-yaku"
    # The other player's ordinary hand may be listed too.
    ordinary = [19, 22, 26, 30, 34, 38, 43, 46]
    assert referee(request([{"winner": "a", "hand": {"a": HAND_A, "b": ordinary}}]))["valid"]


@pytest.mark.parametrize("rnd, expected", [
    ({"winner": "a", "hand": {"a": HAND_A}, "captured": {"b": [18, 19]}},
     [("hand.round-played", "/rounds/0/hand/a", "scoring.hand-yaku")]),
    ({"winner": "b", "hand": {"a": HAND_A}, "captured": {"b": pad([20, 24, 36])}},
     [("hand.round-played", "/rounds/0/hand/a", "scoring.hand-yaku")]),
    ({"winner": None, "hand": {"b": HAND_B}},
     [("hand.round-played", "/rounds/0/hand/b", "scoring.hand-yaku")]),
    ({"winner": "a", "hand": {"a": HAND_A}, "koikoi": {"b": 1}},
     [("hand.round-played", "/rounds/0/koikoi/b", "scoring.hand-yaku")]),
    ({"winner": "a", "hand": {"a": HAND_A, "b": HAND_B}},
     [("hand.both-lucky", "/rounds/0/winner", "round.both-hand-yaku")]),
])
@pytest.mark.rule("koikoi", "round.both-hand-yaku", "scoring.hand-yaku")
def test_scoring_hand_yaku_ends_the_round(rnd, expected):
    """scoring.hand-yaku: a round played on (captures, a call, another winner, cards run out)
    while a dealt hand held a hand yaku is impossible."""
    result = referee(request([rnd]))
    assert codes(result) == expected
    assert all("{" not in e["message"] for e in result["errors"])


@pytest.mark.rule("koikoi", "scoring.hand-yaku")
def test_scoring_hand_yaku_messages():
    other_won = referee(request([{"winner": "b", "hand": {"a": HAND_A}, "captured": {"b": pad([20, 24, 36])}}]))
    assert other_won["errors"][0]["message"] == (
        "Aiko's dealt hand holds Four of a Month, which wins the round at the deal, so Ben cannot have won it.")
    ran_out = referee(request([{"winner": None, "hand": {"b": HAND_B}}]))
    assert "cards cannot have run out" in ran_out["errors"][0]["message"]
    assert "Four Pairs" in ran_out["errors"][0]["message"]


@pytest.mark.parametrize("ruleset, next_dealer", [("nintendo", "b"), ("fudawiki", "a")])
@pytest.mark.rule("koikoi", "round.both-hand-yaku", "round.exhaustive")
def test_round_both_hand_yaku(ruleset, next_dealer):
    """round.both-hand-yaku: both players dealt a hand yaku is a draw (FW); the dealer after it
    follows match.dealer-after-draw."""
    rounds = [{"winner": None, "hand": {"a": HAND_A, "b": HAND_B}}, {"winner": None}]
    result = referee(request(rounds, ruleset=ruleset))
    r = first_round(result)
    assert r["winner"] is None and r["score"] == {"a": 0, "b": 0} and r["yaku"] == []
    assert [e["rule"] for e in r["explanation"]][-1] == "round.both-hand-yaku"
    assert result["rounds"][1]["dealer"] == next_dealer
    # Without hand yaku at the table, the hands are ordinary: a plain exhaustive round.
    off = first_round(referee(request(rounds[:1], options={"hand_yaku": False})))
    assert [e["rule"] for e in off["explanation"]][-1] == "round.exhaustive"


DRAWS = [{"winner": None}, {"winner": None}, {"winner": "b", "captured": {"b": pad([0, 8, 28])}},
         {"winner": None}]


@pytest.mark.parametrize("ruleset, options, dealers", [
    ("nintendo", {}, ["a", "b", "a", "b"]),
    ("fudawiki", {}, ["a", "a", "a", "b"]),
    ("nintendo", {"draw_dealer": "same"}, ["a", "a", "a", "b"]),
    ("fudawiki", {"draw_dealer": "other"}, ["a", "b", "a", "b"]),
    ("gamedesign", {"end_at_zero": False}, ["a", "a", "a", "b"]),  # the privilege keeps the deal
    ("fudawiki", {"dealer_rotation": "alternate"}, ["a", "a", "a", "b"]),
])
@pytest.mark.rule("koikoi", "deal.first-dealer", "match.dealer", "match.dealer-after-draw",
                  "options.draw-points", "options.draw-dealer")
def test_match_dealer_after_draw(ruleset, options, dealers):
    """match.dealer-after-draw: NIN passes the deal after a draw, FW keeps it; a dealer who
    scores the dealer's privilege keeps it."""
    result = referee(request(DRAWS, ruleset=ruleset, options=options))
    assert [r["dealer"] for r in result["rounds"]] == dealers
    first = result["rounds"][1]["explanation"][0]
    assert first["rule"] in ("match.dealer-after-draw", "options.draw-points")
    assert ("again" in first["message"]) == (dealers[1] == "a")
    assert result["rounds"][0]["explanation"][0]["rule"] == "deal.first-dealer"


@pytest.mark.rule("koikoi", "round.exhaustive")
def test_round_exhaustive_with_dealers_privilege():
    """round.exhaustive: with the dealer's privilege the explanation never says nobody wins."""
    r = first_round(referee(request([{"winner": None}], ruleset="gamedesign")))
    assert r["score"] == {"a": 6, "b": -6}
    messages = [e["message"] for e in r["explanation"]]
    assert not any("nobody" in m.lower() for m in messages), messages
    assert "As the dealer, Aiko scores 6 points." in messages
    plain = first_round(referee(request([{"winner": None}])))
    assert any("nobody wins" in e["message"] for e in plain["explanation"])


RAINY_B = pad([8, 32, 40])  # B's pile: Flower Viewing, then the rain man (with the swallow)


@pytest.mark.rule("koikoi", "koikoi.call", "koikoi.call-time", "koikoi.needs-yaku")
def test_koikoi_call_time_rain_man_later():
    """koikoi.call-time: a call on a viewing before the rain man was taken stays legal."""
    rnd = {"winner": "a", "captured": {"a": pad([0, 28, 44]), "b": RAINY_B}, "koikoi": {"b": 1}}
    r = first_round(referee(request([rnd], options={"rain_man_spoils_viewings": True})))
    assert r["score"]["a"] == 10  # Sanko 5, x2 for B's call
    # B's final pile scores nothing now, but that does not make the call illegal.
    assert score_pile(RAINY_B, options={"rain_man_spoils_viewings": True}).scored == ()
    # The same with the lightning, and when the cards ran out.
    rnd_l = {"winner": None, "captured": {"b": pad([28, 32, 43])}, "koikoi": {"b": 1}}
    assert referee(request([rnd_l], options={"lightning_spoils_viewings": True}))["valid"]
    # A pile that never held a yaku is still refused.
    never = {"winner": None, "captured": {"b": pad([8, 40])}, "koikoi": {"b": 1}}
    assert codes(referee(request([never], options={"rain_man_spoils_viewings": True}))) == [
        ("koikoi.no-yaku", "/rounds/0/koikoi/b", "koikoi.needs-yaku")]


@pytest.mark.rule("koikoi", "options.lightning")
def test_options_lightning():
    """options.lightning: the lightning spoils the viewings, on its own or with the rain man."""
    pile = [0, 1, 8, 9, 28, 29, 32, 33, 42, 43]  # Sanko, both viewings, the lightning
    opts = {"lightning_spoils_viewings": True}
    r = first_round(referee(won(pile, options=opts)))
    assert [y["id"] for y in r["yaku"]] == ["sanko"]
    spoiled = [e for e in r["explanation"] if e["rule"] == "options.lightning"]
    assert len(spoiled) == 2 and "Lightning (Willow) is in the pile" in spoiled[0]["message"]
    assert {y["id"] for y in first_round(referee(won(pile)))["yaku"]} == {"sanko", "hanami", "tsukimi"}
    rain_only = first_round(referee(won(pile, options={"rain_man_spoils_viewings": True})))
    both = {"rain_man_spoils_viewings": True, "lightning_spoils_viewings": True}
    assert {y["id"] for y in rain_only["yaku"]} >= {"hanami"}  # the rain man is not in this pile
    assert ids(score_pile([8, 32, 40, 41], options=both)) == {}
    assert ids(score_pile([8, 32, 42, 43], options=both)) == {}


@pytest.mark.parametrize("option, gone, kept", [("flower_viewing", "hanami", "tsukimi"),
                                                ("moon_viewing", "tsukimi", "hanami")])
@pytest.mark.rule("koikoi", "options.flower-viewing", "options.moon-viewing")
def test_options_each_viewing(option, gone, kept):
    """options.flower-viewing, options.moon-viewing: each viewing switches on its own."""
    pile = [8, 28, 32]
    assert set(ids(score_pile(pile, options={option: False}))) == {kept}
    assert set(ids(score_pile(pile))) == {gone, kept}
    assert ids(score_pile(pile, options={option: True, "viewings": "off"})) == {}
    assert RB.yaku_off(RB.yaku_by_id[gone], RB.effective_options("nintendo", {option: False}))
    assert not RB.yaku_off(RB.yaku_by_id[kept], RB.effective_options("nintendo", {option: False}))


@pytest.mark.parametrize("req, expected", [
    ({"game": "koikoi", "ruleset": None, "rounds": [{"winner": None}]},
     [("request.type", "/ruleset", "referee.request")]),
    ({"game": "koikoi", "options": None, "rounds": [{"winner": None}]},
     [("request.type", "/options", "referee.request")]),
    ({"game": "koikoi", "players": None, "rounds": [{"winner": None}]},
     [("request.type", "/players", "referee.request")]),
    ({"game": "koikoi", "rounds": [{"winner": None, "captured": None}]},
     [("request.type", "/rounds/0/captured", "referee.request")]),
    ({"game": "koikoi", "rounds": [{"winner": None, "hand": None}]},
     [("request.type", "/rounds/0/hand", "referee.request")]),
    ({"game": "koikoi", "rounds": [{"winner": None, "koikoi": None}]},
     [("koikoi.type", "/rounds/0/koikoi", "koikoi.call")]),
])
@pytest.mark.rule("koikoi", "koikoi.call", "referee.request")
def test_referee_request_null_fields(req, expected):
    """referee.request: a field the schema does not allow to be null is refused; omitting it is fine."""
    assert codes(referee(req)) == expected
    assert referee({"game": "koikoi", "rounds": [{"winner": None}]})["valid"]


@pytest.mark.rule("koikoi", "referee.start")
def test_referee_start_resumes_a_match():
    """A check from round 3 of a FudaWiki match: its month, its dealer, the totals so far."""
    r = referee({"game": "koikoi", "ruleset": "fudawiki",
                 "start": {"round": 3, "dealer": "b", "totals": {"a": 12, "b": 6}},
                 "rounds": [{"winner": "a", "captured": {"a": [8, 9, 10, 11]}}]})
    assert r["valid"], r
    rnd = r["rounds"][0]
    assert (rnd["round"], rnd["month"], rnd["dealer"]) == (3, 3, "b")
    assert [y["id"] for y in rnd["yaku"]] == ["tsukifuda"]  # the cherry cards in March
    assert rnd["explanation"][0]["rule"] == "referee.start"
    assert r["totals"] == {"a": 16, "b": 6}
    assert (r["result"]["rounds_played"], r["result"]["status"]) == (3, "continue")


@pytest.mark.rule("koikoi", "referee.start")
def test_referee_start_refuses_what_cannot_be():
    r = referee({"game": "koikoi", "options": {"rounds": 6},
                 "start": {"round": 7, "dealer": "c", "totals": {"a": -1, "b": "x"}},
                 "rounds": [{"winner": None}]})
    assert [(e["code"], e["path"]) for e in r["errors"]] == [
        ("start.round", "/start/round"), ("start.dealer", "/start/dealer"),
        ("start.total", "/start/totals/a"), ("request.type", "/start/totals/b")]
    last = referee({"game": "koikoi", "options": {"rounds": 3}, "start": {"round": 3},
                    "rounds": [{"winner": None}, {"winner": None}]})
    assert [e["code"] for e in last["errors"]] == ["round.after-end"]


@pytest.mark.rule("koikoi", "match.dealer")
def test_match_dealer_of_the_next_round_is_in_the_answer():
    won = referee({"game": "koikoi", "rounds": [{"winner": "b", "captured": {"b": [0, 2, 8, 10, 28, 30]}}]})
    assert won["next"] == {"round": 2, "dealer": "b"}  # Nintendo: the winner deals
    drawn = referee({"game": "koikoi", "ruleset": "fudawiki", "rounds": [{"winner": None}]})
    assert drawn["next"] == {"round": 2, "dealer": "a"}  # FudaWiki: the same dealer after a draw
    over = referee({"game": "koikoi", "options": {"rounds": 3}, "start": {"round": 3},
                    "rounds": [{"winner": None}]})
    assert over["next"] is None
