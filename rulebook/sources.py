"""The documents a rulebook's facts come from, the same for every game.

A rulebook YAML has a `sources:` table keyed by source; whatever names a source (the
canonical source, an edition, a ruleset, a disagreement) uses its key. A page shows
`about` in its own language (the catalogs hold it, message context `source.<key>`) and the
work's own `title` as printed, marked with its language.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Source:
    """A document facts come from: `about` is English (translated), `title` stays as printed."""

    key: str
    lang: str
    about: str
    where: str
    title: str | None = None


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
