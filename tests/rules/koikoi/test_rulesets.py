"""Koi-Koi rulesets and table options as data: the audit's fixes, the Board Game Arena and
Clubhouse Games rulesets, the options real tables use, and how each fact was read. Each
test is named after the rule it checks."""
from __future__ import annotations

import pytest

from rulebook.koikoi.model import load_rulebook
from rulebook.koikoi.referee import referee
from rulebook.koikoi.scoring import score_pile
from rulebook.sources import BASES

from .test_referee import HAND_A, HAND_B, codes, first_round, ids, pad, request

RB = load_rulebook()
BRIGHTS3 = [0, 8, 28]  # crane, curtain, moon: Three Brights
RIBBONS6 = [1, 5, 9, 21, 33, 37]  # the poetry and the blue ribbons


def messages(rnd):
    return [e["message"] for e in rnd["explanation"]]


def rules_of(rnd):
    return [e["rule"] for e in rnd["explanation"]]


# -- fix 1: the dealer's privilege after either kind of draw (FudaWiki "Draws") -----------
@pytest.mark.rule("koikoi", "round.both-hand-yaku", "options.draw-points")
@pytest.mark.parametrize("points", [1, 6])
@pytest.mark.parametrize("ruleset", ["nintendo", "fudawiki"])
def test_round_both_hand_yaku_with_dealers_privilege(ruleset, points):
    """round.both-hand-yaku: after two hand yaku the dealer scores the privilege and deals."""
    rounds = [{"winner": None, "hand": {"a": HAND_A, "b": HAND_B}}, {"winner": None}]
    result = referee(request(rounds, ruleset=ruleset, options={"draw_dealer_points": points}))
    r = first_round(result)
    assert r["score"] == {"a": points, "b": 0}
    assert rules_of(r)[-2:] == ["round.both-hand-yaku", "options.draw-points"]
    assert result["rounds"][1]["dealer"] == "a"  # the privilege keeps the deal
    assert result["rounds"][1]["explanation"][0]["rule"] == "options.draw-points"


@pytest.mark.rule("koikoi", "options.draw-points")
def test_options_draw_points_after_either_draw():
    """options.draw-points: the same points whether the cards ran out or two hands drew."""
    ran_out = first_round(referee(request([{"winner": None}], options={"draw_dealer_points": 1})))
    hands = first_round(referee(request([{"winner": None, "hand": {"a": HAND_A, "b": HAND_B}}],
                                        options={"draw_dealer_points": 1})))
    assert ran_out["score"] == hands["score"] == {"a": 1, "b": 0}


# -- fix 2: an option about yaku a ruleset lacks is refused ----------------------------------
@pytest.mark.parametrize("option, value", [("hand_yaku", True), ("viewings", "on"),
                                           ("viewings", "with_other"), ("flower_viewing", True),
                                           ("rain_man_spoils_viewings", True),
                                           ("lucky_hands", "misdeal")])
@pytest.mark.rule("koikoi", "options.not-in-ruleset")
def test_options_not_in_ruleset(option, value):
    """options.not-in-ruleset: Hanafuda Flash has no hand yaku and no viewings."""
    result = referee(request([{"winner": None}], ruleset="gamedesign", options={option: value}))
    assert codes(result) == [("option.not-in-ruleset", f"/options/{option}",
                              "options.not-in-ruleset")]
    message = result["errors"][0]["message"]
    assert "Hanafuda Flash" in message and "{" not in message
    assert not RB.applies("gamedesign", option)


@pytest.mark.rule("koikoi", "options.not-in-ruleset")
def test_options_not_in_ruleset_keep_their_value_and_apply_elsewhere():
    """options.not-in-ruleset: the value it already has is accepted; in force nowhere else."""
    ok = referee(request([{"winner": None}], ruleset="gamedesign",
                         options={"hand_yaku": False, "viewings": "off"}))
    assert ok["valid"] and ok["options"]["hand_yaku"] is False
    assert RB.effective_options("gamedesign")["flower_viewing"] is False
    for rid in ("nintendo", "fudawiki", "yakuza", "clubhouse", "bga"):
        assert RB.applies(rid, "hand_yaku") and RB.applies(rid, "viewings")


