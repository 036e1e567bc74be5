"""The Koi-Koi checker page: the form read, the referee asked, what the page shows."""
from __future__ import annotations

from typing import Any
from urllib.parse import quote

from rulebook.koikoi import referee

from ..base import Redirect
from .form import (
    MATCH_FIELDS,
    STATE_FIELDS,
    apply_step,
    display_names,
    error_field,
    next_round,
    parse_state,
    permalink,
    referee_request,
)
from .options import encode
from .sheet import build as build_sheet


def checker(rb: Any, args: Any, lang: str) -> Redirect | dict[str, Any]:
    """The checker page's context, or the compact permalink of a form as submitted."""
    state = parse_state(rb, args)
    submitted = any(key in args for key in STATE_FIELDS)
    if "step" in args and not state.errors and apply_step(state, args.get("step", "")):
        return Redirect(permalink(state))
    # A plain form submit sends a=0&a=8 and every empty option: tidy it into the compact
    # permalink (only when nothing needs to be shown as typed).
    if submitted and not state.errors and sorted(args.items(multi=True)) != sorted(
            state.query.items()):
        return Redirect(permalink(state))
    ruling = None
    req = referee_request(state)
    # The referee is asked once there is a round to score: cards ticked, or a round without
    # a winner. Before that, an empty pile is no mistake yet.
    asked = bool(state.piles["a"] or state.piles["b"]) or state.winner == "none"
    if asked:
        ruling = referee(req, lang)
        if not ruling["valid"]:
            unread = set(state.errors)  # fields already showing why they were not read
            for error in ruling["errors"]:
                name = error_field(error["path"])
                if name == "form" or name not in unread:
                    state.error(name, error["message"])
    scored: dict[str, int] = {}
    highlight: set[str] = set()
    round_ = None
    valid = bool(ruling and ruling.get("valid") and not state.errors)
    if valid:
        round_ = ruling["rounds"][0]
        for y in round_["yaku"]:
            scored[y["id"]] = y["points"]
            highlight.update(y["cards"])
    names = dict(ruling["players"]) if valid else display_names(state, lang)
    return {
        "ck": state,
        "submitted": submitted,
        "asked": asked,
        "ruling": ruling,
        "round": round_,
        "result": ruling["result"] if valid else None,
        "totals": ruling["totals"] if valid else None,
        "names": names,
        "scored": scored,
        "highlight": highlight,
        "request_json": req,
        "table": state.table,
        "page_args": {"ruleset": state.table.ruleset, "house": state.table.house,
                      **{k: encode(v) for k, v in state.table.overrides.items()}},
        "permalink_query": permalink(state) if asked else None,
        "next_query": next_round(rb, state, ruling, req) if valid else None,
        "clear_query": "&".join(f"{k}={quote(v, safe=',')}" for k, v in state.query.items()
                                if k in MATCH_FIELDS or k in ("ruleset", "house", "sheet")
                                or k in rb.options),
        "sheet": build_sheet(rb, state.sheet, req, valid,
                             None if any(k in state.errors for k in MATCH_FIELDS) else state.match,
                             names, permalink(state), lang),
        "field_errors": {k: " ".join(v) for k, v in state.errors.items()},
        "error_count": sum(len(v) for v in state.errors.values()),
        "notices": [],  # option errors are shown next to their fields here
    }
