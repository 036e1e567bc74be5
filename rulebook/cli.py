"""`shinpan score FILE`: the referee on the command line.

Exit 0 for a valid request, 1 for an invalid one, 2 for usage or I/O errors and for
input that cannot be a request (too large, not JSON or YAML, a YAML alias, a number or
nesting past the limits): one line on stderr, never a traceback. Output that cannot be
written is such an error ("cannot write the output: ..."), except a pipe its reader
closed (`shinpan score ... | head -1`): then nothing is said and the exit status is 141,
what a shell reports for a tool that SIGPIPE ended, as it ends cat or grep.

The human-readable ruling shows characters a terminal would act on instead of showing
(ESC, BEL and the other controls, the bidi controls that reorder a line) as `\u001b`
and the like: a player's name cannot colour, move or reverse the text. `--json` and
`--jsonl` write the names as they are.

Start-up is kept short (a cold process is mostly imports): PyYAML is imported only for a
document that is not JSON, the rulebook's schema check is skipped when its verdict is
cached (rulebook/loader.py), the one document is read by the standard library
(jsonio.read_one: orjson's import costs more than it saves on one request), only the game
asked is imported, and its records are named tuples, not dataclasses (each costs about a
millisecond to define). `python -m tools.bench_start` times it (tests/rules/test_cli.py
holds what a cold command imports).
"""
from __future__ import annotations

import argparse
import errno
import os
import re
import sys
from typing import Any, BinaryIO

from . import jsonio
from .i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, translator
from .referee import referee

MAX_INPUT = 1024 * 1024  # bytes of one request (a 50-round match with action logs: ~20 KB)
READ_ERROR = N_("shinpan: cannot read {file}: {reason}")
WRITE_ERROR = N_("shinpan: cannot write the output: {reason}")
# What a terminal acts on instead of showing: C0 and C1 controls (ESC starts a colour or a
# cursor move, BEL rings), line and paragraph separators, and the bidi marks, embeddings,
# overrides and isolates that reorder the rest of a line (UAX #9).
UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
# The operating system's reasons, in the user's language (its own texts are English).
OS_REASONS = {
    errno.ENOENT: N_("there is no such file"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EISDIR: N_("it is a folder, not a file"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.ENAMETOOLONG: N_("the file name is too long"),
    errno.ENOSPC: N_("there is no space left on the device"),
}
OS_OTHER = N_("the system refused it (error {number})")
NOT_UTF8 = N_("it is not UTF-8 text")
PARSE_ERROR = N_("shinpan: {file} is neither JSON nor YAML: it cannot be read from line {line}, "
                 "column {column} on.")
PROBLEM_LINE = N_("{path}: {message} [{code}; {rule}]")
REFUSED = N_("shinpan: {file} cannot be read as a request: {reason}")
TOO_LARGE = N_("shinpan: {file} is larger than {limit} KB, the most a request may be.")
LINE_ERROR = N_("line {line} is not valid JSON: {reason}")
LINE_TOO_LONG = N_("line {line} is longer than {limit} KB, the most a request may be.")
YAML_ALIAS = N_("YAML aliases (*{name}) are not accepted in a request; write the value out.")
YAML_NUMBER = N_("a number has more digits than a request may hold.")
INVALID = N_("Invalid request:")
ROUND = N_("Round {round}")
RESULT = N_("Result: {message}")
ALSO = N_("Other readings:")


class InputError(Exception):
    """Input that cannot be a request: the message is ready for the user."""


class OutputError(Exception):
    """Standard output refused what was written (its OSError is the cause); a closed
    pipe is a BrokenPipeError instead."""


def shown(text: str) -> str:
    """`text` with what a terminal would act on written as an escape (`\u202e`)."""
    return UNSHOWN.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def write_out(data: bytes) -> None:
    """Write to standard output (its bytes: UTF-8, whatever the locale) and flush."""
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError from exc


def help_formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's help formatter, as wide as the terminal. argparse makes one for every
    argument it is given (to check its metavar), and without a width each would import
    shutil to ask the terminal (with bz2, lzma and fnmatch: ~4 ms of a cold command); the
    width is read here as shutil.get_terminal_size reads it (COLUMNS, the terminal, 80)."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return argparse.HelpFormatter(prog, width=(columns or 80) - 2)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="shinpan", description="Referee for Hanamikoji and Koi-Koi.",
                                     formatter_class=help_formatter)
    # `prog` given: argparse would otherwise lay out a usage line to find it (shutil, bz2, lzma)
    commands = parser.add_subparsers(dest="command", required=True, prog=parser.prog)
    score = commands.add_parser("score", help="score a request (JSON or YAML; '-' reads standard input)",
                                formatter_class=help_formatter)
    score.add_argument("file", help="request file, or - for standard input")
    output = score.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the response document")
    output.add_argument("--jsonl", action="store_true",
                        help="read one JSON request per line, write one response per line")
    score.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=LANGUAGES,
                       help="language of messages and explanations")
    return parser


