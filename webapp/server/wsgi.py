"""The production entry point: `python -m webapp.server.serve` (granian) serves `webapp.server.wsgi:app`.

Never in debug mode (a debug flag from the environment, e.g. FLASK_DEBUG=1, is
ignored here): errors are the generic 500 page or problem+json, never a traceback.

Each granian worker imports this module, so the warm-up below (rulebooks parsed and
validated, catalogs loaded, templates compiled, each page type rendered once,
every search index built) happens before the worker's first request, and a worker counts
as ready only after it (webapp/server/supervisor.py). SHINPAN_WARMUP=0 skips it. The
compiled templates are kept in the user's cache folder (TemplateCache), so only the first
worker after a change to a template compiles it.
The access log (SHINPAN_ACCESS_LOG=0: none) and the empty `Server` field are added
here, around the whole site (webapp/server/deployment.py).
"""
from __future__ import annotations

import os

from jinja2 import FileSystemBytecodeCache

from rulebook.i18n import LANGUAGES
from rulebook.loader import cache_dir

from .. import create_app
from . import deployment


class TemplateCache(FileSystemBytecodeCache):
    """Compiled templates kept in the user's cache folder (rulebook/loader.py: cache_dir()),
    keyed by each template's source: a worker after the first loads them instead of
    compiling them (about half of its warm-up). A folder that cannot be read or written
    means compiling, never an error."""

    def load_bytecode(self, bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, EOFError, ValueError):
            pass

    def dump_bytecode(self, bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def template_cache() -> TemplateCache | None:
    folder = cache_dir()
    try:
        folder = folder / "templates"
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except (OSError, TypeError):
        return None
    return TemplateCache(str(folder))


app = create_app({"DEBUG": False, "TESTING": False, "PROPAGATE_EXCEPTIONS": False})
app.jinja_env.bytecode_cache = template_cache()


def warm_up() -> None:
    from ..games import GAMES
    from ..pages import search

    # Each page type once, in the source language: what every later page shares (templates,
    # rulebooks, the referees' first run) is made here. The other languages each pay 5-20 ms
    # more on their first page of a type (measured); rendering all 36 pages cost about
    # 1.3 s more CPU in every worker, at every start and reload.
    client = app.test_client()
    lang = LANGUAGES[0]
    client.get(f"/{lang}/")
    for game in GAMES:
        client.get(f"/{lang}/{game}/")
        client.get(f"/{lang}/{game}/score")
    for game in GAMES:
        client.post(f"/api/v1/{game}/score", json={"rounds": []})
    # the pages above were rendered for http://localhost: no client ever asks for that host
    app.extensions["shinpan.page_cache"].clear()
    # Every game's search index in every language, and the Ukrainian dictionary (a trie:
    # webapp/pages/analyzers.py): about 0.35 s with the indexes kept, 1 s before the trie
    # (measured), before the first request. (In a thread beside the first requests it held
    # them up: 32 answers in the fault test's first 5 s instead of 1,290.)
    search.warm_up()


if os.environ.get("SHINPAN_WARMUP", "1") != "0":
    warm_up()

_log = deployment.LogWriter() if os.environ.get("SHINPAN_ACCESS_LOG", "1") != "0" else None
app.wsgi_app = deployment.Deployment(app.wsgi_app, _log)
