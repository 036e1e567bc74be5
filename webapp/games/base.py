"""What every game's pages share: the page options and the web side of a game.

A game's web module (`webapp/games/<slug>.py`) builds one `WebGame`: how its rules pages
read their options from the query, its terms (names and rule texts in a language), and
its checker (the form <-> request conversion and what the page shows). Its partial
templates live in `templates/games/<slug>/`. Nothing here knows a particular game.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rulebook.problems import short  # noqa: F401 - the games' web modules import it here


@dataclass(frozen=True)
class Options:
    """The validated page options plus translated notices about rejected values."""

    values: dict[str, Any]
    defaults: dict[str, Any]
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


@dataclass(frozen=True)
class WebGame:
    slug: str
    title: Any  # a lazy string: the game's display name
    tagline: Any
    load: Callable[[], Any]
    options: Callable[[Any, Mapping[str, str]], Options]
    terms: Callable[[Any, str, Options], Any]
    # rule id -> label, for rules the current options put in force (highlighted in place)
    highlights: Callable[[Any, Options], dict[str, Any]] = lambda rb, options: {}
    labels: Mapping[Any, Any] = field(default_factory=dict)
    # The checker: (rulebook, query args, language) -> Redirect or the page's context.
    checker: Callable[[Any, Mapping[str, str], str], Any] | None = None
    # The module of page helpers the game's partial templates call (`game.helpers.…`).
    helpers: Any = None
    # (rulebook, language) -> the game's finder (webapp/games/finding.py), for
    # /<lang>/<game>/which; the player aid is templates/games/<slug>/aid.html (when `aid`).
    finder: Callable[[Any, str], Any] | None = None
    aid: bool = False
    # A folder holding templates/games/<slug>/ when they are not webapp's own (a game
    # defined outside this package).
    templates: str | None = None
    # The query parameters its pages read (any other parameter does not change a page):
    # the options of its rules pages, and what its checker reads.
    parameters: Callable[[Any], frozenset[str]] = lambda rb: frozenset()
    checker_parameters: Callable[[Any], frozenset[str]] = lambda rb: frozenset()

    def template(self, name: str) -> str:
        return f"games/{self.slug}/{name}"

    @property
    def rulebook(self) -> Any:
        return self.load()
