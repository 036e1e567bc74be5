"""Search indexes kept on disk (webapp/pages/search.py: KeptIndexes): a worker reads the
index the previous one built, and only when it was built from the same inputs."""
from __future__ import annotations

import dataclasses

import pytest

from rulebook.i18n import LANGUAGES
from webapp.games import GAMES
from webapp.pages import search
from webapp.pages.search import Document, KeptIndexes


def fields(index: search.Index) -> dict:
    return {f.name: getattr(index, f.name) for f in dataclasses.fields(index)}


def documents(app, game: str, lang: str) -> list[Document]:
    """The documents build_index reads, caught on their way to KeptIndexes."""
    caught: list[list[Document]] = []
    real = KeptIndexes.read_or_make

    def catch(lang, docs):
        caught.append(docs)
        return real(lang, docs)

    search._build_index.cache_clear()
    KeptIndexes.read_or_make = catch
    try:
        with app.app_context():
            search.build_index(game, lang)
    finally:
        KeptIndexes.read_or_make = real
        search._build_index.cache_clear()
    return caught[0]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", list(GAMES))
def test_a_kept_index_is_the_index_built_afresh(app, game, lang, tmp_path, monkeypatch):
    monkeypatch.setenv("SHINPAN_CACHE_DIR", str(tmp_path))
    docs = documents(app, game, lang)
    built = KeptIndexes.read_or_make(lang, docs)  # built, and kept
    path = KeptIndexes.path(lang, docs)
    assert path is not None and path.is_file()
    read = KeptIndexes.read_or_make(lang, docs)
    assert read is not built  # read from the file
    assert fields(read) == fields(search.make_index(lang, docs))
    assert search.search(read, "points") == search.search(built, "points")


def test_an_index_of_other_documents_or_another_analyzer_is_not_read(app, tmp_path, monkeypatch):
    monkeypatch.setenv("SHINPAN_CACHE_DIR", str(tmp_path))
    docs = documents(app, "hanamikoji", "en")
    path = KeptIndexes.path("en", docs)
    changed = [dataclasses.replace(docs[0], text=docs[0].text + " gift"), *docs[1:]]
    assert KeptIndexes.path("en", changed) != path
    assert KeptIndexes.path("de", docs) != path  # another analyzer (and language)
    synonyms = search.analyzer("en").synonym_groups
    monkeypatch.setattr(search.analyzer("en"), "synonym_groups", (*synonyms, ("gift", "present")))
    assert KeptIndexes.path("en", docs) != path


def test_a_damaged_or_unwritable_kept_index_means_building(app, tmp_path, monkeypatch):
    monkeypatch.setenv("SHINPAN_CACHE_DIR", str(tmp_path))
    docs = documents(app, "koikoi", "en")
    expected = fields(search.make_index("en", docs))
    path = KeptIndexes.path("en", docs)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not an index")
    assert fields(KeptIndexes.read_or_make("en", docs)) == expected
    assert fields(KeptIndexes.read_or_make("en", docs)) == expected  # written again, whole
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be")
    monkeypatch.setenv("SHINPAN_CACHE_DIR", str(blocked))
    assert fields(KeptIndexes.read_or_make("en", docs)) == expected
    assert not list(tmp_path.glob("search/*.part"))


def test_preloading_loads_every_analyzers_dictionary():
    """What the server's master loads before its workers fork (webapp/server/serve.py): in a
    fresh process, simplemma's Ukrainian dictionary is loaded by preload(), not later."""
    import subprocess
    import sys

    script = (
        "from webapp.pages import analyzers\n"
        "F = analyzers.kept_tries()\n"
        "assert F._get_dictionary.cache_info().currsize == 0\n"
        "analyzers.preload()\n"
        "loaded = F._get_dictionary.cache_info().currsize\n"
        "assert analyzers.analyzer('uk').reduce('гравцями') == 'гравець'\n"
        "assert F._get_dictionary.cache_info().misses == loaded == 1\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)


def test_the_ukrainian_dictionary_is_kept_as_a_trie_with_the_same_lemmas(tmp_path):
    """simplemma's Ukrainian dictionary as a MARISA trie (analyzers.kept_tries): built once
    into the folder, renamed into place whole (no temporary file left, readable as a file
    simplemma writes), read back by the next process, and every word gives the lemma
    simplemma.lemmatize gives. make test builds a small language's trie here and reads a
    sample of the Ukrainian one the search keeps; make test-deep builds the Ukrainian one
    (2.5 s) and reads every word of it."""
    import random

    import simplemma
    from simplemma.strategies.dictionaries import DEFAULT_DICTIONARY_FACTORY

    from tests.budget import DEEP
    from webapp.pages import analyzers

    built_lang = "uk" if DEEP else "ms"  # Malay: simplemma's smallest dictionary
    built = analyzers.kept_tries(str(tmp_path)).get_dictionary(built_lang)
    assert [p.name for p in tmp_path.iterdir()] == [f"{built_lang}.dic"]
    assert (tmp_path / f"{built_lang}.dic").stat().st_mode & 0o777 == 0o644
    read = analyzers.kept_tries.__wrapped__(str(tmp_path)).get_dictionary(built_lang)  # a new one
    shipped = DEFAULT_DICTIONARY_FACTORY.get_dictionary(built_lang)
    assert len(read) == len(built) == len(shipped)
    assert all(read.get(word) == built.get(word) == shipped[word] for word in shipped)
    shipped = DEFAULT_DICTIONARY_FACTORY.get_dictionary("uk")  # kept by simplemma: no second decode
    if not DEEP:  # the Ukrainian trie the search reads, wherever it was made
        kept = analyzers.kept_tries().get_dictionary("uk")
        assert len(kept) == len(shipped)
        assert all(kept.get(word) == shipped[word]
                   for word in random.Random(21).sample(list(shipped), 2000))
    words = list(shipped)
    lemma = analyzers.analyzer("uk").reducer()
    for word in ["гравцями", "гейш", "п’ятеро", "нічиєї", "Ханамікоджі", "xyz"] + words[:300]:
        assert lemma(word) == simplemma.lemmatize(word, lang="uk"), word
