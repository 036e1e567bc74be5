"""The Hanamikoji match's score sheet: after each round, the geishas whose favour each player
holds, their charm points and the round's result, as the referee answers for the rounds the
`sheet` parameter carries.

A round's token is its board as the referee needs it to score it again: A's item cards
per geisha, then B's, a digit each (`21022010120023`), and "~" and the card put aside when
it is known. A start, when the match did not begin at round 1 with every marker in the
middle, is `@<round>_<markers>` (one of a, b or - per geisha, as the checker's `fav`).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext

from rulebook.i18n import listed, translator
from rulebook.players import PLAYERS
from rulebook.referee import referee

from .. import sheet as common

START = re.compile(r"(\d{1,3})_([ab-]+)")


def round_token(rnd: Mapping[str, Any]) -> str:
    """One round of a ruling (its board, and the card put aside if named) as a sheet token."""
    counts = "".join(str(n) for p in PLAYERS for n in rnd["board"][p])
    return counts + (f"~{rnd['removed']}" if rnd.get("removed") else "")


def start_token(round_number: int, favor: list[str]) -> str:
    """Where a match entered on the checker started, "" for round 1 with no markers moved."""
    if round_number == 1 and not any(favor):
        return ""
    return f"{round_number}_" + "".join(v or "-" for v in favor)


def next_sheet(text: str, round_number: int, favor: list[str], rnd: Mapping[str, Any]) -> str:
    """The sheet with the round just ruled added (its start taken from the form the first time)."""
    return common.with_round(text, start_token(round_number, favor), round_token(rnd))


def read(rb: Any, text: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The start and the rounds of a sheet parameter, as the referee's request holds them."""
    n = len(rb.geishas)
    parts = common.read_parts(text)
    start = None
    if parts.start:
        found = START.fullmatch(parts.start)
        if not found or len(found[2]) != n:
            raise common.unreadable(1)
        start = {"round": int(found[1]), "favor": [None if v == "-" else v for v in found[2]]}
    rounds = []
    for number, token in enumerate(parts.rounds, start=1):
        counts, _, removed = token.partition("~")
        if not re.fullmatch(rf"\d{{{2 * n}}}", counts) or (removed and removed not in rb.geisha_index):
            raise common.unreadable(number)
        rnd: dict[str, Any] = {"board": {p: [int(c) for c in counts[k * n:(k + 1) * n]]
                                         for k, p in enumerate(PLAYERS)}}
        if removed:
            rnd["removed"] = removed
        rounds.append(rnd)
    return start, rounds


def build(rb: Any, text: str, settings: Mapping[str, Any], current: dict[str, Any] | None,
          form_start: tuple[int, list[str]] | None, names: Mapping[str, str], query: str,
          lang: str) -> common.Sheet:
    """The sheet of the rounds carried, and of `current` (this round's request, once the
    referee ruled it finished). `settings` is the checker's request without its rounds;
    `form_start` the form's round and markers (None while they are not valid): the rounds
    carried must lead to them."""
    sheet = common.Sheet(text, query=query)
    parsed = common.read_sheet(sheet, lambda given: read(rb, given))
    rounds = parsed[1] + ([current] if current else []) if parsed else []
    if not parsed or not rounds:
        return sheet
    start, carried = parsed
    base = {**common.settings_of(settings), "start": start or {"round": 1}}
    answer = referee({**base, "rounds": rounds}, lang)
    if not answer["valid"]:
        sheet.error = common.refusal(answer)
        return sheet
    sheet.header, sheet.rows = _table(rb, answer, names, lang)
    if carried and form_start is not None and not _leads_to(base, carried, form_start, lang):
        sheet.error = gettext(
            "The score sheet does not lead to this round: its rounds end with other favour "
            "markers or another round than the form holds. The form is scored as it is.")
    sheet.current = len(rounds) - 1 if current else None
    sheet.over = answer["next"] is None
    return sheet


def _table(rb: Any, answer: Mapping[str, Any], names: Mapping[str, str],
           lang: str) -> tuple[list[str], list[list[str]]]:
    """The sheet's header and a row per round: each side's geishas and charm, the result."""
    t = translator(lang)
    geishas = [t.pgettext(f"geisha.{g.id}", g.name) for g in rb.geishas]
    header = [gettext("Round"),
              *(label for p in PLAYERS for label in (
                  gettext("Geishas of %(player)s", player=names[p]),
                  gettext("Charm points of %(player)s", player=names[p]))),
              gettext("Result")]
    rows = [[str(rnd["round"]),
             *(cell for p in PLAYERS for cell in (
                 listed((name for name, holder in zip(geishas, rnd["favor"]) if holder == p), t),
                 str(rnd["charm"][p]))),
             _result(rnd["outcome"], names)]
            for rnd in answer["rounds"]]
    return header, rows


def _leads_to(base: Mapping[str, Any], carried: list[dict[str, Any]],
              form_start: tuple[int, list[str]], lang: str) -> bool:
    """Whether the rounds carried end where the form's round starts (its number, markers)."""
    ended = referee({**base, "rounds": carried}, lang)["next"]
    round_number, favor = form_start
    return ended is not None and ended["round"] == round_number and [
        v or "" for v in ended["favor"]] == favor


def _result(outcome: Mapping[str, Any], names: Mapping[str, str]) -> str:
    status = outcome["status"]
    if status == "win":
        return gettext("%(player)s wins", player=names[outcome["winner"]])
    return {"continue": gettext("The match goes on"),
            "shared": gettext("The victory is shared"),
            "draw": gettext("A draw"),
            }.get(status, gettext("Not decided by the rules"))
