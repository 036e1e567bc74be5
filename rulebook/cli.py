"""`shinpan score FILE`: the referee on the command line.

Exit 0 for a valid request, 1 for an invalid one, 2 for usage or I/O errors.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

import yaml

from .i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, translator
from .referee import referee

READ_ERROR = N_("shinpan: cannot read {file}: {reason}")
PARSE_ERROR = N_("shinpan: {file} is neither JSON nor YAML: {reason}")
LINE_ERROR = N_("line {line} is not valid JSON: {reason}")
INVALID = N_("Invalid request:")
ROUND = N_("Round {round}")
RESULT = N_("Result: {message}")
ALSO = N_("Other readings:")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="shinpan", description="Referee for Hanamikoji and Koi-Koi.")
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score a request (JSON or YAML; '-' reads standard input)")
    score.add_argument("file", help="request file, or - for standard input")
    output = score.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the response document")
    output.add_argument("--jsonl", action="store_true",
                        help="read one JSON request per line, write one response per line")
    score.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=LANGUAGES,
                       help="language of messages and explanations")
    return parser


def open_input(name: str) -> TextIO:
    return sys.stdin if name == "-" else open(name, encoding="utf-8")


def parse_document(text: str) -> Any:
    """JSON first (exact numbers and errors), YAML as the friendlier alternative."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return yaml.safe_load(text)


def render(response: dict[str, Any], lang: str) -> str:
    """The ruling as a person reads it."""
    t = translator(lang)
    if not response["valid"]:
        lines = [t.gettext(INVALID)]
        lines += [f"  {e['path'] or '/'}: {e['message']} [{e['code']}; {e['rule']}]"
                  for e in response["errors"]]
        return "\n".join(lines)
    lines = []
    for rnd in response.get("rounds", []):
        title = t.gettext(ROUND).format(round=rnd.get("round", len(lines) + 1))
        lines.append(title)
        lines += [f"  - {e['message']}  [{e['rule']}]" for e in rnd["explanation"]]
    result = response.get("result", {})
    if result.get("message"):
        lines.append(t.gettext(RESULT).format(message=result["message"]))
    if response.get("alternatives"):
        lines.append(t.gettext(ALSO))
        lines += [f"  - {alt['message']}" for alt in response["alternatives"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    t = translator(args.lang)
    try:
        with open_input(args.file) as handle:
            if args.jsonl:
                return score_lines(handle, args.lang)
            text = handle.read()
    except OSError as exc:
        print(t.gettext(READ_ERROR).format(file=args.file, reason=exc.strerror), file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(t.gettext(READ_ERROR).format(file=args.file, reason=exc.reason), file=sys.stderr)
        return 2
    try:
        request = parse_document(text)
    except yaml.YAMLError as exc:
        print(t.gettext(PARSE_ERROR).format(file=args.file, reason=exc), file=sys.stderr)
        return 2
    response = referee(request, args.lang)
    if args.json:
        print(json.dumps(response, ensure_ascii=False, indent=2))
    else:
        print(render(response, args.lang))
    return 0 if response["valid"] else 1


def score_lines(handle: TextIO, lang: str) -> int:
    """Batch mode: a response per request line; 1 if any request was invalid."""
    t = translator(lang)
    status = 0
    for number, line in enumerate(handle, start=1):
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            response = {"valid": False, "errors": [{
                "code": "request.json", "path": "", "rule": "referee.request",
                "message": t.gettext(LINE_ERROR).format(line=number, reason=exc.msg)}]}
        else:
            response = referee(request, lang)
        status = status if response["valid"] else 1
        sys.stdout.write(json.dumps(response, ensure_ascii=False) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
