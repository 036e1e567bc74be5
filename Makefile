# Shinpan: every target does its own set-up on a fresh Debian machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 5000
PO     := $(wildcard translations/*/LC_MESSAGES/messages.po)
# compiled into the package that reads them (rulebook/i18n.py), so the wheel carries them
MO     := $(patsubst translations/%,rulebook/translations/%,$(PO:.po=.mo))
# Python keeps compiled modules (pytest its rewritten test modules) in __pycache__; a shell
# that sets PYTHONDONTWRITEBYTECODE makes every test process compile them all again. The
# installer need not compile every installed file (uv does not, unasked): what is imported
# is compiled once, on first use.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test test-deep test-fast screenshots serve bench search-quality loadtest faulttest lighthouse translations catalogs browser wrk lint clean

run: $(VENV)/.runtime catalogs  ## start the site on http://$(HOST):$(PORT)/
	$(BIN)/flask --app webapp:create_app run --host $(HOST) --port $(PORT)

# One pool of four pytest-xdist workers on the two cores, each taking the next test as it
# frees (their lengths differ a hundredfold): the tests without a browser and the browser
# tests together, because a browser test mostly waits on Chromium's frames and the live
# server (the browser tests alone kept 0.7 of a core busy) and the others fill those waits.
# Four, measured beside two busy processes (BENCHMARKS.md): on a fresh clone four workers
# took 292 s and six 336 s, with one browser test timing out; on a warm one six took 240 s
# and eight 296 s. Then alone, the tests that time a real server, collected from their
# folder only (tests/conftest.py refuses a marked test elsewhere). The property tests
# (hypothesis, schemathesis) try a quarter of their full budgets here and the browser
# sweeps over languages and pages visit those each names; `make test-deep` runs the same
# suite with the full budgets, every language and every page (tests/budget.py). The pool
# collects every test, so it ends with the rule ids no test checks.
test: $(VENV)/.test catalogs browser lint  ## the whole suite, lint first
	$(BIN)/python -m pytest -m "not alone and not screenshots" -n 4 --dist worksteal
	$(BIN)/python -m pytest tests/deploy -m alone

test-deep: export SHINPAN_DEEP = 1
test-deep: test  ## the whole suite: the property tests' full budgets, every language in the browser

# Screenshots of every page type (tests/artifacts/): phones in all five languages, the wide
# screen in en and de, each with the layout checks; about a minute, so not in `make test`.
screenshots: $(VENV)/.test catalogs browser  ## photograph every page type
	$(BIN)/python -m pytest tests/e2e -m screenshots

test-fast: $(VENV)/.test catalogs lint  ## everything but the browser tests
	$(BIN)/python -m pytest -m "not browser and not alone" -n 2 --dist worksteal
	$(BIN)/python -m pytest tests/deploy -m alone

# Production server: granian configured by webapp/server/serve.py; HOST/PORT and the rest from
# the environment (default 127.0.0.1:8000), e.g. `HOST=0.0.0.0 PORT=8080 make serve`.
serve: $(VENV)/.runtime catalogs  ## the site under granian
	$(BIN)/python -m webapp.server.serve

bench: $(VENV)/.test catalogs wrk  ## referee, search, HTTP ratios (median, min-max), first visits, taps, start-up
	$(BIN)/python -m tools.bench_referee
	$(BIN)/python tools/bench_search.py
	$(BIN)/python tools/bench_http.py

# The questions of tests/web/search_questions.yaml: the share whose answer the search puts
# first and among the first three, per language; fails under 90 % / 70 % (issue 20).
search-quality: $(VENV)/.test catalogs  ## how well the search answers players' questions
	$(BIN)/python tools/search_quality.py

loadtest: $(VENV)/.runtime catalogs  ## pages + score requests at 1/8/64/256 connections, loopback only
	$(BIN)/python tools/loadtest.py

# Bad, idle and slow requests during load; then, on the same server, kill -9 of a worker
# followed at once by HUP under load, and a frozen worker (kill -STOP). `make faulttest
# HOGS=2` runs those two beside two busy processes (`yes`): both cores taken, as the
# figures in BENCHMARKS.md were measured.
HOGS ?= 0
faulttest: $(VENV)/.runtime catalogs  ## bad and slow requests during load, kill+reload, a frozen worker
	$(BIN)/python tools/faulttest.py --hogs $(HOGS)

# Lighthouse 12 (npm; 13 needs Node 22) on Debian's Chromium, mobile preset: home, both rules
# pages, both checkers with a ruling; the median of five runs; fails under 95. Not in `make test`.
lighthouse: $(VENV)/.runtime catalogs browser  ## Lighthouse scores of the main pages
	@test -x node_modules/.bin/lighthouse || npm ci --no-audit --no-fund --silent
	$(BIN)/python -m tools.lighthouse

# The venv with what a target needs, made by uv: one resolution and install of the runtime
# and the test tools together, pip included for the tests that build the wheel. A fresh
# clone's set-up took 36 s with pip (ensurepip, upgrading pip, resolving) and 10 s with uv,
# 5 s of it installing uv itself. The machine's Python (--no-managed-python: uv never
# downloads one) and its certificates (--native-tls), as pip uses them (/etc/pip.conf).
# uv is pinned here and installed by the machine's pip once per machine and version, into
# the user's cache folder beside uv's own package cache, so the next clone finds it (10 s
# less set-up beside two busy processes); into a folder of its own first, then renamed into
# place whole, so two clones setting up at once never run a half-installed one.
UV_VERSION := 0.13.9
UV_HOME := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/shinpan/uv-$(UV_VERSION)
UV := $(UV_HOME)/bin/uv
$(UV):
	mkdir -p $(dir $(UV_HOME))
	part=$$(mktemp -d $(UV_HOME).part-XXXXXX) && \
	$(PYTHON) -m pip install -q --disable-pip-version-check --root-user-action=ignore \
		--target $$part 'uv==$(UV_VERSION)' && \
	{ mv -T $$part $(UV_HOME) 2>/dev/null || rm -rf $$part; }
define venv_with
	test -x $(BIN)/python || $(UV) venv -q --no-managed-python --python $(PYTHON) $(VENV)
	VIRTUAL_ENV=$(VENV) $(UV) pip install -q --native-tls -c constraints.txt -e '$(1)' pip
endef

$(VENV)/.runtime: pyproject.toml constraints.txt | $(UV)
	$(call venv_with,.)
	touch $@

$(VENV)/.test: pyproject.toml constraints.txt | $(UV)
	$(call venv_with,.[test])
	touch $(VENV)/.runtime $@

# .mo files are build output: compiled from the .po sources, never committed. So are the
# rulebooks' verdicts (rulebook/loader.py): checked in full here, kept in the package, so a
# process with an empty cache folder (the CLI's first run) need not check them again.
# (the stamp lives in the venv: rulebook/verdicts/ holds only what ships)
VERDICTS := $(VENV)/.verdicts
catalogs: $(MO) $(VERDICTS)
$(VERDICTS): $(wildcard rulebook/*/rulebook.yaml rulebook/*/schemas/*.json) rulebook/loader.py | $(VENV)/.runtime
	$(BIN)/python -c 'from rulebook.loader import main; main()'
	touch $@
rulebook/translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po | $(VENV)/.runtime
	@mkdir -p $(@D)
	$(BIN)/pybabel compile -l $* -i $< -o $@

# Extract UI strings and rule texts, merge them into every catalog, fill in the translations
# delivered as JSON (translations/incoming/*.json, see tools/po_incoming.py: it refuses an
# entry whose placeholders differ from its source's), check every catalog's placeholders
# (tools/po_check.py), compile.
# The rulebook extractor is tools/babel_extract.py (named in dotted form in babel.cfg), so
# Babel runs as `python -m`, with the checkout on its path.
translations: $(VENV)/.runtime
	$(BIN)/python -m babel.messages.frontend extract -F babel.cfg -k N_ -k Np_:1,2 -k lazy_gettext -k _l --project=Shinpan --version=0.1 \
		--add-comments=Translators: --sort-by-file --add-location=file --no-wrap -o translations/messages.pot .
	$(BIN)/pybabel update -i translations/messages.pot -d translations -D messages --no-wrap --ignore-obsolete --no-fuzzy-matching
	$(BIN)/python tools/po_incoming.py
	$(BIN)/python tools/po_check.py
	$(MAKE) catalogs

# Debian's wrk for `make bench`: a C load generator, so the benchmark measures the servers.
wrk:
	@command -v wrk >/dev/null || (apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null)

# Debian's Chromium for the browser tests (never `playwright install`) with a Japanese font
# (Noto Sans CJK: without one, Japanese pages render as empty boxes in tests and screenshots),
# and axe-core (lighthouse, a dev dependency, only for `make lighthouse`). The tests drive
# Debian's headless shell, the same Blink without the desktop browser's shell: a browser
# context opens and closes in a fifth of the time (tests/e2e/conftest.py); Lighthouse and the
# preview pictures use the full browser.
browser:
	@command -v chromium >/dev/null && command -v chromium-headless-shell >/dev/null && \
		fc-list -q :lang=ja || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq chromium chromium-headless-shell fonts-noto-cjk >/dev/null)
	@test -f node_modules/axe-core/axe.min.js || npm ci --omit=dev --no-audit --no-fund --silent

lint: $(VENV)/.test
	$(BIN)/ruff check rulebook webapp tests tools

clean:
	rm -rf $(VENV) node_modules rulebook/translations rulebook/verdicts tests/artifacts
