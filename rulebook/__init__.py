"""Shinpan's canonical rulebooks and the referees that enforce them (no Flask here).

`GAMES` is the only list of games: the extractor, the API, the site, the CLI, the JSON
rulebook export and the warm-up all iterate it (see rulebook/game.py for what a game is).
"""
from .game import Game

GAMES: dict[str, Game] = {
    "hanamikoji": Game("hanamikoji", "rulebook.hanamikoji"),
    "koikoi": Game("koikoi", "rulebook.koikoi"),
}

__all__ = ["GAMES", "Game"]
