"""The Hanamikoji rulebook as typed, immutable objects built from the YAML.

The editions, as every page that compares or finds them reads them (a stable contract):
  rb.editions[id]          an Edition: `name` (the box as players know it), `publisher`,
                           `language` (ISO 639-1), `year` (None: unknown), `sources`,
                           `actions` (printed names; None: not found), `theme`,
                           `first_player`, `round_limit`
  rb.compared()            the keys a comparison shows, in order: `publisher`, `language`,
                           `year`, `theme`, `actions.<action id>`, `first_player`,
                           `round_limit`, `tiebreak`
  rb.provenance(edition, key) -> Sourced   how that fact was read (rulebook/sources.py:
                           `basis`, `sources`, `note`)
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
from ..sources import Source, Sourced, read_sources, unknown_sources

if TYPE_CHECKING:
    from pathlib import Path

# Paths as text (os.path): pathlib would cost a cold `shinpan score` ~5 ms of imports.
FOLDER = os.path.dirname(os.path.realpath(__file__))
DEFAULT_PATH = os.path.join(FOLDER, "rulebook.yaml")
SCHEMA = os.path.join(FOLDER, "schemas", "rulebook.schema.json")


class Geisha(NamedTuple):
    id: str
    name: str
    charm: int
    cards: int
    colour: str
    item: str


class Action(NamedTuple):
    id: str
    rule: str
    cards: int
    split: tuple[int, ...] | None
    face: str
    chooser: str
    scored: bool
    opponent_takes: int = 0


class RoundLimitRule(NamedTuple):
    """What an edition's book says about a game of at most `Rulebook.round_limit` rounds."""

    # "normal" (the game's own end; playing on is the option), "final" (the game's own end),
    # "optional" (a printed option), "none" (no limit), "unknown" (sources do not settle it)
    status: str
    # Steps such as ("most_charm", "highest_geisha", "shared"); ("unknown",) when no source says.
    tiebreak: tuple[str, ...]
    sourced: Sourced
    inferred_from: str | None = None  # the edition whose chain an inferred one takes over

    @property
    def default_on(self) -> bool:
        return self.status in ("normal", "final")


class Edition(NamedTuple):
    id: str
    publisher: str
    language: str
    year: int | None
    actions: dict[str, str | None]  # printed names; None: in none of our sources
    action_names: Sourced
    round_limit: RoundLimitRule
    name: str  # the box as players know it (the YAML's `name`, else the publisher)
    sourced: Sourced  # how publisher, language and year were read
    theme: str  # what the seven figures are: geishas, dancers, scholars
    theme_sourced: Sourced
    first_player: str  # who starts the game: youngest, birthday, unknown
    first_player_sourced: Sourced


class Section(NamedTuple):
    id: str
    title: str
    rules: dict[str, str]  # rule id -> English text


