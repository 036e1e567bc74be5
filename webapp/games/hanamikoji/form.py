"""The Hanamikoji checker's form <-> the referee's request: the query of
`/<lang>/hanamikoji/score` read into a `Form`, the buttons that work without JavaScript,
the request built from it, its canonical query, and where a referee error belongs."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from rulebook.i18n import N_

from ..house_name import read_house
from .options import FALSE, TRUE, page_options

# The query of /<lang>/hanamikoji/score (every value capped in length):
#   mode=board|log        the way the round is entered (board is the default)
#   na, nb                player names
#   edition, round_limit=1|0, simultaneous_goal=charm|geishas
#   round=N               the round number (the referee knows who starts it)
#   fav=--a-b--           where each favour marker stood before the round (a, b or -);
#                         the form sends f0..f6 instead
#   a=2,1,0,2,2,0,1 b=…   board mode: each side's item cards per geisha (or 7 values each)
#   removed=<geisha>      the card put aside, if known
#   act=<action>:<cards>[:<taken>]   log mode, one per action played, in order:
#                         act=gift:ruri,ruri,anju:anju  act=competition:anju,anju/yoko,tomoyo:1
#   do, c, take, at       log mode, the next action: its marker, the cards chosen for it in
#                         order (up to four `c`; a competition's sets are the first two and
#                         the last two), what the opponent took (a card, or set 1 or 2), and
#                         which logged action is being changed (its index). The action is
#                         added as soon as its marker and all its cards are known (and what
#                         the opponent took, when they choose).
#                         A removed action leaves a gap, act=- , in its place: every other
#                         action keeps its turn, so its player; the first gap is the action
#                         being entered until it is filled in.
#   undo=<index>:<token>  what the last removal or change replaced (the token, or - for a gap)
#   check=1               show every problem, also of a side still being filled in
# Buttons that work without JavaScript send one event, answered with a redirect:
#   step=a:3:+1  mark=<action>  pick=<geisha>  unpick=<slot>  clear=1  edit=<index>
#   drop=<index>  revert=1 (the undo)
MAX_VALUE = 100
MAX_NAME = 40
MAX_ACTIONS = 9  # one more than a round has, so the referee can say why it is too many
SLOTS = 4  # the most cards an action uses
SAFE = ":,/-_.~@"  # left unescaped in permalinks, for readable URLs
STATE = ("mode", "na", "nb", "house", "edition", "round_limit", "simultaneous_goal", "round", "fav",
         "a", "b", "removed", "act", "c", "do", "take", "at", "undo", "check", "sheet")
EVENTS = ("step", "mark", "pick", "unpick", "clear", "edit", "drop", "revert")
GAP = "-"  # a removed action's place in the log, still to be filled in
PARAMETERS = frozenset(STATE + EVENTS + tuple(f"f{i}" for i in range(7)))

MESSAGES = {
    "mode": N_("There is no way of entering a round called “{value}”; showing the board."),
    "count-list": N_("Give one number per geisha, separated by commas."),
    "fav-list": N_("Give one of a, b or - per geisha, for example --a-b--."),
}


@dataclass
class Form:
    """What the person entered, as text, to show again and to build the request from."""

    mode: str = "board"
    names: dict[str, str] = field(default_factory=lambda: {"a": "", "b": ""})
    house: str = ""  # the name the table gives its settings
    edition: str = ""
    round_limit: str = ""
    simultaneous_goal: str = ""
    round: str = ""
    favor: list[str] = field(default_factory=list)  # "a", "b" or "" (middle) per geisha
    counts: dict[str, list[str]] = field(default_factory=lambda: {"a": [], "b": []})
    removed: str = ""
    sheet: str = ""  # the rounds played before this one (webapp/games/hanamikoji/sheet.py)
    log: list[str] = field(default_factory=list)  # act tokens
    cards: list[str] = field(default_factory=lambda: [""] * SLOTS)  # the next action's cards
    do: str = ""
    take: str = ""
    at: str = ""  # index of the logged action being changed ("" = a new action)
    undo: str = ""  # "<index>:<token>": what the last removal or change replaced
    check: bool = False
    errors: dict[str, list[str]] = field(default_factory=dict)  # the form's own messages
    defaults: dict[str, str] = field(default_factory=dict)  # left out of permalinks

    def clear_next(self) -> None:
        """Forget the next action: no marker, cards, take or action being changed."""
        self.cards, self.do, self.take, self.at = [""] * SLOTS, "", "", ""

    def add_error(self, key: str, message: str) -> None:
        self.errors.setdefault(key, []).append(message)

    @property
    def board_blank(self) -> bool:
        return not any(v.strip() for side in self.counts.values() for v in side)

    @property
    def chosen(self) -> list[str]:
        return [c for c in self.cards if c]

    @property
    def gap(self) -> int | None:
        """The first removed action's place, if any: the action entered next fills it."""
        return self.log.index(GAP) if GAP in self.log else None

    @property
    def editing(self) -> int | None:
        """The logged action being changed: the one chosen, else the first gap."""
        if self.at.isdigit() and int(self.at) < len(self.log):
            return int(self.at)
        return self.gap

    @property
    def undoable(self) -> tuple[int, str] | None:
        """(index, token) the undo puts back, if there is one."""
        index, _, token = self.undo.partition(":")
        if index.isdigit() and int(index) < MAX_ACTIONS and token:
            return int(index), token
        return None

    def trim_gaps(self) -> None:
        """Gaps at the end hold no one's turn: nothing follows them."""
        while self.log and self.log[-1] == GAP:
            self.log.pop()


