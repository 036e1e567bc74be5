"""The baselines for `make bench`: bare Flask endpoints, not part of the product.

Served by the same gunicorn configuration as the site (`gunicorn -c gunicorn.conf.py
tools.bench_app:app`), at the same paths as the product's endpoints:

* POST /api/v1/hanamikoji/score only parses the JSON body and echoes it as JSON;
* GET /en/hanamikoji/ returns fixed bytes: the product's English rules page, rendered
  once at start-up for the same host the benchmark uses.
"""
from __future__ import annotations

import json
import os

from flask import Flask, Response, request

app = Flask(__name__)


def _page_bytes() -> bytes:
    from webapp import create_app

    host = f"127.0.0.1:{os.environ.get('PORT', '8000')}"
    client = create_app().test_client()
    return client.get("/en/hanamikoji/", base_url=f"http://{host}").get_data()


PAGE = _page_bytes()


@app.post("/api/v1/hanamikoji/score")
def echo():
    document = json.loads(request.get_data())
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return Response(body, content_type="application/json; charset=utf-8")


@app.get("/en/hanamikoji/")
def page():
    return Response(PAGE, content_type="text/html; charset=utf-8")


@app.get("/api/v1/problems/not-found")  # the readiness probe of tools/server.py
def probe():
    return Response("{}", content_type="application/json")
