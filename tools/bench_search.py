"""`make bench`, search part: the cost of one search, in-process, for the questions players
type (tests/web/search_questions.yaml), per language.

* query: `search()` and `suggest()` on the game's index, as the search page runs them; "cold"
  clears the cache of matched keys before each question (a question never asked before),
  "warm" asks it again. Target: under 5 ms (issue 20).
* page: the whole search page in-process (Flask test client, no HTTP, the page cache off),
  beside a rules page rendered the same way, as a ratio.
* index: building every game's index in every language once (what a production worker does
  at start, webapp/server/wsgi.py), with the Ukrainian dictionary's first load apart.

Medians with their spread (10th-90th percentile) over every question, in one run.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.005
ROUNDS = 5
PAGE_ROUNDS = 2


def spread(times: list[float]) -> str:
    ordered = sorted(times)
    low, high = ordered[len(ordered) // 10], ordered[(len(ordered) * 9) // 10]
    return f"{statistics.median(times) * 1e3:6.2f} ms ({low * 1e3:.2f}-{high * 1e3:.2f})"


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from tools.po_incoming import compiled_with_incoming

    catalogs = compiled_with_incoming()
    if catalogs:
        os.environ["SHINPAN_TRANSLATIONS"] = catalogs
    from tools.search_quality import load_questions
    from webapp import create_app
    from webapp.pages import search

    app = create_app({"TESTING": True, "SERVER_NAME": "localhost"})
    questions = load_questions()
    print("Search benchmark (one core, in-process; median (10th-90th percentile) per question)")
    with app.app_context():
        from webapp.pages import analyzers

        start = time.perf_counter()  # the search's own dictionary (a trie kept on disk)
        analyzers.analyzer("uk").preload()
        dictionary = time.perf_counter() - start
        start = time.perf_counter()
        search.warm_up()
        built = time.perf_counter() - start
        print(f"  index: every game in every language {built:.2f} s (after the Ukrainian "
              f"dictionary's first load: {dictionary:.2f} s)")
        slowest = 0.0
        for lang, asked in questions.items():
            cold, warm = [], []
            for _ in range(ROUNDS):
                for entry in asked:
                    index = search.build_index(entry["game"], lang)
                    search._close_keys.cache_clear()
                    for out in (cold, warm):
                        start = time.perf_counter()
                        search.search(index, entry["q"])
                        search.suggest(index, entry["q"])
                        out.append(time.perf_counter() - start)
            slowest = max(slowest, statistics.median(cold))
            print(f"  query {lang}  cold {spread(cold)}   warm {spread(warm)}   "
                  f"({len(asked)} questions x {ROUNDS})")
    client = app.test_client()
    pages, rules = [], []
    for _ in range(PAGE_ROUNDS):
        for lang, asked in questions.items():
            for entry in asked:
                for out, url in ((pages, f"/{lang}/{entry['game']}/search"),
                                 (rules, f"/{lang}/{entry['game']}/")):
                    app.extensions["shinpan.page_cache"].clear()
                    start = time.perf_counter()
                    client.get(url, query_string={"q": entry["q"]} if out is pages else None)
                    out.append(time.perf_counter() - start)
    ratio = statistics.median(pages) / statistics.median(rules)
    print(f"  page  search {spread(pages)}   rules page {spread(rules)}   "
          f"ratio {ratio:.2f}")
    verdict = "ok" if slowest < TARGET else "OVER"
    print(f"  target: a query under {TARGET * 1e3:.0f} ms: slowest language's cold median "
          f"{slowest * 1e3:.2f} ms ({verdict})")
    return 0 if slowest < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
