"""Property tests for the Koi-Koi scorer and referee (hypothesis)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rulebook.koikoi.model import FOLDER, load_rulebook
from rulebook.koikoi.referee import referee
from rulebook.koikoi.scoring import scorer_for
from tests.budget import examples

RB = load_rulebook()
SAKE = RB.card_by_slug["chrysanthemum-sake-cup"]
RESPONSE = Draft202012Validator(json.loads((Path(FOLDER) / "schemas" / "response.schema.json").read_text()))
REQUEST = Draft202012Validator(json.loads((Path(FOLDER) / "schemas" / "request.schema.json").read_text()))

piles = st.integers(min_value=0, max_value=(1 << 48) - 1)
cards = st.integers(min_value=0, max_value=47)
months = st.one_of(st.none(), st.integers(min_value=1, max_value=12))
SWITCHES = {"flower_viewing": st.booleans(), "moon_viewing": st.booleans(), "tsukifuda": st.booleans()}
# Rulesets and tables without a cancellation rule (the rain man spoiling the viewings).
tables = st.fixed_dictionaries({
    "ruleset": st.sampled_from(sorted(RB.rulesets)),
    "viewings": st.sampled_from(["on", "off", "with_other"]),
    "sake_cup_as_plain": st.sampled_from([True, False, "choose"]),
    "hand_yaku": st.just(False),
    "rain_man_spoils_viewings": st.just(False),
    "lightning_spoils_viewings": st.just(False),
}, optional=SWITCHES)
# Tables where the rain man and/or the lightning spoil the viewings.
spoiling = st.fixed_dictionaries({
    "ruleset": st.sampled_from(sorted(RB.rulesets)),
    "viewings": st.sampled_from(["on", "with_other"]),
    "sake_cup_as_plain": st.sampled_from([True, False, "choose"]),
    "hand_yaku": st.just(False),
    "rain_man_spoils_viewings": st.booleans(),
    "lightning_spoils_viewings": st.booleans(),
}, optional=SWITCHES)


def scorer(table):
    rid = table["ruleset"]
    opts = {k: v for k, v in table.items() if k != "ruleset"}
    return scorer_for(RB, rid, RB.effective_options(rid, opts))


@settings(max_examples=examples(300), deadline=None)
@given(tables, piles, cards, months)
@pytest.mark.rule("koikoi", "yaku.extra-cards")
def test_yaku_extra_cards_adding_a_card_never_lowers_the_score(table, pile, card, month):
    sc = scorer(table)
    assert sc.score_pile(pile | (1 << card), month).base >= sc.score_pile(pile, month).base


@settings(max_examples=examples(300), deadline=None)
@given(spoiling, piles, cards, months)
@pytest.mark.rule("koikoi", "koikoi.call", "koikoi.call-time")
def test_koikoi_call_time_a_later_card_never_makes_a_call_illegal(table, pile, card, month):
    """koikoi.call-time: if a call could stand on a pile, it still stands after any capture."""
    sc = scorer(table)
    if sc.could_call(pile, month):
        assert sc.could_call(pile | (1 << card), month)


@settings(max_examples=examples(200), deadline=None)
@given(tables, piles)
@pytest.mark.rule("koikoi", "yaku.tsukifuda")
def test_yaku_tsukifuda_only_in_its_month(table, pile):
    """yaku.tsukifuda: scored in a round only if the pile holds that round's four cards."""
    sc = scorer(table)
    for month in range(1, 13):
        four = RB.month_masks[month]
        scored = "tsukifuda" in sc.score_pile(pile, month).ids
        assert not scored or pile & four == four


@settings(max_examples=examples(300), deadline=None)
@given(tables, piles)
@pytest.mark.rule("koikoi", "options.sake-cup")
def test_options_sake_cup_removing_it_never_raises_the_score(table, pile):
    sc = scorer(table)
    with_cup = pile | (1 << SAKE)
    assert sc.score_pile(with_cup & ~(1 << SAKE)).base <= sc.score_pile(with_cup).base


@settings(max_examples=examples(200), deadline=None)
@given(tables, piles)
@pytest.mark.rule("koikoi", "yaku.best-in-group")
def test_yaku_best_in_group_one_yaku_per_best_group(table, pile):
    score = scorer(table).score_pile(pile)
    stacked = RB.rulesets[table["ruleset"]].stacks
    for group, stacking in RB.groups.items():
        in_group = [s.yaku.id for s in score.scored if s.yaku.group == group]
        if stacking == "best":  # every two that score together are declared to stack
            for i, first in enumerate(in_group):
                for second in in_group[i + 1:]:
                    assert any({first, second} <= s for s in stacked), in_group


