"""The checker at a table without a signal: every checker page once opened opens again
offline as its form (what was entered, never a ruling), says the ruling comes with the
connection, keeps what is entered meanwhile, and rules once the connection is back.
Each test has a browser context of its own: its service worker and copies start empty."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Response

from tests.budget import languages
from webapp.pages import site

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
FORMS = "shinpan-checker-v1"  # static/js/sw.js
# a finished Hanamikoji round, counted on the board (B wins)
COUNTS = {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}
SANKO = [0, 2, 8, 10, 28, 30]  # three Brights in Koi-Koi: 5 points


@contextmanager
def own_phone(browser):
    context = browser.new_context(service_workers="allow", **PHONE)
    try:
        yield context.new_page()
    finally:
        context.close()


def controlled(page) -> None:
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")


def kept_text(page, name: str, url: str, expect: str) -> None:
    """Wait until the cache `name` holds a copy of `url` whose text contains `expect`: the
    check runs in the page each time the wait polls, and its answer is read the next time."""
    page.wait_for_function(
        """([name, url, expect]) => {
             const seen = window.__kept = window.__kept || {};
             const key = name + " " + url;
             caches.open(name).then(c => c.match(url)).then(r => r ? r.text() : "")
               .then(text => { seen[key] = text; });
             return (seen[key] || "").includes(expect);
           }""",
        arg=[name, url, expect])


def kept(page, url: str) -> None:
    """Wait until the worker keeps the checker form of `url`."""
    kept_text(page, FORMS, url, "data-copy")


def opened_once(page, url: str) -> None:
    """The checker at `url` opened with a connection, its form kept by the worker."""
    page.goto(url)
    controlled(page)
    kept(page, url)


def settled(page) -> None:
    page.wait_for_function("() => !document.querySelector('form[data-live][aria-busy]')")


def assert_form_without_ruling(page) -> None:
    """The kept form: marked as a copy, the note and the offline notice shown, no ruling."""
    assert page.locator("html[data-copy]").count() == 1
    assert page.locator("[data-copy-show]").is_visible()
    assert page.locator("[data-live-offline]").is_visible()
    for ruling in ("#verdict", "#ruling-data", "#request-data", "#verdict-more", "#sheet"):
        assert page.locator(ruling).count() == 0, f"{ruling} came from a copy"


@pytest.mark.parametrize("lang", languages(quick=("uk",), every=("de", "uk")))
def test_hanamikoji_checker_opens_offline_and_rules_when_back(browser, live_server, lang):
    with own_phone(browser) as page:
        url = f"{live_server}/{lang}/hanamikoji/score"
        opened_once(page, url)
        page.context.set_offline(True)
        page.reload()
        assert page.locator("html").get_attribute("lang") == lang
        assert_form_without_ruling(page)
        note = page.text_content("[data-copy-show]")
        # the round entered offline, side by side, as the players count it
        for p, counts in COUNTS.items():
            for i, count in enumerate(counts):
                page.fill(f"#{p}-{i}", str(count))
        page.locator('#col-6 .stepper--b button[data-step="-1"]').tap()
        page.locator('#col-6 .stepper--b button[data-step="+1"]').tap()
        assert page.locator("[data-live-offline]").is_visible()
        assert page.input_value("#b-6") == "3", "what was entered is kept"
        page.context.set_offline(False)
        page.wait_for_selector('#verdict[data-status="win"]')
        assert page.get_attribute("#verdict", "data-winner") == "b"
        assert page.url.endswith("?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3"), "the tidy address"
        assert page.locator("html[data-copy]").count() == 0
        assert page.locator("[data-live-offline]").is_hidden()
        assert [page.input_value(f"#a-{i}") for i in range(7)] == [str(n) for n in COUNTS["a"]]
        assert note.strip() and page.locator("[data-copy-show]").is_hidden()


@pytest.mark.parametrize("lang", languages(quick=("de",), every=("de", "uk")))
def test_koikoi_checker_opens_offline_with_its_last_state(browser, live_server, lang):
    with own_phone(browser) as page:
        page.goto(f"{live_server}/{lang}/koikoi/score?na=Olena&nb=Jonas")
        controlled(page)
        for index in SANKO[:4]:  # ticked online: each answer is kept as a form
            page.locator(f'label[for="pile-a-{index}"]').tap()
            settled(page)
        last = page.url
        kept(page, last)
        assert page.locator("#verdict").count() == 1
        page.context.set_offline(True)
        page.goto(last)  # opened again at the table, without a signal
        assert_form_without_ruling(page)
        assert page.input_value("#name-a") == "Olena"
        assert all(page.locator(f"#pile-a-{i}").is_checked() for i in SANKO[:4])
        for index in SANKO[4:]:  # the round finished offline
            page.locator(f'label[for="pile-a-{index}"]').tap()
        assert page.locator("[data-live-offline]").is_visible()
        assert all(page.locator(f"#pile-a-{i}").is_checked() for i in SANKO)
        page.context.set_offline(False)
        page.wait_for_selector('#verdict[data-score-a="5"]')
        assert "Olena" in page.text_content("#verdict-text")
        assert page.locator("html[data-copy]").count() == 0
        assert all(page.locator(f"#pile-a-{i}").is_checked() for i in SANKO)


def test_a_tap_asks_for_its_regions_and_opens_offline_as_it_left(browser, live_server):
    """live.js asks for the page's live parts alone and hands the page's copy to the worker
    after each answer, so the page opened offline afterwards holds the state after the tap,
    fields the answer does not carry included."""
    with own_phone(browser) as page:
        url = f"{live_server}/es/hanamikoji/score?na=Chiyo&nb=Haru"  # names no other test uses
        opened_once(page, url)
        with page.expect_response(lambda r: r.request.resource_type == "fetch"
                                  and "/es/hanamikoji/score?" in r.url) as asked:
            page.locator('button[data-step="+1"][data-for="a-2"]').tap()
        answer = asked.value
        assert answer.request.headers.get("shinpan-live") == "regions"
        assert answer.status == 200
        regions = answer.text()
        assert 'id="verdict"' in regions and 'id="checker-form"' in regions
        for whole in ("<html", "<head", "<header", "<footer", 'id="language-switcher"'):
            assert whole not in regions, f"{whole} came with a tap"
        settled(page)
        assert page.url != url and page.input_value("#a-2") == "1"
        kept_text(page, FORMS, page.url, 'id="a-2" name="a" min="0" max="2" step="1" '
                                         'inputmode="numeric" value="1"')
        # a field the answer does not carry (the page's copy holds what is typed in it)
        page.locator("#setup summary").tap()
        page.fill("#setup-house", "Oma Chiyo")
        settled(page)
        after = page.url
        assert "house=Oma" in after
        kept_text(page, FORMS, after, 'value="Oma Chiyo"')
        page.context.set_offline(True)
        page.goto(after)  # opened again without a signal: the page as the tap left it
        assert_form_without_ruling(page)
        assert page.locator("html").get_attribute("lang") == "es"
        assert page.locator("#site-header").count() == 1 and page.locator("footer").count() == 1
        assert page.input_value("#a-2") == "1"
        assert page.input_value("#name-a") == "Chiyo"
        assert page.input_value("#setup-house") == "Oma Chiyo"


def test_a_new_deploy_replaces_the_kept_forms(browser, live_server, monkeypatch):
    """A changed worker (a deploy) fetches every kept form again and drops older caches."""
    with own_phone(browser) as page:
        url = f"{live_server}/en/koikoi/score"
        opened_once(page, url)
        ruled = f"{live_server}/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3"
        page.evaluate(  # what an older worker left: a stale form, a cache of an older name
            """([name, url, ruled]) => Promise.all([
                 caches.open(name).then(c => c.put(url, new Response("stale", {headers: {"Content-Type": "text/html"}}))),
                 caches.open("shinpan-checker-v0").then(c => c.put(ruled, new Response("older", {headers: {"Content-Type": "text/html"}})))])""",
            [FORMS, url, ruled])
        script = Path(site.__file__).parent.parent / "static" / "js" / "sw.js"
        monkeypatch.setattr(site, "send_static", lambda *a, **k: Response(
            script.read_bytes() + b"\n// the next deploy\n", mimetype="text/javascript"))
        page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
        kept_text(page, FORMS, url, 'id="kk-form"')
        kept_text(page, FORMS, ruled, 'id="checker-form"')
        page.wait_for_function("""() => { caches.has("shinpan-checker-v0").then(old => { window.__old = old; });
                                          return window.__old === false; }""")
        page.context.set_offline(True)
        page.goto(ruled)  # the ruling the older worker kept: now as the new form, no ruling
        assert_form_without_ruling(page)
        assert page.input_value("#a-0") == "2"


def test_a_checker_never_opened_is_the_offline_page(browser, live_server):
    with own_phone(browser) as page:
        opened_once(page, f"{live_server}/fr/hanamikoji/score")
        page.context.set_offline(True)
        page.goto(f"{live_server}/fr/koikoi/score?a=0,2")
        assert page.locator("#offline").is_visible()
        assert page.locator("html").get_attribute("lang") == "fr"

