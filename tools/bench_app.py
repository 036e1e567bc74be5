"""The baselines of `make bench`, not part of the product, served by the same server as the
site (`python -m webapp.server.serve tools.bench_app:echo`) at the product's addresses:

* `app`: a Flask view that parses the JSON body and echoes it (today's first baseline);
* `echo`: a raw WSGI JSON echo (the six lines below): what any Python JSON endpoint costs
  on this server at least, beside which the score API's ratio says what the app adds;
* `floor`: reads the body and sends it back unparsed: the server's own cost per request.

Every one answers any GET (the readiness probe of tools/server.py) with `{}`.
"""
from __future__ import annotations

import json

from flask import Flask, Response, request

app = Flask(__name__)


@app.post("/api/v1/<game>/score")
def flask_echo(game: str):
    document = json.loads(request.get_data())
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return Response(body, content_type="application/json; charset=utf-8")


@app.get("/api/v1/problems/not-found")  # the readiness probe of tools/server.py
def probe():
    return Response("{}", content_type="application/json")


def echo(environ, start_response):
    data = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)) or b"{}"
    body = json.dumps(json.loads(data), ensure_ascii=False, separators=(",", ":")).encode()
    start_response("200 OK", [("Content-Type", "application/json; charset=utf-8"),
                              ("Content-Length", str(len(body)))])
    return [body]


def floor(environ, start_response):
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)) or b"{}"
    start_response("200 OK", [("Content-Type", "application/json; charset=utf-8"),
                              ("Content-Length", str(len(body)))])
    return [body]
