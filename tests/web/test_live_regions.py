"""A checker asked for its live regions (`Shinpan-Live: regions`) answers what lies inside the
full page's <main> alone (every region static/js/live.js replaces, and what static/js/sw.js puts
inside the <main> of a kept page for the offline copy), byte-identical to the full page, over a
corpus of requests (each in every language in `make test-deep`, in the languages taken in turn
in `make test`); without the header (no JavaScript) the page stays whole."""
from __future__ import annotations

import re

import pytest

from tests.budget import in_turn
from tools.golden import HANAMIKOJI_QUERIES, KOIKOI_QUERIES

LIVE = {"Shinpan-Live": "regions"}
CHECKERS = [("/{lang}/hanamikoji/score", q) for q in HANAMIKOJI_QUERIES] + \
           [("/{lang}/koikoi/score", q) for q in KOIKOI_QUERIES]
# an element live.js swaps or reads: its opening tag with its id
MARKED = re.compile(r'<[a-z]+\b[^>]*\bid="([^"]+)"[^>]*\bdata-live-(?:region|attrs|address)\b')


def main_block(page: str) -> str:
    """What the full page holds between its <main ...> tag and </main>."""
    match = re.search(r"<main\b[^>]*>(.*)</main>", page, re.DOTALL)
    assert match, "the page has no <main>"
    return match.group(1)


@pytest.mark.parametrize("path,query,lang", in_turn(CHECKERS))
def test_live_regions_are_the_full_pages_bytes(client, path, query, lang):
    url = path.format(lang=lang) + ("?" + query if query else "")
    first = client.get(url, headers=LIVE)
    if first.status_code == 303:  # a tidier address: a fetch follows it, header and all
        url = first.headers["Location"]
    client.application.extensions["shinpan.page_cache"].clear()  # a kept page would answer
    live = client.get(url, headers=LIVE)
    full = client.get(url)
    assert full.status_code == live.status_code == 200
    page, regions = full.get_data(as_text=True), live.get_data(as_text=True)
    assert "<head" not in regions and "<header" not in regions and "<footer" not in regions
    assert regions.strip() and regions == main_block(page)
    ids = MARKED.findall(page)
    assert ids and ids == MARKED.findall(regions)  # every region and field it syncs, in order
    assert live.headers["Cache-Control"] == "no-store" and "ETag" not in live.headers
    assert "Shinpan-Live" in live.headers["Vary"]


def test_live_regions_are_never_kept_as_the_page(client):
    url = "/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&na=Olena"
    client.application.extensions["shinpan.page_cache"].clear()
    live = client.get(url, headers=LIVE)
    full = client.get(url)  # not the regions a live update got at the same address
    assert full.get_data(as_text=True).startswith("<!doctype html>")
    assert "ETag" in full.headers and len(full.data) > len(live.data)
    again = client.get(url, headers=LIVE)  # the kept page serves live.js as well as regions
    assert again.status_code == 200 and again.data == full.data


def test_a_button_redirect_keeps_asking_for_regions(client):
    # a stepper pressed: 303 to the tidy address, where a fetch follows with its header
    answer = client.get("/fr/hanamikoji/score?step=a:0:%2B1", headers=LIVE)
    assert answer.status_code == 303
    follow = client.get(answer.headers["Location"], headers=LIVE)
    assert follow.status_code == 200 and "<html" not in follow.get_data(as_text=True)
