"""The Hanamikoji checker page: the form asked of the referee, and its answer turned into
what the page shows (the board, the action log and its next action, the verdict)."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from rulebook.hanamikoji.rules import first_player, supply, turn_order
from rulebook.players import OTHER
from rulebook.referee import referee

from ..base import Redirect
from . import sheet
from .form import (
    GAP,
    MAX_NAME,
    SLOTS,
    Form,
    apply_event,
    arg,
    base_request,
    errors_by_field,
    field_for_path,
    number,
    parse_act,
    query,
    query_string,
    read_form,
    round_request,
    with_next_action,
)


def checker(rb: Any, args: Mapping[str, str], lang: str) -> Redirect | dict[str, Any]:
    """The checker page's context, or where a button pressed without JavaScript leads."""
    form = read_form(rb, args, lang)
    if apply_event(rb, form, args):
        return Redirect(query_string(query(form)))
    request_doc = round_request(form)
    answer = referee(request_doc, lang) if request_doc is not None else None
    ruling = answer if answer and answer["valid"] else None
    problems = list(answer["errors"]) if answer and not ruling else []
    next_answer, awaiting_take = None, False
    if form.mode == "log":
        next_answer, awaiting_take = _enter_next(rb, form, ruling, problems, lang)
        if next_answer is not None and next_answer["valid"]:  # added; a fresh one follows
            return Redirect(query_string(query(form)))
    next_index = form.editing if form.editing is not None else len(form.log)
    waiting = _waiting(rb, form)
    problems = _not_yet(problems, waiting)
    field_errors = _field_errors(form, problems)
    names = dict((ruling or {}).get("players") or _names(rb, form, lang))
    said = said_names(names, lang)
    return {
        "first_player": _first_player(rb, form),
        "form": form,
        "request_doc": request_doc,
        "response": answer,
        "ruling": ruling,
        "field_errors": field_errors,
        "names": names,  # as labels: headings, fields ("Player A", "Jugador A")
        "said": said,  # inside a sentence ("le joueur A")
        "page_args": {key: arg(args, key)  # as asked: the page's notices name a bad one
                      for key in ("edition", "round_limit", "simultaneous_goal", "house")},
        "board": board_view(rb, form, field_errors) if form.mode == "board" else None,
        # each geisha's favour marker: from round 2, or once one is off the middle
        "show_markers": form.round not in ("", "1") or any(form.favor),
        "log_view": log_view(rb, form, ruling, names, said, next_index, awaiting_take,
                             refused=bool(next_answer) and not awaiting_take)
        if form.mode == "log" else None,
        "verdict": verdict(form, ruling, problems, waiting),
        "queries": _queries(form, ruling),
        "sheet": _sheet(rb, form, request_doc, ruling, names, lang),
    }


def _waiting(rb: Any, form: Form) -> set[str]:
    """Board mode: the sides still being counted, unless the player asked for a check."""
    return _sides_in_progress(rb, form) if form.mode == "board" and not form.check else set()


def _not_yet(problems: list[dict], waiting: set[str]) -> list[dict]:
    """The problems without the totals of the sides still being counted."""
    return [e for e in problems if e["code"] != "board.side-total"
            or e["path"].rsplit("/", 1)[-1] not in waiting]


def _first_player(rb: Any, form: Form) -> str | None:
    """Who starts the round (None while its number is not one)."""
    round_number = number(form.round) if form.round else 1
    return first_player(rb, round_number) if isinstance(round_number, int) and round_number >= 1 else None


def _enter_next(rb: Any, form: Form, ruling: Mapping[str, Any] | None, problems: list[dict],
                lang: str) -> tuple[dict[str, Any] | None, bool]:
    """Log mode: the action being entered, added once complete. (The referee's answer on it,
    None while it is incomplete; whether it only waits for what the opponent took.) Its
    problems join the page's."""
    rnd = ruling["rounds"][-1] if ruling else None
    _imply_marker(form, rnd.get("progress") if rnd else None)
    if not _action_complete(rb, form):
        return None, False
    next_answer, awaiting_take = add_action(rb, form, lang)
    if not next_answer["valid"] and not awaiting_take:
        seen = {(e["code"], e["path"]) for e in problems}
        problems += [e for e in next_answer["errors"] if (e["code"], e["path"]) not in seen]
    return next_answer, awaiting_take


