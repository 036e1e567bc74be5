"""Hanamikoji on the site: its terms, the options of its pages, and its scoring checker.

No rule is decided here: rule texts and names come from the rulebook and the catalogs,
every ruling from the referee. The checker turns the query of `/<lang>/hanamikoji/score`
into a referee request and the referee's answer into what the page shows.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
from urllib.parse import quote

from flask_babel import gettext, lazy_gettext
from markupsafe import Markup, escape

from rulebook.hanamikoji import load_rulebook
from rulebook.hanamikoji.rules import OTHER, first_player, supply
from rulebook.hanamikoji.terms import action_names
from rulebook.i18n import N_
from rulebook.referee import referee

from ..terms import GameTerms, KeepMissing, PrintedName, fill, language_name
from .base import Options, Redirect, WebGame, short

# How a fact was read (`basis` in the rulebook YAML), as the pages say it.
BASIS_LABELS = {
    "printed": N_("printed in the book"),
    "reported": N_("as reviews and summaries report it"),
    "inferred": N_("inferred"),
    "guide": N_("a guide's terms, not checked against the book"),
}


RULE_HTML: dict[tuple, tuple[Any, Markup]] = {}  # see Terms.rule_html


class Terms(GameTerms):
    """Hanamikoji terms for `lang` with `edition`'s action names where it is printed in `lang`."""

    def __init__(self, rulebook: Any, lang: str, edition: str | None = None):
        super().__init__(rulebook, lang)
        self.edition = rulebook.editions.get(edition or "") or rulebook.editions[
            rulebook.default_edition
        ]

    # -- sources (what a source is: GameTerms.source) ------------------------------------
    def basis(self, sourced: Any) -> str:
        return self.gettext(BASIS_LABELS[sourced.basis])

    def edition_label(self, edition: Any) -> str:
        """"Deep Water Games (anglais, 2018)": how an edition is named in menus."""
        values = {"publisher": edition.publisher,
                  "language": language_name(edition.language, self.lang, in_sentence=True)}
        if edition.year:
            return self.gettext("%(publisher)s (%(language)s, %(year)s)") % {**values,
                                                                          "year": edition.year}
        return self.gettext("%(publisher)s (%(language)s)") % values

    # -- actions ---------------------------------------------------------------------
    @cached_property
    def action_names(self) -> dict[str, str]:
        """The page language's action names: the placeholders of the rule texts."""
        return action_names(self.rb, self.lang, self.edition.id)

    def action(self, action_id: str) -> str:
        return self.action_names[action_id]

    @property
    def placeholders(self) -> dict[str, str]:
        return self.action_names

    def printed(self, action_id: str) -> PrintedName | None:
        """The selected edition's printed name when it differs from the page's term."""
        name = self.edition.actions[action_id]
        if name == self.action(action_id):
            return None
        return PrintedName(name, self.edition.language, self.edition.publisher)

    # -- rule texts ------------------------------------------------------------------
    def rule(self, rule_id: str) -> str:
        """The rule text in this language, action names filled in (plain text)."""
        english = self.rb.rules[rule_id]
        text = fill(self.p(rule_id, english), self.action_names)
        return text if text is not None else (fill(english, self.action_names) or english)

    def rule_html(self, rule_id: str) -> Markup:
        """The rule text as HTML: escaped, with the action names marked up as terms.
        Made once per rulebook, language, edition and rule (pages show each many times)."""
        key = (id(self.rb), self.lang, self.edition.id, rule_id)
        kept = RULE_HTML.get(key)
        if kept is not None and kept[0] is self.rb:
            return kept[1]
        html = self.make_rule_html(rule_id)
        RULE_HTML[key] = (self.rb, html)
        return html

    def make_rule_html(self, rule_id: str) -> Markup:
        english = self.rb.rules[rule_id]
        names = {
            aid: Markup('<span class="term">{}</span>').format(name)
            for aid, name in self.action_names.items()
        }
        for text in (self.p(rule_id, english), english):
            try:
                return Markup(escape(text)).format_map(KeepMissing(names))
            except (ValueError, IndexError, AttributeError, TypeError, KeyError):
                continue
        return escape(english)

    # -- geishas ---------------------------------------------------------------------
    def geisha(self, geisha: Any) -> str:
        return self.p(f"geisha.{geisha.id}", geisha.name)

    def item(self, geisha: Any) -> str:
        return self.p(f"item.{geisha.id}", geisha.item)

    def colour(self, geisha: Any) -> str:
        return self.p(f"colour.{geisha.colour}", geisha.colour)

    def tiebreak_chain(self, edition_id: str | None = None) -> list[tuple[str, str]]:
        """(rule id, rule text) for each step of an edition's three-round tie-break."""
        edition = self.rb.editions.get(edition_id or "") or self.edition
        steps = []
        for step in edition.round_limit.tiebreak:
            rule_id = self.rb.tiebreak_rules.get(step, self.rb.tiebreak_rules["unknown"])
            steps.append((rule_id, self.rule(rule_id)))
        return steps