class Rulebook(NamedTuple):
    source_file: str
    title: str  # the game's name (English; the catalogs translate it)
    canonical_source: str  # a key of `sources`
    sources: dict[str, Source]
    geishas: tuple[Geisha, ...]
    actions: dict[str, Action]
    removed: int
    hand: int
    draw_per_turn: int
    actions_per_player: int
    first_player: str
    scored_per_side: int
    goal_geishas: int
    goal_charm: int
    clash_winner: str
    round_limit: int
    max_rounds: int  # a limit of the referee, not a rule of the game
    tiebreak_rules: dict[str, str]
    default_edition: str
    editions: dict[str, Edition]
    variants: dict[str, dict[str, Any]]
    disagreements: tuple[dict[str, Any], ...]
    faq: tuple[dict[str, Any], ...]
    sections: tuple[Section, ...]
    rules: dict[str, str]  # every rule id -> English text
    titles: dict[str, str]  # rule id -> short English title
    asked: dict[str, tuple[str, ...]]  # ways players ask (search)
    geisha_index: dict[str, int]
    # Per-language lookups computed once (see referee.Phrases); not part of the rules.
    cache: dict[Any, Any]
    # Languages whose action names are the site's own translation, not an edition's.
    own_action_names: tuple[str, ...] = ()

    @property
    def total_cards(self) -> int:
        return sum(g.cards for g in self.geishas)

    @property
    def draw_pile(self) -> int:
        """Cards left to draw after the deal: 21 - 1 - 2*6 = 8 in the canonical game."""
        return self.total_cards - self.removed - 2 * self.hand

    def variant_default(self, name: str) -> Any:
        return self.variants[name]["default"]

    def compared(self) -> list[str]:
        """The keys a comparison of the editions shows, in order (module docstring)."""
        return ["publisher", "language", "year", "theme",
                *(f"actions.{a}" for a in self.actions), "first_player", "round_limit",
                "tiebreak"]

    def provenance(self, edition_id: str, key: str) -> Sourced:
        """How an edition's fact `key` (one of compared()) was read."""
        e = self.editions[edition_id]
        if key in ("publisher", "language"):
            return e.sourced
        if key == "year":
            return e.sourced if e.year is not None else Sourced("unknown", e.sourced.sources)
        if key == "theme":
            return e.theme_sourced
        if key == "first_player":
            return e.first_player_sourced
        if key in ("round_limit", "tiebreak"):
            return e.round_limit.sourced
        kind, _, action = key.partition(".")
        if kind == "actions" and action in self.actions:
            if e.actions[action] is None:
                return Sourced("unknown", e.action_names.sources)
            return e.action_names
        raise KeyError(key)

    def round_limit_default(self, edition: str) -> bool:
        """Whether the three-round limit applies when a table does not say (`default: edition`)."""
        default = self.variant_default("round_limit")
        return self.editions[edition].round_limit.default_on if default == "edition" else default


def _cross_check(data: dict[str, Any], rules: dict[str, str]) -> list[tuple[str, str]]:
    """What the schema cannot see: references between parts of the file."""
    problems: list[tuple[str, str]] = []
    action_ids = [a["id"] for a in data["actions"]]
    geisha_ids = [g["id"] for g in data["geishas"]]
    for label, ids in (("geishas", geisha_ids), ("actions", action_ids)):
        if len(set(ids)) != len(ids):
            problems.append((label, "ids must be unique"))
    for i, action in enumerate(data["actions"]):
        if action["rule"] not in rules:
            problems.append((f"actions[{i}].rule", f"unknown rule id {action['rule']!r}"))
        if action["split"] and sum(action["split"]) != action["cards"]:
            problems.append((f"actions[{i}].split", "the sets must add up to `cards`"))
    if data["default_edition"] not in data["editions"]:
        problems.append(("default_edition", f"no edition {data['default_edition']!r}"))

    def check_sources(where: str, keys: list[str]) -> None:
        problems.extend(unknown_sources(data, where, keys))

    check_sources("canonical_source", [data["canonical_source"]])
    for key, edition in data["editions"].items():
        if set(edition["actions"]) != set(action_ids):
            problems.append((f"editions.{key}.actions", f"must name exactly the actions {action_ids}"))
        if f"edition.{key}" not in rules:
            problems.append((f"editions.{key}", f"no rule text edition.{key}"))
        check_sources(f"editions.{key}.action_names", edition["action_names"]["sources"])
        for part in ("theme", "first_player"):
            check_sources(f"editions.{key}.{part}", edition[part]["sources"])
        check_sources(f"editions.{key}.sources", edition["sources"])
        limit = edition["round_limit"]
        check_sources(f"editions.{key}.round_limit", limit["sources"])
        if (limit["basis"] == "inferred") != ("inferred_from" in limit):
            problems.append((f"editions.{key}.round_limit", "an inferred chain names `inferred_from`"))
        if limit.get("inferred_from", key) not in data["editions"]:
            problems.append((f"editions.{key}.round_limit.inferred_from", "no such edition"))
    for key, variant in data["variants"].items():
        for choice, spec in variant.get("choices", {}).items():
            check_sources(f"variants.{key}.choices.{choice}", spec["sources"])
    for i, entry in enumerate(data["disagreements"]):
        check_sources(f"disagreements[{i}].sources", entry.get("sources", []))
    for step, spec in data["tiebreak_steps"].items():
        if spec["rule"] not in rules:
            problems.append((f"tiebreak_steps.{step}.rule", f"unknown rule id {spec['rule']!r}"))
    for key, variant in data["variants"].items():
        if variant["rule"] not in rules:
            problems.append((f"variants.{key}.rule", f"unknown rule id {variant['rule']!r}"))
    for label in ("disagreements", "faq"):
        for i, entry in enumerate(data[label]):
            refs = [entry["id"], *entry.get("rules", []), entry.get("rule"), entry.get("canonical")]
            for ref in filter(None, refs):
                if ref not in rules:
                    problems.append((f"{label}[{i}]", f"unknown rule id {ref!r}"))
    return problems


