"""Search over the rule texts of one language: inflected words, small typos, ranked results.

Each word of a rule (its text, its title, its section's title, the names that find it, such
as the action or yaku names) is reduced to a *key*: its stem (Snowball for English, German,
Spanish and French) or its lemma (simplemma for Ukrainian, which Snowball lacks), so that
"Gleichstände" finds "Gleichstand", "empates" "empate" and "нічиєї" "нічия". Both sides
are casefolded, and compared without accents too ("Compensacion" finds "Compensación").

A query word matches a rule's word when their keys are equal, when one key begins the other
(a word still being typed, or a lemma and its derived form: "нічий" / "нічия"), or when the
keys are a small typo apart (Levenshtein distance 1, or 2 for long words; rapidfuzz). Every
word of the query must match (words found in most rules, such as "the", need not); rules
are ranked by how well and where their words match (the title counts most). A query word
that matches nothing gets a "did you mean" from the words the rules use.

The index is built once per game, language and edition (`build_index`, cached); the stemmer
or dictionary of a language loads on its first search (simplemma's Ukrainian dictionary
takes about a second and 60 MB, so it is never loaded at start-up unless a search asks).
"""
from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache

from markupsafe import Markup, escape

MAX_QUERY = 200
MAX_WORDS = 20
WORD = re.compile(r"\w+(?:['’]\w+)*")  # Ukrainian п’ять, English player's: one word
ELIDED = re.compile(r"\w+")  # French d’égalité, l’adversaire: the article is a word of its own
SNOWBALL = {"en": "english", "de": "german", "es": "spanish", "fr": "french"}
COMMON = 0.5  # a word in more than this share of the rules need not match
# Words people use for the same thing at the table (a verb and its noun, two verbs for
# "win"): any of them finds the others. A group is keyed by its first word's key.
SYNONYMS = {
    "en": [["win", "victory", "winner", "won"], ["tie", "level"]],  # "draw" is a card's
    "de": [["gewinnen", "Sieg", "siegen", "Sieger", "Gewinner"],
           ["Gleichstand", "unentschieden", "Patt"]],
    "uk": [["перемагати", "перемогти", "перемога", "переможець", "виграти", "вигравати",
            "виграш"], ["нічия", "нічий", "порівну"]],
    "es": [["ganar", "victoria", "ganador", "vencer"], ["empate", "empatar"]],
    "fr": [["gagner", "victoire", "vainqueur", "gagnant", "emporter"], ["égalité", "égal"]],
    # the site's action names with those of Japanese players' guides (BGA: 密約, 取捨, 贈与)
    "ja": [["勝利", "勝ち", "勝つ", "勝者"], ["同点", "同数", "引き分け", "互角"],
           ["秘密", "密約"], ["破棄", "捨て札", "取捨", "捨てる"], ["贈り物", "贈与", "プレゼント"],
           ["競争", "競り"], ["芸妓", "芸者", "げいしゃ"]],
}
# How well a query word matches a rule's word, and how much each part of a rule counts.
EXACT, PREFIX, TYPO = 1.0, 0.7, 0.5
WEIGHTS = {"title": 3.0, "names": 2.0, "section": 1.5, "text": 1.0}


def fold(text: str) -> str:
    """Casefolded, accents removed: "Compensación" -> "compensacion"; a Cyrillic letter keeps
    its marks (й, ї are letters of their own), and ' is written ’ as Ukrainian does."""
    out: list[str] = []
    base = ""
    for char in unicodedata.normalize("NFKD", text.casefold()):
        if not unicodedata.combining(char):
            base = char
            out.append(char)
        elif "\u0400" <= base <= "\u04ff":
            out.append(char)
    return unicodedata.normalize("NFC", "".join(out)).replace("'", "’")


_LOCK = threading.Lock()  # a Snowball stemmer keeps its word in itself: one thread at a time


@cache
def _reduce(lang: str) -> Callable[[str], str]:
    if lang == "uk":
        import simplemma

        return lambda word: simplemma.lemmatize(word, lang="uk")
    import snowballstemmer

    return snowballstemmer.stemmer(SNOWBALL.get(lang, "english")).stemWord


def reducer(lang: str) -> Callable[[str], str]:
    """The language's word -> key function (loaded on first use, then kept), safe to call
    from the server's threads at once."""

    def reduce(word: str) -> str:
        with _LOCK:
            return _reduce(lang)(word)

    return reduce


def _reduced(word: str, lang: str) -> set[str]:
    """A (casefolded) word's stem or lemma, and the word itself, with and without accents."""
    reduce = reducer(lang)
    plain = fold(word)
    found = {fold(reduce(word)), plain}
    if plain != word:
        found.add(fold(reduce(plain)))
    return {k for k in found if k}


