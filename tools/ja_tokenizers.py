"""Compare Japanese tokenizers for the site's search, side by side in one run: accuracy on
questions Japanese players type (kanji, kana, romaji; both games), start-up time, memory
and install size. README ("Search in Japanese") records the figures.

    .venv/bin/pip install janome sudachipy sudachidict-core sudachidict-small fugashi unidic-lite
    .venv/bin/python tools/ja_tokenizers.py

Only SudachiPy with its small dictionary is a dependency of the project; the others are
installed for this comparison alone. Each tokenizer replaces the analyzer's morphemes
(webapp/pages/japanese.py, `Japanese.morphemes`), so the lexicon, stop words, romaji keys
and the search itself are the same for all. The questions are those of
tests/web/search_questions.yaml (`ja`), which the test suite holds to its targets.
"""
from __future__ import annotations

import importlib.metadata
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# (game, query as a player types it, the rule ids that answer it)
QUESTIONS = [
    ("koikoi", "猪鹿蝶は何点？", {"yaku.inoshikacho"}),
    ("koikoi", "いのしかちょう", {"yaku.inoshikacho"}),
    ("koikoi", "inoshikacho", {"yaku.inoshikacho"}),
    ("koikoi", "五光の点数", {"yaku.goko", "disagree.goko-value"}),
    ("koikoi", "あめしこう", {"yaku.ameshiko"}),
    ("koikoi", "盃はカス札にもなる？", {"deck.sake-cup", "options.sake-cup", "faq.sake-cup"}),
    ("koikoi", "こいこいした後に札がなくなったら", {"faq.cards-run-out", "round.exhaustive"}),
    ("koikoi", "7点以上は倍？", {"scoring.seven-double", "options.seven-double",
                               "faq.seven-double", "disagree.seven-double"}),
    ("koikoi", "次の親は誰", {"match.dealer", "disagree.dealer", "options.dealer-rotation"}),
    ("koikoi", "花見で一杯", {"yaku.hanami"}),
    ("koikoi", "tsukimizake", {"yaku.tsukimi"}),
    ("koikoi", "てし", {"yaku.teshi"}),
    ("koikoi", "こいこいは何回まで宣言できる", {"koikoi.limit", "disagree.koikoi-calls",
                                         "options.koikoi-limit"}),
    ("koikoi", "kasu 10mai", {"yaku.kasu"}),
    ("koikoi", "雨で花見酒が無効", {"options.rain-man"}),
    ("hanamikoji", "同点のときマーカーはどうなる", {"scoring.tie-keeps-marker", "faq.markers-stay"}),
    ("hanamikoji", "芸妓4人と魅力値11点はどっちが勝つ", {"victory.clash", "faq.clash"}),
    ("hanamikoji", "ひみつのカードは見ていい？", {"faq.look-at-cards", "action.secret"}),
    ("hanamikoji", "贈り物", {"action.gift"}),
    ("hanamikoji", "きょうそう", {"action.competition"}),
    ("hanamikoji", "何ラウンドで終わる", {"victory.game-length", "faq.how-many-rounds",
                                    "variant.round-limit"}),
    ("hanamikoji", "次のラウンドは誰から", {"refresh.switch-start", "faq.next-start"}),
    ("hanamikoji", "捨て札", {"action.tradeoff"}),
    ("hanamikoji", "取り除いたカード", {"deal.remove-one"}),
    ("hanamikoji", "miryokuchi", {"scoring.charm-total", "victory.charm"}),
]


def _janome():
    from janome.tokenizer import Tokenizer

    tokenizer = Tokenizer()
    return lambda text: [(t.surface, t.base_form, "" if t.reading == "*" else t.reading,
                          t.part_of_speech.split(",")[0]) for t in tokenizer.tokenize(text)]


def _sudachi(dictionary: str):
    def load():
        from sudachipy import Dictionary, SplitMode

        tokenizer = Dictionary(dict=dictionary).tokenizer(mode=SplitMode.C)
        return lambda text: [(m.surface(), m.dictionary_form(), m.reading_form(),
                              m.part_of_speech()[0]) for m in tokenizer.tokenize(text)]
    return load


