"""The scoring checker in real Chromium: live board checking, the round log, a three-round
match, permalinks, no-JS use, the keyboard, screenshots in every language and axe-core.

Assertions use structure, ids and the referee's data, not translated wording.
"""
from __future__ import annotations

import json

import pytest

from rulebook.i18n import LANGUAGES

from .conftest import axe_violations

pytestmark = pytest.mark.browser

EXAMPLE = {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}
TIE = {"a": [1, 1, 1, 1, 1, 1, 2], "b": [1, 1, 1, 1, 1, 1, 2]}
LOG = [("secret", ["ruri"], None), ("tradeoff", ["ayane", "iroha"], None),
       ("gift", ["ruri", "ruri", "anju"], "anju"), ("competition", ["anju", "anju", "yoko", "tomoyo"], "1"),
       ("tradeoff", ["tomoyo", "ayane"], None), ("secret", ["chiharu"], None),
       ("competition", ["chiharu", "chiharu", "yoko", "yoko"], "2"), ("gift", ["ruri", "ruri", "iroha"], "ruri")]


def ruling_data(page) -> dict | None:
    return json.loads(page.locator("#ruling-data").text_content())


def fill_board(page, board: dict) -> None:
    for p in ("a", "b"):
        for i, value in enumerate(board[p]):
            page.fill(f"#{p}-{i}", str(value))


def wait_status(page, *statuses: str) -> None:
    selector = ", ".join(f'#ruling[data-status="{s}"]' for s in statuses)
    page.wait_for_selector(selector)


@pytest.mark.parametrize("lang", ["uk", "de"])
def test_board_mode_live_ruling(page, live_server, lang):
    page.goto(f"{live_server}/{lang}/hanamikoji/score")
    assert page.get_attribute("html", "lang") == lang
    page.fill("#name-a", "Olena")
    page.fill("#name-b", "Jonas")
    fill_board(page, EXAMPLE)
    wait_status(page, "win")
    assert page.get_attribute("#ruling", "data-winner") == "b"
    assert page.get_attribute("#total-b", "data-charm") == "11"
    assert "Jonas" in page.text_content("#ruling-result")
    assert page.locator("#ruling-explanation a.rule-link").count() >= 8
    assert f"/{lang}/hanamikoji/#victory.charm" in page.get_attribute(
        "#ruling-explanation li:last-child a", "href")
    # The URL follows the form, and it is the permalink.
    assert "a=2,1,0,2,2,0,1" in page.url and "nb=Jonas" in page.url
    assert page.get_attribute("#permalink", "href").endswith(page.url.split(live_server)[1])
    # A bad column is explained next to it, in place.
    page.fill("#a-0", "3")
    page.wait_for_selector("#msg-col-0 .field-msg__text")
    assert page.get_attribute("#a-0", "aria-invalid") == "true"
    assert page.locator("#msg-side-a .field-msg__text").count() == 1
    wait_status(page, "invalid")


def add_action(page, action: str, cards: list[str], taken: str | None) -> None:
    page.select_option("#do", action)
    for k, card in enumerate(cards, start=1):
        page.select_option(f"#c{k}", card)
    if taken:
        page.select_option("#take", taken)
    page.click("#add-action")


def test_round_log_with_refusal(page, live_server):
    page.goto(f"{live_server}/de/hanamikoji/score?mode=log&na=Olena&nb=Jonas")
    for k, (action, cards, taken) in enumerate(LOG):
        if k == 2:  # a discard with one card: refused in place with its rule, inputs kept
            page.select_option("#do", "tradeoff")
            page.select_option("#c1", "anju")
            page.click("#add-action")
            page.wait_for_selector("#msg-cards .field-msg__text")
            assert "action.tradeoff" in page.text_content("#msg-cards")
            assert page.input_value("#c1") == "anju"
            assert page.url.count("act=") == 2  # nothing was added
            assert page.locator('#do option[value="secret"]').count() == 0  # used already
        add_action(page, action, cards, taken)  # accepted in place, without a reload
        page.wait_for_selector(f"#log-{k}")
        assert page.url.count("act=") == k + 1
        data = ruling_data(page)
        assert data["valid"]
        if k < 7:
            progress = data["rounds"][0]["progress"]
            assert progress["action_number"] == k + 2
            assert progress["draw_pile"] == 8 - (k + 1)
            assert page.locator("#ruling-explanation li").count() >= 3
    wait_status(page, "continue", "win", "shared")
    assert page.locator("#ruling-totals li").count() == 2
    assert page.locator("#new-action").count() == 0
    # The permalink reopens the same round; undo takes the last action back.
    assert page.get_attribute("#permalink", "href").endswith(page.url.split(live_server)[1])
    page.click("#undo")
    page.wait_for_selector("#new-action")
    assert ruling_data(page)["rounds"][0]["progress"]["action_number"] == 8


