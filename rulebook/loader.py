"""Load a rulebook YAML file and check it against its JSON Schema.

A broken rulebook fails loudly with the file, the YAML path and what is wrong,
so an editor of the YAML never has to read a traceback.

The check's verdict is kept: once a rulebook's bytes have passed their schema's bytes,
the parsed data is stored under a hash of both (`marshal`, which builds plain data and
runs nothing) in the user's cache folder (SHINPAN_CACHE_DIR, else
$XDG_CACHE_HOME/shinpan, else ~/.cache/shinpan). The next process with the same two
files loads that instead of importing PyYAML and jsonschema (~110 ms of a CLI run); a
changed byte in either file means a new hash, so the full check runs again. Without a
writable cache folder every load is checked.

The build leaves the verdicts of the shipped rulebooks in the package (`rulebook/verdicts/`,
`make catalogs`: `rulebook.loader.main()`, which runs the full check of every game's
rulebook), so even a process with an empty cache folder (the CLI's first run) loads them
without the check; they too are found by the hash of both files' bytes, so an edited
rulebook is checked again. SHINPAN_BUILT_VERDICTS=0 ignores them (the tests check in full;
another value is the folder to read them from).
"""
from __future__ import annotations

import json
import marshal
import os
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

CHECK_VERSION = b"1"  # bump when the check itself changes (a new rule beside the schema)
# The build's verdicts (make catalogs). Paths here are text (os.path): a cold `shinpan
# score` reads a verdict without importing pathlib (~5 ms).
BUILT = os.path.join(os.path.dirname(os.path.realpath(__file__)), "verdicts")


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
def load_schema(path: Path | str) -> dict[str, Any]:
    """A JSON Schema file (each game keeps its own in rulebook/<game>/schemas/)."""
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def cache_dir() -> Path | None:
    from pathlib import Path  # the site's caches and a verdict to write: not a cold read

    configured = os.environ.get("SHINPAN_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or (Path.home() / ".cache")
    return Path(base) / "shinpan"


try:  # hashlib's own BLAKE2; importing hashlib would load OpenSSL too (~4 ms of a cold CLI)
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b


def _read_bytes(path: Path | str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _verdict_name(raw: bytes, schema: Path | str) -> str:
    digest = blake2b(raw, digest_size=16)
    digest.update(_read_bytes(schema))
    digest.update(CHECK_VERSION)
    return f"rulebook-{digest.hexdigest()}.marshal"


def _read_verdict(path: Path | str | None) -> Any:
    if path is None:
        return None
    try:
        return marshal.loads(_read_bytes(path))
    except (OSError, ValueError, EOFError, TypeError):
        return None


def _write_verdict(path: Path | None, data: Any) -> None:
    if path is None:
        return
    try:
        import tempfile  # only to write a verdict: not on the path of a process that reads one

        blob = marshal.dumps(data)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".rulebook-")
        with os.fdopen(fd, "wb") as handle:
            handle.write(blob)
        os.replace(temporary, path)
    except (OSError, ValueError):
        pass  # no cache: the next load checks again


def load_yaml_checked(path: Path | str, schema: Path | str) -> dict[str, Any]:
    """Parse `path` and validate it against the JSON Schema file `schema`; raise RulebookError."""
    try:
        raw = _read_bytes(path)
    except OSError as exc:
        raise RulebookError(path, [("", f"cannot read the file: {exc.strerror}")]) from None
    name = _verdict_name(raw, schema)
    built = os.environ.get("SHINPAN_BUILT_VERDICTS") or str(BUILT)
    if built != "0":
        data = _read_verdict(os.path.join(built, name))
        if data is not None:
            return data
    folder = cache_dir()
    verdict = folder / name if folder is not None else None
    data = _read_verdict(verdict)
    if data is not None:
        return data
    data = _parse_and_check(path, raw, schema)
    _write_verdict(verdict, data)
    return data


def safe_yaml_loader() -> type:
    """PyYAML's safe loader, libyaml's (several times faster) where PyYAML was built with
    it. Imports yaml when first asked: a cold CLI with a kept verdict never needs it."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _parse_and_check(path: Path | str, raw: bytes, schema: Path | str) -> dict[str, Any]:
    import yaml  # only when there is no verdict yet

    try:
        data = yaml.load(raw.decode("utf-8"), Loader=safe_yaml_loader())
    except UnicodeDecodeError as exc:
        raise RulebookError(path, [("", f"not UTF-8 text: {exc.reason}")]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise RulebookError(path, [(where, f"not valid YAML: {getattr(exc, 'problem', exc)}")]) from None
    from jsonschema import Draft202012Validator  # only when a rulebook is loaded: ~40 ms

    validator = Draft202012Validator(load_schema(schema))
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
        for rule_id in sorted(set(section.get("asked", {})) - texts):
            problems.append((f"sections[{i}].asked.{rule_id}", "phrasings for no rule"))
    return rules, problems


# Between the phrasings of one rule in its catalog entry (tools/babel_extract.py writes
# them so, webapp/games/terms.py splits them).
ASKED_SEPARATOR = " | "


def collect_asked(data: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """Every rule id that has them -> the ways players ask for it, in English (`asked:` beside
    a section's titles; each language's own are in its catalog, msgctxt asked.<rule id>)."""
    return {rule_id: tuple(" ".join(p.split()) for p in phrasings)
            for section in data["sections"]
            for rule_id, phrasings in section.get("asked", {}).items()}


def collect_titles(data: dict[str, Any]) -> dict[str, str]:
    """Every rule id -> its short English title."""
    return {rule_id: " ".join(title.split())
            for section in data["sections"] for rule_id, title in section["titles"].items()}


def build_verdicts(folder: Path | str = BUILT) -> list[Path]:
    """The full check of every game's shipped rulebook, its verdict written to `folder`
    (the build's step in `make catalogs`); a RulebookError if one fails. In a fresh process
    (`main()`): a rulebook this process loaded before is not loaded again."""
    import shutil
    from pathlib import Path

    from . import GAMES

    folder = Path(folder)
    shutil.rmtree(folder, ignore_errors=True)
    saved = {key: os.environ.get(key) for key in ("SHINPAN_CACHE_DIR", "SHINPAN_BUILT_VERDICTS")}
    os.environ.update(SHINPAN_CACHE_DIR=str(folder), SHINPAN_BUILT_VERDICTS="0")
    try:
        for game in GAMES.values():
            game.load()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return sorted(folder.glob("rulebook-*.marshal"))


def main(argv: list[str] | None = None) -> int:
    """`make catalogs`' step: the verdicts into the folder given, else the package's."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    for written in build_verdicts(args[0] if args else BUILT):
        print(f"checked, verdict kept: {written}")
    return 0
