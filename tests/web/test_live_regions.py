"""A checker asked for its live regions (`Shinpan-Live: regions`) answers the parts
static/js/live.js puts in place and nothing else: every region (`data-live-region`) whole and
byte-identical to its place in the full page, every field whose marks live.js follows
(`data-live-attrs`, and the form's `data-live-address`) by the same opening tag as there,
all in the page's order; over a corpus of requests (each in every language in `make
test-deep`, in the languages taken in turn in `make test`). Without the header (no
JavaScript) the page stays whole."""
from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from tests.budget import in_turn
from tools.golden import HANAMIKOJI_QUERIES, KOIKOI_QUERIES

LIVE = {"Shinpan-Live": "regions"}
CHECKERS = [("/{lang}/hanamikoji/score", q) for q in HANAMIKOJI_QUERIES + (
    "mode=log&act=secret:ruri&act=-&act=gift:ruri,ruri,anju:anju",
    "mode=log&act=secret:ruri&do=gift&c=ruri&c=ruri&c=anju",
    "a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&round=3&f0=a&f3=b&sheet=11111121111112&house=Oma")] + \
    [("/{lang}/koikoi/score", q) for q in KOIKOI_QUERIES + (
        "a=0,2,8&winner=a", "a=0,2,8,10,28,30&b=0,2&winner=a&ka=0&kb=0&ruleset=nintendo&house=Oma")]
# an element live.js swaps or reads: its opening tag with its id
MARKED = re.compile(r'<[a-z]+\b[^>]*\bid="([^"]+)"[^>]*\bdata-live-(?:region|attrs|address)\b')
TOKEN = re.compile(r"<!--.*?-->|<script\b[^>]*>.*?</script>|<(/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*?(/?)>",
                   re.DOTALL)
VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr"}
ID = re.compile(r'\sid="([^"]+)"')


@dataclass
class Element:
    tag: str
    start: int  # where its opening tag starts
    opened: int  # where its opening tag ends
    end: int  # where its closing tag ends
    parent: Element | None

    def opening(self, html: str) -> str:
        return html[self.start:self.opened]

    def marks(self, html: str) -> tuple[bool, bool]:
        """(a region, marked for live.js at all)"""
        tag = self.opening(html)
        return " data-live-region" in tag, bool(re.search(r"\sdata-live-(region|attrs|address)\b", tag))


def elements(html: str) -> list[Element]:
    """Every element of `html` (tags balanced, as the templates write them), in order."""
    found: list[Element] = []
    stack: list[Element] = []
    for match in TOKEN.finditer(html):
        closing, tag, selfclosed = match.group(1), match.group(2), match.group(3)
        if tag is None:  # a comment, or a script with what it holds
            if match.group(0).startswith("<script"):
                found.append(Element("script", match.start(), match.start(), match.end(),
                                     stack[-1] if stack else None))
            continue
        tag = tag.lower()
        if closing:
            assert stack and stack[-1].tag == tag, f"</{tag}> closes {stack[-1:]} at {match.start()}"
            stack.pop().end = match.end()
            continue
        element = Element(tag, match.start(), match.end(), match.end(), stack[-1] if stack else None)
        found.append(element)
        if tag not in VOID and not selfclosed:
            stack.append(element)
    assert not stack, f"unclosed: {[e.tag for e in stack]}"
    return found


def by_id(html: str) -> dict[str, Element]:
    out = {}
    for element in elements(html):
        match = ID.search(element.opening(html))
        if match:
            out[match.group(1)] = element
    return out


def answered(client, url: str):
    first = client.get(url, headers=LIVE)
    url = first.headers.get("Shinpan-Live-Address", url)  # a tidier address, answered at once
    client.application.extensions["shinpan.page_cache"].clear()  # a kept page would answer
    return client.get(url, headers=LIVE), client.get(url)


@pytest.mark.parametrize("path,query,lang", in_turn(CHECKERS))
def test_each_live_part_is_its_place_in_the_full_page(client, path, query, lang):
    live, full = answered(client, path.format(lang=lang) + ("?" + query if query else ""))
    assert full.status_code == live.status_code == 200
    page, regions = full.get_data(as_text=True), live.get_data(as_text=True)
    assert "<head" not in regions and "<header" not in regions and "<footer" not in regions
    ids = MARKED.findall(page)
    assert ids and ids == MARKED.findall(regions)  # every region and field it syncs, in order
    in_page = by_id(page)
    compared = 0
    for element in elements(regions):
        region, marked = element.marks(regions)
        inside = element.parent
        while inside is not None and not inside.marks(regions)[0]:
            inside = inside.parent
        if inside is not None:
            continue  # part of a region: compared with it
        assert marked, f"not a live part: {element.opening(regions)[:120]}"
        (key,) = ID.findall(element.opening(regions))
        there = in_page[key]
        if region:
            assert regions[element.start:element.end] == page[there.start:there.end], key
        else:  # a field live.js reads the marks of: its opening tag
            assert element.opening(regions) == there.opening(page), key
        compared += 1
    assert compared and not re.sub(r"<[^>]*>|<!--.*?-->", "", _outside(regions)).strip()
    assert live.headers["Cache-Control"] == "no-store" and "ETag" not in live.headers
    assert "Shinpan-Live" in live.headers["Vary"]


def _outside(html: str) -> str:
    """The text of `html` that no element holds (nothing but space and comments)."""
    tops = [e for e in elements(html) if e.parent is None]
    rest, at = [], 0
    for element in tops:
        rest.append(html[at:element.start])
        at = element.end
    return "".join(rest) + html[at:]


def test_live_regions_are_never_kept_as_the_page(client):
    url = "/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&na=Olena"
    client.application.extensions["shinpan.page_cache"].clear()
    live = client.get(url, headers=LIVE)
    full = client.get(url)  # not the regions a live update got at the same address
    assert full.get_data(as_text=True).startswith("<!doctype html>")
    assert "ETag" in full.headers and len(full.data) > len(live.data)
    again = client.get(url, headers=LIVE)  # the kept page serves live.js as well as regions
    assert again.status_code == 200 and again.data == full.data


@pytest.mark.parametrize("url", [
    "/fr/hanamikoji/score?step=a:0:%2B1",  # a stepper pressed without live.js's own step
    "/uk/hanamikoji/score?mode=log&act=secret:ayane&act=secret:iroha&drop=0",  # a removal
    # the form as live.js sends it: every field, a card per a=
    ("/en/koikoi/score?na=&nb=&round=1&dealer=a&ta=0&tb=0&winner=a&ka=0&kb=1&a=0&a=2&a=28"
     "&ruleset=nintendo&house="),
    "/de/koikoi/score?a=0,2&winner=a&step=next",
])
def test_a_live_update_is_answered_where_the_redirect_leads(client, url):
    """Where the page without JavaScript gets a 303 to a tidier address, a live update gets
    at once the live parts that address answers, and the address in a header: the same
    bytes as following the 303, one round trip fewer."""
    plain = client.get(url)
    assert plain.status_code == 303
    live = client.get(url, headers=LIVE)
    assert live.status_code == 200 and "<html" not in live.get_data(as_text=True)
    assert live.headers["Shinpan-Live-Address"] == plain.headers["Location"]
    followed = client.get(plain.headers["Location"], headers=LIVE)
    assert followed.status_code == 200 and live.data == followed.data
