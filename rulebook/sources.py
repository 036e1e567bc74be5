"""The documents a rulebook's facts come from, the same for every game.

A rulebook YAML has a `sources:` table keyed by source; whatever names a source (the
canonical source, an edition, a ruleset, a disagreement) uses its key. A page shows
`about` in its own language (the catalogs hold it, message context `source.<key>`) and the
work's own `title` as printed, marked with its language.

How one fact was read is a `Sourced(basis, sources, note)`: every game's rulebook answers
`provenance(<ruleset or edition id>, key)` with one for each fact its comparison shows
(see the contract in each game's model module). `basis` is one of BASES.
"""
from __future__ import annotations

from typing import Any, NamedTuple

# How a fact was read, from the firmest to none; pages say it in words beside the fact.
BASES = {
    # The edition's or ruleset's own text says it (a rulebook, a leaflet, a game's help
    # page or rules page).
    "printed": "the source's own rules say it",
    # Someone who read or played the edition or game describes it (a review, a wiki page
    # about a video game, a forum guide); its own text could not be read.
    "reported": "a description of the edition or game says it",
    # A guide's wording or term whose link to the edition could not be checked.
    "guide": "a guide says it; the edition's own text could not be checked",
    # Not said anywhere we can read, but derived from related facts (named in `note`);
    # every page that shows it says that it is inferred.
    "inferred": "derived from related facts; not printed anywhere we can read",
    # No source says it. A yaku whose value is unknown is refused by the referee; an option
    # no source documents takes the rulebook's default, and pages say so.
    "unknown": "no source we can read says it",
}


class Source(NamedTuple):
    """A document facts come from: `about` is English (translated), `title` stays as printed,
    `short` is the proper name a page cites it by (a site or a work, never translated), `url`
    its public address when it has one page."""

    key: str
    lang: str
    about: str
    where: str
    title: str | None = None
    short: str | None = None
    url: str | None = None

    @property
    def label(self) -> str:
        """How a page cites it in a few words: `short`, else its title, else where it is."""
        return self.short or self.title or self.where.split(",")[0].split("/")[0]


class Sourced(NamedTuple):
    """How a fact was read (`basis`, one of BASES) and from where (`sources`, keys of the
    rulebook's `sources:`); `note` is the id of a short English remark (the rulebook's
    `notes:`, translated with the message context `note.<id>`), or None."""

    basis: str
    sources: tuple[str, ...] = ()
    note: str | None = None

    @property
    def inferred(self) -> bool:
        return self.basis == "inferred"

    @property
    def known(self) -> bool:
        return self.basis != "unknown"


def read_sourced(spec: dict[str, Any]) -> Sourced:
    """A `{basis, sources, note}` mapping of a rulebook YAML as a Sourced."""
    return Sourced(spec["basis"], tuple(spec.get("sources", ())), spec.get("note"))


def check_sourced(data: dict[str, Any], where: str, spec: dict[str, Any]) -> list[tuple[str, str]]:
    """The rulebook problems of a sourced fact: its sources and note exist, and a known fact
    names at least one source (an unknown one may name those that were read in vain)."""
    problems = unknown_sources(data, f"{where}.sources", list(spec.get("sources", ())))
    note = spec.get("note")
    if note is not None and note not in data.get("notes", {}):
        problems.append((f"{where}.note", f"no note {note!r}"))
    if spec["basis"] not in BASES:
        problems.append((f"{where}.basis", f"no basis {spec['basis']!r}"))
    elif spec["basis"] != "unknown" and not spec.get("sources"):
        problems.append((f"{where}.sources", "a known fact names its sources"))
    return problems


def read_sources(data: dict[str, Any]) -> dict[str, Source]:
    return {key: Source(key=key, **spec) for key, spec in data["sources"].items()}


def unknown_sources(data: dict[str, Any], where: str, keys: list[str]) -> list[tuple[str, str]]:
    """The rulebook problems of a list of source keys: each must be in `sources:`."""
    return [(where, f"no source {key!r}") for key in keys if key not in data["sources"]]


def capitalized(text: str) -> str:
    """`text` with a capital first letter. A source's `about` is written so that it can
    follow a colon ("Source: the English rulebook…"); where it stands alone, it starts so."""
    return text[:1].upper() + text[1:]


def sources_document(sources: dict[str, Source], t: Any) -> list[dict[str, Any]]:
    """The `sources` of a game's JSON rulebook: `about` in the translator `t`'s language."""
    return [{"id": src.key, "title": src.title, "lang": src.lang,
             "about": capitalized(t.pgettext(f"source.{src.key}", src.about)),
             "where": src.where}
            for src in sources.values()]
