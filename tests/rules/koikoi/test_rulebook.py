"""The Koi-Koi rulebook YAML: schema-checked on load, cross-checked, and the referee follows it."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulebook.koikoi.model import DEFAULT_PATH, FOLDER, load_rulebook
from rulebook.koikoi.referee import referee
from rulebook.loader import RulebookError

from ..copies import modified_copy

RULE_ID = re.compile(r"^[a-z0-9]+(?:[.-][a-z0-9]+)+$")
YAKU_IDS = ["goko", "shiko", "ameshiko", "sanko", "hanami", "tsukimi", "inoshikacho", "tane",
            "akatan", "aotan", "akatan_aotan", "tan", "kasu", "tsukifuda", "teshi", "kuttsuki"]


@pytest.fixture
def rulebook_copy(tmp_path):
    """Write a modified copy of the shipped YAML and return its path."""
    return lambda change: modified_copy(DEFAULT_PATH, tmp_path, change)


def goko_request(**extra):
    return {"game": "koikoi", "rounds": [{"winner": "a", "captured": {
        "a": [0, 2, 8, 10, 28, 30, 40, 41, 44, 45], "b": []}}], **extra}


@pytest.mark.rule("koikoi", "deck.months")
def test_deck_months_48_cards_4_per_month():
    rb = load_rulebook()
    assert len(rb.cards) == 48 and len(rb.months) == 12
    assert [c.index for c in rb.cards] == list(range(48))
    for month in rb.months:
        assert [c.month for c in rb.cards[4 * (month.number - 1): 4 * month.number]] == [month.number] * 4
    assert rb.months[0].name == "Pine" and rb.months[10].id == "willow"


@pytest.mark.rule("koikoi", "deck.kinds")
def test_deck_kinds_totals():
    rb = load_rulebook()
    counts = {k: sum(1 for c in rb.cards if c.kind == k) for k in ("bright", "animal", "ribbon", "plain")}
    assert counts == {"bright": 5, "animal": 9, "ribbon": 10, "plain": 24}
    assert [c.index for c in rb.cards if c.kind == "bright"] == [0, 8, 28, 40, 44]


@pytest.mark.rule("koikoi", "deck.ribbons")
def test_deck_ribbons_colours():
    rb = load_rulebook()
    by_colour = {}
    for c in rb.cards:
        if c.ribbon:
            by_colour.setdefault(c.ribbon, []).append(c.index)
    assert by_colour == {"poetry": [1, 5, 9], "blue": [21, 33, 37], "red": [13, 17, 25, 42]}


@pytest.mark.rule("koikoi", "deck.sake-cup")
def test_deck_sake_cup_dual_kind():
    rb = load_rulebook()
    cup = rb.cards[rb.card_by_slug["chrysanthemum-sake-cup"]]
    assert (cup.index, cup.kind, cup.dual_kind, cup.name) == (32, "animal", "plain", "Sake cup")


def test_card_slugs_stable():
    rb = load_rulebook()
    assert [rb.cards[i].slug for i in (0, 1, 2, 3, 40, 43, 44)] == [
        "pine-crane", "pine-poetry-ribbon", "pine-plain-1", "pine-plain-2",
        "willow-rain-man", "willow-lightning", "paulownia-phoenix"]


def test_yaku_ids_and_rules():
    rb = load_rulebook()
    assert [y.id for y in rb.yaku] == YAKU_IDS
    for y in rb.yaku:
        assert y.rule in rb.rules
    assert {y.group for y in rb.yaku} == {"brights", "animals", "ribbons", "other", "hand"}


@pytest.mark.parametrize("ruleset,expected", [
    ("nintendo", {"goko": 10, "shiko": 8, "ameshiko": 7, "sanko": 5, "hanami": 5, "tsukimi": 5,
                  "inoshikacho": 5, "akatan": 5, "aotan": 5, "akatan_aotan": 10, "tane": 1,
                  "tan": 1, "kasu": 1, "teshi": 6, "kuttsuki": 6}),
    ("fudawiki", {"goko": 15, "sanko": 6, "tsukifuda": 4}),
    ("gamedesign", {"goko": 15, "shiko": 10, "ameshiko": 8, "sanko": 6, "akatan": 6, "aotan": 6,
                    "tsukifuda": 4}),
    ("yakuza", {"goko": 10, "sanko": 6, "teshi": None, "kuttsuki": None, "tsukifuda": 4}),
])
def test_ruleset_values_from_research(ruleset, expected):
    values = load_rulebook().rulesets[ruleset].values
    for yaku_id, points in expected.items():
        assert values[yaku_id].points == points, yaku_id


def test_ruleset_undocumented_yaku_absent():
    rb = load_rulebook()
    gd = rb.rulesets["gamedesign"].values
    assert "hanami" not in gd and "akatan_aotan" not in gd and "teshi" not in gd
    assert "akatan_aotan" not in rb.rulesets["yakuza"].values


@pytest.mark.rule("koikoi", "ruleset.nintendo")
def test_ruleset_nintendo_options():
    rb = load_rulebook()
    assert rb.default_ruleset == "nintendo"
    opts = rb.effective_options("nintendo")
    assert opts["sake_cup_as_plain"] is True and opts["seven_point_double"] is True
    assert opts["koikoi_multiplier"] == "opponent_called" and opts["rounds"] == 12
    assert rb.effective_options("yakuza")["sake_cup_as_plain"] == "choose"
    assert rb.effective_options("gamedesign")["draw_dealer_points"] == 6
    assert "tsukifuda" not in rb.rulesets["nintendo"].values and opts["tsukifuda"] is False
    assert opts["draw_dealer"] == "other" and rb.effective_options("fudawiki")["draw_dealer"] == "same"
    assert {r: rb.effective_options(r)["tsukifuda"] for r in rb.rulesets} == {
        "nintendo": False, "fudawiki": True, "gamedesign": True, "yakuza": True,
        "clubhouse": False, "bga": False}


def test_options_switches_and_spoilers_from_yaml():
    """The option machinery is data: which yaku an option switches, which cards spoil viewings."""
    rb = load_rulebook()
    assert rb.options["hand_yaku"].switches == ("teshi", "kuttsuki")
    assert rb.options["flower_viewing"].switches == ("hanami",)
    assert rb.options["moon_viewing"].switches == ("tsukimi",)
    assert rb.options["tsukifuda"].values["tsukifuda"].points == 4
    assert rb.options["rain_man_spoils_viewings"].spoils == 1 << rb.card_by_slug["willow-rain-man"]
    assert rb.options["lightning_spoils_viewings"].spoils == 1 << rb.card_by_slug["willow-lightning"]
    assert rb.table_value("nintendo", "tsukifuda").points == 4  # only when the option is on
    assert rb.table_value("gamedesign", "hanami") is None


def test_rule_ids_well_formed_and_unique():
    rb = load_rulebook()
    for rule_id in rb.rules:
        assert RULE_ID.match(rule_id), rule_id
    for section in rb.sections:
        for text in section.rules.values():
            assert text and "  " not in text


@pytest.mark.rule("koikoi", "disagree.dealer-after-draw", "disagree.goko-value",
                  "disagree.koikoi-double", "disagree.sake-cup", "disagree.seven-double",
                  "disagree.tsukifuda", "disagree.viewings")
def test_faq_and_disagreements_reference_rules():
    rb = load_rulebook()
    assert len(rb.faq) == 6  # one per question in the research notes, and "which rules?"
    for entry in rb.faq:
        assert entry["id"] in rb.rules and all(r in rb.rules for r in entry["rules"])
    ids = {d["id"] for d in rb.disagreements}
    assert {"disagree.goko-value", "disagree.sake-cup", "disagree.koikoi-double",
            "disagree.seven-double", "disagree.viewings", "disagree.tsukifuda",
            "disagree.dealer-after-draw"} <= ids


@pytest.mark.rule("koikoi", "capture.pairs", "deal.first-dealer", "deal.hands", "deal.redeal",
                  "deck.months", "koikoi.call", "koikoi.call-time", "koikoi.limit",
                  "koikoi.needs-yaku", "match.dealer-after-draw", "match.round-month",
                  "match.rounds", "options.draw-dealer", "options.flower-viewing",
                  "options.lightning", "options.moon-viewing", "options.tsukifuda", "referee.cards",
                  "referee.limits", "referee.request", "round.both-hand-yaku",
                  "round.winner-needs-yaku", "scoring.hand-yaku", "scoring.koikoi-calls",
                  "yaku.tsukifuda")
def test_every_rule_referenced_by_an_error_exists():
    rb = load_rulebook()
    for rule in ("referee.request", "referee.cards", "referee.limits", "capture.pairs",
                 "koikoi.needs-yaku", "round.winner-needs-yaku", "match.rounds", "deck.months",
                 "koikoi.limit", "koikoi.call", "deal.hands", "scoring.hand-yaku",
                 "round.both-hand-yaku", "koikoi.call-time", "match.round-month",
                 "match.dealer-after-draw", "deal.first-dealer", "deal.redeal", "yaku.tsukifuda",
                 "scoring.koikoi-calls", "options.lightning", "options.flower-viewing",
                 "options.moon-viewing", "options.tsukifuda", "options.draw-dealer"):
        assert rule in rb.rules, rule


def test_request_schema_matches_rulebook():
    rb = load_rulebook()
    schema = json.loads((Path(FOLDER) / "schemas" / "request.schema.json").read_text())
    assert schema["properties"]["ruleset"]["enum"] == list(rb.rulesets)
    props = schema["properties"]["options"]["properties"]
    assert set(props) == set(rb.options)
    for key, spec in rb.options.items():
        if spec.choices is not None and "enum" in props[key]:
            assert props[key]["enum"] == list(spec.choices), key
        elif spec.choices is not None and spec.nullable:
            assert props[key]["oneOf"] == [{"type": "null"}, {"enum": list(spec.choices)}], key
        elif spec.choices is not None:
            assert props[key] == {"type": "boolean"} and set(spec.choices) == {True, False}


def test_yaml_value_change_followed(rulebook_copy):
    """yaku.goko: a table that edits Goko to 12 sees the referee pay 12 (x2 for 7+)."""
    def change(data):
        data["rulesets"]["nintendo"]["values"]["goko"] = 12
    rb = load_rulebook(rulebook_copy(change))
    result = referee(goko_request(options={"seven_point_double": False}), rulebook=rb)
    assert result["rounds"][0]["yaku"][0]["points"] == 12
    assert result["rounds"][0]["score"]["a"] == 12
    assert referee(goko_request(), rulebook=rb)["rounds"][0]["score"]["a"] == 24


def test_yaml_threshold_and_rounds_followed(rulebook_copy):
    def change(data):
        data["scoring"]["seven_point"]["threshold"] = 11
        data["rulesets"]["nintendo"]["options"]["rounds"] = 3
        data["options"]["rounds"]["choices"] = [12, 6, 4, 3]
    rb = load_rulebook(rulebook_copy(change))
    result = referee(goko_request(), rulebook=rb)
    assert result["rounds"][0]["score"]["a"] == 10
    assert result["result"]["rounds_total"] == 3


def test_yaml_tsukifuda_month_and_value_followed(rulebook_copy):
    """match.round-month, options.tsukifuda: the first month and the house-rule value are data."""
    def change(data):
        data["round_months"]["first"] = 4
        data["options"]["tsukifuda"]["values"]["tsukifuda"] = 5
    rb = load_rulebook(rulebook_copy(change))
    april = [12, 13, 14, 15]
    req = {"game": "koikoi", "options": {"tsukifuda": True},
           "rounds": [{"winner": "a", "captured": {"a": april}}]}
    r = referee(req, rulebook=rb)["rounds"][0]
    assert r["month"] == 4 and [(y["id"], y["points"]) for y in r["yaku"]] == [("tsukifuda", 5)]


def test_yaml_koikoi_calls_step_followed(rulebook_copy):
    """scoring.koikoi-calls: the per-call step is data (x(1 + step * calls))."""
    def change(data):
        data["scoring"]["koikoi_calls"]["step"] = 2
    rb = load_rulebook(rulebook_copy(change))
    req = goko_request(options={"koikoi_multiplier": "per_call", "seven_point_double": False})
    req["rounds"][0]["koikoi"] = {"a": 1}
    assert referee(req, rulebook=rb)["rounds"][0]["multiplier"] == 3


@pytest.mark.rule("koikoi", "options.rounds")
def test_broken_yaml_option_references(rulebook_copy):
    def change(data):
        data["options"]["flower_viewing"]["switches"] = ["hanami", "picnic"]
        data["options"]["tsukifuda"]["values"] = {"goko": 3}
        data["options"]["rain_man_spoils_viewings"]["spoils_viewings"] = ["willow-umbrella"]
        data["options"]["rounds"]["switches"] = ["kasu"]
        data["rulesets"]["bga"]["provenance"]["option.rounds"]["note"] = "no-such-note"
    with pytest.raises(RulebookError) as info:
        load_rulebook(rulebook_copy(change))
    where = {w for w, _ in info.value.problems}
    assert {"options.flower_viewing.switches", "options.tsukifuda.values.goko",
            "options.rain_man_spoils_viewings.spoils_viewings", "options.rounds",
            "rulesets.bga.provenance.option.rounds.note"} <= where


def test_broken_yaml_schema_error_names_file_and_path(rulebook_copy):
    def change(data):
        data["cards"][3]["kind"] = "jewel"
    path = rulebook_copy(change)
    with pytest.raises(RulebookError) as info:
        load_rulebook(path)
    assert info.value.file == str(path)
    assert any(where == "cards[3].kind" for where, _ in info.value.problems)
    assert str(path) in str(info.value)


def test_broken_yaml_cross_check_names_path(rulebook_copy):
    def change(data):
        data["yaku"][0]["rule"] = "yaku.nothing"
        data["rulesets"]["yakuza"]["stacks"] = [["inoshikacho", "akatan"]]
        data["rulesets"]["nintendo"]["options"]["rounds"] = 5
    with pytest.raises(RulebookError) as info:
        load_rulebook(rulebook_copy(change))
    where = {w for w, _ in info.value.problems}
    assert {"yaku[0].rule", "rulesets.yakuza.stacks[0]", "rulesets.nintendo.options.rounds"} <= where


def test_broken_yaml_not_yaml(tmp_path):
    path = tmp_path / "koikoi.yaml"
    path.write_text("game: [koikoi\n", encoding="utf-8")
    with pytest.raises(RulebookError) as info:
        load_rulebook(path)
    assert str(path) in str(info.value)
