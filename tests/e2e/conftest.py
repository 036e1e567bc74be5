"""Browser fixtures: the site served on loopback, Debian's Chromium driven by Playwright.

The browser is Debian's `chromium-headless-shell` (installed by `make test`), never one
that Playwright downloads: the same Blink as Debian's `chromium`, without the desktop
browser's shell, so a context opens in a fifth of the time (the full browser is used where
the headless shell is missing). Screenshots go to tests/artifacts/ (git-ignored).
"""
from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from tests.budget import PICTURES
from webapp import create_app
from webapp.pages import search

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# ms: the bound on waiting for state (a local server answers in well under a second, but
# the machine may be busy running two browsers and other work at once)
TIMEOUT = 15_000
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str:
    path = (shutil.which("chromium-headless-shell") or shutil.which("chromium")
            or shutil.which("chromium-browser"))
    if not path:
        pytest.fail("Debian's chromium is missing: `make test` installs it "
                    "(apt-get install chromium-headless-shell)")
    return path


@pytest.fixture(scope="session")
def live_server():
    """The real app on 127.0.0.1 with a free port, in a background thread."""
    app = create_app({"TESTING": True})
    # Every search index and analyzer made here (about a third of a second, far more on a
    # busy machine), not inside a browser test's wait for a page: as the production server
    # does before it forks (webapp/server/wsgi.py).
    search.warm_up()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


class Browser:
    """Playwright's browser whose contexts wait for state at most TIMEOUT and block the
    site's service worker unless a test asks for it (`service_workers="allow"`): the worker
    keeps a copy of every page a test opens and fetches the offline page, work the offline
    tests alone need."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        options.setdefault("service_workers", "block")
        context = self._browser.new_context(**options)
        context.set_default_timeout(TIMEOUT)
        context.set_default_navigation_timeout(TIMEOUT)
        return context

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS,
                                             headless=True)
        yield Browser(browser)
        browser.close()


def closed_after(opened):
    """For a fixture: yield a page or a browser context to the test(s), then close it."""
    yield opened
    opened.close()


@pytest.fixture()
def context(browser):
    yield from closed_after(browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB"))


@pytest.fixture()
def page(context):
    return context.new_page()


@pytest.fixture()
def no_js_page(browser):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def picture(target, path: Path, **options) -> None:
    """A picture of a page or an element, for a person to look at (tests/budget.py)."""
    if PICTURES:
        target.screenshot(path=str(path), **options)


def axe_violations(page, impacts=("serious", "critical"), within: str | None = None,
                   rules: list[str] | None = None) -> list[dict]:
    """Run axe-core (from npm, injected here) on the page, or on the element `within` names,
    with every rule or only `rules`; the violations of the given impacts."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async ([within, rules]) => await axe.run(within ? {include: [within]} : document,
             rules ? {runOnly: {type: 'rule', values: rules}, resultTypes: ['violations']}
                   : {resultTypes: ['violations']})""", [within, rules])
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"],
         "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"] if v["impact"] in impacts
    ]
