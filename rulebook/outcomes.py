"""The fixed sets of values a ruling's JSON holds, as enums: what a match's `status` can
be, and what `kind` a problem is. They are `str` enums, so a document carries the same
strings in JSON as before (tests/rules/test_typed_outcomes.py compares a corpus)."""
from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """Where a match stands after the rounds of a request (`result.status`)."""

    WIN = "win"  # a player has won (`winner`)
    SHARED = "shared"  # the players share the victory
    DRAW = "draw"  # the match ended level, nobody wins
    CONTINUE = "continue"  # the match goes on (`next` says how)
    UNDECIDED = "undecided"  # the rules as our sources print them do not decide it
    IN_PROGRESS = "in_progress"  # the last round is not finished yet


class Kind(StrEnum):
    """What a problem with a request is (`errors[].kind`)."""

    MALFORMED = "malformed"  # not shaped as its schema says: HTTP 400
    ILLEGAL = "illegal"  # well shaped, but the rules refuse it: HTTP 422
