"""Search over the rules of one game in one language: questions as players type them.

Each rule, FAQ entry and note is a document with fields: its title, the ways players ask
for it (its phrasings, `asked:` in the YAML, each language's own in the catalogs: never
shown), other names that find it (an action's or yaku's names in every edition), its
section's title and its text. Their words become keys through the language's analyzer
(analyzers.py: stems or lemmas, numbers, synonyms). Stop words are left out, except those
the rules name things with, which count little (WEAK).

A query is ranked by BM25F (the fields weighted, each normalized by its length) over its
words that are not stop words; no word is required, so a question finds the rules that
answer most of it. A query word matches a rule's key when they are equal, when one begins
the other (a word still being typed, a lemma and its derived form), or when they are a small
typo apart (Levenshtein distance 1, or 2 for long words; rapidfuzz); a partial match counts
less. A number matches only itself. Notes (where sources disagree, editions, the developer
section) count less than rules, and a note ranks below the rule it is about; an FAQ entry is
an answer of its own. When the best hit clearly stands out, it is the *answer* (the page
shows it as a card above the list). A query word the rules do not use as typed gets a "did
you mean" from the words the pages show.

The index is built once per game and language (`build_index`, cached, and built for every
game and language when a production worker starts: `warm_up`); the page shows each hit in
the edition and options in force. A built index is also kept on disk (`KeptIndexes`), named
by a digest of everything it is made from, so the next worker reads it instead of
analyzing every text again.
"""
from __future__ import annotations

import bisect
import contextlib
import hashlib
import itertools
import math
import os
import pickle
import tempfile
import threading
from collections import Counter
from collections.abc import Iterable
from dataclasses import astuple, dataclass, field
from functools import cache, lru_cache
from importlib import metadata
from pathlib import Path

from markupsafe import Markup, escape

from .analyzers import Analyzer, analyzer, fold

MAX_QUERY = 200
MAX_WORDS = 20
# The fields of a document, how much a match in each counts, and how much its length
# dampens it (BM25F's b); k1 as BM25's usual value.
FIELDS = ("title", "asked", "names", "section", "text")
WEIGHTS = (3.0, 2.5, 2.0, 1.0, 1.0)
LENGTH_NORM = (0.5, 0.5, 0.3, 0.3, 0.75)
K1 = 1.2
# How well a query word matches a key: the same key, the start of one, a small typo.
EXACT, PREFIX, TYPO = 1.0, 0.7, 0.5
NEAR = 0.3  # "did you mean" offers a word at most this far (edits, a swap one, per letter)
# What a document is: a rule, an answer (FAQ entry), a note about rules.
KINDS = {"rule": 1.0, "answer": 1.0, "note": 0.6}
# A stop word that the rules use to name something (in a title, a name or a phrasing: "next"
# in "who deals next", "rounds" in "how many rounds") and that is in no more than COMMON of
# the documents is kept, but counts WEAK: the stop lists are general, the rules are not.
COMMON, WEAK = 0.5, 0.35
RELEVANT = 0.2  # a hit under this share of the best hit's score is not shown
CLEAR = 1.4  # the best hit is the answer when it scores this many times the next ...
COVERED = 0.6  # ... and matches this share of the query (by the weight of its words)


@dataclass(frozen=True)
class Document:
    """What the search reads of one rule (given by the game's terms, see build_index)."""

    rule_id: str
    section_id: str
    kind: str  # rule, answer or note
    about: tuple[str, ...]  # the rules a note or an answer is about
    title: str
    asked: tuple[str, ...]
    names: tuple[str, ...]
    section: str
    text: str

    def fields(self) -> tuple[str, ...]:
        return (self.title, "\n".join(self.asked), "\n".join(self.names), self.section,
                self.text)


@dataclass(frozen=True)
class Entry:
    rule_id: str
    section_id: str
    kind: str
    about: tuple[str, ...]
    lengths: tuple[int, ...]  # words per field


@dataclass(frozen=True, eq=False)  # hashed by identity: a cache key of _close_keys
class Index:
    lang: str
    entries: tuple[Entry, ...]
    postings: dict[str, tuple[tuple[int, int, int], ...]]  # key -> (entry, field, count)
    average: tuple[float, ...]  # words per field, on average
    vocabulary: tuple[str, ...]  # every key of a word, for prefix and typo matching
    surface: dict[str, str]  # key -> the word as the pages write it most (for "did you mean")
    shown: tuple[str, ...]  # the keys of words the pages show (not only in a phrasing)
    stop: frozenset[str]  # folded stop words that are left out
    weak: frozenset[str]  # folded stop words that are kept, but count little (see WEAK)

    def __iter__(self):  # the entries, in page order
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def analyzer(self) -> Analyzer:
        return analyzer(self.lang)

    def by_id(self, rule_id: str) -> Entry | None:
        return next((e for e in self.entries if e.rule_id == rule_id), None)


