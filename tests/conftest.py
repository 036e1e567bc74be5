"""Shared fixtures: the Flask app and its test client (other fixtures live beside their tests)."""
from __future__ import annotations

import os
import tempfile

import pytest

# A fresh verdict cache per test session (rulebook/loader.py): every run checks the
# rulebooks against their schemas in full, and no test reads a verdict left by another.
os.environ["SHINPAN_CACHE_DIR"] = tempfile.mkdtemp(prefix="shinpan-test-cache-")

from webapp import create_app


@pytest.fixture(scope="session")
def app():
    return create_app({"TESTING": True, "SERVER_NAME": "localhost"})


@pytest.fixture()
def client(app):
    return app.test_client()
