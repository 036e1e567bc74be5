"""`shinpan score`: human output, --json, --jsonl, --lang and exit codes."""
from __future__ import annotations

import json
import subprocess
import sys

from rulebook.cli import main

VALID = {"game": "hanamikoji",
         "rounds": [{"board": {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}}]}
INVALID = {"game": "hanamikoji", "rounds": [{"board": {"a": [9, 0, 0, 0, 0, 0, 0], "b": [0] * 7}}]}


def test_score_human_readable(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(VALID))
    assert main(["score", str(path)]) == 0
    out = capsys.readouterr().out
    assert "victory.charm" in out and "Player B wins" in out


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
