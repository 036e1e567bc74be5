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
    if _tidied(state, args, submitted):
        return Redirect(permalink(state))
    req = referee_request(state)
    # The referee is asked once there is a round to score: cards ticked, or a round without
    # a winner. Before that, an empty pile is no mistake yet.
    asked = bool(state.piles["a"] or state.piles["b"]) or state.winner == "none"
    ruling = _ask(state, req, lang) if asked else None
    valid = bool(ruling and ruling.get("valid") and not state.errors)
    ruled = ruling if valid else None  # what the page shows of a ruling
    round_ = ruled["rounds"][0] if ruled else None
    scored, highlight = _scored(round_)
    names = dict(ruled["players"]) if ruled else display_names(state, lang)
    return {
        "ck": state,
        "submitted": submitted,
        "asked": asked,
        "ruling": ruling,
        "round": round_,
        "result": ruled and ruled["result"],
        "totals": ruled and ruled["totals"],
        "names": names,
        "scored": scored,
        "highlight": highlight,
        "request_json": req,
        "table": state.table,
        "page_args": {"ruleset": state.table.ruleset, "house": state.table.house,
                      **{k: encode(v) for k, v in state.table.overrides.items()}},
        "permalink_query": permalink(state) if asked else None,
        "next_query": next_round(rb, state, ruled, req) if ruled else None,
        "clear_query": _clear_query(rb, state),
        "sheet": _sheet(rb, state, req, valid, names, lang),
        "field_errors": {k: " ".join(v) for k, v in state.errors.items()},
        "error_count": sum(len(v) for v in state.errors.values()),
        "notices": [],  # option errors are shown next to their fields here
    }


def _sheet(rb: Any, state: Any, req: dict[str, Any], valid: bool, names: dict[str, str],
           lang: str) -> Any:
    """The match's score sheet: the rounds carried, and this one once it is ruled (the
    match's fields only when they could be read)."""
    match = None if any(k in state.errors for k in MATCH_FIELDS) else state.match
    return build_sheet(rb, state.sheet, req, valid, match, names, permalink(state), lang)


def _tidied(state: Any, args: Any, submitted: bool) -> bool:
    """Whether the page answers with its compact permalink instead: after a step button,
    or a plain form submit (a=0&a=8 and every empty option), when nothing needs to be
    shown as typed."""
    if state.errors:
        return False
    if "step" in args and apply_step(state, args.get("step", "")):
        return True
    return submitted and sorted(args.items(multi=True)) != sorted(state.query.items())


PICKING = {"pile.month-count"}  # a capture half-picked: every pair passes through it


def _ask(state: Any, req: dict[str, Any], lang: str) -> dict[str, Any]:
    """The referee's answer; its errors shown at their fields (a field that could not be
    read already says why, so the referee's word on it is left out). While the only
    problems are captures still being picked and the player has not asked, they are hints."""
    ruling = referee(req, lang)
    if ruling["valid"]:
        return ruling
    picking = not state.check and all(e["code"] in PICKING for e in ruling["errors"])
    unread = set(state.errors)
    for error in ruling["errors"]:
        name = error_field(error["path"])
        if picking:
            state.pending.setdefault(name, []).append(error["message"])
        elif name == "form" or name not in unread:
            state.error(name, error["message"])
    return ruling


def _scored(round_: dict[str, Any] | None) -> tuple[dict[str, int], set[str]]:
    """The points of each yaku scored, and the cards that make them (lit on the page)."""
    scored: dict[str, int] = {}
    highlight: set[str] = set()
    for y in (round_ or {}).get("yaku", []):
        scored[y["id"]] = y["points"]
        highlight.update(y["cards"])
    return scored, highlight


def _clear_query(rb: Any, state: Any) -> str:
    """The query of a fresh round at the same table: the match, the ruleset and options."""
    return "&".join(f"{k}={quote(v, safe=',')}" for k, v in state.query.items()
                    if k in MATCH_FIELDS or k in ("ruleset", "house", "sheet") or k in rb.options)
