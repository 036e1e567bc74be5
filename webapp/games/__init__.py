"""The games on the site: the web side of every game in `rulebook.GAMES`.

Each game's web package (`webapp/games/<slug>/`, or the one its `Game.web` names) has a
`WEB` object (a `WebGame`, see base.py): its page options, terms and checker. Nothing here
is written for a particular game; a new entry in rulebook.GAMES brings its pages along.
"""
from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from rulebook import GAMES as RULEBOOK_GAMES

from .base import Label, Options, Redirect, Terms, WebGame

__all__ = ["GAMES", "Label", "Options", "Redirect", "Terms", "WebGame"]


class _Registry(Mapping[str, WebGame]):
    """slug -> WebGame, read from rulebook.GAMES each time (a test may register a game)."""

    def __init__(self) -> None:
        self._loaded: dict[tuple[str, str], WebGame[Any]] = {}

    def __getitem__(self, slug: str) -> WebGame[Any]:
        game = RULEBOOK_GAMES[slug]
        key = (slug, game.web_module)
        if key not in self._loaded:
            self._loaded[key] = importlib.import_module(game.web_module).WEB
        return self._loaded[key]

    def __iter__(self) -> Iterator[str]:
        return iter(RULEBOOK_GAMES)

    def __len__(self) -> int:
        return len(RULEBOOK_GAMES)


GAMES: Mapping[str, WebGame[Any]] = _Registry()
