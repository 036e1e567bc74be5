"""The Koi-Koi rules no other test named: each checked through the referee or a page."""
from __future__ import annotations

import pytest

from rulebook.koikoi.model import load_rulebook
from rulebook.koikoi.referee import referee

from .test_referee import B_AKATAN, HANDS, MINIMAL, codes, first_round, request, won

RB = load_rulebook()
# A round the winner wins with Three Brights alone (5 points in every ruleset but two).
SANKO = [0, 8, 28]


def yaku_rule(yaku_id: str) -> str:
    return RB.yaku_by_id[yaku_id].rule


def scored(result) -> dict[str, int]:
    return {y["id"]: y["points"] for y in first_round(result)["yaku"]}


@pytest.mark.parametrize("yaku_id", [
    pytest.param(y, marks=pytest.mark.rule("koikoi", yaku_rule(y)), id=y)
    for y in MINIMAL if yaku_rule(y) in {
        "yaku.shiko", "yaku.ameshiko", "yaku.hanami", "yaku.tsukimi", "yaku.inoshikacho",
        "yaku.tane", "yaku.akatan", "yaku.aotan", "yaku.akatan-aotan", "yaku.tan", "yaku.kasu"}])
def test_a_pile_with_the_yaku_scores_it_under_its_rule(yaku_id):
    rnd = first_round(referee(won(MINIMAL[yaku_id], ruleset="nintendo")))
    found = {y["id"]: y for y in rnd["yaku"]}
    assert yaku_id in found and found[yaku_id]["rule"] == yaku_rule(yaku_id)
    assert any(e["rule"] == yaku_rule(yaku_id) for e in rnd["explanation"])
    if RB.yaku_by_id[yaku_id].match == "cards":  # one of its cards fewer: the yaku is gone
        fewer = [c for c in MINIMAL[yaku_id] if c != MINIMAL[yaku_id][-1]]
        assert yaku_id not in scored(referee(won(fewer + SANKO)))


@pytest.mark.parametrize("yaku_id", [
    pytest.param(y, marks=pytest.mark.rule("koikoi", yaku_rule(y)), id=y) for y in HANDS])
def test_a_dealt_hand_scores_its_yaku(yaku_id):
    hand = {"winner": "a", "hand": {"a": HANDS[yaku_id]}}
    rnd = first_round(referee(request([hand], ruleset="nintendo")))
    assert [y["id"] for y in rnd["yaku"]] == [yaku_id] and rnd["score"]["a"] == 6
    broken = [47, *HANDS[yaku_id][1:]]  # the first card swapped for a December plain
    other = referee(request([{"winner": "a", "hand": {"a": broken}}], ruleset="nintendo"))
    assert not other["valid"] or yaku_id not in scored(other)


@pytest.mark.rule("koikoi", "deck.match-by-month")
def test_cards_pair_by_month_whatever_their_kind():
    bright_and_plain = referee(request([{"winner": "a", "captured": {"a": [0, 2, 8, 10, 28, 30]}}]))
    assert bright_and_plain["valid"]
    months = [RB.cards[c].month for c in (0, 4)]
    assert months[0] != months[1]
    refused = referee(request([{"winner": "a", "captured": {"a": [0, 4, 8, 10, 28, 30]}}]))
    assert refused["valid"] is False
    assert {e["rule"] for e in refused["errors"]} == {"capture.pairs"}


@pytest.mark.rule("koikoi", "turn.match", "turn.no-match", "turn.draw")
def test_a_pile_is_made_of_pairs_and_whole_months():
    """A turn captures a same-month pair (twice: the played card, then the drawn one) or,
    with the three others on the field, a whole month: a pile holds two or four of a month."""
    whole_month = [0, 1, 2, 3, 8, 10, 28, 30]  # all of January
    assert first_round(referee(won(whole_month)))["score"]["a"] > 0
    three = referee(request([{"winner": "a", "captured": {"a": [0, 1, 2, 8, 10, 28, 30]}}]))
    assert [rule for _code, _path, rule in codes(three)] == ["capture.pairs"]


@pytest.mark.rule("koikoi", "deal.dealer-first", "options.dealer-rotation", "disagree.dealer")
@pytest.mark.parametrize("rotation, next_dealer", [("winner", "a"), ("alternate", "b")])
def test_the_next_dealer_follows_the_rotation(rotation, next_dealer):
    """A deals round 1 and wins it: the winner deals again, or the deal passes to B."""
    rnd = {"winner": "a", "captured": {"a": [0, 2, 8, 10, 28, 30]}}
    result = referee(request([rnd], options={"dealer_rotation": rotation}))
    first = first_round(result)
    assert first["dealer"] == "a" and first["explanation"][0]["rule"] == "deal.first-dealer"
    assert result["next"]["dealer"] == next_dealer