# -- fix 3: Yakuza's Poetry and Blue Ribbons -----------------------------------------------
@pytest.mark.rule("koikoi", "ruleset.yakuza", "yaku.akatan", "yaku.aotan")
def test_ruleset_yakuza_poetry_and_blue_ribbons():
    """ruleset.yakuza: both fixed 5-point ribbon yaku and Ribbons: 5 + 5 + 2 = 12, x2 = 24."""
    r = first_round(referee(request([{"winner": "a", "captured": {"a": pad(RIBBONS6)}}],
                                    ruleset="yakuza")))
    assert {y["id"]: y["points"] for y in r["yaku"]} == {"akatan": 5, "aotan": 5, "tan": 2}
    assert r["base"] == 12 and r["score"]["a"] == 24
    read = RB.provenance("yakuza", "group.ribbons")
    assert read.basis == "inferred" and read.note == "yakuza-ribbons"


# -- fix 4: Yakuza matches -----------------------------------------------------------------
@pytest.mark.rule("koikoi", "options.rounds")
@pytest.mark.parametrize("rounds", [3, 6, 9, 12])
def test_options_rounds_yakuza_lengths(rounds):
    """options.rounds: the Yakuza games offer 3, 6, 9 or 12 rounds."""
    result = referee(request([{"winner": None}] * rounds, ruleset="yakuza", options={"rounds": rounds}))
    assert result["valid"] and result["result"]["rounds_total"] == rounds
    assert result["result"]["status"] == "draw"


@pytest.mark.rule("koikoi", "ruleset.yakuza")
def test_ruleset_yakuza_three_rounds_by_default():
    """ruleset.yakuza: 3 rounds unless the players choose more (r/yakuzagames guide)."""
    assert RB.effective_options("yakuza")["rounds"] == 3
    assert codes(referee(request([{"winner": None}] * 4, ruleset="yakuza")))[0][0] == "round.after-end"
    assert RB.provenance("yakuza", "option.rounds").sources == ("yakuza", "yakuza-guide")


# -- fix 5: Cards of the Month in short matches; Hanafuda Flash's month --------------------
@pytest.mark.rule("koikoi", "options.tsukifuda")
def test_options_tsukifuda_in_a_short_match():
    """options.tsukifuda: FudaWiki plays it typically only in full 12-round matches."""
    short = first_round(referee(request([{"winner": None}], ruleset="fudawiki", options={"rounds": 6})))
    full = first_round(referee(request([{"winner": None}], ruleset="fudawiki")))
    assert "options.tsukifuda" in rules_of(short) and "options.tsukifuda" not in rules_of(full)
    assert any("12" in m for m in messages(short))
    assert RB.provenance("fudawiki", "option.tsukifuda").note == "tsukifuda-full-game"


@pytest.mark.rule("koikoi", "match.round-month")
def test_match_round_month_hanafuda_flash_inferred():
    """match.round-month: Hanafuda Flash scores the month it shows: the round's, inferred."""
    read = RB.provenance("gamedesign", "yaku.tsukifuda")
    assert read.basis == "inferred" and read.note == "flash-month"


# -- fix 6 (Koi-Koi part): citations, the dealer's points, Hanafuda Flash's next dealer ----
@pytest.mark.rule("koikoi", "options.rain-man", "options.lightning", "disagree.viewings")
def test_options_rain_man_and_lightning_cite_the_pile_reading():
    """options.rain-man, options.lightning: the pile-based house rule's sources are not
    FudaWiki's, whose variant looks at the field (disagree.viewings says so)."""
    for key in ("rain_man_spoils_viewings", "lightning_spoils_viewings"):
        assert RB.options[key].sources and "fudawiki" not in RB.options[key].sources
    text = RB.rules["disagree.viewings"]
    assert "field" in text and "willow" in text and "paulownia" in text


@pytest.mark.rule("koikoi", "deal.redeal")
def test_deal_redeal_four_pairs_on_the_field():
    """deal.redeal: four pairs dealt to the field are a misdeal too (FudaWiki)."""
    assert "four pairs" in RB.rules["deal.redeal"]


@pytest.mark.rule("koikoi", "match.dealer-after-draw")
@pytest.mark.parametrize("ruleset", sorted(RB.rulesets))
def test_match_dealer_after_draw_matches_the_options_in_force(ruleset):
    """match.dealer-after-draw: the dealer the referee picks after a round without a winner is
    the one the options in force say (the privilege always keeps the deal)."""
    opts = RB.effective_options(ruleset)
    result = referee(request([{"winner": None}, {"winner": None}], ruleset=ruleset,
                             options={"end_at_zero": False}))
    keeps = opts["draw_dealer"] == "same" or opts["draw_dealer_points"] > 0
    assert result["rounds"][1]["dealer"] == ("a" if keeps else "b")


