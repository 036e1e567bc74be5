"""Koi-Koi names and rule texts in one language: cards, months, yaku, what a yaku needs."""
from __future__ import annotations

from functools import cached_property
from typing import Any

from markupsafe import Markup, escape

from rulebook.i18n import N_
from rulebook.koikoi.messages import ruleset_name

from ..terms import GameTerms, per_language

KIND_LABELS = {
    "bright": N_("Bright"),
    "animal": N_("Animal"),
    "ribbon": N_("Ribbon"),
    "plain": N_("Plain"),
}
# Translators: beside a Japanese name no source spells so (derived from its romaji)
INFERRED = N_("inferred")
GROUP_LABELS = {
    "brights": N_("Brights"),
    "animals": N_("Animals"),
    "ribbons": N_("Ribbons"),
    "other": N_("Other"),
    "hand": N_("Dealt hand"),
}


class KoikoiTerms(GameTerms):
    """Koi-Koi names and rule texts in one language (used for compare mode as well)."""

    def __init__(self, rulebook: Any, lang: str, options: Any = None):
        super().__init__(rulebook, lang)
        self.options = options  # the page's ruleset and table options (webapp.games.base)

    def rule(self, rule_id: str) -> str:
        return self.p(rule_id, self.rb.rules[rule_id])

    def rule_html(self, rule_id: str) -> Markup:
        return escape(self.rule(rule_id))

    # -- what the search reads (GameTerms) ---------------------------------------------
    def search_names(self, rule_id: str) -> list[str]:
        """A yaku's rule is also found by the yaku's name and its Japanese name."""
        return [w for y in self.rb.yaku if y.rule == rule_id for w in (self.yaku(y.id), y.romaji)]

    def in_force(self, rule_id: str) -> tuple[str, list[Markup]] | None:
        """A yaku's points in the ruleset and table options in force, as the yaku table says."""
        yaku = next((y for y in self.rb.yaku if y.rule == rule_id), None)
        if yaku is None or self.options is None:
            return None
        from .options import yaku_rows  # it imports this module

        table = self.options.table
        row = next(row for row in yaku_rows(self.rb, self, table.ruleset, table.effective)
                   if row["yaku"] is yaku)
        points = "–" if row["points"] is None else str(row["points"])
        extra = (self.gettext("Yes: each further %(kind)s") % {"kind": row["extra_kind"]}
                 if row["extra"] else self.gettext("No"))
        caption = self.gettext("Yaku and their points in the %(ruleset)s ruleset") % {
            "ruleset": self.ruleset_name(table.ruleset)}
        points = f"{points} ({row['off']})" if row["off"] else points
        return caption, [self.labelled(self.gettext("Points"), points),
                         self.labelled(self.gettext("+1 per extra card"), extra)]

    def search_kind(self, rule_id: str) -> tuple[str, tuple[str, ...]]:
        """A ruleset's description is a note, as where sources disagree."""
        if any(ruleset.rule == rule_id for ruleset in self.rb.rulesets.values()):
            return "note", ()
        return super().search_kind(rule_id)

    # -- names -----------------------------------------------------------------------
    def ruleset_name(self, ruleset_id: str) -> str:
        return ruleset_name(self.rb, ruleset_id, self.p)

    def together(self, names: list[str]) -> str:
        """Yaku that score together, "Tane + Ino-shika-chō": Japanese sets the plus sign
        full width, without spaces (猪鹿蝶＋タネ)."""
        return ("＋" if self.lang == "ja" else " + ").join(names)

    def card(self, card: Any) -> str:
        return self.p(f"koikoi.card.{card.slug}", card.name)

    def month(self, number: int) -> str:
        return self.p(f"koikoi.month.{number}", self.rb.month_by_number[number].name)

    def yaku(self, yaku_id: str) -> str:
        return self.p(f"koikoi.yaku.{yaku_id}", self.rb.yaku_by_id[yaku_id].name)

    # -- Japanese names (rulebook/koikoi/japanese.py) -----------------------------------
    def japanese_html(self, name: str, japanese: Any) -> Markup:
        """A name as this page shows it: in Japanese, the written form with its reading
        (<ruby>猪鹿蝶<rt>いのしかちょう</rt></ruby>); elsewhere the page's name, then the romaji
        and the written form ("Boar, Deer and Butterflies (Ino-shika-chō, 猪鹿蝶)")."""
        if japanese is None:
            return escape(name)
        if self.lang == "ja":
            shown = Markup("<ruby>{}<rt>{}</rt></ruby>").format(japanese.written, japanese.reading)
        elif "(" in name:  # the name gives the romaji already: "Goko (cinq lumières)"
            shown = Markup('{} <span class="jp-name" lang="ja">{}</span>').format(
                name, japanese.written)
        else:
            shown = self.noted(name, Markup(
                '<span class="jp-name"><span lang="ja-Latn">{}</span>, <span lang="ja">{}</span>'
                '</span>').format(japanese.romaji, japanese.written))
        if japanese.inferred:  # the spelling is ours: said so wherever it is shown
            return self.noted(shown, Markup('<span class="inferred">{}</span>').format(
                self.gettext(INFERRED)))
        return shown

    @per_language
    def yaku_html(self, yaku_id: str) -> Markup:
        return self.japanese_html(self.yaku(yaku_id), self.rb.japanese.yaku.get(yaku_id))

    def card_html(self, card: Any) -> Markup:
        """A card on a drawn tile: on Japanese pages its written name with the reading; on
        the others its name, then the written name and the romaji on lines of their own."""
        return self._card_html(card.slug)

    @per_language
    def _card_html(self, slug: str) -> Markup:
        card = self.rb.card(self.rb.card_by_slug[slug])
        japanese = self.rb.japanese.cards.get(card.slug)
        if japanese is None or self.lang == "ja":
            return self.japanese_html(self.card(card), japanese)
        return Markup('{}<span class="jp-name jp-name--line" lang="ja">{}</span>'
                      '<span class="jp-name jp-name--line" lang="ja-Latn">{}</span>').format(
            self.card(card), japanese.written, japanese.romaji)

    @per_language
    def month_html(self, number: int) -> Markup:
        return self.japanese_html(self.month(number), self.rb.japanese.months.get(number))

    def kind(self, card: Any) -> str:
        return self.gettext(KIND_LABELS[card.kind])

    def kind_name(self, kind: str) -> str:
        return self.gettext(KIND_LABELS[kind])

    def group(self, group_id: str) -> str:
        return self.gettext(GROUP_LABELS[group_id])

    @cached_property
    def months(self) -> list[tuple[Any, list[Any]]]:
        """(month, its four cards) in calendar order."""
        return [(m, [c for c in self.rb.cards if c.month == m.number]) for m in self.rb.months]

    def names_of(self, mask: int) -> list[str]:
        return [self.card(c) for c in self.rb.cards if (mask >> c.index) & 1]

    def needs(self, yaku: Any) -> str:
        """What a yaku needs, in words."""
        t = self._t
        if yaku.match == "cards":
            return self.listed(
                t.gettext("%(card)s (%(month)s)") % {"card": self.card(c), "month": self.month(c.month)}
                for c in self.rb.cards if (yaku.cards >> c.index) & 1)
        if yaku.match == "round_month":
            return t.gettext("All four cards of the month the round is played in")
        if yaku.match == "hand":
            if yaku.hand_month_count:
                return t.ngettext(
                    "%(num)d cards of one month in the dealt hand",
                    "%(num)d cards of one month in the dealt hand", yaku.hand_month_count,
                ) % {"num": yaku.hand_month_count}
            return t.ngettext("%(num)d same-month pair in the dealt hand",
                              "%(num)d same-month pairs in the dealt hand",
                              yaku.hand_pairs) % {"num": yaku.hand_pairs}
        n = yaku.count_min
        counted = {
            "bright": t.ngettext("%(num)d bright", "%(num)d brights", n),
            "animal": t.ngettext("%(num)d animal", "%(num)d animals", n),
            "ribbon": t.ngettext("%(num)d ribbon", "%(num)d ribbons", n),
            "plain": t.ngettext("%(num)d plain", "%(num)d plains", n),
        }[yaku.count_kind] % {"num": n}
        if yaku.excluding:
            return t.gettext("%(count)s, not counting the %(cards)s") % {
                "count": counted, "cards": self.listed(self.names_of(yaku.excluding))}
        if yaku.requires:
            return t.gettext("%(count)s, one of them the %(cards)s") % {
                "count": counted, "cards": self.listed(self.names_of(yaku.requires))}
        return counted

    def stacking(self, ruleset: Any, yaku: Any, stacks: Any = None) -> str:
        """How the yaku scores beside the others of its group, under the ruleset's stacks or
        the table's (Rulebook.stacks_at)."""
        t = self._t
        if self.rb.groups[yaku.group] == "all":
            return t.gettext("Adds to every other yaku")
        pairs = ruleset.stacks if stacks is None else stacks
        partners = [self.yaku(y) for y in sorted({y for s in pairs if yaku.id in s for y in s})
                    if y != yaku.id]
        if partners:
            return t.gettext("Best of its group; scores together with %(yaku)s") % {
                "yaku": self.listed(partners)}
        return t.gettext("Only the best yaku of its group scores")
