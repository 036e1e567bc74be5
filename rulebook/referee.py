"""One entry point for every game: pick the game's referee from the request."""
from __future__ import annotations

from typing import Any

from .i18n import N_, translator
from .problems import describe

GAMES = ("hanamikoji", "koikoi")
UNKNOWN_GAME = N_("Unknown game {value}; this referee knows {games}.")
NOT_OBJECT = N_("The request must be a JSON object.")


def game_referee(game: str):
    if game == "hanamikoji":
        from .hanamikoji.referee import referee
    else:
        from .koikoi.referee import referee
    return referee


def referee(request: Any, lang: str = "en") -> dict[str, Any]:
    """Validate and score a request for any game; the response document (never raises)."""
    t = translator(lang)
    if not isinstance(request, dict):
        return {"valid": False, "errors": [
            {"code": "request.not-object", "path": "", "rule": "referee.request",
             "message": t.gettext(NOT_OBJECT)}]}
    game = request.get("game")
    if game not in GAMES:
        games = ", ".join(f"“{g}”" for g in GAMES)
        return {"valid": False, "errors": [
            {"code": "game.unknown", "path": "/game", "rule": "referee.request",
             "message": t.gettext(UNKNOWN_GAME).format(value=describe(game), games=games)}]}
    return game_referee(game)(request, lang)
