"""The Koi-Koi referee: check a request describing a match, then score it round by round.

`referee(request, lang)` never raises on bad input. An invalid request returns every
problem at once, each with a stable code, a JSON pointer into the request, the rule it
breaks and a message in the requested language.
  request.py   reading and checking the request
  explain.py   scoring it, each step with its rule
  messages.py  the names and sentences of a run (Words)
"""
from __future__ import annotations

from typing import Any

from ..i18n import translator
from .explain import Explainer
from .messages import MSG_INTERNAL
from .model import Rulebook, load_rulebook
from .request import RequestCheck


def referee(request: Any, lang: str = "en", rulebook: Rulebook | None = None) -> dict[str, Any]:
    """Check and score a Koi-Koi match; never raises on bad input."""
    if not isinstance(lang, str):
        lang = "en"
    rb = rulebook or load_rulebook()
    try:
        check = RequestCheck(rb, lang)
        match = check.run(request)
        if match is None:
            return {"valid": False, "errors": [p.as_dict() for p in check.problems]}
        return Explainer(rb, check.t, check.names, check.lang).score(match)
    except (RecursionError, MemoryError, ValueError, TypeError, KeyError, AttributeError):
        # A bug must not take the service down; the tests make sure this is never reached.
        text = translator(lang).gettext(MSG_INTERNAL)
        return {"valid": False, "errors": [
            {"code": "request.internal", "path": "", "rule": "referee.request", "message": text}
        ]}
