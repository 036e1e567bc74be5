"""A WSGI app that cannot start while the file named by SHINPAN_TEST_BREAK exists: a deploy
of code that fails at import, for the reload test (tests/deploy/test_serving.py)."""
from __future__ import annotations

import os
from pathlib import Path

if Path(os.environ["SHINPAN_TEST_BREAK"]).exists():
    raise RuntimeError("this deploy cannot start (a test's broken code)")


def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "6")])
    return [f"{os.getpid():>6}"[-6:].encode()]