@st.composite
def matches(draw):
    """A plausible match: every month's four cards dealt out in pairs (or left on the table)."""
    rounds = []
    for _ in range(draw(st.integers(1, 4))):
        piles = {"a": [], "b": []}
        for month in RB.months:
            four = [c.index for c in RB.cards if c.month == month.number]
            for pair in (four[:2], four[2:]):
                owner = draw(st.sampled_from(["a", "b", None]))
                if owner:
                    piles[owner].extend(draw(st.sampled_from([pair, [RB.cards[i].slug for i in pair]])))
        winner = draw(st.sampled_from(["a", "b", None]))
        rnd = {"winner": winner, "captured": piles,
               "koikoi": {"a": draw(st.integers(0, 1)), "b": draw(st.integers(0, 1))}}
        if draw(st.booleans()):
            rnd["field_brights"] = draw(st.integers(0, 5))
        rounds.append(rnd)
    options = draw(st.fixed_dictionaries({}, optional={
        "viewings": st.sampled_from(["on", "off", "with_other"]),
        "flower_viewing": st.booleans(),
        "moon_viewing": st.booleans(),
        "rain_man_spoils_viewings": st.booleans(),
        "lightning_spoils_viewings": st.booleans(),
        "tsukifuda": st.booleans(),
        "seven_point_double": st.booleans(),
        "koikoi_multiplier": st.sampled_from(list(RB.options["koikoi_multiplier"].choices)),
        "field_multiplier": st.sampled_from(list(RB.options["field_multiplier"].choices)),
        "double_cap": st.one_of(st.none(), st.integers(1, 8)),
        "rounds": st.sampled_from([12, 9, 6, 4, 3, None]),
        "match_target": st.one_of(st.none(), st.integers(1, 60)),
        "start_points": st.sampled_from([0, 10, 50]),
        "zero_sum": st.booleans(),
        "end_at_zero": st.booleans(),
        "koikoi_minimum": st.one_of(st.none(), st.integers(1, 8)),
        "dealer_rotation": st.sampled_from(["winner", "alternate"]),
        "draw_dealer": st.sampled_from(["other", "same"]),
        "draw_dealer_points": st.sampled_from([0, 6]),
    }))
    ruleset = draw(st.sampled_from(sorted(RB.rulesets)))
    return {"game": "koikoi", "ruleset": ruleset, "options": options, "rounds": rounds}


@settings(max_examples=examples(150), deadline=None)
@given(matches(), st.sampled_from(["en", "de", "fr"]))
def test_referee_responses_validate_against_schema(req, lang):
    assert not list(REQUEST.iter_errors(req))
    result = referee(req, lang)
    assert not list(RESPONSE.iter_errors(result)), result
    if result["valid"]:
        start = result["options"]["start_points"]  # options.start-points
        totals = {p: start + sum(r["score"][p] for r in result["rounds"]) for p in "ab"}
        assert totals == result["totals"]
        for r in result["rounds"]:
            if r["winner"]:
                assert r["score"][r["winner"]] == r["base"] * r["multiplier"]
            if result["options"]["zero_sum"]:  # scoring.zero-sum
                assert r["score"]["a"] + r["score"]["b"] == 0
    else:
        assert {e["code"] for e in result["errors"]} <= {
            "winner.no-yaku", "koikoi.no-yaku", "round.after-end", "option.value",
            "option.not-in-ruleset", "yaku.value-unknown", "round.field-brights",
            "koikoi.minimum"}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
fields = st.sampled_from(["game", "ruleset", "options", "players", "rounds", "winner", "captured",
                          "koikoi", "hand", "a", "b", "viewings", "rounds"])


@settings(max_examples=examples(200), deadline=None)
@given(st.dictionaries(fields, json_values, max_size=6), st.lists(
    st.dictionaries(fields, json_values | st.lists(cards | st.text(max_size=12)), max_size=5), max_size=3))
@pytest.mark.rule("koikoi", "referee.request")
def test_referee_request_never_raises_on_junk(top, rounds):
    req = {"game": "koikoi", **top}
    if rounds:
        req["rounds"] = rounds
    result = referee(req)
    assert not list(RESPONSE.iter_errors(result)), result
    if not result["valid"]:
        assert all(e["code"] != "request.internal" for e in result["errors"])