def _field_errors(form: Form, problems: list[dict]) -> dict[str, list[dict]]:
    """The form's own messages and the referee's, by the field they concern."""
    field_errors = {key: [{"message": m, "rule": None} for m in messages]
                    for key, messages in form.errors.items()}
    for key, items in errors_by_field(problems, editing=form.editing,
                                      log_length=len(form.log)).items():
        field_errors.setdefault(key, []).extend(items)
    return field_errors


def _queries(form: Form, ruling: Mapping[str, Any] | None) -> Mapping[str, str | None]:
    """The page's addresses: the address bar's (static/js/live.js), the permalink, the
    two ways of entering a fresh round, and the next round's. Each is made when the page
    first asks for it: a tap's answer shows neither way of entering a fresh round."""
    return _Addresses({
        "state": lambda: query_string(query(form)),
        "permalink": lambda: query_string(query(form, with_next=False)),
        "board": lambda: query_string(query(form, mode="board", fresh=True)),
        "log": lambda: query_string(query(form, mode="log", fresh=True)),
        "next": lambda: (query_string(next_round(form, ruling))
                         if ruling and ruling["next"] else None),
    })


class _Addresses(Mapping[str, "str | None"]):
    """Addresses by name, each made once, when first read."""

    def __init__(self, makers: dict[str, Callable[[], str | None]]):
        self._makers = makers
        self._made: dict[str, str | None] = {}

    def __getitem__(self, name: str) -> str | None:
        if name not in self._made:
            self._made[name] = self._makers[name]()
        return self._made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)


def _sheet(rb: Any, form: Form, request_doc: Mapping[str, Any] | None,
           ruling: Mapping[str, Any] | None, names: Mapping[str, str], lang: str) -> Any:
    """The match's score sheet: the rounds carried, and this one once it is finished."""
    finished = bool(ruling and not ruling["rounds"][-1].get("progress"))
    round_number = number(form.round) if form.round else 1
    valid_start = isinstance(round_number, int) and not ({"round", "fav"} & set(form.errors))
    return sheet.build(rb, form.sheet, base_request(form),
                       request_doc["rounds"][0] if finished and request_doc else None,
                       (round_number, form.favor) if valid_start else None, names,
                       query_string(query(form, with_next=False)), lang)


def _imply_marker(form: Form, progress: Mapping[str, Any] | None) -> None:
    """A player's last action needs no tap on its marker: it is the only one left."""
    if form.do or form.editing is not None or progress is None:
        return
    left = progress["actions_left"][progress["to_act"]]
    if len(left) == 1:
        form.do = left[0]


def _action_complete(rb: Any, form: Form) -> bool:
    """The next action's marker is chosen and all its cards are tapped (or too many: the
    referee says why); with fewer, the page waits for the rest."""
    action = rb.actions.get(form.do)
    return bool(form.do) and (action is None or len(form.chosen) >= action.cards)


def add_action(rb: Any, form: Form, lang: str) -> tuple[dict[str, Any], bool]:
    """Ask the referee about the log with the next action: (its answer, whether it only
    waits for what the opponent took). The only choice the opponent had is taken for them."""
    log = with_next_action(rb, form)
    answer = referee(round_request(form, log), lang)
    awaiting = _awaits_take(form, answer)
    if awaiting:
        offered = _offered(rb.actions.get(form.do), form.chosen)
        if len(offered) == 1:
            form.take = offered[0][0]
            log = with_next_action(rb, form)
            answer = referee(round_request(form, log), lang)
            awaiting = _awaits_take(form, answer)
    if answer["valid"]:
        editing = form.editing
        # the undo puts back what a change replaced; a new action is undone by "Remove"
        form.undo = f"{editing}:{form.log[editing]}" if editing is not None else ""
        form.log = log
        form.clear_next()
    return answer, awaiting


def _awaits_take(form: Form, answer: Mapping[str, Any]) -> bool:
    """The referee's only objection to the next action: nobody said what the opponent took."""
    if answer["valid"]:
        return False
    fresh = [e for e in answer["errors"]
             if field_for_path(e["path"], form.editing, len(form.log)) == "next"]
    return bool(fresh) and all(e["code"] == "log.taken-missing" for e in fresh)


def _names(rb: Any, form: Form, lang: str) -> dict[str, str]:
    from rulebook.hanamikoji.terms import player_labels

    names = dict(player_labels(rb, lang))
    for p, name in form.names.items():
        if name.strip() and len(name.strip()) <= MAX_NAME:
            names[p] = name.strip()
    return names