def arg(args: Mapping[str, Any], key: str) -> str:
    """A query value as text, capped in length and stripped ("" when absent)."""
    value = args.get(key, "")
    return str(value)[:MAX_VALUE].strip() if value is not None else ""


def _getlist(args: Any, key: str) -> list[str]:
    values = args.getlist(key) if hasattr(args, "getlist") else (
        [args[key]] if key in args else [])
    return [str(v)[:MAX_VALUE] for v in values[:20]]


def number(raw: str) -> Any:
    """A whole number when the text is one, else the text itself (the referee explains)."""
    text = raw.strip()
    return int(text) if re.fullmatch(r"[+]?\d{1,7}", text) else text


def read_form(rb: Any, args: Any, lang: str) -> Form:
    from rulebook.i18n import translator

    t = translator(lang)
    n = len(rb.geishas)
    form = Form(defaults={"edition": rb.default_edition,
                          "simultaneous_goal": rb.variant_default("simultaneous_goal")})
    mode = arg(args, "mode")
    if mode in ("board", "log"):
        form.mode = mode
    elif mode:
        form.add_error("general", t.gettext(MESSAGES["mode"]).format(value=mode[:20]))
    form.names = {p: arg(args, f"n{p}") for p in ("a", "b")}
    form.house = read_house(args)[0]
    for key in ("edition", "round_limit", "simultaneous_goal", "round", "removed", "do", "take",
                "at"):
        setattr(form, key, arg(args, key))
    form.check = arg(args, "check") in TRUE
    form.sheet = str(args.get("sheet") or "").strip()  # as given, however long: never lost
    _keep_offered(rb, form)
    form.favor = _read_favor(args, n, form, t.gettext(MESSAGES["fav-list"]))
    for p in ("a", "b"):
        form.counts[p] = _read_counts(args, p, n, form, t.gettext(MESSAGES["count-list"]))
    form.log = [v.strip() for v in _getlist(args, "act")[:MAX_ACTIONS]]
    form.trim_gaps()
    form.undo = arg(args, "undo")
    chosen = [c.strip() for c in _getlist(args, "c") if c.strip()][:SLOTS]
    form.cards = chosen + [""] * (SLOTS - len(chosen))
    return form


def _keep_offered(rb: Any, form: Form) -> None:
    """A choice the menus do not offer (an edited address): the page's notice names it and
    shows the default (page_options), and the referee is asked with the default too."""
    offered = page_options(rb, {key: getattr(form, key)
                                for key in ("edition", "round_limit", "simultaneous_goal")})
    for key in ("edition", "simultaneous_goal"):
        if getattr(form, key) and getattr(form, key) != offered.values[key]:
            setattr(form, key, "")
    if form.round_limit and not offered.values["round_limit"]:
        form.round_limit = ""


