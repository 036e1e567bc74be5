"""JSON in and out for the API and the CLI: orjson, with the standard library's meaning.

`loads()` reads a request document or raises `JSONError` with a message that can be
translated (the parser's own English never reaches a user). It accepts what RFC 8259
calls JSON and nothing more: no NaN or Infinity, no unpaired surrogate escape (it could
not be written back as UTF-8), at most MAX_DEPTH levels of nesting (the referee and
its error messages never recurse into a bomb). Integers keep Python's exact value, as
`json.loads` gives them (orjson would turn one beyond 64 bits into a float). A number
written with a fraction or an exponent whose value is whole (`2.0`, `5e0`) is that
integer, as JSON Schema and OpenAPI 3.1 count it; `2.5` stays a float (which the
referee refuses where its schema says integer, as every number in a request is).

`dumps()` writes compact UTF-8, byte for byte what
`json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()` writes for the
documents the referee produces (tests/test_jsonio.py checks both).
"""
from __future__ import annotations

import json
import re
from typing import Any

from .i18n import N_

MAX_DEPTH = 32  # a request is about 7 levels deep (rounds, actions, card groups)
# 20+ digits in a row: possibly an integer beyond 64 bits (or a long digit string)
_LONG_DIGITS = re.compile(rb"\d{20}")
# a digit before a point or an exponent: possibly a number with a fraction (or a text)
_FRACTION = re.compile(rb"\d[.eE]")
MAX_DIGITS = 4300  # Python's limit for an integer read from text (sys.int_info)

SYNTAX = N_("This is not valid JSON: unexpected or missing text at line {line}, column {column}.")
EMPTY = N_("The JSON document is empty.")
NOT_A_NUMBER = N_("NaN and Infinity are not JSON numbers (line {line}, column {column}).")
TOO_BIG = N_("A number is too large (line {line}, column {column}).")
SURROGATE = N_("A text has an unpaired surrogate escape such as \\ud800 "
               "(line {line}, column {column}).")
NOT_UTF8 = N_("The JSON document is not UTF-8 text.")
TOO_DEEP = N_("The JSON document is nested more than {depth} levels deep.")


class JSONError(ValueError):
    """A document that is not acceptable JSON: `message` (English, translatable) + `args`."""

    def __init__(self, message: str, **fields: Any) -> None:
        super().__init__(message.format(**fields))
        self.message = message
        self.fields = fields

    def translated(self, translations) -> str:
        return translations.gettext(self.message).format(**self.fields)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _number(text: str) -> int | float:
    """A JSON number with a fraction or an exponent: the integer when its exact value is
    whole, else the float. Past MAX_DIGITS digits (or infinite as a float): too large."""
    import math  # (both only for such a number: not on a cold command's way)
    from decimal import Decimal

    value = Decimal(text)
    if value == value.to_integral_value():
        if value.adjusted() >= MAX_DIGITS:
            raise ValueError("too many digits")
        return int(value)
    number = float(text)
    if math.isinf(number):
        raise ValueError("too large for a float")
    return number


def whole_numbers(document: Any) -> Any:
    """The document (changed in place) with each float whose value is whole made an int:
    a YAML request's `2.0` is read as JSON's is (see the module's text)."""
    stack = [document]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else (
            enumerate(node) if isinstance(node, list) else ())
        for key, value in list(items):
            if isinstance(value, float) and value.is_integer():
                node[key] = int(value)
            elif isinstance(value, (dict, list)):
                stack.append(value)
    if isinstance(document, float) and document.is_integer():
        return int(document)
    return document


def _error(data: bytes | str, exc: json.JSONDecodeError) -> JSONError:
    where = {"line": exc.lineno, "column": exc.colno}
    text = exc.msg.lower()
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if "depth" in text or "recursion" in text:
        return JSONError(TOO_DEEP, depth=MAX_DEPTH)
    if "empty" in text or not raw.strip():
        return JSONError(EMPTY)
    if "surrogate" in text and "utf-8" not in text:
        return JSONError(SURROGATE, **where)
    if "utf-8" in text:
        return JSONError(NOT_UTF8)
    if "infinity" in text or "exceeds" in text or "digits" in text:
        return JSONError(TOO_BIG, **where)
    rest = raw[exc.pos:exc.pos + 9].lstrip(b"-")
    if rest.startswith((b"NaN", b"Infinity")):
        return JSONError(NOT_A_NUMBER, **where)
    return JSONError(SYNTAX, **where)