# -- the options of the rules pages ------------------------------------------------------------
LABELS = {
    "round_limit": lazy_gettext("Three-round limit"),
    ("round_limit", "1"): lazy_gettext("End the game after round %(rounds)s at the latest"),
    ("round_limit", "0"): lazy_gettext("Play on until someone reaches a goal"),
    # What an edition's book says about the limit (RoundLimitRule.status).
    ("round_limit_status", "normal"): lazy_gettext(
        "In this edition the game ends after round %(rounds)s at the latest; playing on is the "
        "option."),
    ("round_limit_status", "optional"): lazy_gettext(
        "This edition offers the limit as an optional rule."),
    ("round_limit_status", "none"): lazy_gettext(
        "This edition has no round limit: adding one is a house rule with no printed "
        "tie-break."),
    "simultaneous_goal": lazy_gettext("Clash reading"),
    ("simultaneous_goal", "charm"): lazy_gettext("Eleven charm points win (official)"),
    ("simultaneous_goal", "geishas"): lazy_gettext("Four geishas win (variant)"),
}
TRUE = ("1", "on", "true", "yes")
FALSE = ("0", "off", "false", "no")


def page_options(rb: Any, args: Mapping[str, str]) -> Options:
    """edition=<id>, round_limit=1|0 (left out: the edition's rule), simultaneous_goal=charm|
    geishas; bad values -> defaults, with a notice."""
    defaults = {
        "edition": rb.default_edition,
        "round_limit": "",  # the edition's own rule
        "simultaneous_goal": rb.variant_default("simultaneous_goal"),
    }
    values = dict(defaults)
    notices: list[str] = []

    edition = args.get("edition", "").strip()
    if edition in rb.editions:
        values["edition"] = edition
    elif edition:
        notices.append(gettext("There is no edition “%(value)s”; showing the %(default)s edition.",
                               value=short(edition),
                               default=rb.editions[rb.default_edition].publisher))

    limit = args.get("round_limit", "").strip().lower()
    if limit in TRUE:
        values["round_limit"] = "1"
    elif limit in FALSE:
        values["round_limit"] = "0"
    elif limit:
        notices.append(gettext(
            "“%(value)s” is not a valid value for the three-round limit; the edition's rule "
            "applies.", value=short(limit)))

    goal = args.get("simultaneous_goal", "").strip()
    if goal in rb.variants["simultaneous_goal"]["choices"]:
        values["simultaneous_goal"] = goal
    elif goal:
        notices.append(gettext("“%(value)s” is not a clash reading we know; showing the official one.",
                               value=short(goal)))
    chosen = values["round_limit"]
    limit_on = rb.round_limit_default(values["edition"]) if chosen == "" else chosen == "1"
    return Options(values, defaults, tuple(notices), {"round_limit_on": limit_on})


def round_limit_menu(rb: Any, edition_id: str) -> list[tuple[str, str]]:
    """(value, label) of the three-round limit's choices: the edition's own rule, on, off."""
    on = str(LABELS[("round_limit", "1")]) % {"rounds": rb.round_limit}
    off = str(LABELS[("round_limit", "0")])
    edition = rb.editions[edition_id]
    own = gettext("As the %(publisher)s edition says: %(rule)s", publisher=edition.publisher,
                  rule=on if rb.round_limit_default(edition_id) else off)
    return [("", own), ("1", on), ("0", off)]


def highlights(rb: Any, options: Options) -> dict[str, Any]:
    out: dict[str, Any] = {f"edition.{options.edition}": lazy_gettext("Selected edition")}
    if options.round_limit_on:
        out["variant.round-limit"] = lazy_gettext("In use at this table")
    if options.simultaneous_goal != rb.variant_default("simultaneous_goal"):
        out["variant.simultaneous-goal"] = lazy_gettext("In use at this table")
        out["victory.clash"] = lazy_gettext("Your table plays another reading")
    return out


