"""Japanese words for search: a morphological analyzer (SudachiPy) turns a text into words,
and each word into the keys a query can meet it by.

Japanese writes no spaces, and one word has three spellings a player may type: kanji (猪鹿蝶),
kana (いのしかちょう) and romaji (inoshikacho, ino-shika-chō). So a word's keys are
- its dictionary form ("数えた" -> 数える), NFKC-normalized and casefolded;
- the romaji of its reading (Hepburn, long vowels written once: 親 -> "oya", 勝負 -> "shobu"),
  which meets a query in kana or romaji (おや, "oya") and a word written in katakana or
  hiragana (カス, かす);
a word of the game's own vocabulary (the `lexicon`: a yaku's or card's kanji with its reading,
from the rulebook) is found whole, in kanji, kana or romaji, before the analyzer splits the
rest (it would read 猪鹿蝶 as 猪 / 鹿 / 蝶 and いのしかちょう as anything at all).

Particles, auxiliaries, punctuation and question words (は, です, 何, どう) are stop words.
The dictionary loads on first use (a worker's warm-up builds the search indexes): 0.15-0.25 s
and about 50 MB (README, "Search in Japanese", compares SudachiPy, Janome and fugashi;
tools/ja_tokenizers.py measures them).
"""
from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

# Parts of speech that carry no meaning in a question (particles, auxiliaries, symbols).
STOP_POS = frozenset({"助詞", "助動詞", "補助記号", "記号", "空白"})
# Question words and light verbs and nouns ("what", "how", "do", "become", "thing").
STOP_LEMMAS = frozenset({
    "何", "なに", "なん", "どう", "どの", "どれ", "どこ", "いつ", "誰", "だれ", "なぜ", "どちら", "どっち", "いくつ", "幾つ",
    "する", "為る", "なる", "成る", "ある", "有る", "いる", "居る", "できる", "出来る", "れる", "られる", "こと", "事", "もの",
    "物", "ない", "無い", "よう", "様", "ため", "為", "場合", "とき", "時", "いい", "良い", "よい", "～", "か",
})
SHORT_KANA = 8  # a text of at most this many kana is one word: a term typed unconverted
KATAKANA = re.compile(r"[ァ-ヺー・]+")
HIRAGANA = re.compile(r"[ぁ-ゖー・]+")
ROMAJI_WORD = re.compile(r"[A-Za-z\u00C0-\u024F]+(?:['’\-][A-Za-z\u00C0-\u024F]+)*")

_KANA = {
    "キャ": "kya", "キュ": "kyu", "キョ": "kyo", "シャ": "sha", "シュ": "shu", "ショ": "sho",
    "シェ": "she", "チャ": "cha", "チュ": "chu", "チョ": "cho", "チェ": "che", "ニャ": "nya",
    "ニュ": "nyu", "ニョ": "nyo", "ヒャ": "hya", "ヒュ": "hyu", "ヒョ": "hyo", "ミャ": "mya",
    "ミュ": "myu", "ミョ": "myo", "リャ": "rya", "リュ": "ryu", "リョ": "ryo", "ギャ": "gya",
    "ギュ": "gyu", "ギョ": "gyo", "ジャ": "ja", "ジュ": "ju", "ジョ": "jo", "ジェ": "je",
    "ビャ": "bya", "ビュ": "byu", "ビョ": "byo", "ピャ": "pya", "ピュ": "pyu", "ピョ": "pyo",
    "ファ": "fa", "フィ": "fi", "フェ": "fe", "フォ": "fo", "ティ": "ti", "ディ": "di",
    "ウィ": "wi", "ウェ": "we", "ウォ": "wo", "ヴァ": "va", "ヴィ": "vi", "ヴェ": "ve",
    "ヴォ": "vo",
}
_KANA.update({
    "ア": "a", "イ": "i", "ウ": "u", "エ": "e", "オ": "o", "カ": "ka", "キ": "ki", "ク": "ku", "ケ":
    "ke", "コ": "ko", "サ": "sa", "シ": "shi", "ス": "su", "セ": "se", "ソ": "so", "タ": "ta", "チ":
    "chi", "ツ": "tsu", "テ": "te", "ト": "to", "ナ": "na", "ニ": "ni", "ヌ": "nu", "ネ": "ne", "ノ":
    "no", "ハ": "ha", "ヒ": "hi", "フ": "fu", "ヘ": "he", "ホ": "ho", "マ": "ma", "ミ": "mi", "ム":
    "mu", "メ": "me", "モ": "mo", "ヤ": "ya", "ユ": "yu", "ヨ": "yo", "ラ": "ra", "リ": "ri", "ル":
    "ru", "レ": "re", "ロ": "ro", "ワ": "wa", "ヰ": "i", "ヱ": "e", "ヲ": "o", "ン": "n", "ガ": "ga",
    "ギ": "gi", "グ": "gu", "ゲ": "ge", "ゴ": "go", "ザ": "za", "ジ": "ji", "ズ": "zu", "ゼ": "ze", "ゾ":
    "zo", "ダ": "da", "ヂ": "ji", "ヅ": "zu", "デ": "de", "ド": "do", "バ": "ba", "ビ": "bi", "ブ":
    "bu", "ベ": "be", "ボ": "bo", "パ": "pa", "ピ": "pi", "プ": "pu", "ペ": "pe", "ポ": "po", "ヴ":
    "vu", "ァ": "a", "ィ": "i", "ゥ": "u", "ェ": "e", "ォ": "o", "ャ": "ya", "ュ": "yu", "ョ": "yo",
    "ヮ": "wa",
})
# Kunrei-shiki and IME spellings a player may type, as Hepburn (the keys' spelling).
_HEPBURN = [(re.compile(a), b) for a, b in (
    (r"si", "shi"), (r"ti", "chi"), (r"tu", "tsu"), (r"hu", "fu"), (r"zi", "ji"), (r"di", "ji"),
    (r"du", "zu"), (r"sy([aueo])", r"sh\1"), (r"ty([aueo])", r"ch\1"), (r"zy([aueo])", r"j\1"),
    (r"jy([aueo])", r"j\1"), (r"cch", "tch"), (r"c(?!h)", "k"), (r"nn(?![aiueoy])", "n"), (r"m(?=[bmp])", "n"),
    (r"ou", "o"), (r"([aiueo])\1", r"\1"), (r"(?<=[^aiueo])ei", "e"),
)]


