"""The production entry point: `gunicorn -c gunicorn.conf.py` serves `webapp.wsgi:app`.

Never in debug mode (a debug flag from the environment, e.g. FLASK_DEBUG=1, is
ignored here): errors are the generic 500 page or problem+json, never a traceback.

With gunicorn's preload_app the master imports this module once and the workers fork
from it, so the warm-up below (rulebooks parsed and validated, catalogs loaded,
templates compiled, one page per game and language rendered) happens once, before the
first request, and the memory it fills is shared copy-on-write. SHINPAN_WARMUP=0 skips it.
"""
from __future__ import annotations

import os

from rulebook.i18n import LANGUAGES

from . import create_app

app = create_app({"DEBUG": False, "TESTING": False, "PROPAGATE_EXCEPTIONS": False})


def warm_up() -> None:
    from .games import GAMES

    client = app.test_client()
    for lang in LANGUAGES:
        client.get(f"/{lang}/")
        for game in GAMES:
            client.get(f"/{lang}/{game}/")
    for game in GAMES:
        client.post(f"/api/v1/{game}/score", json={"rounds": []})
    # the pages above were rendered for http://localhost: no client ever asks for that host
    app.extensions["shinpan.page_cache"].clear()


if os.environ.get("SHINPAN_WARMUP", "1") != "0":
    warm_up()
