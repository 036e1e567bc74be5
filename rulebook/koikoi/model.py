"""The Koi-Koi rulebook as typed, immutable objects built from the YAML.

Card sets are precomputed as bit masks (bit i = card index i), so matching a yaku is a
couple of integer operations.

The rulesets, as every page that compares or finds them reads them (a stable contract):
  rb.rulesets[id]          a Ruleset: `name` (English; catalogs: title.ruleset.<id>),
                           `sources` (keys of rb.sources), `values`, `stacks`, `options`
  rb.options[key]          an OptionSpec: `choices` or `int_min`/`int_max` (`nullable`),
                           `default`, `rule`, `label`; what it does to the yaku while on
                           (`switches`, `stacks`, `fixed`, `drops`) and `is_idle(value)`
  rb.effective_options(ruleset, overrides)   every option's value at a table
  rb.table_value(ruleset, yaku)              a yaku's value there (None: not played)
  rb.board_yaku(ruleset)                     the captured-card yaku it gives points
  rb.stacks_at(ruleset, options)             the yaku pairs that score together there
  rb.applies(ruleset, option)                whether an option means anything there
  rb.compared()            the keys a comparison shows, in order:
                             `yaku.<yaku id>`   the yaku's points (absent, unknown)
                             `group.<group id>` which yaku of an exclusive group score
                                                together (the ruleset's `stacks`)
                             `option.<option id>` the option's value in the ruleset
  rb.provenance(ruleset, key) -> Sourced     how that fact was read, for every key of
                           compared(): `basis` (rulebook/sources.py BASES), `sources`, and
                           an optional `note` (rb.notes[note], catalogs: note.<id>). An
                           option no source documents is `unknown` and takes its default.
"""
from __future__ import annotations

import os
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from ..loader import (
    RulebookError,
    collect_asked,
    collect_rules,
    collect_titles,
    load_yaml_checked,
)
from ..sources import Source, Sourced, check_sourced, read_sourced, read_sources, unknown_sources
from .japanese import JapaneseNames, read_japanese

if TYPE_CHECKING:
    from pathlib import Path

# Paths as text (os.path): pathlib would cost a cold `shinpan score` ~5 ms of imports.
FOLDER = os.path.dirname(os.path.realpath(__file__))
DEFAULT_PATH = os.path.join(FOLDER, "rulebook.yaml")
SCHEMA = os.path.join(FOLDER, "schemas", "rulebook.schema.json")
KINDS = ("bright", "animal", "ribbon", "plain")


class Month(NamedTuple):
    id: str
    number: int
    name: str  # the month's flower, in English


class Card(NamedTuple):
    index: int
    slug: str
    month: int
    kind: str
    name: str
    ribbon: str | None = None
    dual_kind: str | None = None

    @property
    def bit(self) -> int:
        return 1 << self.index


class Yaku(NamedTuple):
    id: str
    name: str
    romaji: str
    group: str
    rule: str
    match: str  # "cards" | "count" | "hand" | "round_month"
    cards: int = 0  # mask of required cards ("cards")
    requires: int = 0  # mask of cards that must also be held
    count_kind: str | None = None
    count_min: int = 0
    excluding: int = 0  # mask of cards that do not count towards `count_min`
    hand_month_count: int = 0
    hand_pairs: int = 0
    extra: str | None = None  # kind counted for +1 per extra card
    viewing: bool = False

    @property
    def hand(self) -> bool:
        return self.match == "hand"


class YakuValue(NamedTuple):
    points: int | None  # None: no source documents the value
    extra: bool = False