@dataclass(frozen=True)
class Hit:
    entry: Entry
    score: float
    covered: float  # the share of the query (by the weight of its words) it matches
    marked: frozenset[str] = field(default=frozenset(), compare=False)  # keys to highlight

    @property
    def rule_id(self) -> str:
        return self.entry.rule_id


def make_index(lang: str, documents: Iterable[Document]) -> Index:
    """An index of the documents, in page order."""
    lang_analyzer = analyzer(lang)
    documents = list(documents)
    tokenized = [[[m.group(0) for m in lang_analyzer.tokens(text)] for text in doc.fields()]
                 for doc in documents]
    holding: Counter[str] = Counter()
    naming: set[str] = set()
    for fields in tokenized:
        holding.update({fold(w) for words in fields for w in words})
        naming.update(fold(w) for i in (0, 1, 2) for w in fields[i])  # title, asked, names
    common = COMMON * max(len(documents), 1)
    weak = frozenset(w for w in lang_analyzer.stop_words  # not "de", "se", "l", "t"
                     if len(w) > 2 and w in naming and holding[w] <= common)
    stop = lang_analyzer.stop_words - weak

    entries, postings, forms = [], {}, {}
    totals = [0] * len(FIELDS)
    for number, (doc, fields) in enumerate(zip(documents, tokenized)):
        lengths = []
        for place, words in enumerate(fields):
            counts: Counter[str] = Counter()
            length = 0
            for word in words:
                if fold(word) in stop and fold(word) not in lang_analyzer.meaningful:
                    continue
                length += 1
                for key in lang_analyzer.keys(word.casefold()):
                    counts[key] += 1
                    if FIELDS[place] != "asked":  # "did you mean" offers what pages show
                        forms.setdefault(key, Counter())[word] += 1
            for key, count in counts.items():
                postings.setdefault(key, []).append((number, place, count))
            lengths.append(length)
            totals[place] += length
        entries.append(Entry(doc.rule_id, doc.section_id, doc.kind, doc.about, tuple(lengths)))
    count = max(len(entries), 1)
    return Index(
        lang, tuple(entries), {k: tuple(v) for k, v in postings.items()},
        tuple(max(total / count, 1.0) for total in totals),
        tuple(sorted(k for k in postings if not k.startswith("~"))),  # no group keys
        {key: seen.most_common(1)[0][0] for key, seen in forms.items()},
        tuple(sorted(k for k in forms if not k.startswith("~"))), stop, weak)


_BUILDING = threading.Lock()


def build_index(game: str, lang: str) -> Index:
    """A game's rules in page order, in `lang`, as its terms give them for searching: built
    once (a worker's warm-up thread and a search may ask for it at the same time)."""
    with _BUILDING:
        return _build_index(game, lang)


@lru_cache(maxsize=64)
def _build_index(game: str, lang: str) -> Index:
    from ..games import GAMES
    from .rules import DEVELOPER_SECTION

    spec = GAMES[game]
    rb = spec.rulebook
    terms = spec.terms(rb, lang, spec.options(rb, {}))

    def documents():
        for section in rb.sections:
            section_title = terms.section_title(section)
            for rule_id in section.rules:
                kind, about = terms.search_kind(rule_id)
                if section.id == DEVELOPER_SECTION:  # written for programs
                    kind = "note"
                yield Document(rule_id, section.id, kind, about, terms.rule_title(rule_id),
                               tuple(terms.asked(rule_id)),
                               (rule_id, *terms.search_names(rule_id)), section_title,
                               terms.search_text(rule_id))

    return KeptIndexes.read_or_make(lang, list(documents()))


