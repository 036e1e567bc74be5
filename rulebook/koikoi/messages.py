"""The Koi-Koi referee's words: `Words`, the names and sentences of one referee run in its
language, and the messages both halves use (request.py and explain.py keep their own)."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..i18n import N_
from ..players import Names
from .model import Rulebook

MSG_CARD_LABEL = N_("{card} ({month})")
MSG_INTERNAL = N_("The referee could not check this request.")


def ruleset_name(rb: Rulebook, ruleset_id: str, pgettext: Callable[[str, str], str]) -> str:
    """A ruleset's name for a reader: the catalog's title where the language names the
    ruleset its own way (任天堂, 龍が如く), else the ruleset's own name, with its platform
    ("Hanafuda Flash (gamedesign.jp)")."""
    ruleset = rb.rulesets[ruleset_id]
    title = rb.titles[ruleset.rule]
    named = pgettext(f"title.{ruleset.rule}", title)
    return ruleset.name if named == title else named


class Words:
    """The rulebook, the catalog and the players' names of one run: messages and names."""

    def __init__(self, rb: Rulebook, t: Any, names: Names, lang: str = "en"):
        self.rb = rb
        self.t = t
        self.names = names
        self.lang = lang

    def n(self, forms: tuple[str, str], n: int, **values: Any) -> str:
        return self.names.cap(self.t.ngettext(forms[0], forms[1], n).format(**values))

    def g(self, template: str, **values: Any) -> str:
        return self.names.cap(self.t.gettext(template).format(**values))

    def yaku_name(self, yaku_id: str) -> str:
        return self.t.pgettext(f"koikoi.yaku.{yaku_id}", self.rb.yaku_by_id[yaku_id].name)

    def yaku_names(self, yaku_ids: Iterable[str]) -> str:
        """Several yaku, joined as the language joins a list ("A, B and C")."""
        names = [self.yaku_name(y) for y in yaku_ids]
        # Babel's list patterns: imported here, for the few messages that name several yaku
        # (a cold `shinpan score` would pay ~25 ms for babel's locale data otherwise)
        from babel.lists import format_list

        try:
            return format_list(names, locale=self.lang)
        except ValueError:  # a language babel does not know: plain commas
            return ", ".join(names)

    def ruleset_name(self, ruleset_id: str) -> str:
        return ruleset_name(self.rb, ruleset_id, self.t.pgettext)

    def month_name(self, number: int) -> str:
        return self.t.pgettext(f"koikoi.month.{number}", self.rb.month_by_number[number].name)

    def card_label(self, index: int) -> str:
        card = self.rb.cards[index]
        name = self.t.pgettext(f"koikoi.card.{card.slug}", card.name)
        return self.g(MSG_CARD_LABEL, card=name, month=self.month_name(card.month))
