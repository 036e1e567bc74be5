"""Schemathesis against the WSGI app in-process: generated requests from the OpenAPI
document never get a 5xx, and every response matches the documented status codes,
content types and schemas.

The API accepts schema-valid JSON that the rules then refuse (422: a side without eight
cards is well-formed JSON), and it reads an unknown `lang` as "no preference", so the
positive- and negative-data acceptance checks do not apply. Schemathesis's WSGI client
asks for gzip but does not decode it, so these calls ask for identity (compression has
its own tests in test_production.py and test_serving.py).

Schemathesis's coverage phase (each operation's boundary and wrong-type cases, about 1,100
requests) is built as the test is collected, in every pytest-xdist worker: 2 to 3 s of CPU
each, and 6 s to run. `make test-deep` runs it; `make test` runs the examples and the
fuzzing phase (tests/budget.py)."""
from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks

from tests.budget import DEEP, examples
from webapp import create_app

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", create_app({"TESTING": True}))
schema.config.phases.coverage.enabled = DEEP
CHECKS = [checks.not_a_server_error, checks.status_code_conformance,
          checks.content_type_conformance, checks.response_schema_conformance,
          checks.response_headers_conformance]


@schema.parametrize()
@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_api_conforms_to_its_openapi_document(case):
    case.call_and_validate(checks=CHECKS, headers={"Accept-Encoding": "identity"})
