"""Parts of a page made once and kept (webapp/pages/fragments.py: card charts, the table's
fields, the share section, rule links) are the parts a fresh render makes: the key of each
names everything it depends on. A corpus of checker pages and taps and of pages that share
a table's settings is answered in one order and again, the copies dropped, in the opposite
order (a part kept by one request is then reused by others); both agree byte for byte."""
from __future__ import annotations

from tools.golden import KOIKOI_QUERIES
from webapp.pages import fragments

LIVE = {"Shinpan-Live": "regions"}
URLS = [f"/{lang}/koikoi/score?{q}" for lang in ("en", "ja") for q in KOIKOI_QUERIES + (
    "a=0,2,8&winner=a", "a=0,2,8&winner=b", "b=0,2,8,10,28,30&winner=a&ka=0&kb=0",
    "a=0,1,8,9,28,29&winner=a&ka=0&kb=0&ruleset=nintendo", "ruleset=fudawiki&house=Oma")] + [
    "/uk/koikoi/", "/uk/koikoi/?house=Oma", "/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3",
    "/en/hanamikoji/score?edition=geekach&a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&house=Oma",
    "/ja/hanamikoji/?edition=geekach", "/en/koikoi/which?house=Oma"]


def answers(client, urls: list[str]) -> dict[tuple[str, bool], bytes]:
    out = {}
    for url in urls:
        for live in (True, False):
            client.application.extensions["shinpan.page_cache"].clear()
            answer = client.get(url, headers=LIVE if live else {}, follow_redirects=True)
            assert answer.status_code == 200, url
            out[url, live] = answer.data
    return out


def test_kept_parts_are_what_a_fresh_render_makes(client):
    fragments.forget()
    forward = answers(client, URLS)
    fragments.forget()
    backward = answers(client, URLS[::-1])
    assert forward == backward

