"""Bug 6: a number whose value is whole counts as an integer wherever the schema says
integer (JSON Schema and OpenAPI 3.1 count `2.0` as one), in both games' API and in the
CLI: the same ruling as with `2`. A fraction stays refused."""
from __future__ import annotations

import json
import re

import pytest

from rulebook import jsonio
from rulebook.cli import main

BOARD = '{"rounds": [{"board": {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}}]}'
KOIKOI = ('{"rounds": [{"winner": "a", "captured": {"a": [0, 2, 8, 10, 28, 30]}, '
          '"koikoi": {"a": 0, "b": 0}}]}')


def whole(text: str) -> str:
    """Every integer of the request written as a float: 2 -> 2.0 (and 40 -> 4.0e1)."""
    count = iter(range(1_000_000))
    return re.sub(r"(?<![\w.])(\d+)(?![\w.])",
                  lambda m: f"{int(m.group(1)) / 10:.1f}e1" if next(count) % 3 == 2
                  else m.group(1) + ".0", text)


@pytest.mark.parametrize("game, body", [("hanamikoji", BOARD), ("koikoi", KOIKOI)])
def test_whole_floats_get_the_same_ruling(client, game, body):
    plain = client.post(f"/api/v1/{game}/score", data=body, content_type="application/json")
    assert plain.status_code == 200, plain.data
    floats = whole(body)
    assert "2.0" in floats or "0.0" in floats
    again = client.post(f"/api/v1/{game}/score", data=floats, content_type="application/json")
    assert again.status_code == 200, again.data  # was 400 (a board) and 422 (a card)
    assert again.get_json() == plain.get_json()


@pytest.mark.parametrize("game, body, fraction", [
    ("hanamikoji", BOARD, ("[2, 1,", "[2.5, 1,")), ("koikoi", KOIKOI, ("[0, 2,", "[0, 2.5,"))])
def test_a_fraction_is_still_refused(client, game, body, fraction):
    answer = client.post(f"/api/v1/{game}/score", data=body.replace(*fraction),
                         content_type="application/json")
    assert answer.status_code in (400, 422), answer.data


def test_whole_floats_in_the_cli_json_and_yaml(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"game": "hanamikoji", **json.loads(BOARD)}))
    assert main(["score", "--json", str(path)]) == 0
    expected = json.loads(capsys.readouterr().out)
    path.write_text(whole(path.read_text()))
    assert main(["score", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == expected
    yaml = tmp_path / "r.yaml"
    yaml.write_text("game: hanamikoji\nrounds:\n  - board: {a: [2.0, 1.0, 0.0, 2.0, 2.0, 0.0, 1.0], "
                    "b: [0.0, 1.0, 2.0, 0.0, 0.0, 2.0, 3.0]}\n")
    assert main(["score", "--json", str(yaml)]) == 0
    assert json.loads(capsys.readouterr().out) == expected


@pytest.mark.parametrize("text, value", [
    ("2.0", 2), ("-0.0", 0), ("1e2", 100), ("0.5e1", 5), ("2.5", 2.5), ("1E-2", 0.01),
    ("12345678901234567890.0", 12345678901234567890),  # exact, not through a double
    ('{"name": "v2.0", "n": [3.0]}', {"name": "v2.0", "n": [3]}),
])
def test_loads_reads_whole_numbers_as_integers(text, value):
    document = jsonio.loads(text)
    assert document == value and type(document) is type(value)


@pytest.mark.parametrize("text", ["1e5000", "9" * 5000 + ".0", "9" * 400 + ".5"])
def test_numbers_past_the_limits_are_too_large(text):
    with pytest.raises(jsonio.JSONError, match="too large"):
        jsonio.loads(text)
