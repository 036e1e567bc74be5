"""The rules site in a real Chromium: language switcher, permalinks, table options, search,
negotiation, no-JS, print, screenshots, axe-core and keyboard use.

One browser for the module (conftest's session `browser`) and two contexts: `ctx` obeys
the site's Content-Security-Policy (a fresh tab per test, which fails on any CSP
violation, script error or failed request in its console), `axe_ctx` has
`bypass_csp=True` because axe-core is injected as a script, which the CSP refuses.
Short timeouts: the pages are server-rendered, so once `goto` returns the DOM is
complete and assertions need no waiting.

Screenshots: tests/artifacts/rules-<lang>.png (full page) and rules-en-print.png.
"""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from rulebook.i18n import LANGUAGES

from .conftest import axe_violations

pytestmark = pytest.mark.browser

TIMEOUT = 5_000  # ms; a local server answers in well under a second
VIEWPORT = {"width": 1280, "height": 900}
RULE = "scoring.tie-keeps-marker"
GEEKACH_CHAIN = ["tiebreak.most-charm", "tiebreak.highest-geisha", "tiebreak.shared"]
OTHER = {lang: ("de" if lang == "en" else "en") for lang in LANGUAGES}
PAGE_TYPES = {
    "home": "/{lang}/",
    "rules": "/{lang}/hanamikoji/",
    "rules-options-compare": "/{lang}/hanamikoji/?edition=geekach&round_limit=1"
                             "&simultaneous_goal=geishas&compare={other}",
    "disagreements": "/{lang}/hanamikoji/disagreements",
    # the rule id is searchable in every language: results whatever the catalogs say
    "search": "/{lang}/hanamikoji/search?q=secret",
    "404": "/{lang}/no-such-page",
}


def by_id(page, element_id: str):
    """A locator for an id with dots in it (`#scoring.tie-keeps-marker` is a class selector)."""
    return page.locator(f'[id="{element_id}"]')


def html_lang(page) -> str:
    return page.evaluate("document.documentElement.lang")


def in_viewport(locator) -> bool:
    """Some part of the element lies inside the viewport (what the reader sees)."""
    return locator.evaluate(
        "e => { const r = e.getBoundingClientRect();"
        " return r.bottom > 0 && r.top < window.innerHeight && r.height > 0; }"
    )