class KeptIndexes:
    """Indexes kept in the user's cache folder (rulebook/loader.py: cache_dir()), each named
    by a digest of its documents, the language's analyzer data, the code that analyzes
    and the versions of the libraries it uses: analyzing every text (Ukrainian lemmas,
    Japanese words) is most of a worker's start, and an index is the same for the same
    inputs. A folder that cannot be read or written, or a damaged file, means building."""

    CODE = ("search.py", "analyzers.py", "japanese.py")  # this folder's modules that decide keys
    LIBRARIES = ("simplemma", "snowballstemmer", "PyStemmer", "stop-words", "num2words",
                 "sudachipy", "sudachidict-small")

    @staticmethod
    @cache
    def code_digest() -> bytes:
        digest = hashlib.blake2b(digest_size=16)
        for name in KeptIndexes.CODE:
            digest.update((Path(__file__).parent / name).read_bytes())
        for library in KeptIndexes.LIBRARIES:
            try:
                digest.update(f"{library}={metadata.version(library)};".encode())
            except metadata.PackageNotFoundError:
                digest.update(f"{library}=none;".encode())
        return digest.digest()

    @classmethod
    def path(cls, lang: str, documents: list[Document]) -> Path | None:
        from rulebook.loader import cache_dir

        folder = cache_dir()
        if folder is None:
            return None
        digest = hashlib.blake2b(cls.code_digest(), digest_size=16)
        digest.update(analyzer(lang).fingerprint().encode())
        # repr, not pickle: pickle's bytes depend on which equal strings are one object
        digest.update(repr([astuple(doc) for doc in documents]).encode())
        return folder / "search" / f"{lang}-{digest.hexdigest()}.pickle"

    @classmethod
    def read_or_make(cls, lang: str, documents: list[Document]) -> Index:
        path = cls.path(lang, documents)
        if path is not None:
            kept = None
            with contextlib.suppress(Exception):  # missing, damaged or older: build it again
                kept = pickle.loads(path.read_bytes())  # our own cache folder, as the templates
            if isinstance(kept, Index) and kept.lang == lang:
                return kept
        index = make_index(lang, documents)
        if path is not None:
            cls.keep(path, index)
        return index

    @staticmethod
    def keep(path: Path, index: Index) -> None:
        """Written whole or not at all (a temporary file renamed), as workers start at once."""
        temporary = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".part")
            with os.fdopen(handle, "wb") as out:
                out.write(pickle.dumps(index, protocol=5))
            os.replace(temporary, path)
        except OSError:
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)


def warm_up() -> None:
    """Every game's index in every language, before the first search asks for one."""
    from rulebook.i18n import LANGUAGES

    from ..games import GAMES

    for game in GAMES:
        for lang in LANGUAGES:
            index = build_index(game, lang)
            suggest(index, "warm up")  # and the typo matcher's first use (rapidfuzz)


def is_stop(index: Index, word: str) -> bool:
    folded = fold(word)
    return folded in index.stop and folded not in index.analyzer.meaningful


def query_words(query: str, index: Index) -> dict[str, float]:
    """The words of a query that carry meaning (casefolded, each once), with how much each
    counts (a stop word the rules name things with: WEAK)."""
    found: dict[str, float] = {}
    for match in index.analyzer.tokens(query[:MAX_QUERY]):
        word = match.group(0).casefold()
        if word not in found and not is_stop(index, word) and len(found) < MAX_WORDS:
            weak = fold(word) in index.weak and fold(word) not in index.analyzer.meaningful
            found[word] = WEAK if weak else 1.0
    return found


def _typos(key: str) -> int:
    return 0 if len(key) < 4 else 1 if len(key) < 8 else 2


@lru_cache(maxsize=4096)
def _close_keys(index: Index, key: str) -> dict[str, float]:
    """The index's keys that a query key matches, with how well."""
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import extract

    found = {key: EXACT} if key in index.postings else {}
    if key.isdigit() or key.startswith("~"):
        return found  # a number is itself; a synonym group is matched exactly
    if len(key) >= 3:  # the keys it begins (sorted: one range), and the keys that begin it
        start = bisect.bisect_left(index.vocabulary, key)
        for other in itertools.takewhile(lambda k: k.startswith(key), index.vocabulary[start:]):
            found.setdefault(other, PREFIX)
        for end in range(4, len(key)):
            if key[:end] in index.postings:
                found.setdefault(key[:end], PREFIX)
    limit = _typos(key)
    if limit:
        for other, _distance, _ in extract(key, index.vocabulary, scorer=Levenshtein.distance,
                                           score_cutoff=limit, limit=None):
            if not other.isdigit():
                found.setdefault(other, TYPO)
    return found


def matches(index: Index, word: str) -> dict[str, float]:
    """Every key of the index that the query word finds, with the best score for each."""
    out: dict[str, float] = {}
    for key in index.analyzer.keys(word):
        for other, score in _close_keys(index, key).items():
            out[other] = max(out.get(other, 0.0), score)
    return out


def search(index: Index, query: str) -> list[Hit]:
    """The documents that match the query, best first (BM25F; see the module's doc)."""
    weights = query_words(query, index)
    found = [matches(index, word) for word in weights]
    if not any(found):
        return []
    total = len(index.entries)
    scores: Counter[int] = Counter()
    covered: Counter[int] = Counter()
    weight_of_query = 0.0
    for wanted, weight in zip(found, weights.values()):
        best: dict[tuple[int, int], float] = {}  # (entry, field) -> weighted count
        for key, quality in wanted.items():
            for number, place, count in index.postings.get(key, ()):
                if quality * count > best.get((number, place), 0.0):
                    best[(number, place)] = quality * count
        holders = {number for number, _ in best}
        idf = weight * math.log(1 + (total - len(holders) + 0.5) / (len(holders) + 0.5))
        weight_of_query += idf
        pseudo: Counter[int] = Counter()
        for (number, place), count in best.items():
            length = index.entries[number].lengths[place] / index.average[place]
            norm = 1 - LENGTH_NORM[place] + LENGTH_NORM[place] * length
            pseudo[number] += WEIGHTS[place] * count / norm
        for number, tf in pseudo.items():
            scores[number] += idf * tf * (K1 + 1) / (K1 + tf)
            covered[number] += idf
    marked = frozenset().union(*(m for m, w in zip(found, weights.values()) if w == 1.0))
    hits = [Hit(index.entries[n], scores[n] * KINDS.get(index.entries[n].kind, 1.0),
                covered[n] / weight_of_query, marked) for n in sorted(scores)]
    hits = _notes_below_their_rules(hits)
    hits.sort(key=lambda hit: -hit.score)  # stable: equal scores keep page order
    best_score = hits[0].score if hits else 0.0
    return [hit for hit in hits if hit.score >= RELEVANT * best_score]


