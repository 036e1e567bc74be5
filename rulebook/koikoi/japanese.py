"""Koi-Koi's Japanese names, as the rulebook's `japanese:` block gives them: each month,
card and yaku written as Japanese players write it (猪鹿蝶), its reading in kana
(いのしかちょう) and its romaji (Ino-shika-chō). Japanese pages show the written form with
its reading; the other languages show the romaji and the written form beside their name.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..loader import RulebookError


class JapaneseName(NamedTuple):
    written: str  # 猪鹿蝶, 松に鶴
    reading: str  # in kana: いのしかちょう
    romaji: str  # Hepburn: Ino-shika-chō
    inferred: bool = False  # no source names it so: shown as inferred
    also: tuple[tuple[str, str], ...] = ()  # other names players use: (written, reading)


class JapaneseNames(NamedTuple):
    """Keyed as the rulebook keys them: month number, card slug, yaku id."""

    sources: tuple[str, ...]
    months: dict[int, JapaneseName]
    cards: dict[str, JapaneseName]
    yaku: dict[str, JapaneseName]

    def lexicon(self) -> list[tuple[str, str]]:
        """(written form, reading) of every name: the words a Japanese search finds whole."""
        names = [*self.months.values(), *self.cards.values(), *self.yaku.values()]
        return [pair for n in names for pair in ((n.written, n.reading), *n.also)]


def read_japanese(data: dict[str, Any], months: dict[str, int], cards: set[str],
                  yaku: dict[str, str], sources: set[str]) -> JapaneseNames:
    """The `japanese:` block (empty when the rulebook has none); `months` maps a month id
    to its number, `yaku` a yaku id to its romaji. Every key must name what the rulebook has."""
    block = data.get("japanese")
    if not block:
        return JapaneseNames((), {}, {}, {})
    unknown = ([f"month {k}" for k in block["months"] if k not in months]
               + [f"card {k}" for k in block["cards"] if k not in cards]
               + [f"yaku {k}" for k in block["yaku"] if k not in yaku]
               + [f"source {k}" for k in block["sources"] if k not in sources])
    if unknown:
        raise RulebookError("japanese: unknown " + ", ".join(unknown))
    return JapaneseNames(
        sources=tuple(block["sources"]),
        months={months[k]: JapaneseName(*v) for k, v in block["months"].items()},
        cards={k: JapaneseName(*v) for k, v in block["cards"].items()},
        yaku={k: JapaneseName(v["written"], v["reading"], yaku[k], v.get("basis") == "inferred",
                              tuple(tuple(pair) for pair in v.get("also", ())))
              for k, v in block["yaku"].items()},
    )
