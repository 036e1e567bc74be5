"""The query string as the pages read it."""
from __future__ import annotations

from typing import Any

from werkzeug.datastructures import ImmutableMultiDict


class QueryArgs(ImmutableMultiDict):
    """Werkzeug's ImmutableMultiDict, whose `get` of an absent name costs one lookup.

    Werkzeug's raises and catches a BadRequestKeyError (an HTTP exception) for each, and
    a checker reads every option it knows on every tap, most of them absent (the Koi-Koi
    checker some thirty): about a tenth of a tap's time (tools/bench_http.py, the taps).
    """

    def get(self, key: Any, default: Any = None, type: Any = None) -> Any:  # Werkzeug's signature
        if key not in self:
            return default
        return super().get(key, default, type)
