"""The match's score sheet, for every game: the rounds played so far, kept in the URL.

A game's checker carries the rounds of the match in one parameter, `sheet`: each round
as the referee needs it to score it again (Koi-Koi: who won, the calls, the piles;
Hanamikoji: the counts on the board), rounds separated by ".", after an optional start
("@…") when the match did not start at its first round. The page never trusts a number
from it: the game's sheet module asks the referee to play the rounds again and shows what
it answers, as a table under the checker and as CSV (webapp/pages/sheet.py). This module
holds what the games share: the parameter's shape, the table, the CSV.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext, ngettext

PARAMETER = "sheet"
MAX_TEXT = 3000  # characters of the parameter (the query string's cap is 6 KB)
MAX_ROUNDS = 48  # the referee takes at most 50 rounds per request: these and this one
SEPARATOR = "."
START = "@"


class SheetError(ValueError):
    """A sheet parameter that cannot be read: the message says why, in the page's language."""


@dataclass(frozen=True)
class Parts:
    """A sheet parameter split up: its start ("" when the match began at round 1) and rounds."""

    start: str
    rounds: list[str]


def split(text: str) -> Parts:
    """The start and the round tokens of a sheet parameter (no token may be empty)."""
    tokens = text.split(SEPARATOR) if text else []
    start = tokens.pop(0)[len(START):] if tokens and tokens[0].startswith(START) else ""
    return Parts(start, tokens)


def read_parts(text: str) -> Parts:
    """The parts of a sheet parameter no longer than a match can be (SheetError if longer)."""
    parts = split(text)
    if len(text) > MAX_TEXT or len(parts.rounds) > MAX_ROUNDS:
        raise SheetError(ngettext(
            "The score sheet in this link is longer than a match can be: it holds at most "
            "%(num)s round.", "The score sheet in this link is longer than a match can be: it "
            "holds at most %(num)s rounds.", MAX_ROUNDS))
    return parts


def unreadable(number: int) -> SheetError:
    """Round `number` of the sheet (1: its start, if it has one) is not a round's token."""
    return SheetError(gettext(
        "Round %(num)s of the score sheet in this link cannot be read: it was changed or cut "
        "short. The rest of what you entered is kept.", num=number))


def join(parts: Parts) -> str:
    return SEPARATOR.join(([START + parts.start] if parts.start else []) + parts.rounds)


def with_round(text: str, start: str, token: str) -> str:
    """The sheet with one more round; `start` (the form's, "" for a match from its first
    round) begins a sheet that has nothing yet."""
    parts = split(text)
    begun = parts.start if parts.start or parts.rounds else start
    return join(Parts(begun, [*parts.rounds, token]))


@dataclass
class Sheet:
    """What the page and the CSV show: a caption, the header row and one row per round.

    `text` is the parameter as given, kept in the form even when it cannot be read, so that
    nothing entered is lost; `error` says why the rows are missing or do not add up."""

    text: str
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    current: int | None = None  # the row of the round on the checker (not yet carried)
    error: str | None = None
    query: str = ""  # the checker's query these rows come from (the CSV link's)
    over: bool = False  # the match ended with the last row: no round follows

    @property
    def shown(self) -> bool:
        return bool(self.rows or self.error)


def csv_bytes(sheet: Sheet) -> bytes:
    """The sheet as CSV: UTF-8 with a byte order mark (spreadsheet apps then read names in
    any script), CRLF line ends (RFC 4180)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(sheet.header)
    writer.writerows(sheet.rows)
    return "\ufeff".encode() + out.getvalue().encode()


def refusal(answer: Mapping[str, Any]) -> str:
    """The first thing the referee refuses in the rounds of a sheet, with its round."""
    error = answer["errors"][0]
    path = error["path"].split("/")
    number = int(path[2]) + 1 if len(path) > 2 and path[1] == "rounds" else 1
    return gettext("Round %(num)s of the score sheet: %(message)s", num=number,
                   message=error["message"])


def settings_of(request: Mapping[str, Any]) -> dict[str, Any]:
    """A checker's request without its start and rounds: the game, its rules, the names."""
    return {k: v for k, v in request.items() if k not in ("start", "rounds")}


def read_sheet(sheet: Sheet, read: Callable[[str], tuple[Any, list[dict[str, Any]]]]
               ) -> tuple[Any, list[dict[str, Any]]] | None:
    """The start and rounds `read` finds in the sheet's text; None, with the sheet's error
    set, when it cannot read them."""
    try:
        return read(sheet.text)
    except SheetError as error:
        sheet.error = str(error)
        return None