def _read_favor(args: Any, n: int, form: Form, message: str) -> list[str]:
    """Where each favour marker stood: the form's radios f0..f6, or the compact fav=--a-b--."""
    if any(f"f{i}" in args for i in range(n)):
        favor = [arg(args, f"f{i}") for i in range(n)]
    else:
        compact = arg(args, "fav")
        if compact and len(compact) != n:
            form.add_error("fav", message)
            compact = ""
        favor = list(compact) if compact else [""] * n
    return [v if v in ("a", "b") else "" for v in favor]


def _read_counts(args: Any, p: str, n: int, form: Form, message: str) -> list[str]:
    """One side's counts per geisha: a=2,1,0,… or one a= per geisha (the form's fields)."""
    values = _getlist(args, p)
    if len(values) == 1 and "," in values[0]:
        values = values[0].split(",")
    if values and len(values) != n:
        form.add_error(f"side-{p}", message)
        values = (values + [""] * n)[:n]
    return [v.strip() for v in values] or [""] * n


def apply_event(rb: Any, form: Form, args: Mapping[str, str]) -> bool:
    """A button pressed without JavaScript: change the form; True when one was found."""
    for event in EVENTS:
        if event in args:
            EVENT_HANDLERS[event](rb, form, arg(args, event))
            return True
    return False


def _step(rb: Any, form: Form, value: str) -> None:
    """`a:3:+1`: one more of the fourth geisha's cards on A's side (never below 0 or above
    the cards she has)."""
    match = re.fullmatch(r"([ab]):(\d):([+-]\d)", value)
    if match and int(match[2]) < len(rb.geishas):
        side, i = match[1], int(match[2])
        current = number(form.counts[side][i] or "0")
        if isinstance(current, int):
            count = min(max(current + int(match[3]), 0), rb.geishas[i].cards)
            form.counts[side][i] = str(count) if count or form.counts[side][i] else ""


def _mark(rb: Any, form: Form, value: str) -> None:
    """The action marker tapped: it is chosen (tapped again, it stays chosen: "start this
    action again" clears it)."""
    if value in rb.actions:
        form.do = value


def _pick(rb: Any, form: Form, value: str) -> None:
    if "" in form.cards:
        form.cards[form.cards.index("")] = value


def _unpick(rb: Any, form: Form, value: str) -> None:
    if value.isdigit() and 1 <= int(value) <= SLOTS:
        kept = [c for k, c in enumerate(form.cards, start=1) if c and k != int(value)]
        form.cards = kept + [""] * (SLOTS - len(kept))


def _clear(rb: Any, form: Form, value: str) -> None:
    form.clear_next()


def _edit(rb: Any, form: Form, value: str) -> None:
    """Change a logged action in place: its marker is chosen again, its cards are tapped
    again (the page shows what it was), and it replaces the old one once complete."""
    if not (value.isdigit() and int(value) < len(form.log)):
        return
    action = parse_act(form.log[int(value)])["action"]
    form.cards, form.take = [""] * SLOTS, ""
    form.do = action if action in rb.actions else ""
    form.at = value


def _drop(rb: Any, form: Form, value: str) -> None:
    """Remove a logged action: a gap stays in its place, so every later action keeps its
    turn and its player (the players alternate); the undo can put it back."""
    if value.isdigit() and int(value) < len(form.log) and form.log[int(value)] != GAP:
        index = int(value)
        form.undo = f"{index}:{form.log[index]}"
        form.log[index] = GAP
        form.trim_gaps()
        form.clear_next()


def _revert(rb: Any, form: Form, value: str) -> None:
    """Undo the last removal or change: the action it replaced is back in its place (a
    removed last action, whose place went with it, comes back at the end)."""
    undoable = form.undoable
    if undoable is not None:
        index, token = undoable
        form.log.extend([GAP] * (index + 1 - len(form.log)))
        form.log[index] = token
        form.trim_gaps()
    form.undo = ""
    form.clear_next()


EVENT_HANDLERS = {"step": _step, "mark": _mark, "pick": _pick, "unpick": _unpick,
                  "clear": _clear, "edit": _edit, "drop": _drop, "revert": _revert}


