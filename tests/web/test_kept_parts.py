"""Parts of a page made once and kept (webapp/pages/fragments.py: card charts, the table's
fields and its match's fields, Hanamikoji's favour markers, round-limit choices and board columns (in a tap), the
share section, rule links) are the parts a fresh render makes: the key of each names
everything it depends on. A corpus of checker pages and taps and of pages that share a
table's settings is answered in one order and again, the copies dropped, in the opposite
order (a part kept by one request is then reused by others), and with nothing kept; all
three agree byte for byte."""
from __future__ import annotations

import pytest

from tools.golden import KOIKOI_QUERIES
from webapp.pages import fragments

LIVE = {"Shinpan-Live": "regions"}
CORPORA = {  # two, so that the suite's workers share them out
    "Koi-Koi and shared parts": [
        f"/{lang}/koikoi/score?{q}" for lang in ("en", "ja") for q in KOIKOI_QUERIES + (
            "a=0,2,8&winner=a", "a=0,2,8&winner=b", "b=0,2,8,10,28,30&winner=a&ka=0&kb=0",
            "a=0,1,8,9,28,29&winner=a&ka=0&kb=0&ruleset=nintendo",
            "ruleset=fudawiki&house=Oma",
            # the match's fields: the same round with other calls, calls typed wrong, and
            # another match length (kept once per what they show)
            "a=0,2,8&winner=a&ka=2", "a=0,2,8&winner=a&ka=2&kb=x", "a=0,2,8&winner=a&rounds=6")] + [
        "/uk/koikoi/", "/uk/koikoi/?house=Oma",
        "/en/hanamikoji/score?edition=geekach&a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&house=Oma",
        "/ja/hanamikoji/?edition=geekach", "/en/koikoi/which?house=Oma"],
    # Hanamikoji's favour markers (names, places, round, a column's problem), board columns,
    # round-limit choices (edition, choice) and the setup's fields (names, round, messages)
    "Hanamikoji": [f"/uk/hanamikoji/score?{q}" for q in (
        "a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,x", "a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,y")] + [
        f"/uk/hanamikoji/score?b=0,1,2,0,0,2,3&{q}" for q in (
        "a=2,1,0,2,2,0,1", "a=2,1,0,2,2,0,1&round=2&f0=a&f3=b&na=Olena&nb=Jonas",
        "a=2,1,0,2,2,0,1&round=2&f0=a&f3=b&na=Olena&nb=Mira",
        "a=2,1,0,2,2,0,1&round=2&f0=b&na=Jonas&nb=Olena", "a=2,1,0,2,2,0,1&round=3&f0=b",
        "a=2,1,0,2,2,0,1&round=1", "a=2,1,0,2,2,0,1&edition=geekach&round_limit=1",
        "a=2,1,0,2,2,0,1&round_limit=0", "a=2,1,0,2,2,0,1&round=2&f6=a",
        "a=2,1,0,2,2,0,4&round=2&f6=a", "a=2,1,0,2,2,0,x", "a=2,1,0,2,2,0,y",
        "a=2,2,0,2,2,0,1", "a=1,2,2,1,1,2,1", "a=2,1,0,2,2,0",
        # the setup's fields: names too long to keep (the same message, another name typed),
        # and a card put aside that is no card (a message only its field shows)
        "a=2,1,0,2,2,0,1&na=" + "x" * 45, "a=2,1,0,2,2,0,1&na=" + "y" * 45,
        "mode=log&removed=9", "mode=log&removed=ayane",
        # last: read first when the corpus is answered backwards
        "a=2,1,0,2,2,0,1&edition=geekach&round_limit=0")],
}


def answers(client, urls: list[str]) -> dict[tuple[str, bool], bytes]:
    out = {}
    for url in urls:
        for live in (True, False):
            client.application.extensions["shinpan.page_cache"].clear()
            answer = client.get(url, headers=LIVE if live else {}, follow_redirects=True)
            assert answer.status_code == 200, url
            out[url, live] = answer.data
    return out


@pytest.mark.parametrize("corpus", CORPORA)
def test_kept_parts_are_what_a_fresh_render_makes(client, monkeypatch, corpus):
    urls = CORPORA[corpus]
    fragments.forget()
    forward = answers(client, urls)
    fragments.forget()
    backward = answers(client, urls[::-1])
    # and nothing kept at all: every part made where it stands (a part reused within one
    # page, the same in either order, is found here)
    fragments.forget()
    monkeypatch.setattr(fragments, "_keep", lambda key, part: None)
    fresh = answers(client, urls)
    assert forward == fresh
    assert backward == fresh