def open_input(name: str) -> BinaryIO:
    return sys.stdin.buffer if name == "-" else open(name, "rb")


def load_yaml(text: str, t) -> Any:
    """YAML without aliases: an anchor bomb ("billion laughs") never expands."""
    import yaml

    from .loader import safe_yaml_loader

    loader = safe_yaml_loader()
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.AliasEvent):
            raise InputError(t.gettext(YAML_ALIAS).format(name=event.anchor))
    try:
        return yaml.load(text, Loader=loader)
    except RecursionError:
        raise jsonio.JSONError(jsonio.TOO_DEEP, depth=jsonio.MAX_DEPTH) from None
    except ValueError:  # an integer past Python's 4300 digits
        raise InputError(t.gettext(YAML_NUMBER)) from None


def parse_document(text: str, t=None) -> Any:
    """JSON first (exact numbers and errors), YAML as the friendlier alternative. Raises
    JSONError or InputError for a document that cannot be a request, yaml.YAMLError for
    one that is neither JSON nor YAML."""
    t = t or translator(DEFAULT_LANGUAGE)
    try:
        return jsonio.read_one(text)
    except jsonio.JSONError as exc:
        if exc.message not in (jsonio.SYNTAX, jsonio.EMPTY):
            raise  # JSON, but not an acceptable request: YAML would not read it better
    document = load_yaml(text, t)
    jsonio.check_depth(document)
    jsonio.check_text(document)
    return jsonio.whole_numbers(document)  # `2.0` is 2, as in JSON


def render(response: dict[str, Any], lang: str) -> str:
    """The ruling as a person reads it."""
    t = translator(lang)
    if not response["valid"]:
        lines = [t.gettext(INVALID)]
        line = t.gettext(PROBLEM_LINE)
        lines += ["  " + line.format(path=e["path"] or "/", message=e["message"], code=e["code"],
                                     rule=e["rule"]) for e in response["errors"]]
        return "\n".join(map(shown, lines))
    lines = []
    for rnd in response.get("rounds", []):
        title = round_title(t, response.get("game")).format(round=rnd.get("round", len(lines) + 1))
        lines.append(title)
        lines += [f"  - {e['message']}  [{e['rule']}]" for e in rnd["explanation"]]
    result = response.get("result", {})
    if result.get("message"):
        lines.append(t.gettext(RESULT).format(message=result["message"]))
    if response.get("alternatives"):
        lines.append(t.gettext(ALSO))
        lines += [f"  - {alt['message']}" for alt in response["alternatives"]]
    return "\n".join(map(shown, lines))


def round_title(t, game: str | None) -> str:
    """A round's heading: a Koi-Koi round is one month of a match, which a language may name
    its own way (Japanese 第N回戦, where a Hanamikoji round is 第Nラウンド)."""
    if game == "koikoi":
        # Translators: the heading of one Koi-Koi round (one month of a match) in the command line's output
        return t.pgettext("koikoi", "Round {round}")
    return t.gettext(ROUND)


def os_reason(exc: OSError, t) -> str:
    """Why a file cannot be read, in the user's language."""
    reason = OS_REASONS.get(exc.errno)
    if reason is None:
        return t.gettext(OS_OTHER).format(number=exc.errno)
    return t.gettext(reason)