@pytest.mark.rule("koikoi", "ruleset.gamedesign")
def test_ruleset_gamedesign_dealer_keeps_the_deal():
    """ruleset.gamedesign: the dealer wins a round without a winner and deals again."""
    assert RB.effective_options("gamedesign")["draw_dealer"] == "same"
    assert RB.provenance("gamedesign", "option.draw_dealer").basis == "inferred"


# -- Hanafuda Flash (FudaWiki's page on the game) -------------------------------------------
@pytest.mark.rule("koikoi", "ruleset.gamedesign")
def test_ruleset_gamedesign_no_multipliers():
    """ruleset.gamedesign: "No score multipliers of any kind": 7+ and calls do not double."""
    rnd = {"winner": "a", "captured": {"a": pad([0, 8, 28, 44])}, "koikoi": {"b": 1}}
    r = first_round(referee(request([rnd], ruleset="gamedesign", options={"koikoi_limit": None})))
    assert r["base"] == 10 and r["multiplier"] == 1 and r["multipliers"] == []


@pytest.mark.rule("koikoi", "ruleset.gamedesign")
def test_ruleset_gamedesign_fixed_yaku_stack():
    """ruleset.gamedesign: Boar, Deer and Butterflies 5 with Animals; ribbons with Ribbons."""
    assert ids(score_pile([20, 24, 36, 4, 12], "gamedesign")) == {"inoshikacho": 5, "tane": 1}
    assert ids(score_pile(RIBBONS6, "gamedesign")) == {"akatan": 6, "aotan": 6, "tan": 2}


@pytest.mark.rule("koikoi", "ruleset.gamedesign", "options.match-target", "options.end-at-zero", "match.target")
def test_ruleset_gamedesign_from_10_to_50():
    """options.match-target, options.end-at-zero: from 10 points until 50 or 0."""
    rnd = {"winner": "a", "captured": {"a": pad([0, 8, 28, 44])}}  # Four Brights: 10
    result = referee(request([rnd] * 4, ruleset="gamedesign", options={"end_at_zero": False}))
    assert result["valid"] and result["totals"]["a"] == 50
    assert result["result"] == {"status": "win", "winner": "a", "reason": "match.target-reached",
                                "rules": ["match.target", "match.winner"], "rounds_played": 4,
                                "rounds_total": None}
    assert result["next"] is None
    over = referee(request([rnd] * 5, ruleset="gamedesign", options={"end_at_zero": False}))
    assert codes(over) == [("round.after-end", "/rounds/4", "match.target")]
    fell = referee(request([rnd], ruleset="gamedesign"))  # B: 10 - 10 = 0
    assert fell["result"]["reason"] == "match.fell-to-zero" and fell["result"]["winner"] == "a"


# -- Board Game Arena -----------------------------------------------------------------------
@pytest.mark.rule("koikoi", "ruleset.bga", "options.start-points", "scoring.zero-sum")
def test_ruleset_bga_starts_at_50_zero_sum():
    """ruleset.bga: 50 points each; a hand yaku wins 6, taken from the other player."""
    result = referee(request([{"winner": "a", "hand": {"a": HAND_A}}], ruleset="bga"))
    assert result["rounds"][0]["score"] == {"a": 6, "b": -6}
    assert result["totals"] == {"a": 56, "b": 44}
    assert result["result"]["rounds_total"] == 6


@pytest.mark.rule("koikoi", "ruleset.bga")
def test_ruleset_bga_undocumented_values_are_refused():
    """ruleset.bga: the yaku values are not on its help page: the referee does not guess."""
    result = referee(request([{"winner": "a", "captured": {"a": pad(BRIGHTS3)}, "field_brights": 2}],
                             ruleset="bga"))
    assert codes(result) == [("yaku.value-unknown", "/rounds/0/captured/a", "referee.request")]
    assert "Board Game Arena" in result["errors"][0]["message"]
    assert all(RB.provenance("bga", f"yaku.{y}").basis == "unknown"
               for y in ("goko", "sanko", "tan", "kasu"))
    # A call on an undocumented yaku is still possible: only the score is unknown.
    call = {"winner": None, "captured": {"a": pad(BRIGHTS3)}, "koikoi": {"a": 1}}
    assert referee(request([call], ruleset="bga"))["valid"]


