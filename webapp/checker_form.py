"""The scoring checker's form <-> the referee's request document (pure: no Flask, no game logic).

`parse(args, rb, lang)` reads the query parameters of `/<lang>/hanamikoji/score` and
returns the request document for the referee, the form state (the raw typed values, to
show again), and the form's own field errors (values that cannot even be put into a
request). Everything else, including every rule, is decided by the referee; its
errors come back with JSON pointers, which `field_for_path` maps to form fields.

Query parameters (all optional, every value capped in length):

    mode=board|log            the way the round is entered (board is the default)
    na, nb                    player names (up to 40 characters)
    edition, round_limit=1, simultaneous_goal=charm|geishas
    round=N                   the round number; the starting player follows from it
    fav=--a-b--               where each favour marker stood before the round
                              (a, b or - per geisha); the form sends f0..f6 instead
    a=2,1,0,2,2,0,1  b=...    board mode: each side's item cards per geisha; the form
                              sends seven repeated `a` / `b` values instead
    removed=<geisha>          the card put aside, if known
    act=<action>:<cards>[:<taken>]   log mode, one per action played so far, in order:
                              act=secret:ruri  act=gift:ruri,ruri,anju:anju
                              act=competition:anju,anju/yoko,tomoyo:1 (the opponent took set 1)
    do, c1..c4, take          log mode: the action being added (cards 1-2 and 3-4 are
                              the two sets of a competition; take = a card or set 1/2)
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from rulebook.i18n import N_, translator

MAX_VALUE = 100  # characters kept of any query value
MAX_NAME = 40
MAX_ACTIONS = 9  # one more than a round has, so the referee can say why it is too many
MODES = ("board", "log")
TRUE = ("1", "on", "true", "yes")
FALSE = ("", "0", "off", "false", "no")
SAFE = ":,/-_.~"  # left unescaped in permalinks, for readable URLs

# every query parameter `parse` reads (the page cache and the language links keep these)
PARAMETERS = ("mode", "na", "nb", "edition", "round_limit", "simultaneous_goal", "round",
              "removed", "fav", *(f"f{i}" for i in range(16)), "a", "b", "act",
              "do", "c1", "c2", "c3", "c4", "take")

MESSAGES = {
    "mode": N_("There is no way of entering a round called “{value}”; showing the board."),
    "count-list": N_("Give one number per geisha, separated by commas."),
    "fav-list": N_("Give one of a, b or - per geisha, for example --a-b--."),
    "act": N_("This logged action could not be read: “{value}”."),
    "do-missing": N_("Choose the action to add."),
}


def _t(lang: str):
    return translator(lang)


@dataclass
class FormState:
    """What the person typed, as strings, to show in the form again."""

    mode: str = "board"
    names: dict[str, str] = field(default_factory=lambda: {"a": "", "b": ""})
    edition: str = ""
    round_limit: str = ""
    simultaneous_goal: str = ""
    round: str = ""
    favor: list[str] = field(default_factory=list)  # "a", "b" or "" (middle) per geisha
    counts: dict[str, list[str]] = field(default_factory=lambda: {"a": [], "b": []})
    removed: str = ""
    log: list[str] = field(default_factory=list)  # act tokens
    pending: dict[str, str] = field(default_factory=dict)  # do, c1..c4, take
    defaults: dict[str, str] = field(default_factory=dict)  # left out of permalinks

    @property
    def has_pending(self) -> bool:
        return any(self.pending.values())

    @property
    def board_blank(self) -> bool:
        return not any(v.strip() for side in self.counts.values() for v in side)


@dataclass
class Parsed:
    state: FormState
    request: dict[str, Any] | None  # None: nothing entered yet (an empty board)
    pending_request: dict[str, Any] | None  # log mode: the log plus the action being added
    errors: dict[str, list[str]]  # field key -> the form's own messages


def _get(args: Mapping[str, Any], key: str) -> str:
    value = args.get(key, "")
    return str(value)[:MAX_VALUE] if value is not None else ""


def _getlist(args: Any, key: str) -> list[str]:
    if hasattr(args, "getlist"):
        values = args.getlist(key)
    else:
        value = args.get(key)
        values = value if isinstance(value, list) else ([] if value is None else [value])
    return [str(v)[:MAX_VALUE] for v in values[:20]]


def _number(raw: str) -> Any:
    """A whole number when the text is one, else the text itself (the referee explains)."""
    text = raw.strip()
    if re.fullmatch(r"[+]?\d{1,7}", text):
        return int(text)
    return text


def _bool(raw: str) -> Any:
    text = raw.strip().lower()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    return raw


def parse_act(token: str) -> dict[str, Any]:
    """`gift:ruri,ruri,anju:anju` -> {"action": "gift", "cards": [...], "taken": "anju"}."""
    parts = token.split(":")
    action = parts[0].strip()
    entry: dict[str, Any] = {"action": action}
    cards_text = parts[1] if len(parts) > 1 else ""
    if "/" in cards_text:
        entry["cards"] = [[c for c in group.split(",") if c] for group in cards_text.split("/")]
    else:
        entry["cards"] = [c for c in cards_text.split(",") if c]
    if len(parts) > 2 and parts[2] != "":
        taken = parts[2]
        if action == "competition":
            number = _number(taken)
            entry["taken"] = number - 1 if isinstance(number, int) and number >= 1 else taken
        else:
            entry["taken"] = taken
    return entry


def act_token(entry: Mapping[str, Any]) -> str:
    """The inverse of `parse_act` (for a well-formed entry)."""
    cards = entry.get("cards") or []
    if cards and isinstance(cards[0], list):
        text = "/".join(",".join(group) for group in cards)
    else:
        text = ",".join(cards)
    token = f"{entry.get('action', '')}:{text}"
    if "taken" in entry:
        taken = entry["taken"]
        token += f":{taken + 1}" if isinstance(taken, int) else f":{taken}"
    return token


def pending_entry(pending: Mapping[str, str], rb: Any) -> dict[str, Any]:
    """The action being added, as a log entry (without the player)."""
    action_id = pending.get("do", "")
    cards = [pending.get(f"c{i}", "") for i in range(1, 5)]
    action = rb.actions.get(action_id)
    entry: dict[str, Any] = {"action": action_id}
    if action is not None and action.split:  # cards 1-2 and 3-4 are the two sets
        entry["cards"] = [[c for c in cards[0:2] if c], [c for c in cards[2:4] if c]]
    else:
        entry["cards"] = [c for c in cards if c]
    take = pending.get("take", "")
    if (action is None or action.chooser != "none") and take:
        if action is not None and action.split:
            number = _number(take)
            entry["taken"] = number - 1 if isinstance(number, int) and number >= 1 else take
        else:
            entry["taken"] = take
    return entry


def first_player(round_value: Any, rb: Any) -> str:
    """Who starts a round: rb.first_player in odd rounds (the referee's rule, referee.start)."""
    number = round_value if isinstance(round_value, int) and round_value >= 1 else 1
    other = "b" if rb.first_player == "a" else "a"
    return rb.first_player if number % 2 == 1 else other


def parse(args: Any, rb: Any, lang: str = "en") -> Parsed:
    t = _t(lang)
    n = len(rb.geishas)
    errors: dict[str, list[str]] = {}

    def add(key: str, message: str) -> None:
        errors.setdefault(key, []).append(message)

    state = FormState(defaults={"edition": rb.default_edition,
                                "simultaneous_goal": rb.variant_default("simultaneous_goal")})
    mode = _get(args, "mode").strip()
    if mode in MODES:
        state.mode = mode
    elif mode:
        add("general", t.gettext(MESSAGES["mode"]).format(value=mode[:20]))
    state.names = {p: _get(args, f"n{p}") for p in ("a", "b")}
    state.edition = _get(args, "edition").strip()
    state.round_limit = _get(args, "round_limit").strip()
    state.simultaneous_goal = _get(args, "simultaneous_goal").strip()
    state.round = _get(args, "round").strip()
    state.removed = _get(args, "removed").strip()

    # favour markers: f0..f6 from the form, or the compact fav=--a-b--
    if any(f"f{i}" in args for i in range(n)):
        state.favor = [_get(args, f"f{i}").strip() for i in range(n)]
    else:
        compact = _get(args, "fav").strip()
        if compact and len(compact) != n:
            add("fav", t.gettext(MESSAGES["fav-list"]))
            state.favor = [""] * n
        else:
            state.favor = list(compact) if compact else [""] * n
    state.favor = ["" if v in ("-", "", "m") else v for v in state.favor]

    # board counts: seven repeated values from the form, or a=2,1,0,...
    for p in ("a", "b"):
        values = _getlist(args, p)
        if len(values) == 1 and "," in values[0]:
            values = values[0].split(",")
        if values and len(values) != n:
            add(f"side-{p}", t.gettext(MESSAGES["count-list"]))
            values = (values + [""] * n)[:n]
        state.counts[p] = values or [""] * n

    state.log = [v.strip() for v in _getlist(args, "act")[:MAX_ACTIONS]]
    state.pending = {k: _get(args, k).strip() for k in ("do", "c1", "c2", "c3", "c4", "take")}

    # -- the request document ----------------------------------------------------------
    doc: dict[str, Any] = {"game": "hanamikoji"}
    if state.edition:
        doc["edition"] = state.edition
    variants: dict[str, Any] = {}
    if state.round_limit:
        variants["round_limit"] = _bool(state.round_limit)
    if state.simultaneous_goal:
        variants["simultaneous_goal"] = state.simultaneous_goal
    if variants:
        doc["variants"] = variants
    players = {p: name for p, name in state.names.items() if name != ""}
    if players:
        doc["players"] = players
    round_value = _number(state.round) if state.round else 1
    start: dict[str, Any] = {"round": round_value}
    favor = [v if v else None for v in state.favor]
    if any(favor) or round_value != 1:
        start["favor"] = favor
    doc["start"] = start

    rnd: dict[str, Any] = {}
    if state.removed:
        rnd["removed"] = state.removed
    request = pending_request = None
    if state.mode == "board":
        if not state.board_blank:
            rnd["board"] = {p: [_number(v) if v.strip() else 0 for v in state.counts[p]]
                            for p in ("a", "b")}
            request = {**doc, "rounds": [rnd]}
    else:
        mover = first_player(round_value, rb)
        log = []
        for k, token in enumerate(state.log):
            entry = parse_act(token)
            log.append({"player": mover, **entry})
            mover = "b" if mover == "a" else "a"
        request = {**doc, "rounds": [{**rnd, "actions": log}]}
        if state.has_pending:
            if not state.pending["do"]:
                add("do", t.gettext(MESSAGES["do-missing"]))
            else:
                entry = {"player": mover, **pending_entry(state.pending, rb)}
                pending_request = {**doc, "rounds": [{**rnd, "actions": log + [entry]}]}
    return Parsed(state, request, pending_request, errors)


# -- referee errors -> form fields ------------------------------------------------------
def field_for_path(path: str, log_length: int = 0) -> str:
    """The form field a referee error belongs to, from its JSON pointer into the request."""
    parts = path.split("/")[1:] if path else []
    if not parts:
        return "general"
    head = parts[0]
    if head == "players" and len(parts) > 1:
        return f"name-{parts[1]}"
    if head == "edition":
        return "edition"
    if head == "variants" and len(parts) > 1:
        return parts[1] if parts[1] in ("round_limit", "simultaneous_goal") else "general"
    if head == "start":
        if len(parts) > 1 and parts[1] == "round":
            return "round"
        if len(parts) > 2 and parts[1] == "favor":
            return f"col-{parts[2]}"
        if len(parts) > 1 and parts[1] == "favor":
            return "fav"
        return "general"
    if head == "rounds" and len(parts) > 2:
        rest = parts[2:]
        if rest[0] == "removed":
            return "removed"
        if rest[0] == "board":
            if len(rest) == 2:
                return f"side-{rest[1]}"
            if len(rest) >= 3:
                return f"col-{rest[2]}"
            return "general"
        if rest[0] == "actions":
            if len(rest) == 1:
                return "log"
            index = rest[1]
            if index.isdigit() and int(index) >= log_length:
                sub = rest[2] if len(rest) > 2 else ""
                return {"action": "do", "cards": "cards", "taken": "take"}.get(sub, "do")
            return f"log-{index}"
    return "general"


def errors_by_field(errors: list[dict[str, Any]], log_length: int = 0) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for error in errors:
        out.setdefault(field_for_path(error.get("path", ""), log_length), []).append(error)
    return out


# -- permalinks ---------------------------------------------------------------------------
def query(state: FormState, *, log: list[str] | None = None, **overrides: Any) -> list[tuple[str, str]]:
    """The compact, canonical query of a state: only what differs from the defaults."""
    items: list[tuple[str, str]] = []
    mode = overrides.get("mode", state.mode)
    if mode != "board":
        items.append(("mode", mode))
    for p in ("a", "b"):
        name = state.names.get(p, "")
        if name:
            items.append((f"n{p}", name))
    if state.edition and state.edition != state.defaults.get("edition"):
        items.append(("edition", state.edition))
    if state.round_limit and state.round_limit.lower() not in FALSE:
        items.append(("round_limit", "1" if state.round_limit.lower() in TRUE else state.round_limit))
    if state.simultaneous_goal and state.simultaneous_goal != state.defaults.get("simultaneous_goal"):
        items.append(("simultaneous_goal", state.simultaneous_goal))
    round_text = str(overrides.get("round", state.round))
    if round_text and round_text != "1":
        items.append(("round", round_text))
    favor = overrides.get("favor", state.favor)
    if any(favor):
        items.append(("fav", "".join(v if v else "-" for v in favor)))
    if mode == "board" and "blank_board" not in overrides:
        for p in ("a", "b"):
            if any(v.strip() for v in state.counts[p]):
                items.append((p, ",".join(v.strip() or "0" for v in state.counts[p])))
    if "removed" not in overrides and state.removed:
        items.append(("removed", state.removed))
    if mode == "log":
        for token in (state.log if log is None else log):
            items.append(("act", token))
    return items


def query_string(items: list[tuple[str, str]]) -> str:
    return "&".join(f"{quote(k, safe='')}={quote(v, safe=SAFE)}" for k, v in items)


def next_round_items(state: FormState, response: Mapping[str, Any]) -> list[tuple[str, str]] | None:
    """The next round's form: markers and round carried forward; names, edition, variants kept."""
    nxt = response.get("next") if response.get("valid") else None
    if not nxt:
        return None
    favor = [v or "" for v in nxt["favor"]]
    return query(state, log=[], round=nxt["round"], favor=favor, blank_board=True, removed=None)
