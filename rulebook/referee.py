"""One entry point for every game: pick the game's referee from the request."""
from __future__ import annotations

from typing import Any

from . import GAMES
from .game import REQUEST_RULE
from .i18n import translator
from .problems import SHARED, Problem, Ruling, describe, kind_of, quoted_list


def judge(request: Any, lang: str = "en") -> Ruling:
    """The referee's answer as a value: `.document`, `.valid`, `.kind` of a refusal."""
    return Ruling(referee(request, lang))


def referee(request: Any, lang: str = "en") -> dict[str, Any]:
    """Validate and score a request for any game; the response document (never raises)."""
    t = translator(lang)

    def refuse(code: str, path: str, **values: Any) -> dict[str, Any]:
        message = t.gettext(SHARED[code]).format(**values)
        problem = Problem(code, path, REQUEST_RULE, message, kind_of(code))
        return {"valid": False, "errors": [problem.as_dict()]}

    if not isinstance(request, dict):
        return refuse("request.not-object", "")
    game = request.get("game")
    if "game" not in request:
        return refuse("request.missing-field", "/game", field="game")
    if not isinstance(game, str) or game not in GAMES:
        return refuse("game.unknown", "/game", value=describe(game, t), games=quoted_list(GAMES, t))
    return GAMES[game].referee(request, lang)