@pytest.mark.rule("koikoi", "scoring.field-multiplier", "options.field-multiplier")
def test_scoring_field_multiplier_bga():
    """scoring.field-multiplier: Board Game Arena multiplies by the brights on the field."""
    bga = RB.rulesets["bga"]
    rb_values = {**bga.values}
    assert rb_values["teshi"].points == 6
    hand = referee(request([{"winner": "a", "hand": {"a": HAND_A}, "field_brights": 3}],
                           ruleset="bga"))
    assert first_round(hand)["multiplier"] == 1  # a hand yaku's 6 points are never multiplied
    pile = {"winner": "a", "captured": {"a": pad(BRIGHTS3)}}
    for brights, factor in ((0, 1), (1, 1), (3, 3)):
        r = first_round(referee(request([{**pile, "field_brights": brights}], ruleset="nintendo",
                                        options={"field_multiplier": "brights"})))
        assert r["multiplier"] == factor and r["score"]["a"] == 5 * factor
    missing = referee(request([pile], options={"field_multiplier": "brights"}))
    assert codes(missing) == [("round.field-brights", "/rounds/0/field_brights",
                               "options.field-multiplier")]


@pytest.mark.rule("koikoi", "scoring.field-multiplier", "options.field-multiplier")
def test_scoring_field_multiplier_fudawiki_variant():
    """scoring.field-multiplier: FudaWiki's variant multiplies by one more than the brights."""
    pile = {"winner": "a", "captured": {"a": pad(BRIGHTS3)}}
    for brights, factor in ((0, 1), (1, 2), (2, 3)):
        r = first_round(referee(request([{**pile, "field_brights": brights}], ruleset="fudawiki",
                                        options={"field_multiplier": "brights_plus_one"})))
        assert r["multiplier"] == factor and r["score"]["a"] == 6 * factor
    bad = referee(request([{**pile, "field_brights": 6}], options={"field_multiplier": "brights"}))
    assert codes(bad)[0][0] == "round.field-brights"


@pytest.mark.rule("koikoi", "ruleset.bga")
def test_ruleset_bga_hard_koi_is_the_referees_reading():
    """ruleset.bga: Hard Koi (the opponent's score doubles; 7 or more doubles) as inferred."""
    opts = RB.effective_options("bga")
    assert opts["koikoi_multiplier"] == "opponent_called" and opts["seven_point_double"] is True
    for key, note in (("option.koikoi_multiplier", "bga-koikoi"), ("option.seven_point_double", "bga-seven")):
        read = RB.provenance("bga", key)
        assert (read.basis, read.note) == ("inferred", note)


# -- Clubhouse Games (Nintendo DS) ----------------------------------------------------------
@pytest.mark.rule("koikoi", "ruleset.clubhouse")
def test_ruleset_clubhouse_values_and_exclusivity():
    """ruleset.clubhouse: the Nintendo values; only the bright yaku exclude each other."""
    # Boar, Deer and Butterflies gains a point per further animal, and Animals scores too
    assert ids(score_pile([20, 24, 36, 4, 12], "clubhouse")) == {"inoshikacho": 7, "tane": 1}
    # FudaWiki's example: 3 Blue Ribbons and 3 assorted ribbons: 5 + 3 and 1 + 1 = 10
    assert ids(score_pile([21, 33, 37, 13, 17, 25], "clubhouse")) == {"aotan": 8, "tan": 2}
    assert ids(score_pile([0, 8, 28, 44, 40], "clubhouse")) == {"goko": 10}
    assert RB.provenance("clubhouse", "group.ribbons").basis == "inferred"
    assert RB.provenance("clubhouse", "yaku.akatan").basis == "reported"


@pytest.mark.rule("koikoi", "ruleset.clubhouse", "koikoi.limit")
def test_ruleset_clubhouse_one_call_per_player():
    """koikoi.limit: each player may call koi-koi once in each round."""
    rnd = {"winner": "b", "captured": {"a": pad(BRIGHTS3), "b": pad([20, 24, 36])},
           "koikoi": {"a": 1, "b": 1}}
    assert referee(request([rnd], ruleset="clubhouse"))["valid"]
    twice = dict(rnd, koikoi={"a": 2})
    assert codes(referee(request([twice], ruleset="clubhouse")))[0][:2] == ("koikoi.too-many", "/rounds/0/koikoi/a")


