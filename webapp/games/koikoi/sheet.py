"""The Koi-Koi match's score sheet: each round's month, dealer, winner, yaku, points and the
running totals, as the referee answers for the rounds the `sheet` parameter carries.

A round's token is what the referee needs to score it again: the winner (`a`, `b` or `n`
for nobody), each player's koi-koi calls (one digit each) and the piles, a card a character
(its number on the chart in base 62: 0-9, A-Z, a-z), A's pile, "-", B's pile:
`a10` + `028AKM` + `-` + `1` is A's round with one call by A. A start, when the match did
not begin at round 1 with no points, is `@<round>_<dealer>_<A's points>_<B's points>`.
"""
from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext, pgettext

from rulebook.i18n import listed, translator
from rulebook.koikoi import referee
from rulebook.players import PLAYERS

from .. import sheet as common

CARDS = string.digits + string.ascii_uppercase + string.ascii_lowercase
ROUND = re.compile(r"([abn])(\d)(\d)([0-9A-Za-z]*)-([0-9A-Za-z]*)")
START = re.compile(r"(\d{1,3})_([ab])_(-?\d{1,7})_(-?\d{1,7})")
WINNER = {"a": "a", "b": "b", "n": None}


def round_token(rnd: Mapping[str, Any]) -> str:
    """One round of a referee request (a valid one: calls below 10) as a sheet token."""
    winner = next(k for k, v in WINNER.items() if v == rnd["winner"])
    calls = "".join(str(rnd["koikoi"].get(p, 0)) for p in PLAYERS)
    piles = "-".join("".join(CARDS[c] for c in rnd["captured"].get(p, [])) for p in PLAYERS)
    return winner + calls + piles


def start_token(rb: Any, match: Mapping[str, str]) -> str:
    """Where a match entered on the checker started, "" for round 1, the first dealer, 0-0."""
    values = (match["round"] or "1", match["dealer"] or rb.first_dealer,
              match["ta"] or "0", match["tb"] or "0")
    return "" if values == ("1", rb.first_dealer, "0", "0") else "_".join(values)


def next_sheet(rb: Any, text: str, match: Mapping[str, str], rnd: Mapping[str, Any]) -> str:
    """The sheet with the round just ruled added (its start taken from the form the first time)."""
    return common.with_round(text, start_token(rb, match), round_token(rnd))


def read(rb: Any, text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The start and the rounds of a sheet parameter, as the referee's request holds them."""
    parts = common.read_parts(text)
    start: dict[str, Any] = {}
    if parts.start:
        found = START.fullmatch(parts.start)
        if not found:
            raise common.unreadable(1)
        start = {"round": int(found[1]), "dealer": found[2],
                 "totals": {"a": int(found[3]), "b": int(found[4])}}
    rounds = []
    for number, token in enumerate(parts.rounds, start=1):
        found = ROUND.fullmatch(token)
        piles = [found[4], found[5]] if found else []
        if not found or any(CARDS.index(c) >= len(rb.cards) for pile in piles for c in pile):
            raise common.unreadable(number)
        rounds.append({"winner": WINNER[found[1]],
                       "koikoi": {"a": int(found[2]), "b": int(found[3])},
                       "captured": {p: [CARDS.index(c) for c in pile]
                                    for p, pile in zip(PLAYERS, piles) if pile}})
    return start, rounds


def build(rb: Any, text: str, request: Mapping[str, Any], valid: bool,
          match: Mapping[str, str] | None, names: Mapping[str, str], query: str,
          lang: str) -> common.Sheet:
    """The sheet of the rounds carried, and of this round when the referee ruled it.
    `match` is the form's round, dealer and points (None while one of them is not valid):
    the rounds carried must lead to them."""
    sheet = common.Sheet(text, query=query)
    parsed = common.read_sheet(sheet, lambda given: read(rb, given))
    rounds = parsed[1] + ([request["rounds"][0]] if valid else []) if parsed else []
    if not parsed or not rounds:
        return sheet
    start, carried = parsed
    settings = common.settings_of(request)
    if start:
        settings["start"] = start
    t = translator(lang)
    sheet.header = [pgettext("Koi-Koi", "Round"), gettext("Month"), gettext("Dealer"),
                    gettext("Winner"), gettext("Yaku"),
                    *(gettext("Points: %(player)s", player=names[p]) for p in PLAYERS),
                    *(gettext("Total: %(player)s", player=names[p]) for p in PLAYERS)]
    for count in range(1, len(rounds) + 1):  # each round's totals, as the referee adds them
        answer = referee({**settings, "rounds": rounds[:count]}, lang)
        if not answer["valid"]:
            sheet.error = common.refusal(answer)
            return sheet
        rnd = answer["rounds"][-1]
        sheet.rows.append([
            str(rnd["round"]),
            t.pgettext(f"koikoi.month.{rnd['month']}", rb.month_by_number[rnd["month"]].name),
            names[rnd["dealer"]],
            names[rnd["winner"]] if rnd["winner"] else gettext("Nobody"),
            listed((t.pgettext(f"koikoi.yaku.{y['id']}", rb.yaku_by_id[y["id"]].name)
                    for y in rnd["yaku"]), t),
            *(str(rnd["score"][p]) for p in PLAYERS),
            *(str(answer["totals"][p]) for p in PLAYERS)])
        if count == len(carried) and match is not None and not _leads_to(rb, answer, match):
            sheet.error = gettext(
                "The score sheet does not lead to this round: its rounds end with other points, "
                "another round or another dealer than the form holds. The form is scored as it is.")
    sheet.current = len(rounds) - 1 if valid else None
    sheet.over = answer["next"] is None
    return sheet


def _leads_to(rb: Any, answer: Mapping[str, Any], match: Mapping[str, str]) -> bool:
    """Whether the round after the sheet's is the form's, dealt by its dealer, from its points."""
    after = answer["next"]
    return after is not None and (
        str(after["round"]) == (match["round"] or "1")
        and after["dealer"] == (match["dealer"] or rb.first_dealer)
        and all(str(answer["totals"][p]) == (match[f"t{p}"] or "0") for p in PLAYERS))