class OptionSpec(NamedTuple):
    id: str
    label: str  # its name in menus and messages (English; the catalogs translate it)
    rule: str
    default: Any
    values: dict[str, YakuValue]  # where a ruleset lacks the yaku
    choices: tuple[Any, ...] | None = None
    int_min: int | None = None
    int_max: int | None = None
    nullable: bool = False
    switches: tuple[str, ...] = ()  # yaku this true/false option turns on or off
    spoils: int = 0  # mask of cards that, when the option is on, cancel the viewings
    sources: tuple[str, ...] = ()  # where the variant is described (keys of rb.sources)
    concerns: tuple[str, ...] = ()  # the yaku it is about (none: every ruleset)
    inapplicable: Any = None  # its value where none of those yaku are played
    stacks: tuple[frozenset[str], ...] = ()  # yaku that score together while it is on
    fixed: tuple[str, ...] = ()  # yaku that earn no extra points while it is on
    drops: tuple[str, ...] = ()  # yaku that are not played while it is on
    idle: tuple[Any, ...] = ()  # values at which it adds no rule (lists of rules leave it out)

    def is_idle(self, value: Any) -> bool:
        """Whether the value adds no rule to the game (`idle`, say no match target): a list
        of the options in force leaves it out unless a table chose it."""
        return any(type(value) is type(v) and value == v for v in self.idle)

    def accepts(self, value: Any) -> bool:
        if value is None:
            return self.nullable
        if self.choices is not None:
            # bool is an int in Python: compare type as well as value.
            return any(type(value) is type(c) and value == c for c in self.choices)
        return (
            type(value) is int
            and self.int_min is not None
            and self.int_max is not None
            and self.int_min <= value <= self.int_max
        )


class Ruleset(NamedTuple):
    id: str
    name: str
    rule: str
    sources: tuple[str, ...]  # keys of Rulebook.sources
    values: dict[str, YakuValue]  # absent: the yaku is not part of this ruleset
    stacks: tuple[frozenset[str], ...]
    options: dict[str, Any]  # documented defaults; the rest fall back to OptionSpec.default
    provenance: dict[str, Sourced]  # facts read another way
    basis: str = "printed"  # how its sources state its facts (rulebook/sources.py BASES)
    inapplicable: frozenset[str] = frozenset()  # options about yaku it does not have


class KoikoiMode(NamedTuple):
    """A value of the option koikoi_multiplier: whose calls count, and how."""

    calls: str  # "opponent" | "winner" | "both" | "none"
    by: str  # "double": x koikoi factor once | "per_call": x(1 + step * calls)
    rule: str


class FieldMode(NamedTuple):
    """A value of the option field_multiplier: x max(at_least, base + per_bright * n)."""

    base: int
    per_bright: int
    at_least: int
    rule: str

    def factor(self, brights: int) -> int:
        return max(self.at_least, self.base + self.per_bright * brights)

    @property
    def counts(self) -> bool:
        """Whether the number of brights on the field changes the score."""
        return self.per_bright != 0


class Section(NamedTuple):
    id: str
    title: str
    rules: dict[str, str]


