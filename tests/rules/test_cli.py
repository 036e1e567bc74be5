"""`shinpan score`: human output, --json, --jsonl, --lang and exit codes."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook.cli import help_formatter, main

ROOT = Path(__file__).resolve().parents[2]

VALID = {"game": "hanamikoji",
         "rounds": [{"board": {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}}]}
INVALID = {"game": "hanamikoji", "rounds": [{"board": {"a": [9, 0, 0, 0, 0, 0, 0], "b": [0] * 7}}]}


@pytest.mark.rule("hanamikoji", "victory.charm")
def test_score_human_readable(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(VALID))
    assert main(["score", str(path)]) == 0
    out = capsys.readouterr().out
    assert "victory.charm" in out and "Player B wins" in out


KOIKOI = {"game": "koikoi", "rounds": [{"winner": "a", "captured": {"a": [
    "pine-crane", "pine-poetry-ribbon", "cherry-curtain", "cherry-poetry-ribbon", "susuki-moon",
    "susuki-geese"]}}]}


@pytest.mark.parametrize("request_, lang, title", [
    (VALID, "en", "Round 1"), (KOIKOI, "en", "Round 1"), (KOIKOI, "de", "Runde 1"),
    (VALID, "ja", "第1ラウンド"), (KOIKOI, "ja", "第1回戦")])  # Koi-Koi counts 回戦 in Japanese
def test_round_headings_name_the_games_rounds(tmp_path, capsys, request_, lang, title):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(request_))
    assert main(["score", "--lang", lang, str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == title


def test_score_yaml_and_json_output(tmp_path, capsys):
    path = tmp_path / "r.yaml"
    path.write_text("game: hanamikoji\nrounds:\n  - board: {a: [2,1,0,2,2,0,1], b: [0,1,2,0,0,2,3]}\n")
    assert main(["score", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["winner"] == "b"


def test_invalid_request_exits_1(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(INVALID))
    assert main(["score", str(path)]) == 1
    assert "board.geisha-overflow" in capsys.readouterr().out


def test_io_and_usage_errors_exit_2(tmp_path, capsys):
    assert main(["score", str(tmp_path / "missing.json")]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{ not: [valid")
    assert main(["score", str(bad)]) == 2
    assert "shinpan:" in capsys.readouterr().err


def test_jsonl_batch_over_stdin():
    lines = "\n".join([json.dumps(VALID), "{broken", json.dumps(INVALID)]) + "\n"
    proc = subprocess.run([sys.executable, "-m", "rulebook.cli", "score", "--jsonl", "-"],
                          input=lines, capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    responses = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["valid"] for r in responses] == [True, False, False]
    assert responses[1]["errors"][0]["code"] == "request.json"


def test_console_script_installed():
    import shutil
    assert shutil.which("shinpan", path=str(__import__("pathlib").Path(sys.executable).parent))


# -- input that cannot be a request: exit 2, one clear line, never a traceback -------------
BILLION_LAUGHS = "\n".join(
    ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
       f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]"
       for i in range(8)]) + "\n"


def run_cli(*args: str, stdin: bytes | None = None, timeout: float = 20):
    return subprocess.run([sys.executable, "-m", "rulebook.cli", *args], input=stdin,
                          capture_output=True, timeout=timeout, check=False)


@pytest.mark.parametrize("name, content, says", [
    ("bomb.yaml", BILLION_LAUGHS.encode(), "YAML aliases (*a)"),
    ("big.json", b'{"game": "hanamikoji", "x": "' + b"a" * (2 * 1024 * 1024) + b'"}', "1024 KB"),
    ("digits.json", b'{"game": "hanamikoji", "round": ' + b"7" * 5000 + b"}", "too large"),
    ("digits.yaml", b"game: hanamikoji\nround: " + b"7" * 5000 + b"\n", "more digits"),
    ("surrogate.json", b'{"game": "hanamikoji", "edition": "\\ud800"}', "surrogate"),
    ("surrogate.yaml", b'game: hanamikoji\nedition: "\\ud800"\n', "surrogate escape"),
    ("deep.json", b"[" * 1000 + b"]" * 1000, "nested more than 32"),
    ("deep.yaml", b"a: " + b"[" * 1000 + b"]" * 1000 + b"\n", "nested more than 32"),
    ("deep2.yaml", b"a: " + b"[" * 40 + b"]" * 40 + b"\n", "nested more than 32"),
    ("nan.json", b'{"game": "hanamikoji", "round": NaN}', "NaN"),
])
def test_hostile_input_exits_2_with_a_message(tmp_path, name, content, says):
    path = tmp_path / name
    path.write_bytes(content)
    proc = run_cli("score", str(path))
    stderr = proc.stderr.decode()
    assert proc.returncode == 2, stderr
    assert says in stderr and "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr


def test_hostile_input_message_in_the_users_language(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (1024 * 1024 + 1))
    proc = run_cli("score", "--lang", "uk", str(path))
    assert proc.returncode == 2 and "shinpan:" in proc.stderr.decode()


def test_jsonl_hostile_lines_are_answered_line_by_line():
    lines = [json.dumps(VALID).encode(), b'{"round": NaN}', b"[" * 1000 + b"]" * 1000,
             b'{"edition": "\\ud800"}', b'{"x": "' + b"a" * (1024 * 1024 + 10) + b'"}',
             json.dumps(VALID).encode()]
    proc = run_cli("score", "--jsonl", "-", stdin=b"\n".join(lines) + b"\n")
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["valid"] for a in answers] == [True, False, False, False, False, True]
    assert all(a["errors"][0]["code"] == "request.json" for a in answers[1:5])
    assert "line 5" in answers[4]["errors"][0]["message"]
    # the place in the file, said once: "... at line 2, column 12.", not "line 2 ... line 1"
    nan = answers[1]["errors"][0]["message"]
    assert "line 2, column" in nan and "line 1" not in nan and nan.count("JSON") == 1
    assert all(a["errors"][0]["kind"] == "malformed" for a in answers[1:5])  # as the schema says


def test_schema_verdict_is_cached_and_invalidated(tmp_path):
    """The second process skips jsonschema; a changed rulebook is checked again."""
    env = {**os.environ, "SHINPAN_CACHE_DIR": str(tmp_path / "cache")}
    code = ("import sys; from rulebook.hanamikoji.model import load_rulebook; "
            "load_rulebook(sys.argv[1]); print('jsonschema' in sys.modules)")
    rulebook = tmp_path / "hanamikoji.yaml"
    rulebook.write_text((ROOT / "rulebook" / "hanamikoji" / "rulebook.yaml").read_text(encoding="utf-8"),
                        encoding="utf-8")

    def load() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", code, str(rulebook)], env=env, cwd=ROOT,
                              capture_output=True, text=True, check=False)

    assert load().stdout.split() == ["True"]   # checked, verdict kept
    assert load().stdout.split() == ["False"]  # the verdict: no jsonschema import
    rulebook.write_text(rulebook.read_text(encoding="utf-8").replace(
        "sections:", "unexpected_field: 1\nsections:", 1), encoding="utf-8")
    broken = load()
    assert broken.returncode != 0 and "unexpected_field" in broken.stderr


def test_built_verdicts_spare_a_cold_process_the_check(tmp_path):
    """`make verdicts` checks the shipped rulebooks in full and keeps the verdicts, so a
    process with an empty cache folder (the CLI's first run) skips PyYAML and jsonschema;
    an edited rulebook is not covered by them and is checked."""
    built = tmp_path / "built"
    build = "import sys; from rulebook.loader import main; main(sys.argv[1:])"
    subprocess.run([sys.executable, "-c", build, str(built)], cwd=ROOT, check=True,
                   capture_output=True)
    assert len(list(built.glob("rulebook-*.marshal"))) == 2  # Hanamikoji's and Koi-Koi's
    env = {**os.environ, "SHINPAN_CACHE_DIR": str(tmp_path / "empty"),
           "SHINPAN_BUILT_VERDICTS": str(built)}
    code = ("import sys; from rulebook import GAMES; from rulebook.hanamikoji.model import "
            "load_rulebook; [g.load() for g in GAMES.values() if g.slug != 'tiny']; "
            "print('jsonschema' in sys.modules, 'yaml' in sys.modules); "
            "load_rulebook(sys.argv[1]); print('jsonschema' in sys.modules)")
    edited = tmp_path / "hanamikoji.yaml"
    edited.write_text((ROOT / "rulebook" / "hanamikoji" / "rulebook.yaml").read_text(
        encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", code, str(edited)], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert run.stdout.split() == ["False", "False", "True"], run.stderr
    assert len(list((tmp_path / "empty").iterdir())) == 1  # the edited one's verdict only


def test_broken_pipe_is_quiet(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(VALID))
    proc = subprocess.run(f"{sys.executable} -m rulebook.cli score {path} | head -c 1",
                          shell=True, capture_output=True, check=False)
    assert b"Traceback" not in proc.stderr


# -- output: a failed write is an error, a closed pipe is not ------------------------------
@pytest.mark.parametrize("mode", [[], ["--json"], ["--jsonl"]])
def test_a_failed_write_exits_2_and_says_so(tmp_path, mode):
    """Bug 5: `> /dev/full` printed a traceback (exit 1), or with --jsonl "cannot read"."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(VALID))
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "rulebook.cli", "score", *mode, str(path)],
                              stdout=full, stderr=subprocess.PIPE, timeout=20, check=False)
    stderr = proc.stderr.decode()
    assert proc.returncode == 2, stderr
    assert stderr == "shinpan: cannot write the output: there is no space left on the device\n"
    german = subprocess.run([sys.executable, "-m", "rulebook.cli", "score", "--lang", "de",
                             *mode, str(path)], stdout=open("/dev/full", "wb"),  # noqa: SIM115
                            stderr=subprocess.PIPE, timeout=20, check=False)
    assert german.returncode == 2 and "geschrieben" in german.stderr.decode()


