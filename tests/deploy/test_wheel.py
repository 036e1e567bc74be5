"""`pip install .` (not editable) gives a working site: the wheel carries the rulebook YAML,
the JSON schemas, templates, static files and the compiled catalogs.

The wheel is built offline from a copy of the sources (--no-build-isolation, the test
venv's setuptools), installed without dependencies into a fresh virtual environment
whose only other path is this venv's site-packages (a .pth line, for Flask and friends;
the editable install of the checkout is not on it), and exercised from a directory
outside the repository.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest
from babel.support import Translations

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ["pyproject.toml", "setup.py", "README.md", "rulebook", "webapp", "translations"]
# strings base.html shows on every rules page
CANDIDATES = ["Search the rules", "Skip to main content", "Where sources disagree", "Search"]

PROBE = textwrap.dedent("""
    import json, sys
    import rulebook, webapp
    from rulebook.i18n import translations_dir
    from webapp import create_app

    app = create_app({"PROPAGATE_EXCEPTIONS": False})
    client = app.test_client()
    page = client.get("/uk/hanamikoji/")
    html = page.get_data(as_text=True)
    css = html.split('rel="stylesheet" href="', 1)[1].split('"', 1)[0]
    score = client.post("/api/v1/hanamikoji/score?lang=uk", json={"rounds": [{"board": {
        "a": [2, 0, 0, 1, 1, 2, 2], "b": [0, 2, 2, 1, 1, 1, 1]}}]})
    missing = client.get("/uk/no-such-page")  # the error pages' templates are in the wheel
    koikoi = client.get("/uk/koikoi/score?a=0,2,8,10,28,30&winner=a&ka=0&kb=1&ruleset=nintendo")
    print(json.dumps({
        "rulebook": rulebook.__file__, "webapp": webapp.__file__,
        "translations": str(translations_dir()),
        "page_status": page.status_code, "html": html,
        "css_status": client.get(css).status_code, "css": css,
        "score_status": score.status_code, "score": score.get_json(),
        "missing_status": missing.status_code, "missing": missing.get_data(as_text=True),
        "koikoi_status": koikoi.status_code, "koikoi": koikoi.get_data(as_text=True),
    }))
""")


def uk_strings() -> list[str]:
    catalog = Translations.load(str(ROOT / "translations"), ["uk"], domain="messages")
    return [t for m in CANDIDATES if (t := catalog.gettext(m)) != m]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    if not list((ROOT / "translations").glob("*/LC_MESSAGES/messages.mo")):
        pytest.fail("no compiled catalogs: run `make catalogs` (make test does)")
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.pyc", "*.po", "*.pot"))
        else:
            shutil.copy2(path, src / name)
    dist = tmp / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", "--no-index", "-w", str(dist), str(src)],
                   check=True, capture_output=True, cwd=tmp)
    wheel = next(dist.glob("shinpan-*.whl"))
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True)
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    # dependencies only: this venv's site-packages, appended after the wheel's own files
    (site / "shinpan-test-deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return python


def test_installed_wheel_serves_pages_and_api(installed, tmp_path):
    own = {k: v for k, v in os.environ.items() if k != "SHINPAN_TRANSLATIONS"}  # its catalogs
    out = subprocess.run([str(installed), "-c", PROBE], cwd=tmp_path, check=True,
                         capture_output=True, text=True, timeout=120, env=own)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    venv = str(installed.parent.parent)
    for key in ("rulebook", "webapp", "translations"):
        assert result[key].startswith(venv), (key, result[key])  # not the checkout
    assert result["translations"].endswith("rulebook/translations")
    assert result["page_status"] == 200
    html = result["html"]
    assert '<html lang="uk"' in html
    translated = uk_strings()
    assert translated, "the Ukrainian catalog translates none of the base template's strings"
    assert any(t in html for t in translated), translated
    assert result["css_status"] == 200 and result["css"].startswith("/static/css/site.")
    assert result["score_status"] == 200
    assert result["score"]["valid"] is True
    assert result["missing_status"] == 404 and '<html lang="uk"' in result["missing"]
    assert result["koikoi_status"] == 200 and 'id="ruling-data"' in result["koikoi"]
