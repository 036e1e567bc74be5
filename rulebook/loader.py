"""Load a rulebook YAML file and check it against its JSON Schema.

A broken rulebook fails loudly with the file, the YAML path and what is wrong,
so an editor of the YAML never has to read a traceback.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
# libyaml's parser when PyYAML was built with it: several times faster at start-up.
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SCHEMAS = HERE / "schemas"


class RulebookError(ValueError):
    """A rulebook file that is not well-formed or breaks its schema."""

    def __init__(self, file: Path | str, problems: list[tuple[str, str]]):
        self.file = str(file)
        self.problems = problems  # (yaml path, what is wrong)
        lines = [f"{self.file}: {path or '(top level)'}: {message}" for path, message in problems]
        super().__init__("invalid rulebook\n" + "\n".join(lines))


def yaml_path(parts) -> str:
    """Render a jsonschema path as a YAML path like `geishas[3].charm`."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@cache
def load_schema(name: str) -> dict[str, Any]:
    with open(SCHEMAS / name, encoding="utf-8") as handle:
        return json.load(handle)


def load_yaml_checked(path: Path | str, schema_name: str) -> dict[str, Any]:
    """Parse `path` and validate it against `schemas/<schema_name>`; raise RulebookError."""
    path = Path(path)
    try:
        with open(path, encoding="utf-8") as handle:
            data = yaml.load(handle, Loader=YAML_LOADER)
    except OSError as exc:
        raise RulebookError(path, [("", f"cannot read the file: {exc.strerror}")]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise RulebookError(path, [(where, f"not valid YAML: {getattr(exc, 'problem', exc)}")]) from None
    from jsonschema import Draft202012Validator  # only when a rulebook is loaded: ~40 ms

    validator = Draft202012Validator(load_schema(schema_name))
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        raise RulebookError(path, [(yaml_path(e.absolute_path), e.message) for e in errors])
    return data


def collect_rules(data: dict[str, Any]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Every rule id -> its English text (whitespace folded as the extractor does), and
    the problems found (a rule id used twice, a rule without a title or a title without
    a rule)."""
    rules: dict[str, str] = {}
    problems: list[tuple[str, str]] = []
    for i, section in enumerate(data["sections"]):
        for rule_id, text in section["rules"].items():
            if rule_id in rules:
                problems.append((f"sections[{i}].rules.{rule_id}", "rule id used twice"))
            rules[rule_id] = " ".join(text.split())
        titles, texts = set(section["titles"]), set(section["rules"])
        for rule_id in sorted(texts - titles):
            problems.append((f"sections[{i}].titles", f"no title for {rule_id}"))
        for rule_id in sorted(titles - texts):
            problems.append((f"sections[{i}].titles.{rule_id}", "a title for no rule"))
    return rules, problems


def collect_titles(data: dict[str, Any]) -> dict[str, str]:
    """Every rule id -> its short English title."""
    return {rule_id: " ".join(title.split())
            for section in data["sections"] for rule_id, title in section["titles"].items()}