def test_three_round_geekach_match(page, live_server):
    page.goto(f"{live_server}/uk/hanamikoji/score")
    page.select_option("#edition", "geekach")
    page.check("#round_limit")
    fill_board(page, TIE)
    wait_status(page, "continue")
    page.click("#next-round")
    assert "round=2" in page.url and "edition=geekach" in page.url and "round_limit=1" in page.url
    assert page.input_value("#round") == "2"
    fill_board(page, {"a": [2, 0, 0, 2, 2, 0, 2], "b": [0, 1, 1, 1, 1, 2, 2]})
    wait_status(page, "continue")
    page.click("#next-round")
    assert page.input_value("#round") == "3"
    fill_board(page, TIE)
    wait_status(page, "win", "shared", "undecided")
    data = ruling_data(page)
    assert data["edition"] == "geekach" and data["variants"]["round_limit"] is True
    assert data["rounds"][0]["round"] == 3 and data["next"] is None
    assert data["result"]["reason"].startswith("limit_")
    assert page.locator("#next-round").count() == 0


def test_permalink_in_fresh_page(page, live_server, browser):
    page.goto(f"{live_server}/fr/hanamikoji/score?edition=kosmos")
    page.fill("#name-a", "Ana")
    fill_board(page, EXAMPLE)
    page.check("#goal-geishas")
    page.wait_for_function("() => document.querySelector('#permalink').href.includes('simultaneous_goal=geishas')")
    wait_status(page, "win")
    link = page.get_attribute("#permalink", "href")
    live = ruling_data(page)
    fresh_context = browser.new_context()
    try:
        fresh = fresh_context.new_page()
        fresh.goto(link if link.startswith("http") else live_server + link)
        assert ruling_data(fresh) == live
        assert fresh.get_attribute("html", "lang") == "fr"
    finally:
        fresh_context.close()


def test_without_javascript(no_js_page, live_server):
    page = no_js_page
    page.goto(f"{live_server}/uk/hanamikoji/score")
    fill_board(page, EXAMPLE)
    page.click("#check")
    assert page.get_attribute("#ruling", "data-winner") == "b"
    assert "a=2" in page.url
    assert ruling_data(page)["rounds"][0]["charm"]["b"] == 11


def test_keyboard_only_entry(page, live_server):
    page.goto(f"{live_server}/de/hanamikoji/score")
    page.focus("#name-a")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "b-0":
            break
    assert page.evaluate("document.activeElement.id") == "b-0"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert page.input_value("#b-0") == "2"
    assert page.evaluate("document.activeElement.matches(':focus-visible')")
    page.wait_for_function("() => location.search.includes('b=2,0,0,0,0,0,0')")


def test_screenshots_and_axe(browser, live_server, artifacts):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    try:
        page = context.new_page()
        for lang in LANGUAGES:
            page.goto(f"{live_server}/{lang}/hanamikoji/score?na=Olena&nb=Jonas&a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3")
            assert page.get_attribute("html", "lang") == lang
            assert page.get_attribute("#ruling", "data-winner") == "b"
            page.screenshot(path=str(artifacts / f"checker-{lang}.png"), full_page=True)
        assert axe_violations(page) == []
        page.goto(f"{live_server}/en/hanamikoji/score")
        assert axe_violations(page) == []
        page.goto(f"{live_server}/en/hanamikoji/score?mode=log&act=secret:ruri&do=secret&c1=anju")
        assert axe_violations(page) == []
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{live_server}/uk/hanamikoji/score?a=3,1,0,2,2,0,1&b=0,1,2,0,0,2,3")
        page.screenshot(path=str(artifacts / "checker-phone.png"), full_page=True)
    finally:
        context.close()