def test_a_closed_pipe_ends_quietly(tmp_path):
    """`shinpan score --jsonl many.jsonl | head -1`: no message (bug 5 said "cannot read"),
    and the status a shell shows for a tool SIGPIPE ended (141)."""
    path = tmp_path / "many.jsonl"
    path.write_text((json.dumps(VALID) + "\n") * 3000)  # far more output than a pipe holds
    proc = subprocess.Popen([sys.executable, "-m", "rulebook.cli", "score", "--jsonl",
                             str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert json.loads(proc.stdout.readline())["valid"] is True
    proc.stdout.close()  # what `head -1` does after its line
    _, stderr = proc.communicate(timeout=60)
    assert stderr == b"" and proc.returncode == 141


# -- names on a terminal -------------------------------------------------------------------
NAMES = {"a": "\u001b[31mRED\u001b[0m\u0007", "b": "\u202eevil\u2066"}


def test_names_are_escaped_on_a_terminal_and_kept_in_json(tmp_path, capsys):
    """Bug 7: a name's escape codes, bell and right-to-left override reached the terminal."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**VALID, "players": NAMES}))
    assert main(["score", str(path)]) == 0
    out = capsys.readouterr().out
    for raw in ("\u001b", "\u0007", "\u202e", "\u2066"):
        assert raw not in out
    assert "\\u001b[31mRED\\u001b[0m\\u0007 has more of her items" in out
    assert "\\u202eevil\\u2066 wins" in out
    assert main(["score", "--json", str(path)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert any(NAMES["b"] in step["message"] for step in document["rounds"][0]["explanation"])


def test_an_invalid_request_with_such_a_key_is_escaped_too(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**INVALID, "\u001b]0;title\u0007": 1}))
    assert main(["score", str(path)]) == 1
    out = capsys.readouterr().out
    assert "\u001b" not in out and "\u0007" not in out and "\\u001b]0;title\\u0007" in out


# What one cold `shinpan score` imports: the game asked and nothing of the site, the other
# game, the checks a kept verdict covers, or what only a refusal or a YAML document needs.
LOADED = ("import json, sys; from rulebook.cli import main; status = main(sys.argv[1:]); "
          "print(json.dumps(sorted(sys.modules)), file=sys.stderr)")
NEVER = ("flask", "werkzeug", "jinja2", "webapp", "babel", "yaml", "jsonschema", "decimal", "math",
         "hashlib", "threading",
         # paths are text on the cold path: pathlib brings urllib.parse and ipaddress (~5 ms)
         "pathlib", "urllib", "ipaddress",
         # argparse's help formatter is given the terminal's width (cli.help_formatter)
         "shutil", "bz2", "lzma",
         "signal")  # only for the status of a closed pipe


@pytest.mark.parametrize("request_, game, other", [(VALID, "hanamikoji", "koikoi"),
                                                   (KOIKOI, "koikoi", "hanamikoji")])
def test_a_cold_command_imports_only_the_game_it_scores(tmp_path, request_, game, other):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(request_))
    env = {**os.environ, "SHINPAN_CACHE_DIR": str(tmp_path / "cache")}  # an empty cache folder
    env.pop("SHINPAN_BUILT_VERDICTS", None)  # the build's verdicts, as an install has them
    done = subprocess.run([sys.executable, "-c", LOADED, "score", str(path)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, check=True)
    loaded = json.loads(done.stderr.splitlines()[-1])
    assert f"rulebook.{game}.referee" in loaded
    assert not [m for m in loaded if m.split(".")[0] in NEVER], "imported for one round"
    assert not [m for m in loaded if m.startswith(f"rulebook.{other}")], f"{other} imported"
    # the records are named tuples, and orjson (which brings dataclasses) waits for a second
    # document: the standard library reads one
    assert "dataclasses" not in loaded and "orjson" not in loaded


@pytest.mark.parametrize("columns", ["60", "200", "", "0", "wide"])
def test_the_help_is_as_wide_as_argparse_would_make_it(monkeypatch, columns):
    # help_formatter reads the width without shutil: the same width argparse's default
    # formatter gets from shutil.get_terminal_size, whatever COLUMNS holds
    monkeypatch.setenv("COLUMNS", columns)
    assert help_formatter("shinpan")._width == argparse.HelpFormatter("shinpan")._width