# -- the scoring checker: the form <-> the referee's request -------------------------------------
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
#   check=1               show every problem, also of a side still being filled in
# Buttons that work without JavaScript send one event, answered with a redirect:
#   step=a:3:+1  mark=<action>  pick=<geisha>  unpick=<slot>  clear=1  edit=<index>
#   drop=<index>
MAX_VALUE = 100
MAX_NAME = 40
MAX_ACTIONS = 9  # one more than a round has, so the referee can say why it is too many
SLOTS = 4  # the most cards an action uses
SAFE = ":,/-_.~"  # left unescaped in permalinks, for readable URLs
STATE = ("mode", "na", "nb", "edition", "round_limit", "simultaneous_goal", "round", "fav",
         "a", "b", "removed", "act", "c", "do", "take", "at", "check")
EVENTS = ("step", "mark", "pick", "unpick", "clear", "edit", "drop")
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
    edition: str = ""
    round_limit: str = ""
    simultaneous_goal: str = ""
    round: str = ""
    favor: list[str] = field(default_factory=list)  # "a", "b" or "" (middle) per geisha
    counts: dict[str, list[str]] = field(default_factory=lambda: {"a": [], "b": []})
    removed: str = ""
    log: list[str] = field(default_factory=list)  # act tokens
    cards: list[str] = field(default_factory=lambda: [""] * SLOTS)  # the next action's cards
    do: str = ""
    take: str = ""
    at: str = ""  # index of the logged action being changed ("" = a new action)
    check: bool = False
    errors: dict[str, list[str]] = field(default_factory=dict)  # the form's own messages
    defaults: dict[str, str] = field(default_factory=dict)  # left out of permalinks

    def add_error(self, key: str, message: str) -> None:
        self.errors.setdefault(key, []).append(message)

    @property
    def board_blank(self) -> bool:
        return not any(v.strip() for side in self.counts.values() for v in side)

    @property
    def chosen(self) -> list[str]:
        return [c for c in self.cards if c]

    @property
    def editing(self) -> int | None:
        return int(self.at) if self.at.isdigit() and int(self.at) < len(self.log) else None


def _get(args: Mapping[str, Any], key: str) -> str:
    value = args.get(key, "")
    return str(value)[:MAX_VALUE].strip() if value is not None else ""


def _getlist(args: Any, key: str) -> list[str]:
    values = args.getlist(key) if hasattr(args, "getlist") else (
        [args[key]] if key in args else [])
    return [str(v)[:MAX_VALUE] for v in values[:20]]


def _number(raw: str) -> Any:
    """A whole number when the text is one, else the text itself (the referee explains)."""
    text = raw.strip()
    return int(text) if re.fullmatch(r"[+]?\d{1,7}", text) else text


def read_form(rb: Any, args: Any, lang: str) -> Form:
    from rulebook.i18n import translator

    t = translator(lang)
    n = len(rb.geishas)
    form = Form(defaults={"edition": rb.default_edition,
                          "simultaneous_goal": rb.variant_default("simultaneous_goal")})
    mode = _get(args, "mode")
    if mode in ("board", "log"):
        form.mode = mode
    elif mode:
        form.add_error("general", t.gettext(MESSAGES["mode"]).format(value=mode[:20]))
    form.names = {p: _get(args, f"n{p}") for p in ("a", "b")}
    for key in ("edition", "round_limit", "simultaneous_goal", "round", "removed", "do", "take",
                "at"):
        setattr(form, key, _get(args, key))
    form.check = _get(args, "check") in TRUE
    # A choice the menus do not offer (an edited address): the page's notice names it and
    # shows the default (page_options), and the referee is asked with the default too.
    offered = page_options(rb, {key: getattr(form, key)
                                for key in ("edition", "round_limit", "simultaneous_goal")})
    for key in ("edition", "simultaneous_goal"):
        if getattr(form, key) and getattr(form, key) != offered.values[key]:
            setattr(form, key, "")
    if form.round_limit and not offered.values["round_limit"]:
        form.round_limit = ""
    if any(f"f{i}" in args for i in range(n)):  # the form's radios
        form.favor = [_get(args, f"f{i}") for i in range(n)]
    else:
        compact = _get(args, "fav")
        if compact and len(compact) != n:
            form.add_error("fav", t.gettext(MESSAGES["fav-list"]))
            compact = ""
        form.favor = list(compact) if compact else [""] * n
    form.favor = [v if v in ("a", "b") else "" for v in form.favor]
    for p in ("a", "b"):
        values = _getlist(args, p)
        if len(values) == 1 and "," in values[0]:
            values = values[0].split(",")
        if values and len(values) != n:
            form.add_error(f"side-{p}", t.gettext(MESSAGES["count-list"]))
            values = (values + [""] * n)[:n]
        form.counts[p] = [v.strip() for v in values] or [""] * n
    form.log = [v.strip() for v in _getlist(args, "act")[:MAX_ACTIONS]]
    chosen = [c.strip() for c in _getlist(args, "c") if c.strip()][:SLOTS]
    form.cards = chosen + [""] * (SLOTS - len(chosen))
    return form


