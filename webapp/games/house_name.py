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
    """Control characters (line breaks, tabs) as spaces, format characters (bidi controls,
    zero-width marks) dropped, spaces collapsed."""
    kinds = [(c, unicodedata.category(c)) for c in text]
    kept = "".join(" " if kind == "Cc" else c for c, kind in kinds if kind != "Cf")
    return " ".join(kept.split())


def read_house(args: Mapping[str, str]) -> tuple[str, str | None]:
    """(the name, a notice when it had to be shortened) from a query."""
    name = clean(str(args.get(PARAMETER, "") or "")[: MAX_HOUSE * 8])
    if len(name) <= MAX_HOUSE:
        return name, None
    return name[:MAX_HOUSE].rstrip(), ngettext(
        "The name of your rules was shortened to %(num)s character.",
        "The name of your rules was shortened to %(num)s characters.", MAX_HOUSE)
