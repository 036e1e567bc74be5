"""Koi-Koi in real Chromium: the scoring checker by mouse and keyboard, ruleset toggles,
no-JS rulings, permalinks, screenshots and axe-core, in Spanish and French.

Assertions use ids, classes and numbers, not translated wording (catalogs are in progress).
Contexts use `bypass_csp=True` because axe-core is injected as a script.
Screenshots: tests/artifacts/koikoi-<lang>.png (checker, full page) and koikoi-<lang>-phone.png.
"""
from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from .conftest import axe_violations

pytestmark = pytest.mark.browser

TIMEOUT = 5_000
LANGS = ["es", "fr"]
SANKO = [0, 2, 8, 10, 28, 30]
GOKO = [0, 2, 8, 10, 28, 30, 40, 42, 44, 45]


def new_context(browser, **kwargs):
    options = {"viewport": {"width": 1280, "height": 900}, "locale": "en-GB", "bypass_csp": True, **kwargs}
    context = browser.new_context(**options)
    context.set_default_timeout(TIMEOUT)
    context.set_default_navigation_timeout(TIMEOUT)
    return context


@pytest.fixture(scope="module")
def ctx(browser):
    context = new_context(browser)
    yield context
    context.close()


@pytest.fixture()
def tab(ctx):
    page = ctx.new_page()
    yield page
    page.close()


def tile(page, player: str, index: int):
    return page.locator(f'label[for="pile-{player}-{index}"]')


def wait_score(page, player: str, points: int) -> None:
    page.wait_for_function(
        "([p, n]) => { const r = document.getElementById('result-score');"
        " return r && !r.hidden && document.getElementById('score-' + p).textContent.trim() === String(n); }",
        arg=[player, points],
    )


def ruling(page) -> dict:
    return json.loads(page.locator("#ruling-data").text_content())


def query_of(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


@pytest.mark.parametrize("lang", LANGS)
def test_pick_by_click_and_keyboard_lights_up_sanko(tab, live_server, artifacts, lang):
    tab.goto(f"{live_server}/{lang}/koikoi/score")
    assert tab.locator("#result-score").is_hidden()
    for index in (0, 2, 8, 10):  # by mouse (or finger): the tile is the label
        tile(tab, "a", index).click()
    for index in (28, 30):  # by keyboard: focus the tile's checkbox, Space toggles it
        tab.focus(f"#pile-a-{index}")
        tab.keyboard.press("Space")
    assert tab.locator("#pile-a-30").is_checked()
    outline = tile(tab, "a", 30).evaluate("e => getComputedStyle(e).outlineStyle")
    assert outline != "none"  # visible focus on the tile
    wait_score(tab, "a", 5)
    assert "is-scored" in tab.locator("#yaku-sanko").get_attribute("class")
    assert tab.locator("#yaku-points-sanko").text_content().strip() == "5"
    for slug in ("pine-crane", "cherry-curtain", "susuki-moon"):
        assert "is-yaku" in tab.locator(f'[id="pile-a-{slug}"]').get_attribute("class")
    assert "is-yaku" not in tab.locator('[id="pile-a-pine-plain-1"]').get_attribute("class")
    data = ruling(tab)
    assert data["valid"] and [y["id"] for y in data["rounds"][0]["yaku"]] == ["sanko"]
    query = query_of(tab.url)
    assert query["a"] == ["0,2,8,10,28,30"] and query["winner"] == ["a"]
    # every sentence of the explanation links to its rule on the rules page
    hrefs = tab.locator("#explanation li a").evaluate_all("els => els.map(a => a.getAttribute('href'))")
    assert any(h.endswith("#yaku.sanko") and f"/{lang}/koikoi/?ruleset=nintendo" in h for h in hrefs)
    # B called koi-koi (B's pile not given): the score doubles
    tab.fill("#calls-b", "1")
    wait_score(tab, "a", 10)
    tab.screenshot(path=str(artifacts / f"koikoi-{lang}.png"), full_page=True)


@pytest.mark.parametrize("lang", LANGS)
def test_field_errors_from_the_api(tab, live_server, lang):
    tab.goto(f"{live_server}/{lang}/koikoi/score")
    tile(tab, "a", 0).click()  # one card of January: captures come in pairs
    tab.wait_for_selector('[data-error-for="a"]:not([hidden])')
    assert "has-error" in tab.locator("#field-a").get_attribute("class")
    tile(tab, "a", 2).click()  # a pair, but no yaku while A is the winner
    tab.wait_for_selector('[data-error-for="winner"]:not([hidden])')
    assert tab.locator('[data-error-for="a"]').is_hidden()
    tab.check("#winner-none")  # the cards ran out: nobody scores
    wait_score(tab, "a", 0)
    assert tab.locator("#errors").is_hidden()


def test_ruleset_toggle_changes_goko(tab, live_server):
    pile = ",".join(map(str, GOKO))
    tab.goto(f"{live_server}/es/koikoi/score?a={pile}&winner=a&ka=0&kb=0&ruleset=nintendo&seven_point_double=0")
    assert tab.locator("#yaku-points-goko").text_content().strip() == "10"
    tab.select_option("#ck-ruleset", "fudawiki")
    tab.wait_for_function("() => document.getElementById('yaku-points-goko').textContent.trim() === '15'")
    wait_score(tab, "a", 15)
    assert query_of(tab.url)["ruleset"] == ["fudawiki"]
    # the rules page: the yaku table follows the ruleset toggle
    tab.goto(f"{live_server}/fr/koikoi/")
    points = tab.locator('#yaku-row-goko .yaku-points')
    assert points.get_attribute("data-points") == "10"
    tab.select_option("#opt-ruleset", "fudawiki")
    tab.click("#options-apply")
    tab.wait_for_url("**ruleset=fudawiki**")
    assert points.get_attribute("data-points") == "15"
    assert tab.locator('[id="ruleset.fudawiki"]').get_attribute("class").count("rule--active") == 1


def test_ruling_without_javascript(no_js_page, live_server):
    page = no_js_page
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server}/fr/koikoi/score")
    for index in SANKO:
        page.locator(f'label[for="pile-a-{index}"]').click()
    page.fill("#calls-b", "1")
    page.click("#score-top")
    page.wait_for_url("**/fr/koikoi/score?a=0,2,8,10,28,30**")
    assert page.locator("#score-a").text_content().strip() == "10"
    assert "is-scored" in page.locator("#yaku-sanko").get_attribute("class")
    assert page.locator("#pile-a-28").is_checked()
    assert page.locator("#explanation li").count() >= 3