@pytest.mark.rule("koikoi", "ruleset.clubhouse", "scoring.zero-sum")
def test_ruleset_clubhouse_fifty_points_below_zero():
    """ruleset.clubhouse: 50 points each, and play goes on below zero (zero-sum, inferred)."""
    rnd = {"winner": "a", "captured": {"a": pad([0, 8, 28, 44, 40])}}  # Five Brights: 10 x2
    result = referee(request([rnd] * 3, ruleset="clubhouse"))
    assert result["totals"] == {"a": 110, "b": -10} and result["result"]["status"] == "continue"
    assert RB.provenance("clubhouse", "option.zero_sum").basis == "inferred"


# -- options real tables use ----------------------------------------------------------------
@pytest.mark.rule("koikoi", "options.koikoi-multiplier")
def test_options_koikoi_multiplier_anyone_called():
    """options.koikoi-multiplier: "When anyone called" (FudaWiki) doubles after any call."""
    rnd = {"winner": "a", "captured": {"a": pad(BRIGHTS3)}, "koikoi": {"a": 1}}
    r = first_round(referee(request([rnd], options={"koikoi_multiplier": "anyone_called"})))
    assert r["multiplier"] == 2 and r["multipliers"][0]["reason"] == "any-koikoi"
    plain = first_round(referee(request([{**rnd, "koikoi": {}}],
                                        options={"koikoi_multiplier": "anyone_called"})))
    assert plain["multiplier"] == 1


@pytest.mark.rule("koikoi", "options.koikoi-multiplier")
def test_options_koikoi_multiplier_none():
    rnd = {"winner": "a", "captured": {"a": pad(BRIGHTS3)}, "koikoi": {"b": 1}}
    r = first_round(referee(request([rnd], options={"koikoi_multiplier": "none"})))
    assert r["multiplier"] == 1 and r["multipliers"] == []


@pytest.mark.rule("koikoi", "options.lucky-hands")
def test_options_lucky_hands_misdeal():
    """options.lucky-hands: a hand yaku is a misdeal: that deal was never played."""
    result = referee(request([{"winner": "a", "hand": {"a": HAND_A}}], ruleset="fudawiki",
                             options={"lucky_hands": "misdeal"}))
    assert codes(result) == [("hand.misdeal", "/rounds/0/hand/a", "options.lucky-hands")]


@pytest.mark.rule("koikoi", "options.both-lucky-hands")
def test_options_both_lucky_hands_play_on():
    """options.both-lucky-hands: Hanafubuki ignores both hands, and the round is played."""
    rnd = {"winner": "a", "hand": {"a": HAND_A, "b": HAND_B}, "captured": {"a": pad(BRIGHTS3)}}
    r = first_round(referee(request([rnd], ruleset="fudawiki", options={"both_lucky_hands": "play_on"})))
    assert [y["id"] for y in r["yaku"]] == ["sanko"] and "options.both-lucky-hands" in rules_of(r)
    # Only both hands are ignored: one hand yaku still wins at the deal.
    one = referee(request([{"winner": "a", "hand": {"a": HAND_A}, "captured": {"a": pad(BRIGHTS3)}}],
                          ruleset="fudawiki", options={"both_lucky_hands": "play_on"}))
    assert codes(one)[0][0] == "hand.round-played"


@pytest.mark.rule("koikoi", "options.lucky-hands-stack")
def test_options_lucky_hands_stack():
    """options.lucky-hands-stack: a hand with four of a month and four pairs scores 12."""
    both = [0, 1, 2, 3, 4, 5, 8, 9]  # the four pines, and two more pairs
    stacked = first_round(referee(request([{"winner": "a", "hand": {"a": both}}],
                                          options={"lucky_hands_stack": True})))
    assert stacked["base"] == 12 and {y["id"] for y in stacked["yaku"]} == {"teshi", "kuttsuki"}
    single = first_round(referee(request([{"winner": "a", "hand": {"a": both}}])))
    assert single["base"] == 6


