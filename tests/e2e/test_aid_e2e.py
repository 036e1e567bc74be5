"""Finding, carrying and printing a table's rules in a real Chromium: the player aid printed
to PDF is one sheet of A4 and one of Letter in every language; the finder works without
JavaScript and its answers open the checker; the QR code follows the checker's settings;
the pages pass axe, keep 44 px targets and never scroll sideways at 320 px.

PDFs and screenshots land in tests/artifacts/aid/ (one per game and language) to look at.
"""
from __future__ import annotations

import io
import re
from functools import lru_cache
from urllib.parse import parse_qs, urlsplit

import pytest
from pypdf import PdfReader

from tests.budget import languages
from webapp import create_app
from webapp.games import GAMES

from .conftest import axe_violations, closed_after, picture
from .layout import overflow, small_targets

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
NARROW = {"width": 320, "height": 700}
LONG_HOUSE = "Familie Großmann-Schwarzenberger Regeln"[:40]
TARGETS = ("main a, main button, main input[type=text], main .check label, "
           "main summary, main select")


@lru_cache(maxsize=1)
def _client():
    return create_app({"TESTING": True}).test_client()


def longest_aid(game: str, lang: str) -> str:
    """The settings whose aid is the longest in `lang` (every ruleset or edition, every
    option that adds a rule to it), with a house name as long as one can be."""
    client = _client()
    rb = GAMES[game].rulebook
    if game == "koikoi":
        choices = [f"ruleset={r}&tsukifuda=1&koikoi_multiplier=per_call" for r in rb.rulesets]
    else:
        choices = [f"edition={e}&round_limit=1&simultaneous_goal=geishas" for e in rb.editions]

    def size(query: str) -> int:
        html = client.get(f"/{lang}/{game}/aid?{query}").get_data(as_text=True)
        return len(re.sub(r"<[^>]+>", "", html[html.index('<article class="aid"'):]))

    return f"/{lang}/{game}/aid?" + max(choices, key=size) + "&house=" + LONG_HOUSE


