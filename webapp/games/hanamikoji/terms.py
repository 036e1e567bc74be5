"""Hanamikoji's terms on the site: rule texts with the edition's action names, geishas,
items and colours, sources and editions as the pages name them."""
from __future__ import annotations

from functools import cached_property
from typing import Any

from markupsafe import Markup, escape

from rulebook.hanamikoji.terms import action_name, action_names
from rulebook.i18n import N_

from ..terms import GameTerms, KeepMissing, PrintedName, fill, language_name

# How a fact was read (`basis` in the rulebook YAML), as the pages say it.
BASIS_LABELS = {
    "printed": N_("printed in the book"),
    "reported": N_("second-hand, not read in the book"),
    "inferred": N_("inferred"),
    "guide": N_("a guide's terms, not checked against the book"),
    "unknown": N_("in none of the sources we could read"),
}


RULE_HTML: dict[tuple, tuple[Any, Markup]] = {}  # see Terms.rule_html


class Terms(GameTerms):
    """Hanamikoji terms for `lang` with `edition`'s action names where it is printed in `lang`."""

    def __init__(self, rulebook: Any, lang: str, edition: str | None = None):
        super().__init__(rulebook, lang)
        self.edition = rulebook.editions.get(edition or "") or rulebook.editions[
            rulebook.default_edition
        ]

    # -- sources (what a source is: GameTerms.source) ------------------------------------
    def basis(self, sourced: Any) -> str:
        return self.gettext(BASIS_LABELS[sourced.basis])

    def edition_label(self, edition: Any) -> str:
        """"Deep Water Games (anglais, 2018)": how an edition is named in menus."""
        values = {"publisher": edition.name,
                  "language": language_name(edition.language, self.lang, in_sentence=True)}
        if edition.year:
            return self.gettext("%(publisher)s (%(language)s, %(year)s)") % {**values,
                                                                          "year": edition.year}
        return self.gettext("%(publisher)s (%(language)s)") % values

    # -- actions ---------------------------------------------------------------------
    @cached_property
    def action_names(self) -> dict[str, str]:
        """The page language's action names: the placeholders of the rule texts."""
        return action_names(self.rb, self.lang, self.edition.id)

    def action(self, action_id: str) -> str:
        return self.action_names[action_id]

    @property
    def placeholders(self) -> dict[str, str]:
        return self.action_names

    def printed(self, action_id: str) -> PrintedName | None:
        """The selected edition's printed name when it differs from the page's term."""
        name = self.edition.actions[action_id]
        if name is None or name == self.action(action_id):  # None: not found in any source
            return None
        return PrintedName(name, self.edition.language, self.edition.publisher)

    # -- rule texts ------------------------------------------------------------------
    def rule(self, rule_id: str) -> str:
        """The rule text in this language, action names filled in (plain text)."""
        english = self.rb.rules[rule_id]
        text = fill(self.p(rule_id, english), self.action_names)
        return text if text is not None else (fill(english, self.action_names) or english)

    def rule_html(self, rule_id: str) -> Markup:
        """The rule text as HTML: escaped, with the action names marked up as terms.
        Made once per rulebook, language, edition and rule (pages show each many times)."""
        key = (id(self.rb), self.lang, self.edition.id, rule_id)
        kept = RULE_HTML.get(key)
        if kept is not None and kept[0] is self.rb:
            return kept[1]
        html = self.make_rule_html(rule_id)
        RULE_HTML[key] = (self.rb, html)
        return html

    def make_rule_html(self, rule_id: str) -> Markup:
        english = self.rb.rules[rule_id]
        names = {
            aid: Markup('<span class="term">{}</span>').format(name)
            for aid, name in self.action_names.items()
        }
        for text in (self.p(rule_id, english), english):
            try:
                return Markup(escape(text)).format_map(KeepMissing(names))
            except (ValueError, IndexError, AttributeError, TypeError, KeyError):
                continue
        return escape(english)

    # -- what the search reads (GameTerms) ---------------------------------------------
    def search_text(self, rule_id: str) -> str:
        """The rule text with each action named as every edition names it in this language,
        so a search finds it whatever edition the page shows."""
        english = self.rb.rules[rule_id]
        names = {aid: " ".join(dict.fromkeys(action_name(self.rb, aid, self.lang, ed)
                                             for ed in self.rb.editions))
                 for aid in self.rb.actions}
        return fill(self.p(rule_id, english), names) or fill(english, names) or english

    def search_names(self, rule_id: str) -> list[str]:
        """An action's rule is also found by the action's printed name in every edition that
        has one in our sources."""
        return [name for action in self.rb.actions.values() if action.rule == rule_id
                for name in dict.fromkeys(ed.actions[action.id]
                                          for ed in self.rb.editions.values())
                if name is not None]

    def search_kind(self, rule_id: str) -> tuple[str, tuple[str, ...]]:
        """An edition's description is a note, as where sources disagree."""
        if rule_id.removeprefix("edition.") in self.rb.editions:
            return "note", ()
        return super().search_kind(rule_id)

    # -- geishas ---------------------------------------------------------------------
    def geisha(self, geisha: Any) -> str:
        return self.p(f"geisha.{geisha.id}", geisha.name)

    def item(self, geisha: Any) -> str:
        return self.p(f"item.{geisha.id}", geisha.item)

    def colour(self, geisha: Any) -> str:
        return self.p(f"colour.{geisha.colour}", geisha.colour)

    def tiebreak_chain(self, edition_id: str | None = None) -> list[tuple[str, str]]:
        """(rule id, rule text) for each step of an edition's three-round tie-break."""
        edition = self.rb.editions.get(edition_id or "") or self.edition
        steps = []
        for step in edition.round_limit.tiebreak:
            rule_id = self.rb.tiebreak_rules.get(step, self.rb.tiebreak_rules["unknown"])
            steps.append((rule_id, self.rule(rule_id)))
        return steps
