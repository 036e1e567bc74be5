"""The game interface: what the referee, the CLI, the API, the catalogs and the site ask of a
game's rulebook side. (Its web side is `webapp.games.base.WebGame`.)

A game is a package, `rulebook/<slug>/`, holding
    rulebook.yaml                           its rules as data (sections of rule texts with
                                            `titles:`, a `sources:` table, `referee.request`)
    schemas/{rulebook,request,response}.schema.json
                                            the YAML's, a request's and a ruling's JSON Schema
and providing the module attributes of `GamePackage` below. `rulebook.GAMES` lists the games
and nothing else does; the package is imported when first used, so a command that needs one
game loads one.

Every rulebook names the rules shared code cites:
    referee.request    what the referee needs (the rule of a request the shared referee
                       refuses before the game's own sees it: not an object, no `game`,
                       an unknown game, a game other than the address names)
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol, cast, runtime_checkable

from .loader import load_schema

if TYPE_CHECKING:
    from pathlib import Path

    from .sources import Source

# A JSON document as json.loads gives it: its values are JSON's, hence Any.
Document = dict[str, Any]
SchemaKind = Literal["request", "response", "rulebook"]
# The rule every game declares for the refusals of the shared referee (see above).
REQUEST_RULE = "referee.request"

# What the catalogs take from a game's YAML besides rule texts, rule titles, section titles
# and what each source is (tools/babel_extract.py): (where in the YAML, a dotted path whose parts may
# name top-level values as `{default_edition}`: a list, or a mapping whose keys become
# `{key}`; the field of each entry, or None for the entry itself; the message context,
# formatted with the entry's fields and `{key}`, or None for a name the pages' own code
# also uses without one; a comment for translators).
Extract = tuple[str, str | None, str | None, str]


@runtime_checkable
class Section(Protocol):
    """A section of the rules page, in page order."""

    @property
    def id(self) -> str: ...  # the anchor `#section-<id>`; catalog context `section.<id>`

    @property
    def title(self) -> str: ...  # English

    @property
    def rules(self) -> Mapping[str, str]: ...  # rule id -> English text, in page order


@runtime_checkable
class Rulebook(Protocol):
    """What shared code reads of a loaded rulebook; a game's own code reads the rest of it
    (editions, cards, rulesets...)."""

    @property
    def title(self) -> str: ...  # the game's name in English (the YAML's `title`)

    @property
    def canonical_source(self) -> str: ...  # a key of `sources`

    @property
    def sources(self) -> Mapping[str, Source]: ...  # rulebook/sources.py

    @property
    def sections(self) -> Sequence[Section]: ...

    @property
    def rules(self) -> Mapping[str, str]: ...  # every rule id -> English text (catalog
    # context: the rule id; a text may hold `{placeholders}` its web terms fill in)

    @property
    def titles(self) -> Mapping[str, str]: ...  # rule id -> short English title, shown
    # instead of the id (catalog context `title.<rule id>`)

    @property
    def disagreements(self) -> Sequence[Mapping[str, Any]]: ...  # each has "id" (a rule
    # id); the rest is read by the game's own `templates/games/<slug>/disagreement.html`

    @property
    def faq(self) -> Sequence[Mapping[str, Any]]: ...  # questions players ask: each has "id"
    # (a rule id, its question and answer the rule text) and "rules" (the rules that settle
    # it); the search takes an entry as an answer of its own (may be empty)

    @property
    def asked(self) -> Mapping[str, Sequence[str]]: ...  # rule id -> the ways players ask
    # for it, in English (`asked:` beside a section's `titles:`, loader.collect_asked; each
    # language's own in the catalog entry `asked.<rule id>`); read by the search, shown
    # nowhere; a rule without any is found by its title and text (may be empty)


class GamePackage(Protocol):
    """The module `rulebook/<slug>/__init__.py`."""

    EXTRACT: Sequence[Extract]

    def load_rulebook(self, path: Path | str | None = None) -> Rulebook:
        """The rulebook checked against its schema: the shipped one (cached) by default."""
        ...

    def referee(self, request: object, lang: str = "en",
                rulebook: Rulebook | None = None) -> Document:
        """The response document for any value a caller sent (never raises): a ruling with
        `"valid": True`, or `"valid": False` with every problem under `errors`, each a
        `rulebook.problems.Problem` (code, path, rule, message in `lang`, kind)."""
        ...

    def document(self, lang: str) -> Document:
        """The rulebook as JSON in `lang` (`GET /api/v1/<slug>/rulebook`): at least `game`,
        `language`, `canonical_source` and `sections` (each `id`, `title`, `rules`: a list
        of `{"id", "text"}`), as the OpenAPI document's `Rulebook` says."""
        ...


# Each game's rulebook package, imported once: the score API asks for it on every request.
_MODULES: dict[str, GamePackage] = {}


class Game(NamedTuple):
    """An entry of `rulebook.GAMES`: where a game's packages are. (The model's records are
    named tuples, not dataclasses: each dataclass costs a cold process a millisecond or
    more to define, and the `shinpan` command's start-up is mostly such definitions.)"""

    slug: str  # its id in URLs, requests (`"game"`) and the catalogs' contexts
    package: str  # the dotted name of its rulebook package
    web: str = ""  # the dotted name of its web package (default `webapp.games.<slug>`)

    @property
    def module(self) -> GamePackage:
        found = _MODULES.get(self.package)
        if found is None:
            found = _MODULES[self.package] = cast(GamePackage,
                                                  importlib.import_module(self.package))
        return found

    @property
    def web_module(self) -> str:
        return self.web or f"webapp.games.{self.slug}"

    def load(self, path: Path | str | None = None) -> Rulebook:
        return self.module.load_rulebook(path)

    def referee(self, request: object, lang: str = "en",
                rulebook: Rulebook | None = None) -> Document:
        return self.module.referee(request, lang, rulebook)

    def document(self, lang: str) -> Document:
        return self.module.document(lang)

    @property
    def folder(self) -> Path:
        """The game's package folder: its rulebook.yaml and its schemas/ are there."""
        from pathlib import Path  # not on a cold `shinpan score`'s path (~5 ms of imports)

        return Path(importlib.import_module(self.package).__file__ or "").resolve().parent

    def schema(self, kind: SchemaKind) -> Document:
        """Its JSON Schema of `kind`."""
        return load_schema(self.folder / "schemas" / f"{kind}.schema.json")