def to_hiragana(text: str) -> str:
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in text)


def to_katakana(text: str) -> str:
    return "".join(chr(ord(c) + 0x60) if "ぁ" <= c <= "ゖ" else c for c in text)


def romaji(reading: str) -> str:
    """Kana -> the key's romaji: Hepburn without long vowels or hyphens
    ("イノシカチョウ" -> "inoshikacho", "しょうぶ" -> "shobu")."""
    kana = to_katakana(unicodedata.normalize("NFKC", reading))
    out: list[str] = []
    i, double = 0, False
    while i < len(kana):
        pair, char = kana[i:i + 2], kana[i]
        if char == "ッ":
            double, i = True, i + 1
            continue
        if char == "ー":
            i += 1  # a long vowel: written once
            continue
        sound = _KANA.get(pair) if len(pair) == 2 else None
        step = 2 if sound else 1
        sound = sound or _KANA.get(char, char.casefold() if char.isascii() else "")
        if double and sound:
            sound = ("t" if sound.startswith("ch") else sound[0]) + sound
        out.append(sound)
        double, i = False, i + step
    return normal_romaji("".join(out))


def normal_romaji(text: str) -> str:
    """Romaji as typed ("Ino-shika-chō", "inoshikachou", "kouryou") -> the key's spelling."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text.casefold())
                    if c.isascii() and c.isalpha())
    for pattern, replacement in _HEPBURN:
        plain = pattern.sub(replacement, plain)
    return plain


@dataclass(frozen=True)
class Word:
    """One word of a text, where it stands, and its keys (empty for a stop word). It answers
    `group(0)`, `start()` and `end()` as a regular expression's match does."""

    surface: str
    begin: int
    finish: int
    keys: frozenset[str]

    def group(self, _index: int = 0) -> str:
        return self.surface

    def start(self) -> int:
        return self.begin

    def end(self) -> int:
        return self.finish


@dataclass(frozen=True)
class Morpheme:
    surface: str
    lemma: str
    reading: str  # katakana; "" when the dictionary has none
    pos: str