class Rulebook(NamedTuple):
    """The Koi-Koi rulebook, one object per file loaded: compared and hashed by identity (a
    cache key of the web side's per-rulebook look-ups), as its `cache` fills as it is used."""

    source_file: str
    title: str
    canonical_source: str  # a key of `sources`
    sources: dict[str, Source]
    months: tuple[Month, ...]
    cards: tuple[Card, ...]
    hand_size: int
    field_size: int
    first_dealer: str
    first_month: int  # the month of round 1
    groups: dict[str, str]  # group id -> "best" | "all"
    yaku: tuple[Yaku, ...]
    seven_threshold: int
    seven_factor: int
    seven_rule: str
    koikoi_factor: int
    koikoi_rule: str
    koikoi_call_step: int  # koikoi_multiplier per_call: x(1 + step * calls)
    koikoi_calls_rule: str
    koikoi_modes: dict[str, KoikoiMode]  # koikoi_multiplier value -> what it does
    field_modes: dict[str, FieldMode]  # field_multiplier value -> what it does
    options: dict[str, OptionSpec]
    max_rounds: int
    default_ruleset: str
    rulesets: dict[str, Ruleset]
    disagreements: tuple[dict[str, Any], ...]
    faq: tuple[dict[str, Any], ...]
    sections: tuple[Section, ...]
    notes: dict[str, str]  # note id -> English remark
    rules: dict[str, str]
    titles: dict[str, str]  # rule id -> short English title
    asked: dict[str, tuple[str, ...]]  # ways players ask (search)
    card_by_slug: dict[str, int]
    yaku_by_id: dict[str, Yaku]
    month_by_number: dict[int, Month]
    kind_masks: dict[str, int]
    dual_masks: dict[str, int]  # kind -> cards that may also be it
    month_masks: dict[int, int]
    switches: dict[str, tuple[str, ...]]  # yaku -> its options
    # The options a pile's score depends on (the key of a compiled scorer).
    scorer_options: tuple[str, ...]
    # Compiled scorers, filled lazily per (ruleset, options); see rulebook.koikoi.scoring.
    cache: dict[Any, Any]
    # Japanese names of months, cards and yaku (rulebook/koikoi/japanese.py).
    japanese: JapaneseNames

    # One rulebook is one object (a named tuple would compare and hash its fields).
    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__

    def card(self, index: int) -> Card:
        return self.cards[index]

    def effective_options(self, ruleset: str, overrides: dict[str, Any] | None = None) -> dict:
        """Option defaults, then the ruleset's documented values, then the table's; an
        option about yaku the ruleset lacks keeps its `inapplicable` value (the referee
        refuses a table's other value: options.not-in-ruleset)."""
        rs = self.rulesets[ruleset]
        own = self.cache.get(("options", ruleset))  # the ruleset's own: made once
        if own is None:
            own = {key: spec.default for key, spec in self.options.items()}
            own.update(rs.options)
            own.update({key: self.options[key].inapplicable for key in rs.inapplicable})
            self.cache[("options", ruleset)] = own
        chosen = dict(own)
        if overrides:
            chosen.update(overrides)
            for key in rs.inapplicable:
                chosen[key] = self.options[key].inapplicable
        return chosen

    def applies(self, ruleset: str, option: str) -> bool:
        """Whether an option means anything in a ruleset (options.not-in-ruleset)."""
        return option not in self.rulesets[ruleset].inapplicable

    def compared(self) -> list[str]:
        """The keys a comparison of the rulesets shows, in order (see the module docstring)."""
        return [*(f"yaku.{y.id}" for y in self.yaku),
                *(f"group.{g}" for g, stacking in self.groups.items() if stacking == "best"),
                *(f"option.{key}" for key in self.options)]

    def provenance(self, ruleset_id: str, key: str) -> Sourced:
        """How a ruleset's fact `key` (one of compared()) was read: the ruleset's own
        `provenance` entry, else its `basis` and `sources`; a yaku value marked `unknown`
        and an option the ruleset leaves out are `unknown`."""
        rs = self.rulesets[ruleset_id]
        kind, _, name = key.partition(".")
        if not _known_key(self, kind, name):
            raise KeyError(key)
        if key in rs.provenance:
            return rs.provenance[key]
        stated = Sourced(rs.basis, rs.sources)
        if kind == "yaku":
            value = rs.values.get(name)
            return Sourced("unknown", rs.sources) if value and value.points is None else stated
        if kind == "option" and name not in rs.options and name not in rs.inapplicable:
            return Sourced("unknown")
        return stated

    def round_month(self, number: int) -> int:
        """The month round `number` (1, 2, ...) is played in (match.round-month)."""
        return (self.first_month - 1 + number - 1) % len(self.months) + 1

    def table_value(self, ruleset: str, yaku_id: str) -> YakuValue | None:
        """The ruleset's value of a yaku, else the value an option gives it; None: not played."""
        value = self.rulesets[ruleset].values.get(yaku_id)
        for key in self.switches.get(yaku_id, ()):
            value = value or self.options[key].values.get(yaku_id)
        return value

    def board_yaku(self, ruleset: str) -> list[Yaku]:
        """The captured-card yaku the ruleset (or an option of it) gives points, in book
        order: the checker's yaku board (hand yaku are declared, not captured)."""
        return [yaku for yaku in self.yaku if not yaku.hand
                and (value := self.table_value(ruleset, yaku.id)) and value.points is not None]

    def yaku_off(self, yaku: Yaku, options: dict[str, Any]) -> bool:
        """Whether the table's options switch the yaku off (options.viewings, the switches,
        an option on that `drops` it)."""
        if yaku.viewing and options["viewings"] == "off":
            return True
        return any(options[key] is False for key in self.switches.get(yaku.id, ())) or any(
            options[spec.id] is True and yaku.id in spec.drops for spec in self.options.values())

    def stacks_at(self, ruleset: str, options: dict[str, Any]) -> tuple[frozenset[str], ...]:
        """The pairs of yaku that score together at this table: the ruleset's, and those of
        the options switched on (options.lucky-hands-stack, options.older-yaku)."""
        return self.rulesets[ruleset].stacks + tuple(
            pair for spec in self.options.values() if spec.stacks and options.get(spec.id) is True
            for pair in spec.stacks)

    def earns_extra(self, yaku_id: str, value: YakuValue, options: dict[str, Any]) -> bool:
        """Whether the yaku earns extra points for extra cards at this table: its value says
        so, and no option on makes it `fixed` (options.older-yaku)."""
        return value.extra and not any(options[spec.id] is True and yaku_id in spec.fixed
                                       for spec in self.options.values())


