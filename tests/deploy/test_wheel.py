"""`pip install .` (not editable) gives a working site, and a new game comes along: the
wheel carries exactly what runs (every package under rulebook/ and webapp/, the rulebook
YAML, the JSON schemas, templates, static files and the compiled catalogs; no tools, no
tests, no benchmark), and it builds without a warning.

The wheel is built offline from a copy of the sources into which the toy game
(tests/tinygame/) is copied as README "Adding a game" says, its one line added to
rulebook.GAMES, with the catalogs the tests read (its strings merged in, tests/conftest.py).
It is installed without dependencies into a fresh virtual environment whose only other path
is this venv's site-packages (a .pth line, for Flask and friends; the editable install of
the checkout is not on it), and every game answers a page and a ruling from a directory
outside the repository.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest
from babel.support import Translations

import rulebook
from rulebook.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
TINYGAME = ROOT / "tests" / "tinygame"
SOURCES = ["pyproject.toml", "README.md", "rulebook", "webapp"]
PACKAGED = ("rulebook", "webapp")  # the folders whose every file but caches ships
# strings base.html shows on every rules page
CANDIDATES = ["Search the rules", "Skip to main content", "Where sources disagree", "Search"]

PROBE = textwrap.dedent("""
    import json, sys
    import rulebook, webapp
    from rulebook.i18n import translations_dir
    from webapp import create_app
    from webapp.games import GAMES

    app = create_app({"PROPAGATE_EXCEPTIONS": False})
    client = app.test_client()
    games = {}
    for slug, web in GAMES.items():
        page = client.get(f"/uk/{slug}/")
        ruling = client.post(f"/api/v1/{slug}/score?lang=uk", json=web.example)
        checker = client.get(f"/uk/{slug}/score")
        games[slug] = {"page_status": page.status_code, "html": page.get_data(as_text=True),
                       "score_status": ruling.status_code, "score": ruling.get_json(),
                       "checker_status": checker.status_code}
    html = games["hanamikoji"]["html"]
    css = html.split('rel="stylesheet" href="', 1)[1].split('"', 1)[0]
    missing = client.get("/uk/no-such-page")  # the error pages' templates are in the wheel
    print(json.dumps({
        "rulebook": rulebook.__file__, "webapp": webapp.__file__,
        "translations": str(translations_dir()), "games": games,
        "css_status": client.get(css).status_code, "css": css,
        "missing_status": missing.status_code, "missing": missing.get_data(as_text=True),
    }))
""")


def uk_strings() -> list[str]:
    catalog = Translations.load(os.environ["SHINPAN_TRANSLATIONS"], ["uk"], domain="messages")
    return [t for m in CANDIDATES if (t := catalog.gettext(m)) != m]


def copy_tree(source: Path, target: Path) -> None:
    shutil.copytree(source, target, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.po", "*.pot"))


def add_the_toy_game(src: Path) -> None:
    """What a newcomer does: the game's folders into the tree, one line in rulebook.GAMES."""
    for folder in ("rulebook", "webapp"):
        copy_tree(TINYGAME / folder, src / folder)
    registry = src / "rulebook" / "__init__.py"
    text = registry.read_text(encoding="utf-8")
    games = re.search(r"GAMES: dict\[str, Game\] = \{\n(?P<entries>.*?)\n\}", text, re.DOTALL)
    assert games, "rulebook/__init__.py: no `GAMES: dict[str, Game] = {...}` to add a line to"
    line = '    "tiny": Game("tiny", "rulebook.tiny"),'
    registry.write_text(text[:games.end("entries")] + "\n" + line + text[games.end("entries"):],
                        encoding="utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path, str]:
    """(the wheel, the source copy it was built from, the build's output)."""
    catalogs = Path(os.environ["SHINPAN_TRANSLATIONS"])  # the tests' own, tiny's strings in
    if not list(catalogs.glob("*/LC_MESSAGES/messages.mo")):
        pytest.fail("no compiled catalogs: run `make catalogs` (make test does)")
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            copy_tree(path, src / name)
        else:
            shutil.copy2(path, src / name)
    copy_tree(catalogs, src / "rulebook" / "translations")
    add_the_toy_game(src)
    dist = tmp / "dist"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as make
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps",
                          "--no-build-isolation", "--no-index", "-w", str(dist), str(src)],
                         check=True, capture_output=True, text=True, cwd=tmp, env=env)
    return next(dist.glob("shinpan-*.whl")), src, out.stdout + out.stderr


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> Path:
    wheel = built[0]
    venv = tmp_path_factory.mktemp("venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True)
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    # dependencies only: this venv's site-packages, appended after the wheel's own files
    (site / "shinpan-test-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return python


def test_the_wheel_builds_without_a_warning(built):
    _wheel, _src, output = built
    warnings = [line.strip() for line in output.splitlines() if "warn" in line.lower()]
    assert warnings == []


def test_the_wheel_holds_exactly_what_runs(built):
    wheel, src, _output = built
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name for name in archive.namelist() if ".dist-info/" not in name}
    expected = {path.relative_to(src).as_posix() for folder in PACKAGED
                for path in (src / folder).rglob("*")
                if path.is_file() and "__pycache__" not in path.parts}
    assert shipped == expected, (sorted(shipped - expected), sorted(expected - shipped))
    catalogs = {name for name in shipped if name.endswith("/LC_MESSAGES/messages.mo")}
    assert len(catalogs) == len(LANGUAGES) - 1  # English is the source
    assert "rulebook/tiny/rulebook.yaml" in shipped  # the new game, with no line in pyproject
    assert "webapp/templates/games/tiny/checker.html" in shipped
    assert not any(re.search(r"bench|babel_extract|(^|/)tests?/|^tools/", name) for name in shipped)


def test_installed_wheel_serves_every_game(installed, tmp_path):
    own = {k: v for k, v in os.environ.items() if k != "SHINPAN_TRANSLATIONS"}  # its catalogs
    out = subprocess.run([str(installed), "-c", PROBE], cwd=tmp_path, check=True,
                         capture_output=True, text=True, timeout=120, env=own)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    venv = str(installed.parent.parent)
    for key in ("rulebook", "webapp", "translations"):
        assert result[key].startswith(venv), (key, result[key])  # not the checkout
    assert result["translations"].endswith("rulebook/translations")
    translated = uk_strings()
    assert translated, "the Ukrainian catalog translates none of the base template's strings"
    assert set(result["games"]) == set(rulebook.GAMES)  # this session's games, the toy one too
    for slug, game in result["games"].items():
        assert game["page_status"] == 200 and '<html lang="uk"' in game["html"], slug
        assert any(t in game["html"] for t in translated), slug
        assert game["score_status"] == 200 and game["score"]["valid"] is True, slug
        assert game["checker_status"] == 200, slug
    tiny = result["games"]["tiny"]
    assert "Гру виграє той, хто показує старшу карту." in tiny["html"]  # its catalog entries
    assert tiny["score"]["result"]["message"] == "Гравець А показує старшу карту й перемагає."
    assert result["css_status"] == 200 and result["css"].startswith("/static/css/site.")
    assert result["missing_status"] == 404 and '<html lang="uk"' in result["missing"]
