"""Display names and rule texts in one language, for one game and one edition.

The one place where a page (and later the scoring checker) asks "what is this called
here?": section titles, rule texts with the action names filled in, geisha names,
items, colours, action names. Lookups go through rulebook.i18n.translator(lang), so a
page can show a second language beside the first (compare mode) in the same request.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from babel import Locale
from markupsafe import Markup, escape

from rulebook.hanamikoji.terms import action_names
from rulebook.i18n import translator


class _KeepMissing(dict):
    """format_map helper: an unknown placeholder stays visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(text: str, names: dict[str, Any]) -> str | None:
    """`text.format(**names)`, or None when a (translated) text is not a valid format string."""
    try:
        return text.format_map(_KeepMissing(names))
    except (ValueError, IndexError, AttributeError, TypeError, KeyError):
        return None


def language_name(code: str, in_lang: str, in_sentence: bool = False) -> str:
    """`uk` -> "Ukrainian" / "Ukrainisch" / "Українська" as a label; inside a sentence
    the language's own casing ("anglais", "inglés", "англійська", "Englisch")."""
    try:
        name = Locale.parse(code).get_display_name(Locale.parse(in_lang)) or code
    except (ValueError, TypeError):
        return code
    return name if in_sentence else name[:1].upper() + name[1:]


@dataclass(frozen=True)
class PrintedName:
    """An edition's printed action name, with the language it is printed in."""

    name: str
    lang: str
    publisher: str


class GameTerms:
    """What every game's page asks of its terms: lookups in one language."""

    def __init__(self, rulebook: Any, lang: str):
        self.rb = rulebook
        self.lang = lang
        self._t = translator(lang)

    def p(self, context: str, message: str) -> str:
        return self._t.pgettext(context, message)

    def gettext(self, message: str) -> str:
        return self._t.gettext(message)

    def section_title(self, section: Any) -> str:
        return self.p(f"section.{section.id}", section.title)

    def language(self, code: str) -> str:
        return language_name(code, self.lang)


_RULE_HTML: dict[tuple, tuple[Any, Markup]] = {}  # see Terms.rule_html


class Terms(GameTerms):
    """Hanamikoji terms for `lang` with `edition`'s action names where it is printed in `lang`."""

    def __init__(self, rulebook: Any, lang: str, edition: str | None = None):
        super().__init__(rulebook, lang)
        self.edition = rulebook.editions.get(edition or "") or rulebook.editions[
            rulebook.default_edition
        ]

    def edition_label(self, edition: Any) -> str:
        """"Deep Water Games (anglais, 2018)": how an edition is named in menus."""
        values = {"publisher": edition.publisher,
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

    def printed(self, action_id: str) -> PrintedName | None:
        """The selected edition's printed name when it differs from the page's term."""
        name = self.edition.actions[action_id]
        if name == self.action(action_id):
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
        kept = _RULE_HTML.get(key)
        if kept is not None and kept[0] is self.rb:
            return kept[1]
        html = self._rule_html(rule_id)
        _RULE_HTML[key] = (self.rb, html)
        return html

    def _rule_html(self, rule_id: str) -> Markup:
        english = self.rb.rules[rule_id]
        names = {
            aid: Markup('<span class="term">{}</span>').format(name)
            for aid, name in self.action_names.items()
        }
        for text in (self.p(rule_id, english), english):
            try:
                return Markup(escape(text)).format_map(_KeepMissing(names))
            except (ValueError, IndexError, AttributeError, TypeError, KeyError):
                continue
        return escape(english)

    def is_translated(self, rule_id: str) -> bool:
        english = self.rb.rules[rule_id]
        return self.p(rule_id, english) != english

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
        for step in edition.round_limit_tiebreak:
            rule_id = self.rb.tiebreak_rules.get(step, self.rb.tiebreak_rules["unknown"])
            steps.append((rule_id, self.rule(rule_id)))
        return steps