def _known_key(rb: Rulebook, kind: str, name: str) -> bool:
    return (kind == "yaku" and name in rb.yaku_by_id) or (
        kind == "group" and rb.groups.get(name) == "best") or (
        kind == "option" and name in rb.options)


def _cross_check(data: dict[str, Any], rules: dict[str, str]) -> list[tuple[str, str]]:
    """What the schema cannot see: references between parts of the file."""
    slugs = {card["slug"] for card in data["cards"]}
    yaku_group = {y["id"]: y["group"] for y in data["yaku"]}
    return [*_check_sources(data), *_check_deck(data), *_check_yaku(data, rules, slugs),
            *_check_options(data, rules, yaku_group, slugs), *_check_scoring(data, rules),
            *_check_rulesets(data, rules, yaku_group), *_check_entries(data, rules)]


def _check_sources(data: dict[str, Any]) -> list[tuple[str, str]]:
    """Every source is named by something: a ruleset, a fact's provenance, an option, the
    canonical source or the Japanese names."""
    problems = unknown_sources(data, "canonical_source", [data["canonical_source"]])
    rulesets = data["rulesets"].values()
    named = ({s for r in rulesets for s in r["sources"]}
             | {s for r in rulesets for p in r.get("provenance", {}).values()
                for s in p.get("sources", ())}
             | {s for o in data["options"].values() for s in o.get("sources", ())}
             | {data["canonical_source"], *data.get("japanese", {}).get("sources", ())})
    for key in data["sources"]:
        if key not in named:
            problems.append((f"sources.{key}", "a source nothing names"))
    for key, ruleset in data["rulesets"].items():
        problems += unknown_sources(data, f"rulesets.{key}.sources", ruleset["sources"])
    return problems


def _check_deck(data: dict[str, Any]) -> list[tuple[str, str]]:
    """Months numbered 1, 2, 3, ...; four cards a month, each at its index; a deal that fits."""
    problems = []
    months = data["months"]
    numbers = [m["number"] for m in months]
    if numbers != list(range(1, len(months) + 1)):
        problems.append(("months", "month numbers must run 1, 2, 3, ... in order"))
    if len({m["id"] for m in months}) != len(months):
        problems.append(("months", "ids must be unique"))
    slugs: set[str] = set()
    per_month: dict[int, int] = {}
    for i, card in enumerate(data["cards"]):
        if card["index"] != i:
            problems.append((f"cards[{i}].index", f"must be {i}, the card's position in the list"))
        if card["slug"] in slugs:
            problems.append((f"cards[{i}].slug", f"slug {card['slug']!r} used twice"))
        slugs.add(card["slug"])
        if card["month"] not in numbers:
            problems.append((f"cards[{i}].month", f"no month {card['month']}"))
        per_month[card["month"]] = per_month.get(card["month"], 0) + 1
    for number in numbers:
        if per_month.get(number, 0) != 4:
            problems.append(("cards", f"month {number} must have exactly 4 cards"))
    deal = data["deal"]
    if 2 * deal["hand"] + deal["field"] > len(data["cards"]):
        problems.append(("deal", "the deal needs more cards than the deck holds"))
    return problems


