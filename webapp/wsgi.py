"""The production entry point: `gunicorn -c gunicorn.conf.py` serves `webapp.wsgi:app`.

Never in debug mode (a debug flag from the environment, e.g. FLASK_DEBUG=1, is
ignored here): errors are the generic 500 page or problem+json, never a traceback.
"""
from __future__ import annotations

from . import create_app

app = create_app({"DEBUG": False, "TESTING": False, "PROPAGATE_EXCEPTIONS": False})
