"""How each language's words become search keys: one analyzer per language, all listed in
`ANALYZERS` (a new language is a class here, if none fits, and one line there).

An analyzer splits a text into words and reduces each word to its *keys*:
- its stem (Snowball: en, de, es, fr) or lemma (simplemma: uk, which Snowball lacks), so
  "Gleichstände" finds "Gleichstand" and "нічиєї" "нічия"; casefolded, and without accents
  too ("Compensacion" finds "Compensación");
- for a number word, the number: "vier", "чотирьох", "cuatro", "quatre", "four" and "4" all
  have the key "4"; ordinals too ("third", "dritte", "третій", "першого" -> "3", "1"). The
  words come from num2words, so every language has the same ones; Ukrainian adds its
  collective numerals ("двоє", "четверо", "п'ятеро"), which num2words lacks;
- for a word of a synonym group, the group (a verb and its noun: "win", "winner", "victory").

Words that carry no meaning in a question ("what", "happens", "wenn", "що", "qué") are
*stop words*: the language's list from the `stop-words` package (maintained, one list per
language). A search index leaves out the ones its rulebook uses as names (see
search.make_index: "next" in "who deals next", "round" in "how many rounds").
"""
from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable, Iterator
from functools import cache, cached_property, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # simplemma loads when the first Ukrainian word is reduced
    from simplemma.strategies.dictionaries.trie_dictionary_factory import TrieDictionaryFactory

WORD = re.compile(r"\w+(?:['’]\w+)*")  # Ukrainian п’ять, English player's: one word
NUMBERS = range(101)  # cardinals 0-100 (single words only: "twenty-one" is two)
ORDINALS = range(1, 13)  # first to twelfth (rounds, months)


@lru_cache(maxsize=65536)
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


class Analyzer:
    """One language's words -> keys. Subclasses say how a word is reduced (`reducer`) and,
    where the language needs it, how a text is split (`tokens`)."""

    def __init__(self, lang: str, stop_list: str, synonyms: tuple[tuple[str, ...], ...] = ()):
        self.lang = lang
        self.stop_list = stop_list  # the language's name in the stop-words package
        self.synonym_groups = synonyms
        self._lock = threading.Lock()  # a Snowball stemmer keeps its word in itself

    # -- what a language defines ----------------------------------------------------------
    def reducer(self) -> Callable[[str], str]:
        """word -> its stem or lemma (loaded on first use)."""
        raise NotImplementedError

    def tokens(self, text: str) -> Iterator[re.Match]:
        """The words of a text, with their places (for highlighting)."""
        return WORD.finditer(text)

    def fingerprint(self) -> str:
        """What, besides this module's code and the libraries, decides the keys: part of a
        kept index's name (search.py), so an index made with other data is not read."""
        return repr((self.lang, self.stop_list, self.synonym_groups))

    def preload(self) -> None:
        """Load what the first index or query would (a dictionary): before the server's
        workers start, so they share it instead of each loading it (see serve.py)."""
        self.reduce("words")

    # -- shared ---------------------------------------------------------------------------
    @cached_property
    def _reduce(self) -> Callable[[str], str]:
        return self.reducer()

    def reduce(self, word: str) -> str:
        """The word's stem or lemma, safe to call from the server's threads at once."""
        with self._lock:
            return self._reduce(word)

    def _reduced(self, word: str) -> set[str]:
        plain = fold(word)
        found = {fold(self.reduce(word)), plain}
        if plain != word:
            found.add(fold(self.reduce(plain)))
        return {k for k in found if k}

    @cached_property
    def stop_words(self) -> frozenset[str]:
        """The language's stop words, folded."""
        from stop_words import get_stop_words

        return frozenset(fold(w) for w in get_stop_words(self.stop_list))

    @cached_property
    def numbers(self) -> dict[str, str]:
        """A number word's forms (folded, and its key) -> the number as digits. A word that
        is also a stop word of the language and means one ("one", "un", "uno") is left out:
        it is the article as often as the number."""
        from num2words import num2words

        forms: dict[str, str] = {}
        words = [(str(n), num2words(n, lang=self.lang)) for n in NUMBERS]
        one = words[1][1]  # the cardinal: an ordinal ("перший", "first") is never an article
        words += [(str(n), num2words(n, lang=self.lang, to="ordinal")) for n in ORDINALS]
        words += [(str(n), word) for n, word in self.more_numbers()]
        for digits, word in words:
            if " " in word or "-" in word or (word == one and fold(word) in self.stop_words):
                continue
            for form in self._reduced(word.casefold()):
                forms.setdefault(form, digits)
        return forms

    def more_numbers(self) -> Iterator[tuple[int, str]]:
        """Number words num2words does not give, as (number, word): none by default."""
        return iter(())

    @cached_property
    def synonyms(self) -> dict[str, str]:
        """key -> the key of its synonym group."""
        out: dict[str, str] = {}
        for group in self.synonym_groups:
            head = "~" + fold(group[0])  # cannot collide with a word's key
            for word in group:
                for key in self._reduced(word.casefold()):
                    out[key] = head
        return out

    @cached_property
    def meaningful(self) -> frozenset[str]:
        """Folded words that are never stop words: numbers and the words of synonym groups
        ("won" is on the English list)."""
        words = {fold(w) for group in self.synonym_groups for w in group}
        return frozenset(words | set(self.numbers))

    def is_stop(self, word: str) -> bool:
        folded = fold(word)
        return folded in self.stop_words and folded not in self.meaningful

    @lru_cache(maxsize=65536)  # noqa: B019 - analyzers live as long as the process
    def keys(self, word: str) -> frozenset[str]:
        """The keys of one (casefolded) word: its number, or its stem or lemma with and
        without accents and its synonym group's."""
        if word.isdigit():
            return frozenset({str(int(word))})
        found = self._reduced(word)
        for key in found:
            if key in self.numbers:
                return frozenset({self.numbers[key]})
        found |= {self.synonyms[k] for k in found if k in self.synonyms}
        return frozenset(found)


