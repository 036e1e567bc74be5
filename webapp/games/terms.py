"""What every game's terms share: lookups in one language, language names, text filling.

A game's `Terms` (in webapp/games/<slug>.py) builds on `GameTerms`: the one place where a
page asks "what is this called here?". Lookups go through rulebook.i18n.translator(lang),
so a page can show a second language beside the first (compare mode) in one request.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar

from babel import Locale
from markupsafe import Markup, escape

from rulebook.i18n import N_, listed, translator
from rulebook.loader import ASKED_SEPARATOR
from rulebook.sources import capitalized

# Punctuation that differs by language (French puts a no-break space before the colon), for
# the templates that join a label and its value.
LABELLED = N_("%(label)s: %(value)s")
# Translators: an edition's printed name for an action, after the site's own name
PRINTED = N_("(%(publisher)s: %(name)s)")
# Translators: a name followed by a short note in brackets (a work's own title, "inferred"),
# with your language's brackets and spacing
NOTED = N_("%(name)s (%(note)s)")


T = TypeVar("T")


def per_language(method: Callable[..., T]) -> Callable[..., T]:
    """A terms method whose answer depends on the rulebook, the language and its (hashable)
    arguments alone, made once and kept: a checker page asks for each card's name markup
    on every tap. Not for anything that reads the page's options."""
    kept: dict[tuple[Any, ...], T] = {}

    @wraps(method)
    def once(self: GameTerms, *args: Any) -> T:
        key = (self.rb, self.lang, *args)
        if key not in kept:
            kept[key] = method(self, *args)
        return kept[key]

    return once


class KeepMissing(dict):
    """format_map helper: an unknown placeholder stays visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(text: str, names: dict[str, Any]) -> str | None:
    """`text.format(**names)`, or None when a (translated) text is not a valid format string."""
    try:
        return text.format_map(KeepMissing(names))
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

    def labelled(self, label: Any, value: Any) -> Markup:
        """ "Deep Water Games: …" with the language's punctuation (label and value escaped)."""
        return Markup(escape(self.gettext(LABELLED))) % {"label": label, "value": value}

    def listed(self, names: Any) -> str:
        """Names one after the other, with the language's separator."""
        return listed(names, self._t)

    def noted(self, name: Any, note: Any) -> Markup:
        """ "FudaWiki's page … (Koi-Koi)": a name and its note in brackets (both escaped)."""
        return Markup(escape(self.gettext(NOTED))) % {"name": name, "note": note}

    def printed_name(self, printed: PrintedName) -> Markup:
        """ "(Deep Water Games: <span lang="en">Discard</span>)", an action tile's aside."""
        name = Markup('<span lang="{}">{}</span>').format(printed.lang, printed.name)
        return Markup(escape(self.gettext(PRINTED))) % {"publisher": printed.publisher,
                                                        "name": name}

    def section_title(self, section: Any) -> str:
        return self.p(f"section.{section.id}", section.title)

    def rule_title(self, rule_id: str) -> str:
        """A rule's short name: what links and rulings show instead of its id."""
        english = self.rb.titles.get(rule_id)
        if english is None:
            return rule_id
        return fill(self.p(f"title.{rule_id}", english), self.placeholders) or english

    @property
    def placeholders(self) -> dict[str, str]:
        """The names a game's rule texts and titles may hold (`{secret}` ...)."""
        return {}

    def language(self, code: str) -> str:
        return language_name(code, self.lang)

    # -- what the search reads (webapp/pages/search.py) ---------------------------------
    def search_text(self, rule_id: str) -> str:
        """The text the search reads for a rule: the page's text, unless a game says more."""
        return self.rule(rule_id)

    def search_names(self, rule_id: str) -> list[str]:
        """Other names that find a rule (an action's names in every edition, a yaku's)."""
        return []

    def asked(self, rule_id: str) -> list[str]:
        """The ways players ask for a rule in this language (its `asked:` in the YAML; the
        catalog entry `asked.<rule id>` holds each language's own, separated by " | ").
        The search reads them; no page shows them."""
        english = self.rb.asked.get(rule_id)
        if not english:
            return []
        own = self.p(f"asked.{rule_id}", ASKED_SEPARATOR.join(english))
        return [phrasing.strip() for phrasing in own.split(ASKED_SEPARATOR.strip())
                if phrasing.strip()]

    def in_force(self, rule_id: str) -> tuple[str, list[Markup]] | None:
        """What a rule amounts to under the page's edition, ruleset and options, beside its
        text where the search shows it as the answer: (a caption, ["label: value", ...]), or
        None."""
        return None

    def search_kind(self, rule_id: str) -> tuple[str, tuple[str, ...]]:
        """What a rule is to the search, and what it is about: an FAQ entry is an `answer`
        (about the rules that settle it), where sources disagree a `note` (about its rule),
        anything else a `rule`. A game may call more of its rules notes."""
        for entry in self.rb.faq:
            if entry["id"] == rule_id:
                return "answer", tuple(entry.get("rules", ()))
        for entry in self.rb.disagreements:
            if entry["id"] == rule_id:
                return "note", tuple(filter(None, (entry.get("rule"), entry.get("canonical"))))
        return "rule", ()

    # -- sources -----------------------------------------------------------------------
    def source(self, key: str) -> Markup:
        """What a source is, in this language, with the work's own title marked by language:
        "Le livret de règles … (<cite lang="en">Hanamikoji</cite>)"."""
        src = self.rb.sources[key]
        about = escape(self.p(f"source.{key}", src.about))
        if src.title:
            return self.noted(about, Markup('<cite lang="{}">{}</cite>').format(src.lang, src.title))
        return about

    def sources(self, keys: Any, alone: bool = False) -> Markup:
        """Several sources, one after the other. A source's text follows a label and a colon
        ("Source: the English rulebook…"), so it may start in lower case; `alone` gives it a
        capital where it stands by itself."""
        # Translators: what stands between two sources named in a row (French: a no-break space before ;)
        separator = escape(self.gettext("; "))
        text = separator.join(self.source(key) for key in keys)
        return capitalized(text) if alone else text

    def canonical_source(self) -> Markup:
        return self.source(self.rb.canonical_source)