def query_of(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


def new_context(browser, **kwargs):
    options = {"viewport": VIEWPORT, "locale": "en-GB", **kwargs}
    context = browser.new_context(**options)
    context.set_default_timeout(TIMEOUT)
    context.set_default_navigation_timeout(TIMEOUT)
    return context


def console_problems(page) -> list[str]:
    """Collects script errors and console errors (CSP refusals, failed loads) of `page`."""
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    return problems


@pytest.fixture(scope="module")
def ctx(browser):
    context = new_context(browser)
    yield context
    context.close()


@pytest.fixture(scope="module")
def axe_ctx(browser):
    context = new_context(browser, bypass_csp=True)
    yield context
    context.close()


@pytest.fixture()
def tab(ctx):
    page = ctx.new_page()
    problems = console_problems(page)
    yield page
    page.close()
    assert not problems, f"console errors under the site's CSP: {problems}"


@pytest.fixture(scope="module")
def axe_tab(axe_ctx):
    page = axe_ctx.new_page()
    yield page
    page.close()


@pytest.fixture()
def nojs(no_js_page):
    no_js_page.set_default_timeout(TIMEOUT)
    no_js_page.set_default_navigation_timeout(TIMEOUT)
    return no_js_page


# -- language switcher, permalinks -------------------------------------------------------
def test_switcher_keeps_the_rule_in_view(tab, live_server):
    tab.goto(f"{live_server}/en/hanamikoji/#{RULE}")
    assert in_viewport(by_id(tab, RULE)), "the permalinked rule is scrolled into view"
    tab.locator("#language-switcher").get_by_role("link", name="Deutsch", exact=True).click()
    tab.wait_for_url(re.compile(r"/de/hanamikoji/[^#]*#" + re.escape(RULE) + "$"))
    assert html_lang(tab) == "de"
    assert urlsplit(tab.url).fragment == RULE
    current = tab.locator('#language-switcher a[aria-current="true"]')
    assert current.get_attribute("hreflang") == "de"
    assert in_viewport(by_id(tab, RULE)), "the same rule is in view after switching"


def test_switcher_keeps_query_and_fragment(tab, live_server):
    tab.goto(f"{live_server}/en/hanamikoji/disagreements?edition=geekach&round_limit=1"
             "#disagree.action-names")
    tab.locator('#language-switcher a[hreflang="uk"]').click()
    tab.wait_for_url(re.compile(r"/uk/hanamikoji/disagreements\?"))
    parts = urlsplit(tab.url)
    assert parse_qs(parts.query) == {"edition": ["geekach"], "round_limit": ["1"]}
    assert parts.fragment == "disagree.action-names"
    assert html_lang(tab) == "uk"


def test_follow_a_permalink(tab, live_server):
    tab.goto(f"{live_server}/en/hanamikoji/")
    rule = by_id(tab, RULE)
    permalink = rule.locator("a.permalink")
    permalink.scroll_into_view_if_needed()
    assert permalink.is_visible()
    assert permalink.get_attribute("aria-label") == f"Permalink to {RULE}"
    before = rule.evaluate("e => getComputedStyle(e).boxShadow")
    permalink.click()
    assert urlsplit(tab.url).fragment == RULE
    assert tab.evaluate("document.querySelector(':target')?.id") == RULE
    after = rule.evaluate("e => getComputedStyle(e).boxShadow")
    assert after != "none" and after != before, "the targeted rule is highlighted"
    assert in_viewport(rule)
    tab.emulate_media(forced_colors="active")  # shadows are dropped: an outline marks it
    try:
        ring = rule.evaluate("e => getComputedStyle(e).outlineStyle")
        assert ring != "none", "the targeted rule is marked in forced colours"
    finally:
        tab.emulate_media(forced_colors="none")


def test_disagreement_permalink_is_highlighted(tab, live_server):
    tab.goto(f"{live_server}/de/hanamikoji/disagreements#disagree.clash")
    entry = by_id(tab, "disagree.clash")
    assert tab.evaluate("document.querySelector(':target')?.id") == "disagree.clash"
    assert entry.evaluate("e => getComputedStyle(e).boxShadow") != "none"
    assert in_viewport(entry)


# -- table options -----------------------------------------------------------------------
def test_toggle_round_limit_and_edition(tab, live_server):
    tab.goto(f"{live_server}/en/hanamikoji/")
    tab.get_by_label("Three-round limit").check()
    tab.locator("#opt-edition").select_option("geekach")
    tab.locator("#options-apply").click()
    tab.wait_for_url(re.compile(r"/en/hanamikoji/\?.*edition=geekach"))
    query = query_of(tab.url)
    assert query["edition"] == ["geekach"] and query["round_limit"] == ["1"]
    chain = tab.locator("#tiebreak-chain li").evaluate_all("els => els.map(e => e.dataset.rule)")
    assert chain == GEEKACH_CHAIN
    assert tab.locator("#tiebreak-chain").is_visible()
    assert "rule--active" in by_id(tab, "variant.round-limit").get_attribute("class")
    assert "rule--active" in by_id(tab, "edition.geekach").get_attribute("class")
    # the form shows what is in force
    assert tab.locator("#opt-round-limit").is_checked()
    assert tab.locator("#opt-edition").input_value() == "geekach"

    # internal links keep the options: page navigation, language switcher, search form
    for link in tab.locator(".game-nav a, #language-switcher a").all():
        href = link.get_attribute("href")
        got = query_of(href)
        assert got.get("edition") == ["geekach"] and got.get("round_limit") == ["1"], href
    hidden = dict(tab.locator("#search-form input[type=hidden]").evaluate_all(
        "els => els.map(e => [e.name, e.value])"))
    assert hidden.get("edition") == "geekach" and hidden.get("round_limit") == "1"

    tab.locator(".game-nav").get_by_role("link", name="Where sources disagree").click()
    tab.wait_for_url(re.compile(r"/en/hanamikoji/disagreements\?"))
    query = query_of(tab.url)
    assert query["edition"] == ["geekach"] and query["round_limit"] == ["1"]
    assert tab.locator("#opt-round-limit").is_checked()
    assert tab.locator("#opt-edition").input_value() == "geekach"


# -- search ------------------------------------------------------------------------------
def test_search_in_ukrainian(tab, live_server):
    tab.goto(f"{live_server}/uk/hanamikoji/")
    box = tab.locator("#search-q")
    box.fill("таємниця")
    box.press("Enter")
    tab.wait_for_url(re.compile(r"/uk/hanamikoji/search\?"))
    assert query_of(tab.url)["q"] == ["таємниця"]
    assert html_lang(tab) == "uk"
    assert tab.locator("#search-q").input_value() == "таємниця"
    hits = tab.locator('#search-results a[href$="#action.secret"]')
    count_text = tab.locator("#search-count").inner_text()
    assert hits.count() >= 1, (
        f"no result links to #action.secret ({count_text!r}); is the Ukrainian catalog "
        "translated (msgctxt action.secret -> Таємниця)?"
    )
    hits.first.click()
    tab.wait_for_url(re.compile(r"/uk/hanamikoji/[^#]*#action\.secret$"))
    assert tab.evaluate("document.querySelector(':target')?.id") == "action.secret"
    assert in_viewport(by_id(tab, "action.secret"))


# -- language negotiation ----------------------------------------------------------------
@pytest.mark.parametrize("options", [
    {"locale": "uk-UA"},
    # no locale: Playwright's `locale` would set the header itself
    {"locale": None, "extra_http_headers": {"Accept-Language": "uk-UA,uk;q=0.9,en;q=0.5"}},
], ids=["locale", "header"])
def test_root_lands_on_browser_language(browser, live_server, options):
    context = new_context(browser, **options)
    try:
        page = context.new_page()
        response = page.goto(f"{live_server}/")
        assert response.ok
        assert urlsplit(page.url).path == "/uk/"
        assert html_lang(page) == "uk"
    finally:
        context.close()


# -- without JavaScript ------------------------------------------------------------------
def test_options_and_search_work_without_javascript(nojs, live_server):
    page = nojs
    page.goto(f"{live_server}/en/hanamikoji/")
    page.locator("#opt-round-limit").check()
    page.locator("#opt-edition").select_option("geekach")
    page.locator("#options-apply").click()
    page.wait_for_url(re.compile(r"/en/hanamikoji/\?.*edition=geekach"))
    query = query_of(page.url)
    assert query["edition"] == ["geekach"] and query["round_limit"] == ["1"]
    chain = page.locator("#tiebreak-chain li").evaluate_all("els => els.map(e => e.dataset.rule)")
    assert chain == GEEKACH_CHAIN

    page.locator("#search-q").fill("geisha")
    page.locator("#search-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/en/hanamikoji/search\?"))
    query = query_of(page.url)
    assert query["q"] == ["geisha"] and query["edition"] == ["geekach"]
    assert page.locator("#search-results li").count() > 0
    first = page.locator("#search-results a").first
    rule_id = first.get_attribute("href").rsplit("#", 1)[1]
    first.click()
    page.wait_for_url(re.compile(r"/en/hanamikoji/\?[^#]*#" + re.escape(rule_id) + "$"))
    assert query_of(page.url)["edition"] == ["geekach"]


