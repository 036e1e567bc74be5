"""The Shinpan web site: rules pages, scoring checker and JSON API (no game logic here)."""
from __future__ import annotations

from flask import Flask, redirect, request, url_for

from rulebook.i18n import DEFAULT_LANGUAGE, LANGUAGES


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(JSON_AS_ASCII=False)
    if test_config:
        app.config.update(test_config)

    @app.get("/")
    def negotiate():
        lang = request.accept_languages.best_match(LANGUAGES) or DEFAULT_LANGUAGE
        response = redirect(url_for("home", lang=lang))
        response.vary.add("Accept-Language")
        return response

    @app.get("/<lang>/")
    def home(lang: str):
        return f"<!doctype html><html lang='{lang}'><title>Shinpan</title><h1>Shinpan</h1></html>"

    return app
