"""Fixtures of the server tests."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def kept_search_indexes(app):
    """The search indexes, built once here and kept in the session's cache folder
    (webapp/pages/search.py: KeptIndexes), which every server these tests start reads, as
    a deployed server's workers read the ones its first start built: the tests time
    takeovers, respawns and reloads, not the first analysis of every rule text."""
    from webapp.pages import search

    with app.app_context():
        search.warm_up()