@cache
def synonyms(lang: str) -> dict[str, str]:
    """key -> the key of its synonym group."""
    out: dict[str, str] = {}
    for group in SYNONYMS.get(lang, ()):
        head = "~" + fold(group[0])  # cannot collide with a word's key
        for word in group:
            reduced = japanese().keys(word) if lang == "ja" else _reduced(word.casefold(), lang)
            for key in reduced:
                out[key] = head
    return out


@lru_cache(maxsize=65536)
def keys(word: str, lang: str) -> frozenset[str]:
    """The keys of one (casefolded) word: its stem or lemma, with and without accents, and
    its synonym group's."""
    found = set(japanese().keys(word)) if lang == "ja" else _reduced(word, lang)
    groups = synonyms(lang)
    found |= {groups[k] for k in found if k in groups}
    return frozenset(found)


def words(text: str, lang: str = "") -> list:
    """The words of a text (matches: `group(0)`, `start()`, `end()`); Japanese, written
    without spaces, goes through its analyzer (webapp/pages/japanese.py)."""
    if lang == "ja":
        return list(_japanese_words(text))
    return list((ELIDED if lang == "fr" else WORD).finditer(text))


@lru_cache(maxsize=8192)
def _japanese_words(text: str) -> tuple:
    """Kept: every hit highlights its rule's texts, which are the same few hundred."""
    return tuple(japanese().words(text))


@cache
def japanese():
    """The Japanese analyzer, with every game's Japanese names as whole words."""
    from ..games import GAMES
    from .japanese import Japanese

    names = [getattr(spec.rulebook, "japanese", None) for spec in GAMES.values()]
    return Japanese(pair for n in names if n is not None for pair in n.lexicon())


def word_keys(match, lang: str) -> frozenset[str]:
    """A word's keys where it stands: the Japanese analyzer gives them with the word (its
    reading depends on the words around it), the others from the word alone."""
    found = getattr(match, "keys", None)
    if found is None:
        return keys(match.group(0).casefold(), lang)
    groups = synonyms(lang)
    return found | {groups[k] for k in found if k in groups}


@dataclass(frozen=True)
class Entry:
    rule_id: str
    section_id: str
    section_title: str
    title: str
    text: str
    fields: tuple[tuple[str, frozenset[str]], ...]  # (field, its keys)

    def all_keys(self) -> frozenset[str]:
        return frozenset().union(*(k for _, k in self.fields))


@dataclass(frozen=True, eq=False)  # hashed by identity: a cache key of _close_keys
class Index:
    lang: str
    entries: tuple[Entry, ...]
    vocabulary: tuple[str, ...]  # every key, for prefix and typo matching
    surface: dict[str, str]  # key -> the word as the rules write it most (for "did you mean")
    common: frozenset[str]  # keys found in most rules

    def __iter__(self):  # the entries, in page order
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)


@dataclass(frozen=True)
class Hit:
    entry: Entry
    text: Markup  # the rule text, matched words in <mark>
    title: Markup  # the section's title, likewise
    rule_title: Markup  # the rule's own title, likewise
    score: float


def make_index(lang: str, rules: Iterable[tuple[str, str, str, str, str, list[str]]]) -> Index:
    """An index of (rule id, section id, section title, rule title, text, other names)."""
    entries, forms, counts = [], {}, {}
    for rule_id, section_id, section_title, title, text, names in rules:
        fields = []
        for field, content in (("title", title), ("section", section_title), ("text", text),
                               ("names", " ".join(names))):
            found: set[str] = set()
            for match in words(content, lang):
                for key in word_keys(match, lang):
                    found.add(key)
                    seen = forms.setdefault(key, {})
                    seen[match.group(0)] = seen.get(match.group(0), 0) + 1
            fields.append((field, frozenset(found)))
        entry = Entry(rule_id, section_id, section_title, title, text, tuple(fields))
        for key in entry.all_keys():
            counts[key] = counts.get(key, 0) + 1
        entries.append(entry)
    common = frozenset(k for k, n in counts.items() if n > COMMON * max(len(entries), 1))
    words_only = tuple(sorted(k for k in counts if not k.startswith("~")))  # no group keys
    surface = {key: max(seen, key=seen.get) for key, seen in forms.items()}
    return Index(lang, tuple(entries), words_only, surface, common)