class Snowball(Analyzer):
    """Languages with a Snowball stemmer."""

    def __init__(self, lang: str, name: str, synonyms: tuple[tuple[str, ...], ...] = ()):
        super().__init__(lang, name, synonyms)
        self.name = name

    def reducer(self) -> Callable[[str], str]:
        import snowballstemmer

        return snowballstemmer.stemmer(self.name).stemWord


class French(Snowball):
    """French: an elided article is a word of its own (d’égalité, l’adversaire)."""

    ELIDED = re.compile(r"\w+")

    def tokens(self, text: str) -> Iterator[re.Match]:
        return self.ELIDED.finditer(text)


class Ukrainian(Analyzer):
    """Ukrainian: lemmas from simplemma's dictionary, read as a MARISA trie kept on disk
    (`kept_tries`); loaded when the first index or search needs it, or by `preload`."""

    def preload(self) -> None:
        self.reduce("слова")

    # Collective numerals (збірні числівники: "нас двоє", "четверо гейш"), which num2words
    # does not give. The first three are words of their own; from five on, the stem of the
    # genitive takes -еро (п'яти -> п'ятеро, шести -> шестеро, семи -> семеро, восьми ->
    # восьмеро). Their other cases (двох, трьох, п'ятьох, шістьох) are lemmatized to them
    # or to the cardinal.
    COLLECTIVE = ((2, "двоє"), (3, "троє"), (4, "четверо"))
    COLLECTIVE_FROM_STEM = (*range(5, 21), 30)

    def more_numbers(self) -> Iterator[tuple[int, str]]:
        from num2words import num2words

        yield from self.COLLECTIVE
        for n in self.COLLECTIVE_FROM_STEM:
            genitive = num2words(n, lang="uk", case="genitive")
            if genitive.endswith("и"):
                yield n, genitive[:-1] + "еро"

    def reducer(self) -> Callable[[str], str]:
        from simplemma import Lemmatizer
        from simplemma.strategies import DefaultStrategy

        # simplemma.lemmatize's own lemmatizer (the default strategy, not greedy) on the
        # same dictionary, kept as a trie: the same lemmas
        lemmatizer = Lemmatizer(lemmatization_strategy=DefaultStrategy(
            dictionary_factory=kept_tries()))
        return lambda word: lemmatizer.lemmatize(word, lang="uk")


@cache
def kept_tries(folder: str | None = None) -> TrieDictionaryFactory:
    """simplemma's dictionaries as MARISA tries kept in its cache folder (per version): a
    process loads the Ukrainian one in about 1 ms and 4 MB, where decoding the shipped file
    into a dict took about a second and 60 MB in every process that searched (a server's
    master at every start and reload, every test process); the trie is built once, in
    2.5 s. Every worker of a new machine may build it at once: each writes a file of its
    own and renames it into place, so none reads a half-written one. Where the folder
    cannot be written, simplemma keeps the trie in memory and says so."""
    import os
    import tempfile
    from pathlib import Path

    from simplemma.strategies.dictionaries.trie_dictionary_factory import TrieDictionaryFactory

    class KeptTries(TrieDictionaryFactory):
        def _write_trie_to_disk(self, lang, trie) -> None:
            self._cache_dir.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self._cache_dir, prefix=f".{lang}-")
            os.close(handle)
            try:
                trie.save(temporary)
                os.chmod(temporary, 0o644)  # as a file simplemma saves itself
                os.replace(temporary, self._cache_dir / f"{lang}.dic")
            finally:
                Path(temporary).unlink(missing_ok=True)

    return KeptTries(disk_cache_dir=folder)  # None: simplemma's own cache folder