# -- print -------------------------------------------------------------------------------
def test_print_hides_navigation_and_forms(tab, live_server, artifacts):
    tab.goto(f"{live_server}/en/hanamikoji/?round_limit=1")
    tab.emulate_media(media="print")
    try:
        for selector in [".site-header", "#language-switcher", ".game-nav", "#search-form",
                         "#options", "#toc", ".skip-link", ".permalink"]:
            hidden = tab.locator(selector).evaluate_all(
                "els => els.every(e => !e.checkVisibility())")
            assert hidden, f"{selector} is shown in print"
        assert tab.locator("h1").is_visible()
        assert by_id(tab, RULE).is_visible()
        assert tab.locator("#tiebreak-chain").is_visible()
        background = tab.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert background == "rgb(255, 255, 255)"
        tab.screenshot(path=str(artifacts / "rules-en-print.png"), full_page=True)
    finally:
        tab.emulate_media(media="screen")


# -- screenshots -------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_page_screenshot(tab, live_server, artifacts, lang):
    tab.goto(f"{live_server}/{lang}/hanamikoji/")
    assert html_lang(tab) == lang
    # nothing sticks out sideways (a long word or a wide table would)
    overflow = tab.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"horizontal overflow of {overflow}px"
    # every edition's name fits in the select, as it is shown once chosen
    clipped = tab.locator("#opt-edition").evaluate(
        "sel => { const ctx = document.createElement('canvas').getContext('2d');"
        " const cs = getComputedStyle(sel); ctx.font = cs.font;"
        " const room = sel.clientWidth - parseFloat(cs.paddingLeft)"
        "   - parseFloat(cs.paddingRight) - 18;"  # the drop-down arrow (~20 px)
        " return [...sel.options].map(o => o.text.trim())"
        "   .filter(t => ctx.measureText(t).width > room); }")
    assert not clipped, f"edition names cut off in the select: {clipped}"
    path = artifacts / f"rules-{lang}.png"
    tab.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000