@lru_cache(maxsize=64)
def build_index(game: str, lang: str, edition: str) -> Index:
    """The rules of a game in page order, in `lang`, with `edition`'s action names."""
    from ..games import GAMES, Options

    spec = GAMES[game]
    rb = spec.rulebook
    terms = spec.terms(rb, lang, Options({"edition": edition}, {"edition": edition}))
    actions = getattr(rb, "actions", {})  # Koi-Koi has none
    action_rules = {action.rule: action.id for action in actions.values()}
    search_extra = getattr(terms, "search_extra", None)  # e.g. Koi-Koi's yaku names

    def rows():
        for section in rb.sections:
            section_title = terms.section_title(section)
            for rule_id in section.rules:
                names = [rule_id]
                if rule_id in action_rules:
                    action_id = action_rules[rule_id]
                    names.append(terms.action(action_id))
                    printed = terms.printed(action_id)  # shown on the action tile
                    if printed:
                        names.append(printed.name)
                if search_extra is not None:
                    names.extend(search_extra(rule_id))
                yield (rule_id, section.id, section_title, terms.rule_title(rule_id),
                       terms.rule(rule_id), names)

    return make_index(lang, rows())


def query_words(query: str, lang: str = "") -> list[str]:
    found: list[str] = []
    for match in words(query[:MAX_QUERY], lang):
        word = match.group(0).casefold()
        if lang == "ja" and not word_keys(match, lang):
            continue  # a particle or a question word: は, の, 何
        if word not in found:
            found.append(word)
    return found[:MAX_WORDS]


def _typos(key: str) -> int:
    return 0 if len(key) < 4 else 1 if len(key) < 8 else 2


@lru_cache(maxsize=4096)
def _close_keys(index: Index, key: str) -> dict[str, float]:
    """The index's keys that a query key matches, with how well."""
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import extract

    found = {key: EXACT} if key in index.surface else {}
    if len(key) >= 3:
        for other in index.vocabulary:
            if other != key and (other.startswith(key) or (len(other) >= 4
                                                           and key.startswith(other))):
                found.setdefault(other, PREFIX)
    limit = _typos(key)
    if limit:
        for other, distance, _ in extract(key, index.vocabulary, scorer=Levenshtein.distance,
                                          score_cutoff=limit, limit=None):
            found.setdefault(other, TYPO)
    return found


def matches(index: Index, word: str) -> dict[str, float]:
    """Every key of the index that the query word finds, with the best score for each."""
    out: dict[str, float] = {}
    for key in keys(word, index.lang):
        for other, score in _close_keys(index, key).items():
            out[other] = max(out.get(other, 0.0), score)
    return out


def search(index: Index, query: str) -> list[Hit]:
    """The rules that hold every (uncommon) word of the query, best first."""
    found = [matches(index, word) for word in query_words(query, index.lang)]
    if not found or not all(found):
        return []
    # A word most rules hold ("the", "der") need not match, unless it is all there is.
    required = [not set(m) <= index.common for m in found]
    if not any(required):
        required = [True] * len(found)
    marked = set().union(*found)
    hits = []
    for entry in index.entries:
        score = 0.0
        for wanted, must in zip(found, required):
            best = max((WEIGHTS[field] * wanted[key] for field, field_keys in entry.fields
                        for key in field_keys & wanted.keys()), default=0.0)
            if best == 0.0 and must:
                break
            score += best
        else:
            lang = index.lang
            hits.append(Hit(entry, highlight(entry.text, marked, lang),
                            highlight(entry.section_title, marked, lang),
                            highlight(entry.title, marked, lang), score))
    hits.sort(key=lambda hit: -hit.score)  # stable: equal scores keep page order
    return hits


def suggest(index: Index, query: str) -> str | None:
    """"Did you mean": the query with each word that the rules do not use as typed (it found
    nothing, or only through a typo or as the start of a word) replaced by the nearest word
    they use ("Gleichstnd" -> "Gleichstand"); None when every word is theirs, or when a word
    is near none of theirs."""
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import extractOne

    changed, out = False, []
    query = query[:MAX_QUERY]
    spaced = index.lang != "ja"  # Japanese keeps the query as written, particles and all
    last = 0
    for match in words(query, index.lang):
        word = match.group(0)
        if not spaced:
            out.append(query[last:match.start()])
            last = match.end()
        if not word_keys(match, index.lang) or EXACT in matches(index, word.casefold()).values():
            out.append(word)
            continue
        best = extractOne(fold(word), index.vocabulary, scorer=Levenshtein.normalized_distance,
                          score_cutoff=0.4)
        if best is None:
            return None
        out.append(index.surface[best[0]])
        changed = True
    if not spaced:
        return "".join(out) + query[last:] if changed else None
    return " ".join(out) if changed else None


def highlight(text: str, marked: set[str], lang: str) -> Markup:
    """`text` escaped, each word whose key is in `marked` inside <mark>."""
    parts: list[str] = []
    last = 0
    for match in words(text, lang):
        if word_keys(match, lang) & marked:
            parts.append(str(escape(text[last:match.start()])))
            parts.append(f"<mark>{escape(match.group(0))}</mark>")
            last = match.end()
    parts.append(str(escape(text[last:])))
    return Markup("".join(parts))