def _fugashi():
    import fugashi

    tagger = fugashi.Tagger()  # unidic-lite
    return lambda text: [(w.surface, w.feature.lemma or w.surface, w.feature.kana or "",
                          w.feature.pos1) for w in tagger(text)]


BACKENDS = {
    "sudachipy + sudachidict-core": (_sudachi("core"), ["sudachipy", "sudachidict-core"]),
    "sudachipy + sudachidict-small": (_sudachi("small"), ["sudachipy", "sudachidict-small"]),
    "janome": (_janome, ["janome"]),
    "fugashi + unidic-lite": (_fugashi, ["fugashi", "unidic-lite"]),
}


def accuracy(name: str) -> tuple[int, int, list[str]]:
    """(answered first, in the first three, the misses) over QUESTIONS with `name`."""
    from webapp import create_app
    from webapp.pages import analyzers, japanese, search

    analyse = BACKENDS[name][0]()
    morphemes = (lambda self, text: [japanese.Morpheme(*m) for m in analyse(text)])
    japanese.Japanese.morphemes = morphemes  # type: ignore[method-assign]
    analyzers.ANALYZERS["ja"] = type(analyzers.ANALYZERS["ja"])(
        "ja", "japanese", analyzers.ANALYZERS["ja"].synonym_groups)  # fresh caches
    analyzers.analyzer.cache_clear()
    analyzers._japanese_words.cache_clear()
    search._build_index.cache_clear()
    first = three = 0
    misses = []
    with create_app({"TESTING": True}).app_context():
        for game, query, wanted in QUESTIONS:
            hits = search.search(search.build_index(game, "ja"), query)
            found = [h.rule_id for h in hits[:3]]
            first += bool(found and found[0] in wanted)
            three += bool(set(found) & wanted)
            if not set(found) & wanted:
                misses.append(query)
    return first, three, misses


# The peak resident memory of this process (VmHWM: unlike ru_maxrss, not inherited from a
# parent that grew before it started us).
PEAK = "int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1])"
START = """
import time
t = time.perf_counter()
import tools.ja_tokenizers as j
analyse = j.BACKENDS[{name!r}][0]()
analyse("こいこいを宣言した後に札がなくなったら")
print(time.perf_counter() - t, """ + PEAK + """)
"""


def start_up(name: str, runs: int = 5) -> tuple[float, float, float]:
    """Median seconds to import, load the dictionary and analyse one sentence, in a fresh
    process; its spread (min, max); memory is reported by `memory`."""
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", START.format(name=name)], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
        times.append(float(out[0]))
    return statistics.median(times), min(times), max(times)


def memory(name: str) -> float:
    """MB the process grows by: its peak with the tokenizer loaded, less a bare one's."""
    bare = subprocess.run([sys.executable, "-c", f"import tools.ja_tokenizers; print({PEAK})"],
                          cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.split()[-1]
    out = subprocess.run([sys.executable, "-c", START.format(name=name)], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    return (int(out[1]) - int(bare)) / 1024


def install_size(distributions: list[str]) -> float:
    """MB on disk of the distributions' installed files."""
    total = 0
    for dist in distributions:
        for file in importlib.metadata.distribution(dist).files or ():
            path = file.locate()
            if Path(path).is_file():
                total += Path(path).stat().st_size
    return total / 1e6


def main() -> None:
    rows = []
    for name, (_load, dists) in BACKENDS.items():
        first, three, misses = accuracy(name)
        median, low, high = start_up(name)
        rows.append({"tokenizer": name, "first": first, "top3": three, "of": len(QUESTIONS),
                     "start_s": round(median, 3), "start_range": [round(low, 3), round(high, 3)],
                     "memory_mb": round(memory(name)), "install_mb": round(install_size(dists)),
                     "misses": misses})
    print("| tokenizer | answered first | in the first three | start-up (median, range) "
          "| memory | installed |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['tokenizer']} | {r['first']}/{r['of']} | {r['top3']}/{r['of']} | "
              f"{r['start_s']} s ({r['start_range'][0]}-{r['start_range'][1]}) | "
              f"{r['memory_mb']} MB | {r['install_mb']} MB |")
    print(json.dumps({r["tokenizer"]: r["misses"] for r in rows}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