def _depth_ok(document: Any) -> bool:
    stack = [(document, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(node, dict):
            stack.extend((value, depth + 1) for value in node.values()
                         if isinstance(value, (dict, list)))
        elif isinstance(node, list):
            stack.extend((value, depth + 1) for value in node if isinstance(value, (dict, list)))
    return True


def check_depth(document: Any, raw: bytes | str | None = None) -> None:
    """Raise JSONError past MAX_DEPTH levels (also for YAML documents)."""
    if raw is not None:  # fewer brackets than the cap: nothing to walk
        text = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
        if text.count(b"[") + text.count(b"{") <= MAX_DEPTH:
            return
    if not _depth_ok(document):
        raise JSONError(TOO_DEEP, depth=MAX_DEPTH)


def loads(data: bytes | str) -> Any:
    """Parse a JSON document; JSONError (never another exception) when it is not one."""
    raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    # The standard library keeps big integers exact (up to 4300 digits) and reads a
    # number with a fraction exactly (_number); orjson, much faster, for the rest.
    exact = _LONG_DIGITS.search(raw) is not None or _FRACTION.search(raw) is not None
    try:
        if exact:
            document = _exact(data)
        else:
            import orjson  # here, not at the top: a cold command reads with read_one()

            document = orjson.loads(data)
    except json.JSONDecodeError as exc:  # orjson's error is a subclass
        raise _error(data, exc) from None
    except RecursionError:
        raise JSONError(TOO_DEEP, depth=MAX_DEPTH) from None
    except ValueError as exc:  # the standard library's other refusals
        if "is not JSON" in str(exc):
            raise JSONError(NOT_A_NUMBER, line=1, column=1) from None
        if isinstance(exc, UnicodeError):
            raise JSONError(NOT_UTF8) from None
        raise JSONError(TOO_BIG, line=1, column=1) from None  # over 4300 digits
    check_depth(document, raw)
    if exact:
        check_text(document)
    return document


def _exact(data: bytes | str) -> Any:
    return json.loads(data, parse_constant=_reject_constant, parse_float=_number)


def read_one(text: str) -> Any:
    """loads() for a process that reads one document (the `shinpan` command): the standard
    library's parser, which is already imported, where orjson's import (~20 ms: it brings
    dataclasses, inspect, uuid, datetime) would cost a cold command more than it saves on
    one request. The same document as loads(); any refusal is loads()'s, word for word.
    Text only: given bytes, the standard library would also read UTF-16 and a UTF-8 BOM."""
    try:
        document = _exact(text)
        check_depth(document, text)
        check_text(document)
    except (ValueError, RecursionError, JSONError):  # a JSONDecodeError is a ValueError
        return loads(text)  # raises JSONError as loads() words it
    return document


def check_text(document: Any) -> None:
    """The standard library accepts `"\\ud800"`; orjson (and UTF-8) do not."""
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            try:
                node.encode("utf-8")
            except UnicodeEncodeError:
                raise JSONError(SURROGATE, line=1, column=1) from None
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def dumps(document: Any) -> bytes:
    """Compact UTF-8 JSON; the standard library for what orjson refuses (big integers)."""
    import orjson  # see loads()

    try:
        return orjson.dumps(document)
    except TypeError:
        return json.dumps(document, ensure_ascii=False, separators=(",", ":"),
                          allow_nan=False).encode("utf-8", "backslashreplace")


def dumps_pretty(document: Any) -> str:
    """Indented, for a person (`shinpan score --json`)."""
    return json.dumps(document, ensure_ascii=False, indent=2)