def yaml_problem(exc: Exception, text: str, t) -> str:
    """What PyYAML refused, in the user's language, with the line and column where it gave
    up (PyYAML's own English stays out); `{file}` is left to fill."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if mark is not None:
        line, column = mark.line + 1, mark.column + 1
    else:
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    english = str(exc)
    if "nesting depth" in english:
        reason = jsonio.JSONError(jsonio.TOO_DEEP, depth=jsonio.MAX_DEPTH).translated(t)
    elif "invalid unicode" in english.lower() or "surrogate" in english.lower():
        reason = jsonio.JSONError(jsonio.SURROGATE, line=line, column=column).translated(t)
    else:
        return t.gettext(PARSE_ERROR).replace("{line}", str(line)).replace("{column}",
                                                                           str(column))
    return t.gettext(REFUSED).replace("{reason}", reason)


def fail(message: str) -> int:
    print(shown(message), file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    t = translator(args.lang)
    try:
        return run(args, t)
    except BrokenPipeError:  # `shinpan score ... | head`: the reader left, say nothing
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing at exit
        import signal  # here only: its import (an enum of every signal) costs ~1 ms

        return 128 + signal.SIGPIPE  # the status a shell shows for a tool SIGPIPE ended
    except OutputError as exc:  # e.g. `> /dev/full`
        return fail(t.gettext(WRITE_ERROR).format(reason=os_reason(exc.__cause__, t)))


def run(args: argparse.Namespace, t: Any) -> int:
    try:
        with open_input(args.file) as handle:
            if args.jsonl:
                return score_lines(handle, args.lang)
            data = handle.read(MAX_INPUT + 1)
    except BrokenPipeError:
        raise  # the output's (main)
    except OSError as exc:
        return fail(t.gettext(READ_ERROR).format(file=args.file, reason=os_reason(exc, t)))
    if len(data) > MAX_INPUT:
        return fail(t.gettext(TOO_LARGE).format(file=args.file, limit=MAX_INPUT // 1024))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return fail(t.gettext(READ_ERROR).format(file=args.file, reason=t.gettext(NOT_UTF8)))
    try:
        request = parse_document(text, t)
    except jsonio.JSONError as exc:
        return fail(t.gettext(REFUSED).format(file=args.file, reason=exc.translated(t)))
    except InputError as exc:
        return fail(t.gettext(REFUSED).format(file=args.file, reason=exc))
    except Exception as exc:  # noqa: BLE001 - yaml.YAMLError (PyYAML is imported lazily)
        return fail(yaml_problem(exc, text, t).format(file=args.file))
    response = referee(request, args.lang)
    text = jsonio.dumps_pretty(response) if args.json else render(response, args.lang)
    write_out(text.encode("utf-8") + b"\n")
    return 0 if response["valid"] else 1


def _line_error(message: str) -> dict[str, Any]:
    return {"valid": False, "errors": [{"code": "request.json", "path": "", "rule": "referee.request",
                                        "message": message, "kind": "malformed"}]}


def _line_reason(exc: jsonio.JSONError, number: int, t: Any) -> str:
    """Why a request line is refused, at its line of the file: the parser's own sentence
    where it names a place (one line holds one document), else "line N is not valid JSON"."""
    if "line" in exc.fields:
        exc.fields["line"] = number
        return exc.translated(t)
    return t.gettext(LINE_ERROR).format(line=number, reason=exc.translated(t))


def score_lines(handle: BinaryIO, lang: str) -> int:
    """Batch mode: a response per request line; 1 if any request was invalid. A failed
    read is the input's (OSError), a failed write the output's (OutputError)."""
    t = translator(lang)
    out = sys.stdout.buffer
    status = 0
    number = 0
    while True:
        line = handle.readline(MAX_INPUT + 1)
        if not line:
            break
        number += 1
        if len(line) > MAX_INPUT and not line.endswith(b"\n"):
            while (rest := handle.readline(MAX_INPUT)) and not rest.endswith(b"\n"):
                pass  # skip the rest of the over-long line
            response = _line_error(t.gettext(LINE_TOO_LONG).format(line=number,
                                                                   limit=MAX_INPUT // 1024))
        elif not line.strip():
            continue
        else:
            try:
                request = jsonio.loads(line.rstrip(b"\r\n"))
            except jsonio.JSONError as exc:
                response = _line_error(_line_reason(exc, number, t))
            else:
                response = referee(request, lang)
        status = status if response["valid"] else 1
        try:
            out.write(jsonio.dumps(response) + b"\n")
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError from exc
    write_out(b"")  # the rest, flushed
    return status


if __name__ == "__main__":
    sys.exit(main())
