"""Shared fixtures: the Flask app and its test client (other fixtures live beside their tests)."""
from __future__ import annotations

import pytest

from webapp import create_app


@pytest.fixture(scope="session")
def app():
    return create_app({"TESTING": True, "SERVER_NAME": "localhost"})


@pytest.fixture()
def client(app):
    return app.test_client()
