"""The web side of a game: what the site's pages ask of it (its rulebook side is
`rulebook.game`).

A game's web package, `webapp/games/<slug>/` (or the one its `rulebook.Game.web` names),
has a module attribute `WEB = WebGame(...)`: how its rules pages read their options from
the query (`Options`), its terms (names and rule texts in a language, `Terms`), its checker
(the form <-> request conversion and what the page shows) and the example request of the
developer page. Its templates live in `templates/games/<slug>/`:
    options.html         its fields in the rules pages' options form (may be a comment)
    checker.html         its checker page (extends base.html; gets `checker`'s context)
    disagreement.html    what a disagreement adds below the rule (gets `entry`)
    extras.html, section_intro.html
                         optional: after a rule (gets `rule_id`), at the top of a section
Nothing here knows a particular game.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from flask_babel.speaklater import LazyString
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from rulebook.game import Document, Rulebook, Section
from rulebook.problems import short  # noqa: F401 - the games' web modules import it here

# A name shown on pages: a string, or a lazy one translated when the page renders.
Label = str | LazyString
RB = TypeVar("RB", bound=Rulebook)
# The query of a page, as Flask reads it (a plain mapping in tests and for defaults).
Query = MultiDict[str, str] | Mapping[str, str]


@dataclass(frozen=True)
class Options:
    """The validated page options plus translated notices about rejected values."""

    values: dict[str, Any]  # option -> its value (the game's own: a str, bool or int)
    defaults: dict[str, Any]  # option -> its default (the links leave defaults out)
    notices: tuple[str, ...] = ()
    derived: dict[str, Any] = field(default_factory=dict)  # read from values; not in links

    def __getattr__(self, name: str) -> Any:
        for source in (self.values, self.derived):
            if name in source:
                return source[name]
        raise AttributeError(name)

    @property
    def query(self) -> dict[str, str]:
        """The options that differ from the defaults, as query parameters for links."""
        out = {}
        for key, value in self.values.items():
            if value != self.defaults[key]:
                out[key] = "1" if value is True else str(value)
        return out


@dataclass(frozen=True)
class Redirect:
    """A checker event handled: go to this query instead of rendering. The browser keeps
    the fragment of the button's `formaction` across the redirect, so the page opens where
    the button points."""

    query: str


@runtime_checkable
class Terms(Protocol):
    """What the shared pages and templates ask of a game's terms in one language.
    `webapp.games.terms.GameTerms` provides all of it but `rule` and `rule_html`, which
    every game writes, since only it knows what its rule texts' `{placeholders}` become."""

    lang: str

    def rule(self, rule_id: str) -> str:
        """The rule's text in this language as plain text (search, the CLI's words)."""
        ...

    def rule_html(self, rule_id: str) -> Markup:
        """The rule's text as escaped HTML, its placeholders marked up (rules pages)."""
        ...

    def rule_title(self, rule_id: str) -> str:
        """The rule's short name: what links and rulings show instead of its id."""
        ...

    def section_title(self, section: Section) -> str: ...

    def labelled(self, label: Any, value: Any) -> Markup:
        """ "label: value" with the language's punctuation."""
        ...

    def sources(self, keys: Iterable[str]) -> Markup: ...

    def canonical_source(self) -> Markup: ...

    # What the search reads (webapp/pages/search.py); GameTerms gives each a default.
    def search_text(self, rule_id: str) -> str:
        """The words that find a rule's text (the page's text, or more: every edition's
        names of what it names)."""
        ...

    def search_names(self, rule_id: str) -> list[str]:
        """Other names that find a rule (an action's printed names, a yaku's)."""
        ...

    def asked(self, rule_id: str) -> list[str]:
        """The ways players of this language ask for a rule (never shown)."""
        ...

    def search_kind(self, rule_id: str) -> tuple[str, tuple[str, ...]]:
        """"rule", "answer" (an FAQ entry) or "note", and the rules it is about."""
        ...

    def in_force(self, rule_id: str) -> tuple[str, list[Markup]] | None:
        """What a rule amounts to under the page's options, for the search's answer card."""
        ...


def no_highlights(rulebook: Any, options: Options) -> dict[str, Label]:
    return {}


def no_parameters(rulebook: Any) -> frozenset[str]:
    return frozenset()


def no_summary(round_: Mapping[str, Any]) -> frozenset[str]:
    return frozenset()


@dataclass(frozen=True)
class WebGame(Generic[RB]):
    slug: str  # as in rulebook.GAMES
    title: Label  # the game's display name (lazy: translated when shown)
    tagline: Label  # one sentence on the home page and under the rules page's title
    load: Callable[[], RB]  # the rulebook (the game's `load_rulebook`)
    # The rules pages' options from a query: unknown values are dropped with a notice.
    options: Callable[[RB, Query], Options]
    # (rulebook, language, options) -> its Terms in that language as those options show them.
    terms: Callable[[RB, str, Options], Terms]
    # rule id -> label, for rules the current options put in force (highlighted in place)
    highlights: Callable[[RB, Options], Mapping[str, Label]] = no_highlights
    # Names its own templates show (`game.labels[...]`): menus, option values.
    labels: Mapping[Any, Label] = field(default_factory=dict)
    # The checker: (rulebook, query, language) -> Redirect, or the context of its
    # `checker.html`, which must hold `page_args` (the query of the page options to show
    # it with) besides what its template reads (the referee's `ruling`, typically).
    checker: Callable[[RB, Query, str], Redirect | dict[str, Any]] | None = None
    # The module of page helpers the game's templates call (`game.helpers.…`).
    helpers: ModuleType | None = None
    # The query parameters its pages read (any other parameter does not change a page, so
    # the page cache and the language links leave it out): the options of its rules pages,
    # and what its checker reads.
    parameters: Callable[[RB], frozenset[str]] = no_parameters
    checker_parameters: Callable[[RB], frozenset[str]] = no_parameters
    # (rulebook, language) -> the game's finder (webapp/games/finding.py `Finder`), for
    # /<lang>/<game>/which; a player aid (templates/games/<slug>/aid.html) when `aid`.
    finder: Callable[[RB, str], Any] | None = None
    aid: bool = False
    # The developer page's example request (a test checks the referee rules on it).
    example: Document | None = None
    # The rule ids of a ruling round's explanation lines that sum the round up after the
    # verdict (a link preview's description): its totals, its scoring combinations.
    summary: Callable[[Mapping[str, Any]], Collection[str]] = no_summary

    def template(self, name: str) -> str:
        return f"games/{self.slug}/{name}"

    @property
    def rulebook(self) -> RB:
        return self.load()