def apply_event(rb: Any, form: Form, args: Mapping[str, str]) -> bool:
    """A button pressed without JavaScript: change the form; True when one was found."""
    for event in EVENTS:
        if event in args:
            EVENT_HANDLERS[event](rb, form, _get(args, event))
            return True
    return False


def _step(rb: Any, form: Form, value: str) -> None:
    """`a:3:+1`: one more of the fourth geisha's cards on A's side (never below 0 or above
    the cards she has)."""
    match = re.fullmatch(r"([ab]):(\d):([+-]\d)", value)
    if match and int(match[2]) < len(rb.geishas):
        side, i = match[1], int(match[2])
        current = _number(form.counts[side][i] or "0")
        if isinstance(current, int):
            count = min(max(current + int(match[3]), 0), rb.geishas[i].cards)
            form.counts[side][i] = str(count) if count or form.counts[side][i] else ""


def _mark(rb: Any, form: Form, value: str) -> None:
    """The action marker tapped: it is chosen (tapped again: chosen no longer)."""
    if value in rb.actions:
        form.do = "" if form.do == value else value


def _pick(rb: Any, form: Form, value: str) -> None:
    if "" in form.cards:
        form.cards[form.cards.index("")] = value


def _unpick(rb: Any, form: Form, value: str) -> None:
    if value.isdigit() and 1 <= int(value) <= SLOTS:
        kept = [c for k, c in enumerate(form.cards, start=1) if c and k != int(value)]
        form.cards = kept + [""] * (SLOTS - len(kept))


def _clear(rb: Any, form: Form, value: str) -> None:
    form.cards, form.do, form.take, form.at = [""] * SLOTS, "", "", ""


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
    if value.isdigit() and int(value) < len(form.log):
        del form.log[int(value)]
        form.at = ""


EVENT_HANDLERS = {"step": _step, "mark": _mark, "pick": _pick, "unpick": _unpick,
                  "clear": _clear, "edit": _edit, "drop": _drop}


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
    number = _number(text)
    return number - 1 if isinstance(number, int) and number >= 1 else text


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
    round_value = _number(form.round) if form.round else 1
    start: dict[str, Any] = {"round": round_value}
    favor = [v or None for v in form.favor]
    if any(favor) or round_value != 1:
        start["favor"] = favor
    doc["start"] = start
    return doc