def pages_of(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


def no_problems(page) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    return problems


@pytest.fixture(scope="module")
def print_ctx(browser):
    yield from closed_after(browser.new_context(viewport=DESKTOP))


@pytest.fixture(scope="module")
def axe_ctx(browser):
    yield from closed_after(browser.new_context(viewport=PHONE, bypass_csp=True))


@pytest.fixture(scope="module")
def aid_folder(artifacts):
    folder = artifacts / "aid"
    folder.mkdir(exist_ok=True)
    return folder


# -- printing --------------------------------------------------------------------------
# make test prints the two longest aids (French, German); make test-deep all of them
@pytest.mark.parametrize("lang", languages(quick=("fr", "de")))
@pytest.mark.parametrize("game", ["koikoi", "hanamikoji"])
def test_the_aid_prints_on_one_sheet_of_a4_and_of_letter(print_ctx, live_server, aid_folder,
                                                         game, lang):
    page = print_ctx.new_page()
    problems = no_problems(page)
    try:
        page.goto(live_server + longest_aid(game, lang))
        assert page.locator("#aid-house").inner_text() == LONG_HOUSE
        for paper in ("A4", "Letter"):
            pdf = page.pdf(format=paper, print_background=True)
            (aid_folder / f"{game}-{lang}-{paper}.pdf").write_bytes(pdf)
            assert pages_of(pdf) == 1, f"{game} {lang}: {pages_of(pdf)} pages on {paper}"
        assert not problems, problems
    finally:
        page.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_aid_on_a_screen(browser, live_server, aid_folder, size):
    context = browser.new_context(viewport=PHONE if size == "phone" else DESKTOP)
    page = context.new_page()
    try:
        for game, lang in (("koikoi", "de"), ("hanamikoji", "uk")):
            page.goto(live_server + longest_aid(game, lang))
            picture(page, aid_folder / f"{game}-{lang}-{size}.png", full_page=True)
            assert overflow(page) <= 0
            assert not small_targets(page, "main .aid a, main .aid-tools a, main button")
            # the code back to the checker, with these settings
            link = page.locator("#aid-link").get_attribute("href")
            assert urlsplit(link).path == f"/{lang}/{game}/score"
            assert parse_qs(urlsplit(link).query)["house"] == [LONG_HOUSE]
            code = page.locator(".aid__code svg").bounding_box()
            assert code["width"] >= 100 and abs(code["width"] - code["height"]) < 1
    finally:
        context.close()


# -- finding ---------------------------------------------------------------------------
def test_finder_without_javascript_opens_the_checker_with_the_answers(browser, live_server):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/uk/koikoi/which")
        questions = page.locator("#questions-form fieldset.finder__question")
        assert 1 <= questions.count() <= 6
        # answer every question with its first answer (after "Not sure")
        for i in range(questions.count()):
            questions.nth(i).locator("input[type=radio]").nth(1).check()
        page.locator("#questions-house").fill("Бабусині правила")
        page.locator("#questions-submit").click()
        page.wait_for_selector("#result")
        assert page.locator("#result-title").inner_text()
        page.locator("#result-checker").click()
        page.wait_for_url(re.compile(r"/uk/koikoi/score"))
        query = parse_qs(urlsplit(page.url).query)
        assert query["house"] == ["Бабусині правила"]
        # the checker applies it: its share block says so and its code carries it
        assert page.locator("#share .share__house").inner_text().endswith("Бабусині правила")
        # where you learned: one tap and the button
        page.goto(f"{live_server}/de/hanamikoji/which")
        page.locator("label[for=learned-kosmos]").click()
        page.locator("#learned-submit").click()
        page.wait_for_selector("#result")
        assert "Kosmos" in page.locator("#result-title").inner_text()
    finally:
        context.close()


@pytest.mark.parametrize("lang", languages(quick=("fr",), every=("en", "fr")))
def test_finder_and_share_pass_axe_and_fit_a_narrow_phone(axe_ctx, live_server, aid_folder, lang):
    page = axe_ctx.new_page()
    try:
        # (page, what of it is ours: the rules page is scanned by the site's own tests)
        for url, ours in ((f"/{lang}/koikoi/which?learned=yakuza&house=Oma", None),
                          (f"/{lang}/hanamikoji/which?box.publisher=Kosmos", None),
                          (f"/{lang}/koikoi/?ruleset=gamedesign&house=Oma", "#share"),
                          (f"/{lang}/koikoi/aid?ruleset=fudawiki&house=Oma", None)):
            page.set_viewport_size(PHONE)
            page.goto(live_server + url)
            name = urlsplit(url).path.strip("/").replace("/", "-")
            # the first screen of the rules page (too long to photograph whole on a busy
            # machine within the wait); the other pages whole
            picture(page, aid_folder / f"{name}-phone.png", full_page=not ours)
            assert not axe_violations(page, within=ours), url
            assert not small_targets(page, TARGETS.replace("main", "#share, main .finder, "
                                                           "main .finder-result")), url
            page.set_viewport_size(NARROW)
            assert overflow(page) <= 0, url
    finally:
        page.close()


# -- carrying ------------------------------------------------------------------------------
def test_the_code_follows_the_checkers_settings(browser, live_server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    problems = no_problems(page)
    try:
        page.goto(f"{live_server}/en/koikoi/score?ruleset=nintendo")
        link = page.locator("#share-link")
        assert parse_qs(urlsplit(link.inner_text()).query).get("ruleset") is None
        page.locator("label[for=ck-ruleset-fudawiki]").click()
        page.wait_for_function("() => document.getElementById('share-link')"
                               ".textContent.includes('ruleset=fudawiki')")
        page.locator("#ck-house").fill("Oma")
        page.wait_for_function("() => document.getElementById('share-link')"
                               ".textContent.includes('house=Oma')")
        assert "Oma" in page.locator("#share .share__house").inner_text()
        # the address bar and the code say the same
        assert parse_qs(urlsplit(page.url).query)["house"] == ["Oma"]
        assert not problems, problems
    finally:
        context.close()