class Japanese:
    """Japanese text -> words with keys. `lexicon`: (written form, reading) of the words
    that must be found whole (yaku, cards, months), in kanji, kana or romaji."""

    def __init__(self, lexicon: Iterable[tuple[str, str]] = ()):
        self._lock = threading.Lock()  # one tokenizer, shared by the server's threads
        self.lexicon: dict[str, frozenset[str]] = {}
        for written, reading in lexicon:
            keys = frozenset({fold(written), romaji(reading)})
            for form in (written, to_hiragana(reading), to_katakana(reading)):
                if self._whole(fold(form)):
                    self.lexicon.setdefault(fold(form), keys)
        # Longest first; a katakana name is a whole katakana word (タン is not in ボタン).
        forms = sorted(self.lexicon, key=len, reverse=True)
        self._lexicon_pattern = re.compile("|".join(
            f"(?<![ァ-ヺー]){re.escape(f)}(?![ァ-ヺー])" if KATAKANA.fullmatch(f) else re.escape(f)
            for f in forms)) if forms else None
        self._by_romaji = {key: keys for keys in self.lexicon.values() for key in keys
                           if key.isascii()}

    @staticmethod
    def _whole(form: str) -> bool:
        """Whether a name is looked for whole: a single character (松) or a short word in
        hiragana (きく in 大きく) is left to the analyzer, whose reading finds it as well."""
        if len(form) < 2:
            return False
        return not (HIRAGANA.fullmatch(form) and len(form) < 4)

    # -- the morphological analyzer (the one place that knows SudachiPy) ---------------------
    @cached_property
    def _tokenizer(self):
        """SudachiPy with its small dictionary, longest split (mode C: 魅力値 stays one word
        where the dictionary has it): chosen by measurement, see tools/ja_tokenizers.py."""
        from sudachipy import Dictionary, SplitMode

        return Dictionary(dict="small").tokenizer(mode=SplitMode.C)

    def morphemes(self, text: str) -> list[Morpheme]:
        with self._lock:
            return [Morpheme(m.surface(), m.dictionary_form(), m.reading_form(),
                             m.part_of_speech()[0]) for m in self._tokenizer.tokenize(text)]

    # -- words and keys ------------------------------------------------------------------------
    @lru_cache(maxsize=8192)  # noqa: B019 - one analyzer per process
    def reading_of(self, lemma: str) -> str:
        """The reading of a dictionary form ("数える" -> "カゾエル"): an inflected word's own
        reading is of its inflected form."""
        return "".join(m.reading for m in self.morphemes(lemma))

    def _keys(self, morpheme: Morpheme) -> frozenset[str]:
        if morpheme.pos in STOP_POS or morpheme.lemma in STOP_LEMMAS:
            return frozenset()
        if ROMAJI_WORD.fullmatch(morpheme.surface):
            return self.romaji_keys(morpheme.surface)
        lemma = fold(morpheme.lemma)
        reading = morpheme.reading if morpheme.lemma == morpheme.surface else self.reading_of(
            morpheme.lemma)
        if morpheme.surface.isdigit():
            return frozenset({str(int(morpheme.surface))})
        found = {lemma, fold(morpheme.surface)}
        spelled = romaji(reading or morpheme.surface)
        if spelled:
            found.add(spelled)
        return frozenset(k for k in found if k)

    def romaji_keys(self, word: str) -> frozenset[str]:
        """A word in Latin letters has one key, its romaji as the keys spell it (an English
        word typed on a Japanese page is spelled the same way on both sides)."""
        spelled = normal_romaji(word)
        return self._by_romaji.get(spelled, frozenset({spelled or fold(word)}))

    def words(self, text: str) -> list[Word]:
        """The words of `text` in order, each with its keys (no keys: a stop word)."""
        folded = fold(text)  # same length as text: fold only changes width and case
        whole = folded.strip()
        if whole in self.lexicon or (len(whole) <= SHORT_KANA and (
                HIRAGANA.fullmatch(whole) or KATAKANA.fullmatch(whole))):
            # きょうそう or てし alone: a term typed in kana, not a phrase to split (the
            # analyzer would read きょう / そう, て / し)
            begin = folded.index(whole)
            keys = self.lexicon.get(whole) or frozenset({whole, romaji(whole)})
            return [Word(text[begin:begin + len(whole)], begin, begin + len(whole), keys)]
        out: list[Word] = []
        last = 0
        spans = self._lexicon_pattern.finditer(folded) if self._lexicon_pattern else ()
        for match in spans:
            out.extend(self._analysed(text, last, match.start()))
            out.append(Word(text[match.start():match.end()], match.start(), match.end(),
                            self.lexicon[match.group(0)]))
            last = match.end()
        out.extend(self._analysed(text, last, len(text)))
        return out

    def _analysed(self, text: str, begin: int, finish: int) -> list[Word]:
        """The words between two lexicon words: romaji stays one word ("ino-shika-cho"),
        the rest goes through the analyzer."""
        out: list[Word] = []
        at = begin
        for latin in ROMAJI_WORD.finditer(text, begin, finish):
            out += self._morphs(text, at, latin.start())
            out.append(Word(latin.group(0), latin.start(), latin.end(),
                            self.romaji_keys(latin.group(0))))
            at = latin.end()
        return out + self._morphs(text, at, finish)

    def _morphs(self, text: str, begin: int, finish: int) -> list[Word]:
        out: list[Word] = []
        at = begin
        for morpheme in self.morphemes(text[begin:finish]) if finish > begin else ():
            end = at + len(morpheme.surface)
            if morpheme.surface.strip():
                out.append(Word(morpheme.surface, at, end, self._keys(morpheme)))
            at = end
        return out

    def keys(self, word: str) -> frozenset[str]:
        """The keys of one word as a query gives it (a whole query: see `words`)."""
        return frozenset().union(*(w.keys for w in self.words(word)))


def fold(text: str) -> str:
    """NFKC (full-width Ｌ and half-width ｶﾅ as their usual forms), casefolded: the same
    length as `text` for the text a page shows."""
    return "".join(unicodedata.normalize("NFKC", c).casefold()[:1] or c for c in text)