BROKEN_WORDS = """els => els.flatMap(el => {
  const out = [], walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    for (const m of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      if (range.getClientRects().length > 1) out.push(m[0]);
    }
  }
  return out;
})"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_narrow_screen_breaks_no_word(browser, live_server, lang):
    """On a phone (320, 360 px) and just above the 4-column break (980 px) the geisha cards
    and action tiles wrap between words, never inside one; nothing scrolls sideways."""
    context = new_context(browser, viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"{live_server}/{lang}/hanamikoji/?edition=geekach&round_limit=1")
        for width in (320, 360, 980):
            page.set_viewport_size({"width": width, "height": 740})
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"horizontal overflow of {overflow}px at {width}px"
            broken = page.locator(".geisha, .action-tile__name, .action-tile__facts"
                                  ).evaluate_all(BROKEN_WORDS)
            assert not broken, f"words broken across lines at {width}px: {broken}"
    finally:
        context.close()


# -- axe-core ----------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page_type", list(PAGE_TYPES))
def test_axe_no_serious_violations(axe_tab, live_server, page_type, lang):
    tab = axe_tab
    path = PAGE_TYPES[page_type].format(lang=lang, other=OTHER[lang])
    response = tab.goto(live_server + path)
    assert response.status == (404 if page_type == "404" else 200)
    assert html_lang(tab) == lang
    if page_type == "search":
        assert tab.locator("#search-results li").count() > 0, "search page without results"
    if page_type == "rules-options-compare":
        assert tab.locator(f'.rule__text--compare[lang="{OTHER[lang]}"]').count() > 0
    violations = axe_violations(tab)
    report = "\n".join(f"{v['impact']} {v['id']} ({v['help']}): {v['nodes']}" for v in violations)
    assert not violations, f"axe on {path}:\n{report}"


# -- keyboard ----------------------------------------------------------------------------
def outline(page) -> dict:
    return page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return {style: s.outlineStyle, width: parseFloat(s.outlineWidth)}; }"
    )


def test_keyboard_skip_link_and_visible_focus(tab, live_server):
    tab.goto(f"{live_server}/en/hanamikoji/")
    tab.keyboard.press("Tab")
    focused = tab.evaluate(
        "() => ({cls: document.activeElement.className,"
        " href: document.activeElement.getAttribute('href')})")
    assert focused == {"cls": "skip-link", "href": "#main"}
    skip = tab.locator(".skip-link")
    assert in_viewport(skip) and skip.is_visible(), "the focused skip link is on screen"
    ring = outline(tab)
    assert ring["style"] != "none" and ring["width"] >= 2, ring

    tab.keyboard.press("Enter")
    assert tab.evaluate("document.activeElement.id") == "main"
    assert urlsplit(tab.url).fragment == "main"

    tab.keyboard.press("Tab")  # the next stop is inside main, not back in the header
    inside = tab.evaluate(
        "() => document.getElementById('main').contains(document.activeElement)"
        " && document.activeElement !== document.getElementById('main')")
    assert inside
    ring = outline(tab)
    assert ring["style"] != "none" and ring["width"] >= 2, ring


def test_every_tab_stop_shows_focus(tab, live_server):
    """Tab through the header, the options form and the first rules: each stop has a ring."""
    tab.goto(f"{live_server}/de/hanamikoji/?round_limit=1")
    missing, seen = [], []
    for _ in range(40):
        tab.keyboard.press("Tab")
        stop = tab.evaluate(
            "() => { const e = document.activeElement, s = getComputedStyle(e);"
            " return {what: e.tagName + (e.id ? '#' + e.id : '') + ' ' + (e.className || ''),"
            " style: s.outlineStyle, width: parseFloat(s.outlineWidth),"
            " visible: !!(e.offsetWidth || e.offsetHeight)}; }")
        seen.append(stop["what"])
        if stop["style"] == "none" or stop["width"] < 2 or not stop["visible"]:
            missing.append(stop)
    assert "INPUT#opt-round-limit " in seen and "BUTTON#options-apply " in seen, seen
    assert not missing, f"focus not visible on: {missing}"
