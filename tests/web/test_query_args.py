"""request.args (webapp/http/query.py) answers `get` as Werkzeug's ImmutableMultiDict does,
without raising for an absent name."""
from __future__ import annotations

from flask import request
from werkzeug.datastructures import ImmutableMultiDict

from webapp.http.query import QueryArgs

PAIRS = [("a", "0"), ("a", "8"), ("n", "42"), ("x", "zz"), ("e", "")]


def test_get_is_werkzeugs_get():
    ours, theirs = QueryArgs(PAIRS), ImmutableMultiDict(PAIRS)
    for name in ("a", "n", "x", "e", "absent"):
        assert ours.get(name) == theirs.get(name)
        assert ours.get(name, "-") == theirs.get(name, "-")
        assert ours.get(name, -1, type=int) == theirs.get(name, -1, type=int)
    assert ours.getlist("a") == ["0", "8"]


def test_the_site_reads_its_query_with_it(app):
    with app.test_request_context("/en/koikoi/score?a=0&a=8"):
        assert isinstance(request.args, QueryArgs)
        assert request.args.get("winner", "a") == "a" and request.args.getlist("a") == ["0", "8"]