def _check_yaku(data: dict[str, Any], rules: dict[str, str],
                slugs: set[str]) -> list[tuple[str, str]]:
    """Unique groups and yaku; each yaku's group, rule and cards exist."""
    problems = []
    groups = [g["id"] for g in data["groups"]]
    if len(set(groups)) != len(groups):
        problems.append(("groups", "ids must be unique"))
    yaku_ids = [y["id"] for y in data["yaku"]]
    if len(set(yaku_ids)) != len(yaku_ids):
        problems.append(("yaku", "ids must be unique"))
    for i, yaku in enumerate(data["yaku"]):
        if yaku["group"] not in groups:
            problems.append((f"yaku[{i}].group", f"no group {yaku['group']!r}"))
        if yaku["rule"] not in rules:
            problems.append((f"yaku[{i}].rule", f"unknown rule id {yaku['rule']!r}"))
        match = yaku["match"]
        refs = [
            ("match.cards", match.get("cards", [])),
            ("match.requires", match.get("requires", [])),
            ("match.count.excluding", match.get("count", {}).get("excluding", [])),
        ]
        for where, names in refs:
            for name in names:
                if name not in slugs:
                    problems.append((f"yaku[{i}].{where}", f"no card {name!r}"))
        if "extra" in yaku and "hand" in match:
            problems.append((f"yaku[{i}].extra", "a hand yaku cannot grow with extra cards"))
    return problems


def _check_options(data: dict[str, Any], rules: dict[str, str], yaku_group: dict[str, str],
                   slugs: set[str]) -> list[tuple[str, str]]:
    problems = []
    for key, spec in data["options"].items():
        if spec["rule"] not in rules:
            problems.append((f"options.{key}.rule", f"unknown rule id {spec['rule']!r}"))
        if not _spec(key, spec).accepts(spec["default"]):
            problems.append((f"options.{key}.default", "not one of the allowed values"))
        problems.extend(unknown_sources(data, f"options.{key}.sources", spec.get("sources", [])))
        problems.extend(_check_option_refs(key, spec, yaku_group, slugs))
    return problems


def _check_scoring(data: dict[str, Any], rules: dict[str, str]) -> list[tuple[str, str]]:
    """The scoring rules, the first round's month and the default ruleset exist."""
    problems = []
    for key in ("seven_point", "koikoi", "koikoi_calls"):
        if data["scoring"][key]["rule"] not in rules:
            problems.append((f"scoring.{key}.rule", "unknown rule id"))
    if data["round_months"]["first"] not in [m["number"] for m in data["months"]]:
        problems.append(("round_months.first", f"no month {data['round_months']['first']}"))
    if data["default_ruleset"] not in data["rulesets"]:
        problems.append(("default_ruleset", f"no ruleset {data['default_ruleset']!r}"))
    for modes, option in (("koikoi_modes", "koikoi_multiplier"), ("field_modes", "field_multiplier")):
        choices = data["options"].get(option, {}).get("choices", [])
        if set(data["scoring"][modes]) != set(choices):
            problems.append((f"scoring.{modes}", f"must describe exactly the choices of {option}"))
        for key, mode in data["scoring"][modes].items():
            if mode["rule"] not in rules:
                problems.append((f"scoring.{modes}.{key}.rule", f"unknown rule id {mode['rule']!r}"))
    return problems


def _check_rulesets(data: dict[str, Any], rules: dict[str, str],
                    yaku_group: dict[str, str]) -> list[tuple[str, str]]:
    """Each ruleset's rule, yaku values, stacks, options and provenance are real, and a
    match without a round limit has a target. (A yaku whose value is unknown may be on: the
    referee refuses a pile that holds it.)"""
    problems = []
    options = data["options"]
    for key, ruleset in data["rulesets"].items():
        where = f"rulesets.{key}"
        if ruleset["rule"] not in rules:
            problems.append((f"{where}.rule", f"unknown rule id {ruleset['rule']!r}"))
        for yaku_id in ruleset["values"]:
            if yaku_id not in yaku_group:
                problems.append((f"{where}.values.{yaku_id}", f"no yaku {yaku_id!r}"))
        for j, pair in enumerate(ruleset["stacks"]):
            unknown = [y for y in pair if y not in yaku_group]
            if unknown:
                problems.append((f"{where}.stacks[{j}]", f"no yaku {unknown[0]!r}"))
            elif len({yaku_group[y] for y in pair}) != 1:
                problems.append((f"{where}.stacks[{j}]", "stacked yaku must share a group"))
        for opt, value in ruleset["options"].items():
            if opt not in options:
                problems.append((f"{where}.options.{opt}", f"no option {opt!r}"))
            elif not _spec(opt, options[opt]).accepts(value):
                problems.append((f"{where}.options.{opt}", f"{value!r} is not an allowed value"))
        problems.extend(_check_provenance(data, where, ruleset, yaku_group))
        chosen = {k: s["default"] for k, s in options.items()} | ruleset["options"]
        if chosen.get("rounds", 1) is None and chosen.get("match_target") is None:
            problems.append((f"{where}.options.rounds", "a match without a round limit needs a target"))
    return problems