def test_permalink_in_a_fresh_page(tab, browser, live_server):
    tab.goto(f"{live_server}/es/koikoi/score")
    for index in (20, 22, 24, 26, 36, 38):  # Ino-shika-cho
        tile(tab, "b", index).click()
    tab.check("#winner-b")
    tab.fill("#calls-a", "1")
    wait_score(tab, "b", 10)
    href = tab.locator("#permalink").get_attribute("href")
    assert href.startswith("/es/koikoi/score?") and "b=20,22,24,26,36,38" in href
    fresh = new_context(browser)
    try:
        page = fresh.new_page()
        page.goto(live_server + href)
        assert page.locator("#score-b").text_content().strip() == "10"
        assert page.locator("#pile-b-36").is_checked() and page.locator("#winner-b").is_checked()
        assert ruling(page) == ruling(tab)
    finally:
        fresh.close()


@pytest.mark.parametrize("lang", LANGS)
def test_phone_layout(browser, live_server, artifacts, lang):
    context = new_context(browser, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/{lang}/koikoi/score?a=0,2,8,10,28,30&winner=a&ka=0&kb=1&ruleset=nintendo")
        page.locator('label[for="pile-a-44"]').tap()
        page.locator('label[for="pile-a-45"]').tap()
        wait_score(page, "a", 32)  # Shiko 8, x2 for 7+, x2 for B's call
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        page.screenshot(path=str(artifacts / f"koikoi-{lang}-phone.png"), full_page=False)
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", ["/{lang}/koikoi/?ruleset=fudawiki&viewings=off",
                                  "/{lang}/koikoi/score?a=0,2,8,10,28,30&winner=a&ka=0&kb=1&ruleset=nintendo",
                                  "/{lang}/koikoi/score?a=0,8&winner=q&ka=zz"])
def test_axe_no_serious_violations(tab, live_server, path, lang):
    tab.goto(live_server + path.format(lang=lang))
    violations = axe_violations(tab)
    assert not violations, json.dumps(violations, indent=1)