def build_rulebook(data: dict[str, Any], source_file: str) -> Rulebook:
    rules, duplicates = collect_rules(data)
    problems = duplicates + _cross_check(data, rules)
    if problems:
        raise RulebookError(source_file, problems)

    def chain(value: Any) -> tuple[str, ...]:
        return ("unknown",) if value == "unknown" else tuple(value)

    def edition(key: str, e: dict[str, Any]) -> Edition:
        limit = e["round_limit"]
        return Edition(
            id=key, publisher=e["publisher"], language=e["language"], year=e["year"],
            actions=e["actions"],
            action_names=Sourced(e["action_names"]["basis"], tuple(e["action_names"]["sources"])),
            round_limit=RoundLimitRule(limit["status"], chain(limit["tiebreak"]),
                                       Sourced(limit["basis"], tuple(limit["sources"])),
                                       limit.get("inferred_from")),
            name=e.get("name", e["publisher"]),
            sourced=Sourced(e["basis"], tuple(e["sources"])),
            theme=e["theme"]["figures"],
            theme_sourced=Sourced(e["theme"]["basis"], tuple(e["theme"]["sources"])),
            first_player=e["first_player"]["rule"],
            first_player_sourced=Sourced(e["first_player"]["basis"],
                                         tuple(e["first_player"]["sources"])),
        )

    geishas = tuple(Geisha(**g) for g in data["geishas"])
    rnd, victory = data["round"], data["victory"]
    return Rulebook(
        source_file=source_file,
        title=data["title"],
        canonical_source=data["canonical_source"],
        sources=read_sources(data),
        geishas=geishas,
        actions={
            a["id"]: Action(**{**a, "split": tuple(a["split"]) if a["split"] else None})
            for a in data["actions"]
        },
        removed=rnd["removed"],
        hand=rnd["hand"],
        draw_per_turn=rnd["draw_per_turn"],
        actions_per_player=rnd["actions_per_player"],
        first_player=rnd["first_player"],
        scored_per_side=rnd["scored_per_side"],
        goal_geishas=victory["geishas"],
        goal_charm=victory["charm"],
        clash_winner=victory["clash_winner"],
        round_limit=data["round_limit"]["rounds"],
        max_rounds=data["limits"]["max_rounds"],
        tiebreak_rules={k: v["rule"] for k, v in data["tiebreak_steps"].items()},
        default_edition=data["default_edition"],
        editions={key: edition(key, e) for key, e in data["editions"].items()},
        variants=data["variants"],
        disagreements=tuple(data["disagreements"]),
        faq=tuple(data["faq"]),
        sections=tuple(
            Section(s["id"], s["title"], {k: rules[k] for k in s["rules"]}) for s in data["sections"]
        ),
        rules=rules,
        titles=collect_titles(data),
        asked=collect_asked(data),
        geisha_index={g.id: i for i, g in enumerate(geishas)},
        cache={},
        own_action_names=tuple(data.get("own_action_names", ())),
    )


def load_rulebook(path: Path | str | None = None) -> Rulebook:
    """Load and check a Hanamikoji rulebook (the shipped one by default)."""
    if path is None:
        return _default_rulebook()
    return build_rulebook(load_yaml_checked(path, SCHEMA), str(path))


@lru_cache(maxsize=1)
def _default_rulebook() -> Rulebook:
    return build_rulebook(load_yaml_checked(DEFAULT_PATH, SCHEMA), str(DEFAULT_PATH))
