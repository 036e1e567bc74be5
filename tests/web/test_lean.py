"""Static stylesheets and scripts are sent without their comments (webapp/http/lean.py),
and nothing else of them changes."""
from __future__ import annotations

import difflib
import re
from pathlib import Path

import brotli
import pytest

from webapp.http import lean

STATIC = Path(__file__).resolve().parents[2] / "webapp" / "static"
COMMENTS = re.compile(r"(?:\s*(?://[^\n]*|/\*.*?\*/))+\s*", re.DOTALL)  # nothing but comments
STYLESHEETS = sorted(STATIC.glob("css/*.css"))
SCRIPTS = sorted(STATIC.glob("js/*.js"))


def words(css: str) -> str:
    """CSS as its tokens read: comments out, every run of whitespace one space."""
    return " ".join(re.sub(r"/\*.*?\*/", " ", css, flags=re.DOTALL).split())


def test_css_loses_comments_and_keeps_strings_and_slashes():
    source = ('/* why */\n.a::before {  content: " /* not a comment */  ";  }\n'
              ".b { grid-row: 1 / 3; font: 1rem/1.5 serif; } /* after */\n\n\n.c {\n  color: red;\n}\n")
    assert lean.css(source) == ('.a::before { content: " /* not a comment */  "; }\n'
                                ".b { grid-row: 1 / 3; font: 1rem/1.5 serif; }\n.c {\ncolor: red;\n}\n")


@pytest.mark.parametrize("path", STYLESHEETS, ids=lambda p: p.name)
def test_every_stylesheet_reads_the_same_without_its_comments(path):
    source = path.read_text(encoding="utf-8")
    made = lean.css(source)
    assert "/*" not in made
    assert words(made) == words(source)
    assert len(brotli.compress(made.encode())) < len(brotli.compress(source.encode()))


def test_js_loses_whole_lines_of_comment_only():
    source = ("/* a header\n   of two lines */\n(function () {\n  // why\n  var a = 1; // kept\n"
              "  /* one line */\n  var b = '/* a string */';\n  var c = a / 2 /* after code */;\n})();\n")
    assert lean.js(source) == ("(function () {\n  var a = 1; // kept\n  var b = '/* a string */';\n"
                               "  var c = a / 2 /* after code */;\n})();\n")


def test_js_with_a_template_literal_is_sent_as_written():
    source = "// a comment\nvar t = `\n// inside a template\n`;\n"
    assert lean.js(source) == source


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_every_script_loses_only_lines_of_comment(path):
    source = path.read_text(encoding="utf-8").splitlines(keepends=True)
    made = lean.js("".join(source)).splitlines(keepends=True)
    assert len(made) < len(source)
    gone = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=source, b=made, autojunk=False).get_opcodes():
        assert op in ("equal", "delete"), f"changed: {source[i1:i2]} -> {made[j1:j2]}"
        if op == "delete":
            gone.append("".join(source[i1:i2]))
    assert gone and all(COMMENTS.fullmatch(lines) for lines in gone), gone


def test_static_files_and_the_service_worker_are_sent_lean(client):
    page = client.get("/en/").get_data(as_text=True)
    css = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page).group(1)
    sent = client.get(css).get_data(as_text=True)
    assert sent == lean.css((STATIC / "css" / "site.css").read_text(encoding="utf-8"))
    worker = client.get("/sw.js", headers={"Accept-Encoding": "br"})
    assert worker.headers["Content-Encoding"] == "br"
    assert worker.headers["Cache-Control"] == "no-cache"
    body = brotli.decompress(worker.data).decode()
    assert body == lean.js((STATIC / "js" / "sw.js").read_text(encoding="utf-8"))
    again = client.get("/sw.js", headers={"Accept-Encoding": "br", "If-None-Match": worker.headers["ETag"]})
    assert again.status_code == 304