def _check_provenance(data: dict[str, Any], where: str, ruleset: dict[str, Any],
                      yaku_group: dict[str, str]) -> list[tuple[str, str]]:
    """A ruleset's provenance entries name real facts, sources and notes."""
    groups = {g["id"] for g in data["groups"] if g["stacking"] == "best"}
    names = {"yaku": set(yaku_group), "group": groups, "option": set(data["options"])}
    problems = []
    for key, spec in ruleset.get("provenance", {}).items():
        kind, _, name = key.partition(".")
        if name not in names.get(kind, ()):
            problems.append((f"{where}.provenance.{key}", f"no {kind} {name!r}"))
        problems.extend(check_sourced(data, f"{where}.provenance.{key}", spec))
    return problems


def _check_entries(data: dict[str, Any], rules: dict[str, str]) -> list[tuple[str, str]]:
    """Disagreements and FAQ entries name real rules and options."""
    problems = []
    for label in ("disagreements", "faq"):
        for i, entry in enumerate(data[label]):
            refs = [entry["id"], *entry.get("rules", []), entry.get("rule"), entry.get("canonical")]
            for ref in filter(None, refs):
                if ref not in rules:
                    problems.append((f"{label}[{i}]", f"unknown rule id {ref!r}"))
            selects = entry.get("selects")
            if isinstance(selects, dict) and selects["option"] not in data["options"]:
                problems.append((f"{label}[{i}].selects", f"no option {selects['option']!r}"))
    return problems


def _check_option_refs(
    key: str, spec: dict[str, Any], yaku_group: dict[str, str], slugs: set[str]
) -> list[tuple[str, str]]:
    """An option's `switches`, `values`, `concerns`, `stacks` and `spoils_viewings` name real
    yaku and cards; its `inapplicable` value is one of its values."""
    problems = []
    where = f"options.{key}"
    for yaku_id in spec.get("concerns", []):
        if yaku_id not in yaku_group:
            problems.append((f"{where}.concerns", f"no yaku {yaku_id!r}"))
    for pair in spec.get("stacks", []):
        if any(y not in yaku_group for y in pair) or len({yaku_group.get(y) for y in pair}) != 1:
            problems.append((f"{where}.stacks", "stacked yaku must exist and share a group"))
    if (spec.get("switches") or spec.get("concerns")) and "inapplicable" not in spec:
        problems.append((where, "an option about some yaku says its value where they are missing"))
    if "inapplicable" in spec and not _spec(key, spec).accepts(spec["inapplicable"]):
        problems.append((f"{where}.inapplicable", "not one of the allowed values"))
    for value in spec.get("idle", []):
        if not _spec(key, spec).accepts(value):
            problems.append((f"{where}.idle", f"{value!r} is not one of the allowed values"))
    switches = spec.get("switches", [])
    if (switches or "spoils_viewings" in spec or "stacks" in spec or "fixed" in spec
            or "drops" in spec) and set(spec.get("choices", [])) != {True, False}:
        reason = "only a true/false option can switch, stack, fix or drop yaku, or spoil viewings"
        problems.append((where, reason))
    for part in ("fixed", "drops"):
        for yaku_id in spec.get(part, []):
            if yaku_id not in yaku_group:
                problems.append((f"{where}.{part}", f"no yaku {yaku_id!r}"))
    for yaku_id in switches:
        if yaku_id not in yaku_group:
            problems.append((f"{where}.switches", f"no yaku {yaku_id!r}"))
    for yaku_id in spec.get("values", {}):
        if yaku_id not in switches:
            problems.append((f"{where}.values.{yaku_id}", "a value for a yaku it does not switch"))
    for slug in spec.get("spoils_viewings", []):
        if slug not in slugs:
            problems.append((f"{where}.spoils_viewings", f"no card {slug!r}"))
    return problems


