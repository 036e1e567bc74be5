"""Problems a user can cause, in one dialect for every game.

A problem has a stable `code`, a JSON pointer `path` to the field, the `rule` it breaks, a
message in the request's language, and a `kind`:

* `malformed`: the request is not shaped as its schema says (not a JSON object, a value
  of the wrong JSON type, a required field missing, a field nobody knows): HTTP 400;
* `illegal`: well shaped, but the rules refuse it (a count the cards do not allow, wrong
  totals, turn order, an unknown edition or card, a round after the end): HTTP 422.

The codes of situations every game shares live here, with one message each.
"""
from __future__ import annotations

import json
from typing import Any, NamedTuple

from .i18n import N_, listed
from .outcomes import Kind

MALFORMED = Kind.MALFORMED
ILLEGAL = Kind.ILLEGAL

# Shared situations: code -> message template ({placeholders} filled after translation).
SHARED = {
    "request.not-object": N_("The request must be a JSON object."),
    "request.unknown-field": N_("Unknown field “{field}”."),
    "request.missing-field": N_("The field “{field}” is missing."),
    "request.type": N_("Expected {expected} here, not {value}."),
    "game.unknown": N_("Unknown game {value}; this referee knows {games}."),
}
# The shared codes that describe a malformed request; every other code is `illegal`.
MALFORMED_CODES = frozenset(
    {"request.not-object", "request.unknown-field", "request.missing-field", "request.type"})

# Names of JSON types in "Expected ... here" messages.
EXPECTED = {
    "object": N_("an object"),
    "list": N_("a list"),
    "text": N_("text"),
    "integer": N_("a whole number"),
    "boolean": N_("true or false"),
}


class Problem(NamedTuple):
    code: str
    path: str
    rule: str
    message: str
    kind: Kind = ILLEGAL

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "path": self.path, "rule": self.rule,
                "message": self.message, "kind": self.kind}


class Ruling(NamedTuple):
    """A referee's answer: the response document, and what a refusal is (its kind)."""

    document: dict[str, Any]

    @property
    def valid(self) -> bool:
        return bool(self.document.get("valid"))

    @property
    def errors(self) -> list[dict[str, Any]]:
        return self.document.get("errors", [])

    @property
    def kind(self) -> Kind | None:
        """None for a ruling; `malformed` or `illegal` for a refused request."""
        return None if self.valid else request_kind(self.errors)


def kind_of(code: str) -> Kind:
    return MALFORMED if code in MALFORMED_CODES else ILLEGAL


def request_kind(errors: list[dict[str, Any]]) -> Kind:
    """A whole request is malformed when any of its problems is."""
    return MALFORMED if any(e.get("kind") == MALFORMED for e in errors) else ILLEGAL


def pointer(*parts: Any) -> str:
    """A JSON pointer (RFC 6901) to the field at `parts`."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def short(text: str, limit: int = 40) -> str:
    """A typed value quoted back in a message, cut to a readable length."""
    return text if len(text) <= limit else text[:limit] + "…"


def quote(text: str, t: Any) -> str:
    """`text` in the quotation marks of `t`'s language („…“, «…», “…”): the catalog says which."""
    # Translators: the quotation marks around a value typed by a user or named by the referee
    return t.pgettext("quotation marks", "“{value}”").format(value=text)


def describe(value: Any, t: Any) -> str:
    """A bad value as a person reads it in a message: text in the language's quotes, a list
    item by item, anything else in JSON's words (true, null, 3), never Python's repr."""
    if isinstance(value, str):
        return quote(short(value), t)
    if isinstance(value, list):
        items = [describe(item, t) for item in value[:4]]
        return "[" + ", ".join(items + ["…"] * (len(value) > 4)) + "]"
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError):  # not JSON at all, or an integer past 4300 digits
        text = "…"
    return short(text)


def quoted_list(values: Any, t: Any) -> str:
    """`“a”, “b”`: the choices named in a message, in the language's quotes."""
    return listed((quote(str(v), t) for v in values), t)