def parse_act(token: str) -> dict[str, Any]:
    """`gift:ruri,ruri,anju:anju` -> {"action": "gift", "cards": [...], "taken": "anju"}."""
    parts = token.split(":")
    entry: dict[str, Any] = {"action": parts[0].strip()}
    cards_text = parts[1] if len(parts) > 1 else ""
    if "/" in cards_text:
        entry["cards"] = [[c for c in group.split(",") if c] for group in cards_text.split("/")]
    else:
        entry["cards"] = [c for c in cards_text.split(",") if c]
    if len(parts) > 2 and parts[2] != "":
        entry["taken"] = _taken(parts[2], "/" in cards_text)
    return entry


def _taken(text: str, sets: bool) -> Any:
    """A competition's set is written 1 or 2 in the form and sent as 0 or 1."""
    if not sets:
        return text
    value = number(text)
    return value - 1 if isinstance(value, int) and value >= 1 else text


def act_token(entry: Mapping[str, Any]) -> str:
    """The inverse of `parse_act` (for a well-formed entry)."""
    cards = entry.get("cards") or []
    sets = bool(cards) and isinstance(cards[0], list)
    text = "/".join(",".join(g) for g in cards) if sets else ",".join(cards)
    token = f"{entry.get('action', '')}:{text}"
    if "taken" in entry:
        taken = entry["taken"]
        token += f":{taken + 1}" if isinstance(taken, int) else f":{taken}"
    return token


def next_entry(rb: Any, form: Form) -> dict[str, Any]:
    """The action being added, as a log entry (the referee knows whose turn it is)."""
    action = rb.actions.get(form.do)
    cards = form.chosen
    entry: dict[str, Any] = {"action": form.do}
    if action is not None and action.split:  # cards 1-2 and 3-4 are the two sets
        entry["cards"] = [cards[:2], cards[2:4]]
    else:
        entry["cards"] = cards
    if form.take:
        entry["taken"] = _taken(form.take, bool(action and action.split))
    return entry


def base_request(form: Form) -> dict[str, Any]:
    """The request without its round: game, edition, variants, names, start."""
    doc: dict[str, Any] = {"game": "hanamikoji"}
    if form.edition:
        doc["edition"] = form.edition
    variants: dict[str, Any] = {}
    limit = form.round_limit.lower()
    if limit:
        variants["round_limit"] = True if limit in TRUE else False if limit in FALSE else limit
    if form.simultaneous_goal:
        variants["simultaneous_goal"] = form.simultaneous_goal
    if variants:
        doc["variants"] = variants
    players = {p: name for p, name in form.names.items() if name}
    if players:
        doc["players"] = players
    round_value = number(form.round) if form.round else 1
    start: dict[str, Any] = {"round": round_value}
    favor = [v or None for v in form.favor]
    if any(favor) or round_value != 1:
        start["favor"] = favor
    doc["start"] = start
    return doc


def round_request(form: Form, log: list[str] | None = None) -> dict[str, Any] | None:
    """The request for the round as entered (None: a blank board, nothing to ask yet). In
    log mode, the actions (`log`, else the form's) up to the first gap: what follows a gap
    cannot be ruled on until it is filled in."""
    rnd: dict[str, Any] = {}
    if form.removed:
        rnd["removed"] = form.removed
    if form.mode == "board":
        if form.board_blank:
            return None
        rnd["board"] = {p: [number(v) if v else 0 for v in form.counts[p]] for p in ("a", "b")}
    else:
        tokens = form.log if log is None else log
        rnd["actions"] = [parse_act(t) for t in tokens[:tokens.index(GAP) if GAP in tokens else None]]
    return {**base_request(form), "rounds": [rnd]}


def with_next_action(rb: Any, form: Form) -> list[str]:
    """The log's tokens with the action being added (or changed in place, or filling a gap)."""
    log = list(form.log)
    token = act_token(next_entry(rb, form))
    if form.editing is not None:
        log[form.editing] = token
    else:
        log.append(token)
    return log


