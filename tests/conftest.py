"""Shared fixtures: the Flask app and its test client (other fixtures live beside their tests)."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# A fresh verdict cache per test session (rulebook/loader.py): every run checks the
# rulebooks against their schemas in full, and no test reads a verdict left by another.
os.environ["SHINPAN_CACHE_DIR"] = tempfile.mkdtemp(prefix="shinpan-test-cache-")
os.environ["SHINPAN_BUILT_VERDICTS"] = "0"  # nor the build's (rulebook/verdicts/)


ROOT = Path(__file__).resolve().parents[1]
# The toy game "Higher card", laid out as the repository is (rulebook/tiny/,
# webapp/games/tiny/, webapp/templates/games/tiny/, translations/incoming/tiny.json): what
# README "Adding a game" asks of a game, and nothing more. Every test session plays it as
# a third game, so every test that loops over the games checks it too.
TINYGAME = ROOT / "tests" / "tinygame"
KEYWORDS = {"N_": None, "Np_": (1, 2), "lazy_gettext": None, "_l": None}  # as `make translations`


def _register_the_toy_game() -> None:
    """Its folders join the packages' paths (as if copied into the tree), and its entry
    joins rulebook.GAMES (the one line a game adds)."""
    import rulebook
    import webapp
    import webapp.games

    for package, folder in ((rulebook, TINYGAME / "rulebook"), (webapp, TINYGAME / "webapp"),
                            (webapp.games, TINYGAME / "webapp" / "games")):
        if str(folder) not in package.__path__:
            package.__path__.append(str(folder))
    rulebook.GAMES.setdefault("tiny", rulebook.Game("tiny", "rulebook.tiny"))


def toy_game_messages() -> list[tuple[str | None, str | tuple[str, str], list[str]]]:
    """(context, message, translator comments) of every string the toy game's files hold,
    extracted as `make translations` extracts the repository's (its babel.cfg)."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg", encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found = extract_from_dir(str(TINYGAME), method_map, options_map,
                             keywords={**DEFAULT_KEYWORDS, **KEYWORDS},
                             comment_tags=("Translators:",), strip_comment_tags=True)
    return [(context, message, comments) for _file, _line, message, comments, context in found]