class Japanese(Analyzer):
    """Japanese, written without spaces: words, dictionary forms and readings from SudachiPy
    (webapp/pages/japanese.py), so that kanji, kana and romaji find each other (猪鹿蝶,
    いのしかちょう, inoshikacho); Koi-Koi's Japanese names are found whole. Particles,
    auxiliaries and question words carry no keys: they are not words here at all."""

    @cached_property
    def lexicon(self) -> tuple[tuple[str, str], ...]:
        """The games' Japanese names and their readings (the rulebooks' `japanese:` blocks)."""
        from ..games import GAMES

        names = [getattr(spec.rulebook, "japanese", None) for spec in GAMES.values()]
        return tuple(pair for n in names if n is not None for pair in n.lexicon())

    @cached_property
    def words(self):
        from .japanese import Japanese as Words

        return Words(self.lexicon)

    def fingerprint(self) -> str:
        return super().fingerprint() + repr(self.lexicon)

    def preload(self) -> None:
        pass  # SudachiPy's dictionary loads in 60 ms; the lexicon needs the games' rulebooks

    def tokens(self, text: str) -> Iterator:
        return (word for word in _japanese_words(self.words, text) if word.keys)

    @cached_property
    def stop_words(self) -> frozenset[str]:
        return frozenset()  # the analyzer leaves them out (tokens)

    @cached_property
    def numbers(self) -> dict[str, str]:
        return {}  # digits are digits; 四光 is a name, not a number

    @cached_property
    def synonyms(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for group in self.synonym_groups:
            head = "~" + fold(group[0])
            for word in group:
                for key in self.words.keys(word):
                    out[key] = head
        return out

    @lru_cache(maxsize=65536)  # noqa: B019 - analyzers live as long as the process
    def keys(self, word: str) -> frozenset[str]:
        number = kanji_number(word)
        if number is not None:
            return frozenset({str(number)})
        found = set(self.words.keys(word))
        return frozenset(found | {self.synonyms[k] for k in found if k in self.synonyms})


KANJI_DIGITS = {c: n for n, c in enumerate("〇一二三四五六七八九")}


def kanji_number(word: str) -> int | None:
    """4, ４, 四, 十一, 二十: a number written in digits or kanji up to 99 (None otherwise)."""
    if word.isdigit():
        return int(word)
    tens, _, ones = word.partition("十")
    if "十" not in word:
        return KANJI_DIGITS.get(word) if len(word) == 1 else None
    if any(c not in KANJI_DIGITS for c in tens + ones) or len(tens) > 1 or len(ones) > 1:
        return None
    return KANJI_DIGITS.get(tens, 1) * 10 + KANJI_DIGITS.get(ones, 0)


@lru_cache(maxsize=8192)
def _japanese_words(words, text: str) -> tuple:
    """Kept: an index and every highlight read the same rule texts again."""
    return tuple(words.words(text))


# Words people use for the same thing at the table (a verb and its noun, two verbs for
# "win"): any of them finds the others.
ANALYZERS: dict[str, Analyzer] = {
    "en": Snowball("en", "english", (("win", "victory", "winner", "won"),
                                     ("tie", "level"))),  # "draw" is a card's
    "de": Snowball("de", "german", (("gewinnen", "Sieg", "siegen", "Sieger", "Gewinner"),
                                    ("Gleichstand", "unentschieden", "Patt"))),
    "uk": Ukrainian("uk", "ukrainian", (("перемагати", "перемогти", "перемога", "переможець",
                                         "виграти", "вигравати", "виграш"),
                                        ("нічия", "нічий", "порівну"))),
    "es": Snowball("es", "spanish", (("ganar", "victoria", "ganador", "vencer"),
                                     ("empate", "empatar"))),
    "fr": French("fr", "french", (("gagner", "victoire", "vainqueur", "gagnant", "emporter"),
                                  ("égalité", "égal"))),
    # the site's action names with those of Japanese guides (BGA: 密約, 取捨, 贈与)
    "ja": Japanese("ja", "japanese", (("勝利", "勝ち", "勝つ", "勝者"),
                                      ("同点", "同数", "引き分け", "互角"), ("秘密", "密約"),
                                      ("破棄", "捨て札", "取捨", "捨てる"),
                                      ("贈り物", "贈与", "プレゼント"), ("競争", "競り"),
                                      ("芸妓", "芸者", "げいしゃ"))),
}


@cache
def analyzer(lang: str) -> Analyzer:
    """The analyzer of a language (English's for one that has none)."""
    return ANALYZERS.get(lang) or ANALYZERS["en"]


def preload() -> None:
    """Every analyzer's dictionaries loaded (Ukrainian's: about a second and 60 MB): the
    server's master calls this before it forks its workers, so they share them."""
    for each in ANALYZERS.values():
        each.preload()
