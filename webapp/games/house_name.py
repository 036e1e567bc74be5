"""The optional name a table gives its settings (`house=Oma's rules` in a page's query).

It travels with the ruleset or edition and the options in every link of the rules pages,
the checker, the finder and the player aid, and in their QR codes. It is the table's own
text: shown escaped (Jinja) and isolated in sentences, never interpreted, cut to MAX_HOUSE
characters.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from flask_babel import ngettext

PARAMETER = "house"
MAX_HOUSE = 40  # characters: a name on a phone's line and a printed sheet's heading


def clean(text: str) -> str:
    """Spaces collapsed, control and format characters (line breaks, bidi controls) dropped."""
    kept = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf"))
    return " ".join(kept.split())


def read_house(args: Mapping[str, str]) -> tuple[str, str | None]:
    """(the name, a notice when it had to be shortened) from a query."""
    name = clean(str(args.get(PARAMETER, "") or "")[: MAX_HOUSE * 8])
    if len(name) <= MAX_HOUSE:
        return name, None
    return name[:MAX_HOUSE].rstrip(), ngettext(
        "The name of your rules was shortened to %(num)s character.",
        "The name of your rules was shortened to %(num)s characters.", MAX_HOUSE)
