"""Shared fixtures: the Flask app and its test client (other fixtures live beside their tests)."""
from __future__ import annotations

import os
import tempfile

import pytest

# A fresh verdict cache per test session (rulebook/loader.py): every run checks the
# rulebooks against their schemas in full, and no test reads a verdict left by another.
os.environ["SHINPAN_CACHE_DIR"] = tempfile.mkdtemp(prefix="shinpan-test-cache-")


def _catalogs_with_incoming() -> None:
    """A branch delivers its translations as translations/incoming/*.json (the .po files are
    merged later, see tools/po_incoming.py). The tests then read catalogs compiled with them
    applied, as the merge will make them; without incoming files, the repository's own."""
    from tools.po_incoming import compiled_with_incoming

    out = compiled_with_incoming()
    if out:
        os.environ["SHINPAN_TRANSLATIONS"] = out


_catalogs_with_incoming()

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


def pytest_collection_modifyitems(config, items):
    root = config.rootpath
    for item in items:
        for marker, folder in MARKED_FOLDERS.items():
            if item.get_closest_marker(marker) and not item.path.is_relative_to(root / folder):
                raise pytest.UsageError(f"{item.nodeid} is marked {marker!r}: it belongs "
                                        f"under {folder}/, where `make test` looks for it")