@pytest.mark.rule("koikoi", "koikoi.minimum", "options.koikoi-minimum")
def test_koikoi_minimum():
    """koikoi.minimum: a call needs yaku worth at least the table's minimum."""
    rnd = {"winner": "b", "captured": {"a": pad(BRIGHTS3), "b": pad([20, 24, 36])}, "koikoi": {"a": 1}}
    assert referee(request([rnd], options={"koikoi_minimum": 5}))["valid"]  # Three Brights: 5
    low = referee(request([rnd], options={"koikoi_minimum": 6}))
    assert codes(low) == [("koikoi.minimum", "/rounds/0/koikoi/a", "koikoi.minimum")]
    assert "5 points" in low["errors"][0]["message"] and "6" in low["errors"][0]["message"]


@pytest.mark.rule("koikoi", "match.target", "options.match-target")
def test_match_target():
    """match.target: the match ends in the round a total reaches the target."""
    rnd = {"winner": "a", "captured": {"a": pad(BRIGHTS3)}}  # 5 points
    result = referee(request([rnd] * 2, options={"match_target": 10}))
    assert result["result"]["reason"] == "match.target-reached" and result["next"] is None
    assert "match.target" in rules_of(result["rounds"][1])
    no_limit = referee(request([rnd], options={"rounds": None}))
    assert codes(no_limit) == [("option.value", "/options/rounds", "options.match-target")]
    endless = referee(request([rnd] * 20, options={"rounds": None, "match_target": 1000}))
    assert endless["valid"] and endless["result"]["rounds_total"] is None


@pytest.mark.rule("koikoi", "scoring.zero-sum", "options.zero-sum", "options.start-points")
def test_scoring_zero_sum_and_start_points():
    """scoring.zero-sum, options.start-points: totals start where the table says and fall."""
    rnd = {"winner": "a", "captured": {"a": pad(BRIGHTS3)}}
    result = referee(request([rnd], options={"zero_sum": True, "start_points": 20}))
    assert result["totals"] == {"a": 25, "b": 15}
    assert any(e["rule"] == "scoring.zero-sum" for e in result["rounds"][0]["explanation"])
    start = {"round": 2, "totals": {"a": -5, "b": 3}}
    assert referee(request([rnd], start=start, options={"zero_sum": True}))["valid"]
    assert codes(referee(request([rnd], start=start)))[0][0] == "start.total"


# -- how every fact was read ----------------------------------------------------------------
@pytest.mark.rule("koikoi", "ruleset.compare")
@pytest.mark.parametrize("ruleset", sorted(RB.rulesets))
def test_ruleset_every_compared_fact_has_its_provenance(ruleset):
    """ruleset.compare: each cell of the comparison names how it was read and from where."""
    keys = RB.compared()
    assert {k for k in keys if k.startswith("yaku.")} == {f"yaku.{y.id}" for y in RB.yaku}
    assert {k for k in keys if k.startswith("option.")} == {f"option.{o}" for o in RB.options}
    for key in keys:
        read = RB.provenance(ruleset, key)
        assert read.basis in BASES, key
        assert all(s in RB.sources for s in read.sources), key
        assert read.basis == "unknown" or read.sources, key
        assert read.basis != "inferred" or read.note, key  # an inference says what it rests on
        assert read.note is None or read.note in RB.notes, key
    with pytest.raises(KeyError):
        RB.provenance(ruleset, "option.no-such-option")


@pytest.mark.rule("koikoi", "ruleset.compare")
def test_ruleset_an_option_no_source_documents_is_unknown():
    read = RB.provenance("clubhouse", "option.draw_dealer")
    assert read.basis == "unknown" and read.sources == ()
    assert RB.provenance("nintendo", "option.draw_dealer").basis == "printed"
    assert RB.provenance("yakuza", "yaku.teshi").basis == "unknown"


# -- the disagreements and the FAQ say what the data says -----------------------------------
# How their prose names each ruleset: a ruleset added without a name here fails the first test.
PROSE = {"nintendo": "Nintendo", "fudawiki": "FudaWiki", "gamedesign": "Hanafuda Flash",
         "yakuza": "Yakuza", "clubhouse": "Clubhouse Games", "bga": "Board Game Arena"}


def said_of(rule_id, ruleset, phrases):
    """Which of the phrases the rule's text says first after it names the ruleset."""
    text = RB.rules[rule_id]
    start = text.index(PROSE[ruleset])
    found = {p: text.find(p, start) for p in phrases if text.find(p, start) >= 0}
    return min(found, key=found.get) if found else None