def _notes_below_their_rules(hits: list[Hit]) -> list[Hit]:
    """A note about a rule that was found ranks just below that rule."""
    score = {hit.rule_id: hit.score for hit in hits}
    out = []
    for hit in hits:
        if hit.entry.kind == "note":
            ceiling = min((score[r] for r in hit.entry.about if r in score), default=None)
            if ceiling is not None and hit.score >= ceiling:
                hit = Hit(hit.entry, ceiling * 0.99, hit.covered, hit.marked)
        out.append(hit)
    return out


def evidence(indexes: list[Index], query: str) -> list[float]:
    """How much the query is about each index's rules rather than the others' (indexes of
    one language, one per game): for each query word the rules use as typed, its rarity
    over all their documents (IDF), shared among the indexes by their share of the documents
    that hold it. "inoshikacho" is Koi-Koi's alone and rare; "points" is everywhere."""
    total = sum(len(index.entries) for index in indexes)
    words = dict.fromkeys(word for index in indexes for word in query_words(query, index))
    out = [0.0] * len(indexes)
    for word in words:
        holders = [len({number for key in index.analyzer.keys(word)
                        for number, _place, _count in index.postings.get(key, ())})
                   for index in indexes]
        held = sum(holders)
        if held:
            idf = math.log(1 + (total - held + 0.5) / (held + 0.5))
            for i, count in enumerate(holders):
                out[i] += idf * count / held
    return out


def answer(hits: list[Hit]) -> Hit | None:
    """The hit that clearly answers the query, if one does: a rule or an FAQ entry that
    matches most of the query and scores well above the next hit that is not about the same
    thing (an FAQ entry and the rule it settles are one answer)."""
    if not hits or hits[0].entry.kind == "note" or hits[0].covered < COVERED:
        return None
    first = hits[0]
    related = {first.rule_id, *first.entry.about}
    for other in hits[1:]:
        if other.rule_id in related or first.rule_id in other.entry.about:
            continue
        return first if first.score >= CLEAR * other.score else None
    return first


def knows_every_word(index: Index, query: str) -> bool:
    """Whether the rules use every word of the query as typed (a stop word or a number
    counts as theirs)."""
    return all(is_stop(index, m.group(0)) or m.group(0).isdigit()
               or EXACT in matches(index, m.group(0).casefold()).values()
               for m in index.analyzer.tokens(query[:MAX_QUERY]))


def suggest(index: Index, query: str) -> str | None:
    """"Did you mean": the query with each word that the rules do not use as typed (it found
    nothing, or only through a typo or as the start of a word) replaced by the nearest word
    they use ("Gleichstnd" -> "Gleichstand", "plian" -> "plain"); None when every word is
    theirs, or when a word is near none of the words the pages show. Stop words and numbers
    stay as typed."""
    from rapidfuzz.distance import OSA
    from rapidfuzz.process import extractOne

    changed, out = False, []
    for match in index.analyzer.tokens(query[:MAX_QUERY]):
        word = match.group(0)
        if (is_stop(index, word) or word.isdigit()
                or EXACT in matches(index, word.casefold()).values()):
            out.append(word)
            continue
        best = extractOne(fold(word), index.shown, scorer=OSA.normalized_distance,
                          score_cutoff=NEAR)
        if best is None:
            return None
        out.append(index.surface[best[0]])
        changed = True
    return " ".join(out) if changed else None


def highlight(text: str, marked: frozenset[str], lang: str) -> Markup:
    """`text` escaped, each word whose key is in `marked` inside <mark>."""
    lang_analyzer = analyzer(lang)
    parts: list[str] = []
    last = 0
    for match in lang_analyzer.tokens(text):
        if lang_analyzer.keys(match.group(0).casefold()) & marked:
            parts.append(str(escape(text[last:match.start()])))
            parts.append(f"<mark>{escape(match.group(0))}</mark>")
            last = match.end()
    parts.append(str(escape(text[last:])))
    return Markup("".join(parts))
