"""The game interface: what the referee, the CLI, the API and the site ask of a game.

A game is a package (`rulebook/<slug>/`) that provides
    load_rulebook(path=None)            the rulebook, checked against its schema
    referee(request, lang, rulebook)    the response document (a ruling, or every problem)
    document(lang)                      the rulebook as a JSON document in a language
    EXTRACT                             which YAML fields hold translatable names
    rulebook.yaml, schemas/{request,response,rulebook}.schema.json
whose rulebook names its sources in a `sources:` table, the canonical one by key
(rulebook/sources.py: the pages name a source, never its key), and a web module (`webapp/games/<slug>.py` unless
`web` says otherwise) with its pages. `rulebook.GAMES` lists the games; nothing else does.
The package is imported when first used, so a command that needs one game loads one.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from .loader import load_schema


@dataclass(frozen=True)
class Game:
    slug: str
    package: str  # the dotted name of its rulebook package
    web: str = ""  # the dotted name of its web module (default webapp.games.<slug>)

    @property
    def module(self) -> ModuleType:
        return importlib.import_module(self.package)

    @property
    def web_module(self) -> str:
        return self.web or f"webapp.games.{self.slug}"

    def load(self, path: Any = None) -> Any:
        return self.module.load_rulebook(path)

    def referee(self, request: Any, lang: str = "en", rulebook: Any = None) -> dict[str, Any]:
        return self.module.referee(request, lang, rulebook)

    def document(self, lang: str) -> dict[str, Any]:
        return self.module.document(lang)

    @property
    def folder(self) -> Path:
        """The game's package folder: its rulebook.yaml and its schemas/ are there."""
        return Path(self.module.__file__).resolve().parent

    def schema(self, kind: str) -> dict[str, Any]:
        """Its JSON Schema of `kind`: "request", "response" or "rulebook"."""
        return load_schema(self.folder / "schemas" / f"{kind}.schema.json")
