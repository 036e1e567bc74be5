"""rulebook/jsonio.py: orjson with the standard library's meaning, and translatable refusals."""
from __future__ import annotations

import json

import pytest

from rulebook import jsonio
from rulebook.i18n import LANGUAGES, translator
from rulebook.referee import referee
from tools.bench_referee import board_requests, log_requests

KOIKOI = {"game": "koikoi", "rounds": [{"winner": "a", "captured": {"a": [0, 4, 8, 12, 16]},
                                        "koikoi": {"a": 0, "b": 0}}]}


def stdlib(document) -> bytes:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_dumps_is_byte_identical_to_json_for_referee_answers(lang):
    requests = [json.loads(text) for text in board_requests(40) + log_requests(1)]
    requests += [KOIKOI, {"game": "hanamikoji", "rounds": [{"board": {"a": [9] * 7}}]}, [], "x"]
    for request in requests:
        answer = referee(request, lang)
        assert jsonio.dumps(answer) == stdlib(answer)


def test_loads_keeps_json_semantics():
    assert jsonio.loads(b'{"round": 123456789012345678901234567890}') == {
        "round": 123456789012345678901234567890}  # exact, not a float
    assert jsonio.loads(b'[1.5, -0, "\\u00e9\\ud83d\\ude00"]') == [1.5, 0, "é😀"]
    assert jsonio.loads('{"a": "é"}') == {"a": "é"}
    assert jsonio.dumps({"n": 10 ** 30}) == b'{"n":1000000000000000000000000000000}'


@pytest.mark.parametrize("text, message", [
    (b"[NaN]", jsonio.NOT_A_NUMBER), (b'{"a": Infinity}', jsonio.NOT_A_NUMBER),
    (b"[-Infinity]", jsonio.NOT_A_NUMBER), (b'{"edition": "\\ud800"}', jsonio.SURROGATE),
    (b'["1111111111111111111111", "\\udfff"]', jsonio.SURROGATE),
    (b"[" * 1000 + b"]" * 1000, jsonio.TOO_DEEP), (b"[" * 33 + b"]" * 33, jsonio.TOO_DEEP),
    (b"[" + b"7" * 5000 + b"]", jsonio.TOO_BIG), (b"[1e5000]", jsonio.TOO_BIG),
    (b"\xff\xfe", jsonio.NOT_UTF8), (b"", jsonio.EMPTY), (b"  \n", jsonio.EMPTY),
    (b'{"a": 1,}', jsonio.SYNTAX), (b'{"a": 1} x', jsonio.SYNTAX), (b"{", jsonio.SYNTAX),
])
def test_refusals_are_translatable(text, message):
    with pytest.raises(jsonio.JSONError) as caught:
        jsonio.loads(text)
    assert caught.value.message == message
    german = caught.value.translated(translator("de"))
    assert german and "{" not in german  # every placeholder filled


def test_depth_limit_is_exact():
    assert jsonio.loads(b"[" * 32 + b"]" * 32)
    assert jsonio.loads(b'{"a":' * 31 + b"1" + b"}" * 31)
    with pytest.raises(jsonio.JSONError):
        jsonio.check_depth([[[[]]]] if jsonio.MAX_DEPTH < 4 else _nest(jsonio.MAX_DEPTH + 1))


def _nest(depth: int):
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


# What read_one() is given: the documents above, valid and refused, and the referee's corpus.
READ_ONE_CASES = [
    b'{"round": 123456789012345678901234567890}', b'[1.5, -0, "\\u00e9\\ud83d\\ude00"]',
    '{"a": "é"}'.encode(), b"[NaN]", b'{"a": Infinity}', b"[-Infinity]",
    b'{"edition": "\\ud800"}', b'["1111111111111111111111", "\\udfff"]',
    b"[" * 1000 + b"]" * 1000, b"[" * 33 + b"]" * 33, b"[" * 32 + b"]" * 32,
    b"[" + b"7" * 5000 + b"]", b"[1e5000]", b"\xff\xfe", b"", b"  \n", b'{"a": 1,}',
    b'{"a": 1} x', b"{", b'{"a": 2.0, "b": 5e0, "c": [1, 2E1]}', b'{"a": "\\u0000\\t"}',
    b'{"a": "\x01"}', b'\xef\xbb\xbf{"a": 1}', b'{"a": 1, "a": 2}', b"[01]", b"[1.]",
    b'["\\x"]', b"tru", b"null", b"7", b'"text"',
    *(text.encode() for text in board_requests(20) + log_requests(1)),
    json.dumps(KOIKOI).encode(),
]


def _read(read, data):
    try:
        return "document", read(data)
    except jsonio.JSONError as exc:
        return "refused", exc.message, exc.fields


@pytest.mark.parametrize("data", READ_ONE_CASES)
def test_read_one_reads_what_loads_reads_and_refuses_in_its_words(data):
    """The command's reader (the standard library's parser, no orjson to import) gives
    loads()'s document, or its refusal with the same message, line and column."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return  # the command refuses what is not UTF-8 before it reads
    assert _read(jsonio.read_one, text) == _read(jsonio.loads, text)