def clause_of(rule_id, ruleset):
    """The rule's text from where it first names the ruleset to the end of that clause."""
    text = RB.rules[rule_id]
    start = text.index(PROSE[ruleset])
    ends = [i for i in (text.find(";", start), text.find(". ", start)) if i >= 0]
    return text[start:min(ends, default=len(text))]


def part_of(rule_id, ruleset):
    """The rule's text from where it first names the ruleset to where it names another."""
    text = RB.rules[rule_id]
    start = text.index(PROSE[ruleset])
    others = [i for r, name in PROSE.items() if r != ruleset
              for i in [text.find(name, start + len(PROSE[ruleset]))] if i >= 0]
    return text[start:min(others, default=len(text))]


def test_disagree_names_every_ruleset():
    assert set(PROSE) == set(RB.rulesets)
    for rule_id in ("disagree.goko-value", "disagree.stacking", "disagree.dealer-after-draw",
                    "disagree.match-scoring"):
        assert all(PROSE[r] in RB.rules[rule_id] for r in RB.rulesets), rule_id


@pytest.mark.rule("koikoi", "disagree.goko-value")
@pytest.mark.parametrize("ruleset", sorted(PROSE))
def test_disagree_goko_value_matches_the_data(ruleset):
    value = RB.rulesets[ruleset].values["goko"]
    said = said_of("disagree.goko-value", ruleset, ("pay 10", "pay 15", "only inside the game"))
    assert said == ("only inside the game" if value.points is None else f"pay {value.points}")


@pytest.mark.rule("koikoi", "disagree.tsukifuda")
@pytest.mark.parametrize("ruleset", sorted(PROSE))
def test_disagree_tsukifuda_matches_the_data(ruleset):
    if "tsukifuda" not in RB.rulesets[ruleset].values:
        expected = "no such yaku"
    else:
        value = RB.rulesets[ruleset].values["tsukifuda"]
        expected = "does not list" if value.points is None else f"pay {value.points} points"
    said = said_of("disagree.tsukifuda", ruleset, ("pay 4 points", "no such yaku", "does not list"))
    assert said == expected


@pytest.mark.rule("koikoi", "disagree.stacking", "faq.one-card-several-yaku")
@pytest.mark.parametrize("ruleset", sorted(PROSE))
def test_disagree_stacking_matches_the_data(ruleset):
    stacks = bool(RB.rulesets[ruleset].stacks)
    said = said_of("disagree.stacking", ruleset,
                   ("only the best yaku", "score together", "only the bright yaku exclusive"))
    assert (said != "only the best yaku") is stacks
    said = said_of("faq.one-card-several-yaku", ruleset, ("rules;", "score together"))
    assert said == ("score together" if stacks else "rules;")


@pytest.mark.rule("koikoi", "disagree.dealer-after-draw", "disagree.draw", "faq.cards-run-out")
@pytest.mark.parametrize("ruleset", sorted(PROSE))
def test_disagree_dealer_after_draw_matches_the_data(ruleset):
    read = RB.provenance(ruleset, "option.draw_dealer")
    opts = RB.effective_options(ruleset)
    said = said_of("disagree.dealer-after-draw", ruleset,
                   ("other player", "same dealer", "deals again", "none of the sources"))
    if read.basis == "unknown":
        assert said == "none of the sources"
    else:
        assert said in (("same dealer", "deals again") if opts["draw_dealer"] == "same" else ("other player",))
    assert ("referee's reading" in part_of("disagree.dealer-after-draw", ruleset)) is (read.basis == "inferred")
    if opts["draw_dealer_points"]:  # a privilege a ruleset plays by default is named with its points
        for rule_id in ("disagree.draw", "faq.cards-run-out"):
            assert f"{opts['draw_dealer_points']}" in clause_of(rule_id, ruleset), rule_id


@pytest.mark.rule("koikoi", "disagree.koikoi-calls")
@pytest.mark.parametrize("ruleset", [r for r in sorted(PROSE) if PROSE[r] in RB.rules["disagree.koikoi-calls"]])
def test_disagree_koikoi_calls_matches_the_data(ruleset):
    limit = RB.effective_options(ruleset)["koikoi_limit"]
    said = said_of("disagree.koikoi-calls", ruleset, ("one call per round", "one per player", "any number"))
    assert said in (("any number",) if limit is None else ("one call per round", "one per player"))