def query(form: Form, **overrides: Any) -> list[tuple[str, str]]:
    """The compact, canonical query of a form: only what differs from the defaults.
    `overrides`: mode, round, favor, log; fresh (a new round: no cards, no log yet);
    with_next=False (the permalink: without the action being entered)."""
    mode = overrides.get("mode", form.mode)
    items = _table_items(form, mode) + _start_items(form, overrides)
    if not overrides.get("fresh", False):
        items += _round_items(form, mode, overrides)
    return items


def _table_items(form: Form, mode: str) -> list[tuple[str, str]]:
    """The way of entering, the names and the table's settings."""
    items = [("mode", mode)] if mode != "board" else []
    items += [(f"n{p}", form.names[p]) for p in ("a", "b") if form.names.get(p)]
    if form.house:
        items.append(("house", form.house))
    for key in ("edition", "simultaneous_goal"):
        value = getattr(form, key)
        if value and value != form.defaults.get(key):
            items.append((key, value))
    limit = form.round_limit.lower()
    if limit:  # left out: the edition's own rule
        items.append(("round_limit", "1" if limit in TRUE else "0" if limit in FALSE else limit))
    return items


def _start_items(form: Form, overrides: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The round's number and where the favour markers stood before it."""
    items = []
    round_text = str(overrides.get("round", form.round))
    if round_text and round_text != "1":
        items.append(("round", round_text))
    favor = overrides.get("favor", form.favor)
    if any(favor):
        items.append(("fav", "".join(v or "-" for v in favor)))
    sheet = overrides.get("sheet", form.sheet)  # the match so far: kept for a fresh round
    if sheet:
        items.append(("sheet", sheet))
    return items


def _round_items(form: Form, mode: str, overrides: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The round as entered: the counts, or the log and the action being entered."""
    items = []
    if mode == "board":
        items += [(p, ",".join(v.strip() or "0" for v in form.counts[p]))
                  for p in ("a", "b") if any(v.strip() for v in form.counts[p])]
    if form.removed:
        items.append(("removed", form.removed))
    if mode == "log":
        items.extend(("act", token) for token in overrides.get("log", form.log))
        if overrides.get("with_next", True):  # the next action so far, not yet in the log
            items += [("do", form.do)] if form.do else []
            items.extend(("c", c) for c in form.chosen)
            items += [(key, getattr(form, key)) for key in ("at", "undo") if getattr(form, key)]
    if form.check and mode == "board":
        items.append(("check", "1"))
    return items


def query_string(items: list[tuple[str, str]]) -> str:
    return "&".join(f"{quote(k, safe='')}={quote(v, safe=SAFE)}" for k, v in items)


# -- referee errors -> form fields ----------------------------------------------------------------
def field_for_path(path: str, editing: int | None = None, log_length: int = 0) -> str:
    """The form field a referee error belongs to, from its JSON pointer into the request."""
    parts = path.split("/")[1:] if path else []
    head = parts[0] if parts else ""
    if head == "players" and len(parts) > 1:
        return f"name-{parts[1]}"
    if head in ("edition", "round_limit"):
        return head
    if head == "variants" and len(parts) > 1 and parts[1] in ("round_limit", "simultaneous_goal"):
        return parts[1]
    if head == "start" and len(parts) > 1:
        if parts[1] == "round":
            return "round"
        return f"col-{parts[2]}" if len(parts) > 2 else "fav"
    if head == "rounds" and len(parts) > 2:
        return _round_field(parts[2:], editing, log_length)
    return "general"


def _round_field(rest: list[str], editing: int | None, log_length: int) -> str:
    """The field of an error inside the round: the card put aside, a side or a geisha of
    the board, a logged action, or the action being entered ("next")."""
    if rest[0] == "removed":
        return "removed"
    if rest[0] == "board":
        if len(rest) == 2:
            return f"side-{rest[1]}"
        return f"col-{rest[2]}" if len(rest) >= 3 else "general"
    if rest[0] == "actions" and len(rest) > 1 and rest[1].isdigit():
        index = int(rest[1])
        return "next" if index == editing or index >= log_length else f"log-{index}"
    return "log" if rest[0] == "actions" else "general"


def errors_by_field(errors: list[dict[str, Any]], **where: Any) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for error in errors:
        out.setdefault(field_for_path(error.get("path", ""), **where), []).append(error)
    return out
