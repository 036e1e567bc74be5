"""The rule-id thread is checked, not a convention.

Every rule id a referee can cite is declared in its game's YAML: the rulebook loader
refuses a YAML whose own references (actions, steps, options, FAQ...) name an unknown
rule, and this test reads each referee's code for the ids it names itself. The web test
tests/web/test_rule_anchors.py then checks that the ids of real rulings and errors are
anchors of the rules pages in every language.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from rulebook import GAMES

RULE_ID = re.compile(r"^[a-z0-9]+(?:[.-][a-z0-9]+)+$")


def not_citations(tree: ast.AST) -> set[int]:
    """Strings that name something else: message keys (dict keys), error codes and
    explanation keys (a call's first argument, a tuple's first item)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            out.update(id(key) for key in node.keys if key is not None)
            out.update(id(value) for key, value in zip(node.keys, node.values)
                       if isinstance(key, ast.Constant) and key.value == "reason")
        elif isinstance(node, ast.Call) and node.args:
            out.add(id(node.args[0]))
        elif isinstance(node, ast.Tuple) and len(node.elts) > 1:
            out.add(id(node.elts[0]))
    return out


def cited_literals(folder: Path, prefixes: set[str]) -> dict[str, list[str]]:
    """Every string in the game's code that has the shape and the prefix of a rule id and
    stands where a rule is named."""
    found: dict[str, list[str]] = {}
    for source in sorted(folder.glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        skip = not_citations(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                text = node.value
                if RULE_ID.match(text) and text.split(".")[0] in prefixes and "." in text:
                    found.setdefault(text, []).append(f"{source.name}:{node.lineno}")
    return found


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_rule_id_in_the_code_is_declared(slug):
    game = GAMES[slug]
    rb = game.load()
    prefixes = {rule_id.split(".")[0] for rule_id in rb.rules}
    cited = cited_literals(game.folder, prefixes)
    assert cited, f"{slug}: the scan sees none of its referee's citations"  # a game may be small
    unknown = {text: where for text, where in cited.items() if text not in rb.rules}
    assert unknown == {}, unknown


def test_a_ruling_says_what_kind_of_refusal_it_is():
    from rulebook.referee import judge

    assert judge({"game": "hanamikoji", "rounds": "all"}).kind == "malformed"
    assert judge({"game": "hanamikoji", "edition": "bootleg",
                  "rounds": [{"board": {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}}]}
                 ).kind == "illegal"
    ruling = judge({"game": "koikoi", "rounds": [{"winner": None}]})
    assert ruling.valid and ruling.kind is None and ruling.document["result"]["status"] == "continue"