@pytest.mark.rule("koikoi", "disagree.lucky-hands")
def test_disagree_lucky_hands_matches_the_data():
    text = RB.rules["disagree.lucky-hands"]
    for ruleset in RB.rulesets:
        lacks = not RB.applies(ruleset, "hand_yaku")
        assert (f"{PROSE[ruleset]} has no hand yaku" in text) is lacks, ruleset
    assert RB.effective_options("fudawiki")["both_lucky_hands"] == "draw"
    assert "FudaWiki calls the round a draw" in text
    assert "hanafubuki" in RB.options["both_lucky_hands"].sources and "Hanafubuki ignores" in text
    assert {"misdeal", "win"} <= set(RB.options["lucky_hands"].choices) and "misdeal" in text


@pytest.mark.rule("koikoi", "disagree.match-scoring")
@pytest.mark.parametrize("ruleset", sorted(PROSE))
def test_disagree_match_scoring_matches_the_data(ruleset):
    opts = RB.effective_options(ruleset)
    clause = clause_of("disagree.match-scoring", ruleset)
    if opts["rounds"] and RB.provenance(ruleset, "option.rounds").basis != "unknown":
        assert f"{opts['rounds']} rounds" in clause
    if opts["start_points"]:
        assert f"{opts['start_points']}" in clause
    if opts["match_target"]:
        assert f"to {opts['match_target']}" in clause
    if opts["zero_sum"] and not opts["match_target"]:
        assert "from the other player" in clause


@pytest.mark.rule("koikoi", "faq.which-rules")
def test_faq_which_rules_points_to_the_comparison():
    entry = next(e for e in RB.faq if e["id"] == "faq.which-rules")
    assert "ruleset.compare" in entry["rules"] and "comparison page" in RB.rules["faq.which-rules"]


# -- FudaWiki's older yaku --------------------------------------------------------------------
@pytest.mark.rule("koikoi", "options.older-yaku")
def test_options_older_yaku_ribbons():
    """options.older-yaku: six ribbons score Poetry 5 + Blue 5 + Ribbons 2 = 12 (x2 = 24);
    without it FudaWiki scores Poetry and Blue Ribbons alone, 10 (x2 = 20)."""
    rnd = {"winner": "a", "captured": {"a": pad(RIBBONS6)}}
    older = first_round(referee(request([rnd], ruleset="fudawiki", options={"older_yaku": True})))
    assert {y["id"]: y["points"] for y in older["yaku"]} == {"akatan": 5, "aotan": 5, "tan": 2}
    assert older["score"]["a"] == 24
    assert "With the option “FudaWiki's older yaku”, Poetry Ribbons, Blue Ribbons, and Ribbons score together." in messages(older)
    modern = first_round(referee(request([rnd], ruleset="fudawiki")))
    assert {y["id"]: y["points"] for y in modern["yaku"]} == {"akatan_aotan": 10}
    assert modern["score"]["a"] == 20


@pytest.mark.rule("koikoi", "options.older-yaku")
def test_options_older_yaku_animals_have_no_extra_points():
    """options.older-yaku: Boar, Deer and Butterflies stays at 5 and adds to Animals."""
    five = [20, 24, 36, 4, 12]  # boar, deer, butterflies and two more animals
    older = {"older_yaku": True}
    assert ids(score_pile(five, "fudawiki", older)) == {"inoshikacho": 5, "tane": 1}
    assert ids(score_pile(five, "fudawiki")) == {"inoshikacho": 7}
    # Hanafuda Flash's own table already scores this way: the option changes nothing there.
    assert ids(score_pile(five, "gamedesign", older)) == ids(score_pile(five, "gamedesign"))
    assert ids(score_pile(RIBBONS6, "yakuza", older)) == ids(score_pile(RIBBONS6, "yakuza"))
    for ruleset in ("gamedesign", "yakuza"):
        read = RB.provenance(ruleset, "option.older_yaku")
        assert (read.basis, read.note) == ("inferred", "own-table-older")
    assert RB.provenance("fudawiki", "option.older_yaku").basis == "printed"
    assert RB.provenance("bga", "option.older_yaku").basis == "unknown"