def _test_catalogs() -> None:
    """The catalogs the tests read: the repository's, with the toy game's strings merged in
    (as `make translations` would merge them) and the translations delivered as JSON
    applied (a branch's translations/incoming/*.json, the toy game's tiny.json: see
    tools/po_incoming.py), compiled into a temporary folder (SHINPAN_TRANSLATIONS) with
    their .po beside (tests/web/test_translations.py checks those). Made once per run:
    pytest-xdist's workers inherit the folder."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po, write_po

    from tools.po_incoming import LANGS, apply_entries, load_entries

    made = os.environ.get("SHINPAN_TEST_CATALOGS")
    if made and os.path.isdir(made):
        os.environ["SHINPAN_TRANSLATIONS"] = made
        return
    _files, entries = load_entries()
    _files, toy_entries = load_entries(TINYGAME / "translations" / "incoming")
    messages = toy_game_messages()
    out = tempfile.mkdtemp(prefix="shinpan-test-catalogs-")
    for lang in LANGS:
        with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
            catalog = read_po(handle, locale=lang)
        for context, message, comments in messages:
            key = message[0] if isinstance(message, tuple) else message
            if catalog.get(key, context=context) is None:
                catalog.add(message, context=context, auto_comments=comments)
        apply_entries(catalog, lang, entries + toy_entries, add=True)
        folder = os.path.join(out, lang, "LC_MESSAGES")
        os.makedirs(folder)
        with open(os.path.join(folder, "messages.po"), "wb") as handle:
            write_po(handle, catalog, width=0)
        with open(os.path.join(folder, "messages.mo"), "wb") as handle:
            write_mo(handle, catalog)
    os.environ["SHINPAN_TRANSLATIONS"] = os.environ["SHINPAN_TEST_CATALOGS"] = out


_register_the_toy_game()
_test_catalogs()


def _hypothesis_profiles() -> None:
    """The budget of the property tests that name none (tests/budget.py names the rest)."""
    from hypothesis import settings

    from tests.budget import DEEP, DEFAULT_BUDGET, examples

    settings.register_profile("quick", max_examples=examples(DEFAULT_BUDGET))
    settings.register_profile("deep", max_examples=DEFAULT_BUDGET)
    settings.load_profile("deep" if DEEP else "quick")


_hypothesis_profiles()

from webapp import create_app  # imported after the catalogs are chosen


@pytest.fixture(scope="session")
def app():
    return create_app({"TESTING": True, "SERVER_NAME": "localhost"})


@pytest.fixture()
def client(app):
    return app.test_client()


# `make test` collects the browser tests from tests/e2e alone and the server-timing tests
# from tests/deploy alone (each collection of the whole suite costs seconds per process):
# a test so marked anywhere else would run in no phase of it.
MARKED_FOLDERS = {"browser": "tests/e2e", "alone": "tests/deploy"}


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects: the rules of every test count
def pytest_collection_modifyitems(config, items):
    root = config.rootpath
    for item in items:
        for marker, folder in MARKED_FOLDERS.items():
            if item.get_closest_marker(marker) and not item.path.is_relative_to(root / folder):
                raise pytest.UsageError(f"{item.nodeid} is marked {marker!r}: it belongs "
                                        f"under {folder}/, where `make test` looks for it")
    checked = rules_checked(items)
    config.stash[RULES_CHECKED] = checked
    if hasattr(config, "workeroutput"):  # a pytest-xdist worker: tell the controller
        config.workeroutput["rules_checked"] = sorted(checked)


# -- every rule tested by name ---------------------------------------------------------
# `@pytest.mark.rule("koikoi", "yaku.goko", ...)` ties a test to the rules of a game it
# checks (PokerKit's style). Collection fails on a game or rule id the YAML lacks, and a
# run of the whole suite ends with the rule ids no test checks (README "Tests").
RULES_CHECKED = pytest.StashKey[set]()


def rules_checked(items) -> set[tuple[str, str]]:
    import rulebook

    checked: set[tuple[str, str]] = set()
    for item in items:
        for mark in item.iter_markers("rule"):
            game, *ids = mark.args or ("",)
            if game not in rulebook.GAMES or not ids:
                raise pytest.UsageError(f"{item.nodeid}: mark it rule(<game>, <rule id>, ...) "
                                        f"with a game of rulebook.GAMES, not {mark.args!r}")
            unknown = [rule_id for rule_id in ids if rule_id not in rulebook.GAMES[game].load().rules]
            if unknown:
                raise pytest.UsageError(f"{item.nodeid} is marked with rules {game}'s "
                                        f"rulebook.yaml lacks: {', '.join(unknown)}")
            checked |= {(game, rule_id) for rule_id in ids}
    return checked


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):  # pytest-xdist, on the controller: what a worker saw
    checked = node.config.stash.get(RULES_CHECKED, set())
    checked |= {tuple(pair) for pair in node.workeroutput.get("rules_checked", ())}
    node.config.stash[RULES_CHECKED] = checked


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """After a run of the whole suite (no paths given): the rule ids no test checks."""
    import rulebook

    if config.args_source != pytest.Config.ArgsSource.TESTPATHS or RULES_CHECKED not in config.stash:
        return
    checked = config.stash[RULES_CHECKED]
    every = [(slug, rule_id) for slug, game in rulebook.GAMES.items() for rule_id in game.load().rules]
    unchecked = [pair for pair in every if pair not in checked]
    terminalreporter.write_sep("-", f"rules tested by name: {len(every) - len(unchecked)} of "
                                    f"{len(every)}")
    for slug in rulebook.GAMES:
        ids = [rule_id for game, rule_id in unchecked if game == slug]
        if ids:
            terminalreporter.write_line(f"no test checks {slug}: {', '.join(ids)}")