def round_request(form: Form, log: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The request for the round as entered (None: a blank board, nothing to ask yet)."""
    rnd: dict[str, Any] = {}
    if form.removed:
        rnd["removed"] = form.removed
    if form.mode == "board":
        if form.board_blank:
            return None
        rnd["board"] = {p: [_number(v) if v else 0 for v in form.counts[p]] for p in ("a", "b")}
    else:
        rnd["actions"] = [parse_act(t) for t in form.log] if log is None else log
    return {**base_request(form), "rounds": [rnd]}


def with_next_action(rb: Any, form: Form) -> list[dict[str, Any]]:
    """The log with the action being added (or changed in place)."""
    log = [parse_act(t) for t in form.log]
    entry = next_entry(rb, form)
    if form.editing is not None:
        log[form.editing] = entry
    else:
        log.append(entry)
    return log


def query(form: Form, **overrides: Any) -> list[tuple[str, str]]:
    """The compact, canonical query of a form: only what differs from the defaults."""
    items: list[tuple[str, str]] = []
    mode = overrides.get("mode", form.mode)
    if mode != "board":
        items.append(("mode", mode))
    for p in ("a", "b"):
        if form.names.get(p):
            items.append((f"n{p}", form.names[p]))
    for key in ("edition", "simultaneous_goal"):
        value = getattr(form, key)
        if value and value != form.defaults.get(key):
            items.append((key, value))
    limit = form.round_limit.lower()
    if limit:  # left out: the edition's own rule
        items.append(("round_limit", "1" if limit in TRUE else "0" if limit in FALSE else limit))
    round_text = str(overrides.get("round", form.round))
    if round_text and round_text != "1":
        items.append(("round", round_text))
    favor = overrides.get("favor", form.favor)
    if any(favor):
        items.append(("fav", "".join(v or "-" for v in favor)))
    fresh = overrides.get("fresh", False)  # a new round: no cards, no log yet
    if mode == "board" and not fresh:
        for p in ("a", "b"):
            if any(v.strip() for v in form.counts[p]):
                items.append((p, ",".join(v.strip() or "0" for v in form.counts[p])))
    if form.removed and not fresh:
        items.append(("removed", form.removed))
    if mode == "log" and not fresh:
        items.extend(("act", token) for token in overrides.get("log", form.log))
        if overrides.get("with_next", True):  # the next action so far, not yet in the log
            if form.do:
                items.append(("do", form.do))
            items.extend(("c", c) for c in form.chosen)
            if form.at:
                items.append(("at", form.at))
    if form.check and not fresh and mode == "board":
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
        rest = parts[2:]
        if rest[0] == "removed":
            return "removed"
        if rest[0] == "board":
            if len(rest) == 2:
                return f"side-{rest[1]}"
            return f"col-{rest[2]}" if len(rest) >= 3 else "general"
        if rest[0] == "actions" and len(rest) > 1 and rest[1].isdigit():
            index = int(rest[1])
            return "next" if index == editing or index >= log_length else f"log-{index}"
        if rest[0] == "actions":
            return "log"
    return "general"


def errors_by_field(errors: list[dict[str, Any]], **where: Any) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for error in errors:
        out.setdefault(field_for_path(error.get("path", ""), **where), []).append(error)
    return out


# -- the checker page --------------------------------------------------------------------------
def checker(rb: Any, args: Mapping[str, str], lang: str) -> Redirect | dict[str, Any]:
    """The checker page's context, or where a button pressed without JavaScript leads."""
    form = read_form(rb, args, lang)
    if apply_event(rb, form, args):
        return Redirect(query_string(query(form)))
    request_doc = round_request(form)
    answer = referee(request_doc, lang) if request_doc is not None else None
    ruling = answer if answer and answer["valid"] else None
    problems = list(answer["errors"]) if answer and not answer["valid"] else []
    next_answer, awaiting_take = None, False
    if form.mode == "log":
        rnd = ruling["rounds"][-1] if ruling else None
        _imply_marker(form, rnd.get("progress") if rnd else None)
        if _action_complete(rb, form):
            next_answer, awaiting_take = add_action(rb, form, lang)
            if next_answer["valid"]:  # the action is added; a fresh one follows
                return Redirect(query_string(query(form)))
            if not awaiting_take:
                seen = {(e["code"], e["path"]) for e in problems}
                problems += [e for e in next_answer["errors"]
                             if (e["code"], e["path"]) not in seen]
    next_index = form.editing if form.editing is not None else len(form.log)
    waiting = form.mode == "board" and not form.check and _sides_in_progress(rb, form)
    if waiting:  # a side still being filled in: its total is no problem yet
        problems = [e for e in problems if not (e["code"] == "board.side-total"
                                                and e["path"].rsplit("/", 1)[-1] in waiting)]
    field_errors = {key: [{"message": m, "rule": None} for m in messages]
                    for key, messages in form.errors.items()}
    for key, items in errors_by_field(problems, editing=form.editing,
                                      log_length=len(form.log)).items():
        field_errors.setdefault(key, []).extend(items)
    names = dict((ruling or {}).get("players") or _names(rb, form, lang))
    round_number = _number(form.round) if form.round else 1
    return {
        "first_player": first_player(rb, round_number)
        if isinstance(round_number, int) and round_number >= 1 else None,
        "form": form,
        "request_doc": request_doc,
        "response": answer,
        "ruling": ruling,
        "field_errors": field_errors,
        "names": names,  # as labels: headings, fields ("Player A", "Jugador A")
        "said": said_names(names, lang),  # inside a sentence ("le joueur A")
        "page_args": {key: _get(args, key)  # as asked: the page's notices name a bad one
                      for key in ("edition", "round_limit", "simultaneous_goal")},
        "board": board_view(rb, form, field_errors) if form.mode == "board" else None,
        "log_view": log_view(rb, form, ruling, names, next_index, awaiting_take,
                             refused=next_answer is not None and not awaiting_take)
        if form.mode == "log" else None,
        "verdict": verdict(form, ruling, problems, waiting),
        "queries": {
            "state": query_string(query(form)),  # the address bar's (static/js/live.js)
            "permalink": query_string(query(form, with_next=False)),
            "board": query_string(query(form, mode="board", fresh=True)),
            "log": query_string(query(form, mode="log", fresh=True)),
            "next": query_string(next_round(form, ruling)) if ruling and ruling["next"] else None,
        },
    }


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
        form.log = [act_token(entry) for entry in log]
        _clear(rb, form, "")
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
    return query(form, round=nxt["round"], favor=[v or "" for v in nxt["favor"]], fresh=True)


@dataclass(frozen=True)
class Column:
    """One geisha of the board form: the counts as typed, what is left of her cards."""

    index: int
    geisha: Any
    counts: dict[str, str]
    left: int | None  # her cards on neither side (None while a count is not a number)
    favor: str


def board_view(rb: Any, form: Form, field_errors: Mapping[str, Any]) -> dict[str, Any]:
    numbers = {p: [_number(v) if v else 0 for v in form.counts[p]] for p in ("a", "b")}
    whole = all(isinstance(v, int) for side in numbers.values() for v in side)
    removed = rb.geisha_index.get(form.removed)
    left = supply(rb, numbers, removed) if whole else [None] * len(rb.geishas)
    columns = [Column(i, g, {p: form.counts[p][i] for p in ("a", "b")}, left[i],
                      form.favor[i] if i < len(form.favor) else "")
               for i, g in enumerate(rb.geishas)]
    totals = {p: sum(v for v in numbers[p] if isinstance(v, int)) for p in ("a", "b")}
    return {"columns": columns, "totals": totals, "per_side": rb.scored_per_side}


def log_view(rb: Any, form: Form, ruling: Mapping[str, Any] | None, names: Mapping[str, str],
             next_index: int, awaiting_take: bool, refused: bool) -> dict[str, Any]:
    """The logged actions and the controls for the next one, from what the referee said."""
    rnd = ruling["rounds"][-1] if ruling else None
    progress = rnd.get("progress") if rnd else None
    movers = rnd.get("movers", []) if rnd else []
    entries = []
    for k, token in enumerate(form.log):
        mover = movers[k] if k < len(movers) else None
        entries.append({"index": k, "token": token, "entry": parse_act(token),
                        "player": names[mover] if mover else "",
                        "chooser": names[OTHER[mover]] if mover else ""})
    editing = form.editing
    if editing is not None:  # whose action it was, when the log so far is valid
        mover = movers[editing] if editing < len(movers) else None
        free = list(rb.actions)  # the referee says whether the one chosen is still free
    elif progress is not None:
        mover, free = progress["to_act"], progress["actions_left"][progress["to_act"]]
    else:
        mover, free = None, []
    unseen = _unseen(rb, rnd)
    if editing is not None and unseen is not None:  # the changed action's cards are back
        for card in _flat(entries[editing]["entry"].get("cards") or []):
            if card in rb.geisha_index:
                unseen[rb.geisha_index[card]] += 1
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
        "refused": refused,
        "progress": progress,
    }


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
        numbers = [_number(v) if v else 0 for v in form.counts[p]]
        if all(isinstance(v, int) for v in numbers) and sum(numbers) < rb.scored_per_side:
            out.add(p)
    return out


def verdict(form: Form, ruling: Mapping[str, Any] | None, problems: list[dict],
            waiting: set[str]) -> dict[str, Any]:
    """What the result bar says: who wins, who starts next, what is still missing, or why not."""
    if ruling is not None:
        return {"state": ruling["result"]["status"], "result": ruling["result"],
                "next": ruling["next"]}
    if form.mode == "board" and form.board_blank:
        return {"state": "empty"}
    if not problems and waiting:
        return {"state": "incomplete"}
    return {"state": "invalid", "error": problems[0] if problems else None,
            "count": len(problems)}


WEB = WebGame(
    slug="hanamikoji",
    title=lazy_gettext("Hanamikoji"),
    tagline=lazy_gettext("Two players win the favour of seven geishas with four actions per round."),
    load=load_rulebook,
    options=page_options,
    terms=lambda rb, lang, options: Terms(rb, lang, options.edition),
    highlights=highlights,
    labels=LABELS,
    checker=checker,
    helpers=sys.modules[__name__],
    parameters=lambda rb: frozenset({"edition", "round_limit", "simultaneous_goal"}),
    checker_parameters=lambda rb: PARAMETERS,
)
