"""The comparison pages in Chromium: on a phone (390x844) the pick form comes first and two
columns show; a wide screen (1280x800) shows every column; axe finds nothing serious; the
form works without JavaScript. Screenshots go to tests/artifacts/."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from tests.budget import languages

from .conftest import axe_violations, closed_after, picture

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture()
def axe_page(browser):
    """A page whose context lets axe-core be injected (it is a script the CSP refuses)."""
    context = browser.new_context(viewport=PHONE, bypass_csp=True, locale="en-GB")
    yield from closed_after(context.new_page())
    context.close()


def visible_columns(page) -> list[str]:
    """The items whose column heads show in the first table."""
    return page.eval_on_selector_all(
        ".cmp-group:first-of-type thead th[data-item]",
        "ths => ths.filter(t => t.offsetParent !== null).map(t => t.dataset.item)")


def overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def test_koikoi_rulesets_on_a_phone_and_a_wide_screen(axe_page, live_server, artifacts):
    page = axe_page
    page.goto(f"{live_server}/en/koikoi/rulesets")
    # the first control on the first screen: the pick form, targets of at least 44 px
    pick = page.locator("#pick-a")
    box = pick.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"] and box["height"] >= 44
    assert page.locator("#compare-pick button").bounding_box()["height"] >= 44
    assert visible_columns(page) == ["nintendo", "fudawiki"]
    assert overflow(page) <= 0
    picture(page, artifacts / "compare-koikoi-phone.png", full_page=False)
    assert axe_violations(page) == []
    # pick two others: a GET form, so the choice is in the address
    pick.select_option("bga")
    page.locator("#pick-b").select_option("clubhouse")
    with page.expect_navigation():
        page.locator("#compare-pick button").click()
    assert parse_qs(urlsplit(page.url).query) == {"a": ["bga"], "b": ["clubhouse"]}
    assert visible_columns(page) == ["bga", "clubhouse"]
    goko = page.locator('[id="row-yaku.goko"] td[data-item="clubhouse"]')
    assert "differs" in goko.inner_text()
    page.set_viewport_size(DESKTOP)
    page.wait_for_function("document.querySelectorAll('.cmp-group:first-of-type thead th[data-item]')"
                           "[2].offsetParent !== null")
    assert visible_columns(page) == ["bga", "clubhouse", "nintendo", "fudawiki", "gamedesign", "yakuza"]
    picture(page, artifacts / "compare-koikoi-desktop.png", full_page=False)
    assert axe_violations(page) == []


def test_hanamikoji_editions_without_javascript(browser, live_server, artifacts):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False, locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(f"{live_server}/fr/hanamikoji/editions")
        assert page.locator("h1").inner_text() == "Les éditions côte à côte"
        page.locator("#pick-a").select_option("msedizioni")
        page.locator("#pick-b").select_option("jixia")
        with page.expect_navigation():
            page.locator("#compare-pick button").click()
        assert visible_columns(page) == ["msedizioni", "jixia"]
        assert overflow(page) <= 0
        picture(page, artifacts / "compare-hanamikoji-phone-fr.png", full_page=True)
        page.set_viewport_size(DESKTOP)
        assert len(visible_columns(page)) == 8
        picture(page, artifacts / "compare-hanamikoji-desktop-fr.png", full_page=False)
    finally:
        context.close()


def test_hanamikoji_editions_axe(axe_page, live_server):
    page = axe_page
    page.goto(f"{live_server}/uk/hanamikoji/editions?a=kosmos&b=iello")
    assert axe_violations(page) == []
    page.set_viewport_size(DESKTOP)
    assert axe_violations(page) == []


@pytest.mark.parametrize("lang", languages(quick=("ja",), every=("uk", "ja")))
def test_koikoi_rulesets_picked_on_a_phone_without_javascript(browser, live_server, artifacts,
                                                              lang):
    """At 390 px with no script: the GET form picks two rulesets, only those two columns
    show, the rows where the pair differs are marked, which yaku score together included,
    and nothing scrolls sideways."""
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/{lang}/koikoi/rulesets")
        page.locator("#pick-a").select_option("gamedesign")
        page.locator("#pick-b").select_option("clubhouse")
        with page.expect_navigation():
            page.locator("#compare-pick button").click()
        assert parse_qs(urlsplit(page.url).query) == {"a": ["gamedesign"], "b": ["clubhouse"]}
        assert visible_columns(page) == ["gamedesign", "clubhouse"]
        ribbons = page.locator('[id="row-group.ribbons"]')
        assert ribbons.locator(".cmp-differs.only-narrow").is_visible()
        assert ribbons.locator('td[data-item="clubhouse"] .cmp__mark').is_visible()
        assert not ribbons.locator('td[data-item="nintendo"]').is_visible()
        assert overflow(page) <= 0
        picture(page, artifacts / f"compare-koikoi-phone-nojs-{lang}.png", full_page=True)
        ribbons.scroll_into_view_if_needed()
        picture(page, artifacts / f"compare-koikoi-phone-nojs-{lang}-ribbons.png")
    finally:
        context.close()