def said_names(names: Mapping[str, str], lang: str) -> dict[str, str]:
    """The names as a sentence holds them: a default name in its in-sentence form."""
    from rulebook.players import in_sentence, labels

    return {p: in_sentence(lang)[p] if name == labels(lang)[p] else name
            for p, name in names.items()}


def next_round(form: Form, ruling: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The next round's form: markers and round carried forward; names, edition, variants kept."""
    nxt = ruling["next"]
    round_number = number(form.round) if form.round else 1
    carried = sheet.next_sheet(form.sheet, round_number, form.favor, ruling["rounds"][-1])
    return query(form, round=nxt["round"], favor=[v or "" for v in nxt["favor"]], fresh=True,
                 sheet=carried)


@dataclass(frozen=True)
class Column:
    """One geisha of the board form: the counts as typed, what is left of her cards."""

    index: int
    geisha: Any
    counts: dict[str, str]
    left: int | None  # her cards on neither side (None while a count is not a number)
    favor: str


def board_view(rb: Any, form: Form, field_errors: Mapping[str, Any]) -> dict[str, Any]:
    numbers = {p: [number(v) if v else 0 for v in form.counts[p]] for p in ("a", "b")}
    whole = all(isinstance(v, int) for side in numbers.values() for v in side)
    removed = rb.geisha_index.get(form.removed)
    left = supply(rb, numbers, removed) if whole else [None] * len(rb.geishas)
    columns = [Column(i, g, {p: form.counts[p][i] for p in ("a", "b")}, left[i],
                      form.favor[i] if i < len(form.favor) else "")
               for i, g in enumerate(rb.geishas)]
    totals = {p: sum(v for v in numbers[p] if isinstance(v, int)) for p in ("a", "b")}
    return {"columns": columns, "totals": totals, "per_side": rb.scored_per_side}


def log_view(rb: Any, form: Form, ruling: Mapping[str, Any] | None, names: Mapping[str, str],
             said: Mapping[str, str], next_index: int, awaiting_take: bool,
             refused: bool) -> dict[str, Any]:
    """The logged actions and the controls for the next one, from what the referee said.
    `names` are the labels ("Jugador A"), `said` the names inside a sentence ("el jugador A")."""
    rnd = ruling["rounds"][-1] if ruling else None
    progress = rnd.get("progress") if rnd else None
    movers = _movers(rb, form, next_index + 1)
    entries = []
    for k, token in enumerate(form.log):
        mover = movers[k] if k < len(movers) else None
        entries.append({"index": k, "token": token,
                        "entry": None if token == GAP else parse_act(token),
                        "player": names[mover] if mover else "",
                        "chooser": said[OTHER[mover]] if mover else ""})
    editing = form.editing
    mover, free = _turn(rb, form, progress, movers)
    unseen = _unseen_around(rb, form, rnd, editing)
    chosen = form.chosen
    action = rb.actions.get(form.do)
    return {
        "entries": entries,
        "next_index": next_index,
        "open": progress is not None or editing is not None,
        "editing": entries[editing] if editing is not None else None,
        "mover": mover,
        "chooser": OTHER[mover] if mover else None,
        "markers": [{"id": aid, "action": a, "free": aid in free, "chosen": aid == form.do}
                    for aid, a in rb.actions.items()],
        "tiles": [{"geisha": g, "left": None if unseen is None
                   else max(unseen[i] - chosen.count(g.id), 0)}
                  for i, g in enumerate(rb.geishas)],
        "slots": _slots(action, chosen),
        # the empty card fields a tapped tile fills (static/js/live.js `data-fill`)
        "free_slots": max((action.cards if action else SLOTS) - len(chosen), 0),
        "awaiting_take": awaiting_take,
        "offered": _offered(action, chosen) if awaiting_take else [],
        "missing": _missing(action, chosen, awaiting_take),
        "refused": refused,
        "progress": progress,
    }


def _movers(rb: Any, form: Form, at_least: int) -> list[str]:
    """Whose each action is: the players alternate from the round's first player, so an
    action keeps its player whatever is removed or changed around it (a gap keeps a turn).
    Empty while the round number is not one."""
    round_number = number(form.round) if form.round else 1
    if not (isinstance(round_number, int) and round_number >= 1):
        return []
    return turn_order(rb, round_number, max(len(form.log), at_least))


def _turn(rb: Any, form: Form, progress: Mapping[str, Any] | None,
          movers: list[str]) -> tuple[str | None, list[str]]:
    """Who takes the action being entered, and the markers they can have used for it."""
    editing = form.editing
    if editing is not None:
        mover = movers[editing] if editing < len(movers) else None
        return mover, _free_markers(rb, form.log, movers, editing)
    if progress is not None:
        return progress["to_act"], progress["actions_left"][progress["to_act"]]
    return None, []


def _free_markers(rb: Any, log: list[str], movers: list[str], index: int) -> list[str]:
    """The markers the player of action `index` can have used there: not those the same
    player used in another action of the log (the referee still rules on the one chosen)."""
    if index >= len(movers):
        return list(rb.actions)
    used = {parse_act(token)["action"] for k, token in enumerate(log)
            if k != index and token != GAP and k < len(movers) and movers[k] == movers[index]}
    return [aid for aid in rb.actions if aid not in used]


def _unseen_around(rb: Any, form: Form, rnd: Mapping[str, Any] | None,
                   editing: int | None) -> list[int] | None:
    """The cards still unseen for the action being entered: the referee's count for the
    log up to the first gap, with the changed action's cards back and the cards of the
    actions after the gap used."""
    unseen = _unseen(rb, rnd)
    if unseen is None:
        return None
    ruled = form.gap if form.gap is not None else len(form.log)
    for k, token in enumerate(form.log):
        sign = 1 if k == editing and k < ruled else -1 if k != editing and k >= ruled else 0
        if token == GAP or not sign:
            continue
        for card in _flat(parse_act(token).get("cards") or []):
            if card in rb.geisha_index:
                unseen[rb.geisha_index[card]] += sign
    return unseen


def _missing(action: Any, chosen: list[str], awaiting_take: bool) -> tuple[str, int]:
    """What the action being entered still needs: its marker, cards (how many), or what
    the opponent took ("" when nothing: the referee has it)."""
    if awaiting_take:
        return "take", 0
    if action is None:
        return "marker", 0
    left = action.cards - len(chosen)
    return ("cards", left) if left > 0 else ("", 0)


def _flat(cards: list[Any]) -> list[str]:
    return [c for group in cards for c in group] if cards and isinstance(cards[0], list) else cards


def _unseen(rb: Any, rnd: Mapping[str, Any] | None) -> list[int] | None:
    """How many of each geisha's cards no action has used yet, as the referee counts them:
    during the round its count; once it is over, the card put aside (which the referee
    names when the log shows it); None when the log so far is not valid."""
    if rnd is None:
        return None
    if rnd.get("progress"):
        return list(rnd["progress"]["unseen"])
    return [1 if g.id == rnd.get("removed") else 0 for g in rb.geishas]


def _slots(action: Any, chosen: list[str]) -> list[list[tuple[int, str]]]:
    """The next action's card places, grouped as it offers them ((slot number, card or "")):
    one group, or a competition's two sets. Before a marker is chosen: the cards so far."""
    if action is None:
        return [list(enumerate(chosen, start=1))] if chosen else []
    places = list(enumerate((chosen + [""] * action.cards)[:max(action.cards, len(chosen))],
                            start=1))
    if action.split:
        first = action.split[0]
        return [places[:first], places[first:]]
    return [places]


def _offered(action: Any, chosen: list[str]) -> list[tuple[str, list[str]]]:
    """What the opponent can take: (take value, cards) per card of a gift or set of a competition."""
    if action is not None and action.split:
        return [("1", chosen[:2]), ("2", chosen[2:4])]
    seen: list[str] = []
    for card in chosen:
        if card not in seen:
            seen.append(card)
    return [(card, [card]) for card in seen]


def _sides_in_progress(rb: Any, form: Form) -> set[str]:
    """The sides whose cards are still being counted: fewer than a scored side holds."""
    out = set()
    for p in ("a", "b"):
        numbers = [number(v) if v else 0 for v in form.counts[p]]
        if all(isinstance(v, int) for v in numbers) and sum(numbers) < rb.scored_per_side:
            out.add(p)
    return out


def verdict(form: Form, ruling: Mapping[str, Any] | None, problems: list[dict],
            waiting: set[str]) -> dict[str, Any]:
    """What the result bar says: who wins, who starts next, what is still missing, or why not."""
    if ruling is not None and form.gap is not None:  # ruled only up to the gap
        return {"state": "gap", "index": form.gap}
    if ruling is not None:
        return {"state": ruling["result"]["status"], "result": ruling["result"],
                "next": ruling["next"]}
    if form.mode == "board" and form.board_blank:
        return {"state": "empty"}
    if not problems and waiting:
        return {"state": "incomplete"}
    return {"state": "invalid", "error": problems[0] if problems else None,
            "count": len(problems)}
