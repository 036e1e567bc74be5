"""The baseline for `make bench`: a bare Flask JSON echo, not part of the product.

Served by the same server as the site (`python -m webapp.server.serve tools.bench_app:app`), at
the product's address: POST /api/v1/hanamikoji/score only parses the JSON body and echoes
it as JSON.
"""
from __future__ import annotations

import json

from flask import Flask, Response, request

app = Flask(__name__)


@app.post("/api/v1/hanamikoji/score")
def echo():
    document = json.loads(request.get_data())
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return Response(body, content_type="application/json; charset=utf-8")


@app.get("/api/v1/problems/not-found")  # the readiness probe of tools/server.py
def probe():
    return Response("{}", content_type="application/json")