def _spec(key: str, spec: dict[str, Any], by_slug: dict[str, int] | None = None) -> OptionSpec:
    integer = spec.get("integer") or {}
    spoils = _mask(by_slug, spec.get("spoils_viewings")) if by_slug else 0
    return OptionSpec(
        id=key,
        label=spec["label"],
        rule=spec["rule"],
        default=spec["default"],
        choices=tuple(spec["choices"]) if "choices" in spec else None,
        int_min=integer.get("min"),
        int_max=integer.get("max"),
        nullable=spec.get("nullable", False),
        switches=tuple(spec.get("switches", ())),
        values={y: _value(v) for y, v in spec.get("values", {}).items()},
        spoils=spoils,
        sources=tuple(spec.get("sources", ())),
        concerns=tuple(spec.get("concerns", spec.get("switches", ()))),
        inapplicable=spec.get("inapplicable"),
        stacks=tuple(frozenset(pair) for pair in spec.get("stacks", ())),
        fixed=tuple(spec.get("fixed", ())),
        drops=tuple(spec.get("drops", ())),
        idle=tuple(spec.get("idle", ())),
    )


def _value(raw: Any) -> YakuValue:
    if raw == "unknown":
        return YakuValue(None)
    if isinstance(raw, int):
        return YakuValue(raw)
    points = raw["points"]
    return YakuValue(None if points == "unknown" else points, raw.get("extra", False))


def _mask(by_slug: dict[str, int], slugs: list[str] | None) -> int:
    """The bit set of the named cards."""
    out = 0
    for slug in slugs or ():
        out |= 1 << by_slug[slug]
    return out


def _yaku(y: dict[str, Any], by_slug: dict[str, int]) -> Yaku:
    match = y["match"]
    kind = next(k for k in ("hand", "cards", "round_month", "count") if k in match)
    count = match.get("count", {})
    hand = match.get("hand", {})
    return Yaku(
        id=y["id"], name=y["name"], romaji=y.get("romaji", y["name"]), group=y["group"],
        rule=y["rule"], match=kind, cards=_mask(by_slug, match.get("cards")),
        requires=_mask(by_slug, match.get("requires")), count_kind=count.get("kind"),
        count_min=count.get("min", 0), excluding=_mask(by_slug, count.get("excluding")),
        hand_month_count=hand.get("month_count", 0), hand_pairs=hand.get("pairs", 0),
        extra=y.get("extra"), viewing=y.get("viewing", False),
    )


def _card_masks(cards: tuple[Card, ...]) -> tuple[dict[str, int], dict[str, int], dict[int, int]]:
    """The cards of each kind, those that may also count as a kind, and each month's."""
    kind_masks = {k: 0 for k in KINDS}
    dual_masks = {k: 0 for k in KINDS}
    month_masks: dict[int, int] = {}
    for c in cards:
        kind_masks[c.kind] |= c.bit
        if c.dual_kind:
            dual_masks[c.dual_kind] |= c.bit
        month_masks[c.month] = month_masks.get(c.month, 0) | c.bit
    return kind_masks, dual_masks, month_masks


def _ruleset(key: str, r: dict[str, Any], options: dict[str, OptionSpec]) -> Ruleset:
    values = {y: _value(v) for y, v in r["values"].items()}

    def played(yaku_id: str, spec: OptionSpec) -> bool:
        return yaku_id in values or yaku_id in spec.values

    return Ruleset(
        id=key, name=r["name"], rule=r["rule"], sources=tuple(r["sources"]),
        values=values,
        stacks=tuple(frozenset(pair) for pair in r["stacks"]),
        options=dict(r["options"]),
        basis=r["basis"],
        provenance={k: read_sourced(v) for k, v in r.get("provenance", {}).items()},
        inapplicable=frozenset(
            o for o, spec in options.items()
            if spec.concerns and not any(played(y, spec) for y in spec.concerns)),
    )