@pytest.mark.rule("koikoi", "koikoi.stop", "scoring.winner-only")
def test_the_player_who_stops_scores_and_the_other_scores_nothing():
    rnd = first_round(referee(won(SANKO, other=[1, 3, 5, 7, 9, 11])))
    assert rnd["winner"] == "a" and rnd["score"] == {"a": 5, "b": 0}
    assert rnd["explanation"][-1]["rule"] == "scoring.winner-only"


@pytest.mark.rule("koikoi", "options.seven-double", "faq.seven-double")
@pytest.mark.parametrize("double, score", [(True, 14), (False, 7)])
def test_the_seven_point_double_is_an_option(double, score):
    seven = [0, 8, 28, 40]  # Rainy Four Brights: 7 points
    rnd = first_round(referee(won(seven, options={"seven_point_double": double})))
    assert rnd["base"] == 7 and rnd["score"]["a"] == score


@pytest.mark.rule("koikoi", "options.koikoi-limit", "disagree.koikoi-calls")
def test_the_number_of_calls_per_round_is_an_option():
    twice = {"a": 0, "b": 2}
    limited = referee(won(SANKO, koikoi=twice, other=B_AKATAN, options={"koikoi_limit": 1}))
    assert limited["valid"] is False
    assert {e["rule"] for e in limited["errors"]} == {"koikoi.limit"}
    assert referee(won(SANKO, koikoi=twice, other=B_AKATAN, options={"koikoi_limit": None}))["valid"]


@pytest.mark.rule("koikoi", "faq.koikoi-double")
@pytest.mark.parametrize("multiplier, calls, factor", [
    ("opponent_called", {"b": 1}, 2), ("opponent_called", {"a": 1}, 1),
    ("winner_called", {"a": 1}, 2), ("winner_called", {"b": 1}, 1)])
def test_who_gets_the_double_for_a_koikoi_call(multiplier, calls, factor):
    options = {"koikoi_multiplier": multiplier, "koikoi_limit": None}
    rnd = first_round(referee(won(SANKO, koikoi=calls, other=B_AKATAN, options=options)))
    assert rnd["multiplier"] == factor and rnd["score"]["a"] == 5 * factor


@pytest.mark.rule("koikoi", "faq.cards-run-out", "disagree.draw")
@pytest.mark.parametrize("points", [0, 6])
def test_a_round_without_a_winner_scores_nothing_but_the_dealers_privilege(points):
    result = referee(request([{"winner": None, "koikoi": {"a": 1, "b": 0}}],
                             options={"draw_dealer_points": points}))
    rnd = first_round(result)
    assert rnd["winner"] is None and rnd["yaku"] == []
    assert rnd["score"] == {"a": points, "b": 0}  # A deals round 1


@pytest.mark.rule("koikoi", "faq.one-card-several-yaku", "disagree.stacking")
def test_one_card_counts_in_several_yaku_but_a_group_scores_its_best():
    blue_and_five = [21, 33, 37, 1, 13]  # Blue Ribbons, and five ribbons in all
    nintendo = scored(referee(won(blue_and_five, ruleset="nintendo")))
    assert "aotan" in nintendo and "tan" not in nintendo  # best of the ribbon group
    yakuza = scored(referee(won(blue_and_five, ruleset="yakuza")))
    assert {"aotan", "tan"} <= set(yakuza)  # the Yakuza games let both score


@pytest.mark.rule("koikoi", "faq.sake-cup")
@pytest.mark.parametrize("as_plain, kasu", [(True, True), (False, False)])
def test_the_sake_cup_is_an_animal_and_may_count_as_a_plain(as_plain, kasu):
    # Three Brights, the sake cup (September) and nine plains, every month a pair
    pile = [0, 2, 8, 10, 28, 30, 32, 34, 6, 7, 14, 15, 41, 43]
    assert sum(RB.cards[c].kind == "plain" for c in pile) == 9
    options = {"sake_cup_as_plain": as_plain, "viewings": "off"}
    result = referee(request([{"winner": "a", "captured": {"a": pile}}], options=options))
    assert ("kasu" in scored(result)) is kasu


@pytest.mark.rule("koikoi", "ruleset.fudawiki", "ruleset.gamedesign")
@pytest.mark.parametrize("ruleset, goko, sanko", [("fudawiki", 15, 6), ("gamedesign", 15, 6),
                                                  ("nintendo", 10, 5)])
def test_a_ruleset_sets_the_values_of_the_brights(ruleset, goko, sanko):
    assert scored(referee(won([0, 8, 28, 40, 44], ruleset=ruleset)))["goko"] == goko
    assert scored(referee(won(SANKO, ruleset=ruleset)))["sanko"] == sanko