def build_rulebook(data: dict[str, Any], source_file: str) -> Rulebook:
    rules, duplicates = collect_rules(data)
    problems = duplicates + _cross_check(data, rules)
    if problems:
        raise RulebookError(source_file, problems)

    cards = tuple(
        Card(
            index=c["index"], slug=c["slug"], month=c["month"], kind=c["kind"], name=c["name"],
            ribbon=c.get("ribbon"), dual_kind=c.get("dual_kind"),
        )
        for c in data["cards"]
    )
    by_slug = {c.slug: c.index for c in cards}
    yaku = tuple(_yaku(y, by_slug) for y in data["yaku"])
    kind_masks, dual_masks, month_masks = _card_masks(cards)
    months = tuple(Month(m["id"], m["number"], m["name"]) for m in data["months"])
    scoring = data["scoring"]
    options = {key: _spec(key, spec, by_slug) for key, spec in data["options"].items()}
    switches: dict[str, tuple[str, ...]] = {}
    for spec in options.values():
        for yaku_id in spec.switches:
            switches[yaku_id] = (*switches.get(yaku_id, ()), spec.id)
    scorer_options = ("viewings", "sake_cup_as_plain",
                      *(s.id for s in options.values() if s.switches or s.spoils or s.stacks))
    return Rulebook(
        source_file=source_file,
        title=data["title"],
        canonical_source=data["canonical_source"],
        sources=read_sources(data),
        months=months,
        cards=cards,
        hand_size=data["deal"]["hand"],
        field_size=data["deal"]["field"],
        first_dealer=data["deal"]["first_dealer"],
        first_month=data["round_months"]["first"],
        groups={g["id"]: g["stacking"] for g in data["groups"]},
        yaku=yaku,
        seven_threshold=scoring["seven_point"]["threshold"],
        seven_factor=scoring["seven_point"]["factor"],
        seven_rule=scoring["seven_point"]["rule"],
        koikoi_factor=scoring["koikoi"]["factor"],
        koikoi_rule=scoring["koikoi"]["rule"],
        koikoi_call_step=scoring["koikoi_calls"]["step"],
        koikoi_calls_rule=scoring["koikoi_calls"]["rule"],
        koikoi_modes={k: KoikoiMode(**m) for k, m in scoring["koikoi_modes"].items()},
        field_modes={k: FieldMode(**m) for k, m in scoring["field_modes"].items()},
        options=options,
        max_rounds=data["limits"]["max_rounds"],
        default_ruleset=data["default_ruleset"],
        rulesets={key: _ruleset(key, r, options) for key, r in data["rulesets"].items()},
        disagreements=tuple(data["disagreements"]),
        faq=tuple(data["faq"]),
        sections=tuple(
            Section(s["id"], s["title"], {k: rules[k] for k in s["rules"]}) for s in data["sections"]
        ),
        notes={k: " ".join(v.split()) for k, v in data["notes"].items()},
        rules=rules,
        titles=collect_titles(data),
        asked=collect_asked(data),
        card_by_slug=by_slug,
        yaku_by_id={y.id: y for y in yaku},
        month_by_number={m.number: m for m in months},
        kind_masks=kind_masks,
        dual_masks=dual_masks,
        month_masks=month_masks,
        switches=switches,
        scorer_options=scorer_options,
        cache={},
        japanese=read_japanese(data, {m.id: m.number for m in months}, set(by_slug),
                               {y.id: y.romaji for y in yaku}, set(data["sources"])),
    )


def load_rulebook(path: Path | str | None = None) -> Rulebook:
    """Load and check a Koi-Koi rulebook (the shipped one by default)."""
    if path is None:
        return _default_rulebook()
    return build_rulebook(load_yaml_checked(path, SCHEMA), str(path))


@lru_cache(maxsize=1)
def _default_rulebook() -> Rulebook:
    return build_rulebook(load_yaml_checked(DEFAULT_PATH, SCHEMA), str(DEFAULT_PATH))
