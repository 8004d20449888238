# Two entry points do all set-up: `make serve` (build + serve) and `make test` (every test).
# Each step leaves a stamp, so a second run does no network work.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMPS := .cache/stamps
PORT ?= 8000
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve site site-zensical test bench lock clean

serve: site
	$(BIN)/livelab serve site --port $(PORT)

site: $(STAMPS)/runtime
	$(BIN)/mkdocs build --strict --site-dir site

# The same course built by Zensical (zensical.yml), which runs no MkDocs plugin: the runtime
# files go into the docs before the build, the service worker after it. Zensical keeps its
# cache in .cache/ beside its configuration and `--clean` empties all of that folder, so the
# build runs on a fresh copy of the course in $(ZENSICAL_ROOT): nothing comes from its cache
# (the home page's progress table reads every page) and .cache/stamps stay.
ZENSICAL_ROOT := .cache/zensical-build
site-zensical: $(STAMPS)/runtime
	rm -rf $(ZENSICAL_ROOT) && mkdir -p $(ZENSICAL_ROOT)
	cp -r mkdocs.yml zensical.yml docs labs $(ZENSICAL_ROOT)/
	cd $(ZENSICAL_ROOT) && $(CURDIR)/$(BIN)/livelab assets docs/assets/livelab --math --module labs
	cd $(ZENSICAL_ROOT) && $(CURDIR)/$(BIN)/zensical build -f zensical.yml
	$(BIN)/livelab finish $(ZENSICAL_ROOT)/site-zensical
	rm -rf site-zensical && mv $(ZENSICAL_ROOT)/site-zensical site-zensical

ENGINES := $(STAMPS)/chromium $(STAMPS)/firefox $(STAMPS)/webkit

# The cross-engine suite runs in a pytest of its own: Playwright's sync API cannot start a
# second time in a process whose browser tests still hold the first.
test: $(STAMPS)/runtime $(STAMPS)/npm $(ENGINES)
	$(BIN)/python -m pytest --ignore=tests/engines
	$(BIN)/python -m pytest tests/engines

bench: $(STAMPS)/runtime $(STAMPS)/npm $(ENGINES)
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/latency.py
	$(BIN)/python bench/training.py
	$(BIN)/python bench/packages.py
	$(BIN)/python bench/engines.py
	$(BIN)/python bench/lighthouse.py

# The exact versions of requirements.lock (NumPy as Pyodide ships it), then livelab itself.
$(STAMPS)/python: pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@mkdir -p $(STAMPS) && touch $@

# Recompile requirements.lock from pyproject.toml's ranges and requirements.in's pins, each
# version with the sha256 of every file of it, so `pip install -r requirements.lock` checks them.
lock:
	test -x .cache/piptools/bin/pip-compile || ($(PYTHON) -m venv .cache/piptools && \
		.cache/piptools/bin/pip install --quiet pip-tools)
	.cache/piptools/bin/pip-compile --quiet --generate-hashes --extra test --strip-extras --no-header \
		--no-emit-index-url --no-emit-find-links --annotation-style line \
		-o requirements.lock pyproject.toml requirements.in

# Pyodide, KaTeX and Workbox straight from the npm registry (no npm, no node_modules), each
# checked against its sha512 in py/livelab/builder/runtime.lock.json (written from
# package-lock.json by `python -m livelab.builder.pins`), and Pyodide's NumPy wheel,
# checked against pyodide-lock.json; cached in $$LIVELAB_CACHE or ~/.cache/livelab. A build
# fetches whatever is missing by itself; this step only does it up front.
$(STAMPS)/runtime: $(STAMPS)/python py/livelab/builder/runtime.lock.json
	$(BIN)/livelab fetch-runtime
	@mkdir -p $(STAMPS) && touch $@

# node_modules/ exactly as package-lock.json pins it (the one source of the npm pins; see
# livelab.builder.pins): `npm test` (the JavaScript tests) and the editor bundle's rebuild check run on it.
$(STAMPS)/npm: package.json package-lock.json
	npm ci --no-audit --no-fund
	@mkdir -p $(STAMPS) && touch $@

# Debian's Chromium for the browser tests; never a browser downloaded by a test tool.
$(STAMPS)/chromium:
	test -x /usr/bin/chromium || (apt-get update && apt-get install -y chromium)
	@mkdir -p $(STAMPS) && touch $@

# Debian's Firefox ESR for tests/engines (driven over WebDriver BiDi; no geckodriver).
$(STAMPS)/firefox:
	test -x /usr/bin/firefox-esr || (apt-get update && apt-get install -y firefox-esr)
	@mkdir -p $(STAMPS) && touch $@

# Debian's WebKitGTK for tests/engines: WebKitWebDriver with its MiniBrowser, under xvfb-run.
$(STAMPS)/webkit:
	(test -x /usr/bin/WebKitWebDriver && test -x /usr/bin/xvfb-run) || \
		(apt-get update && apt-get install -y webkit2gtk-driver xvfb)
	@mkdir -p $(STAMPS) && touch $@

clean:
	rm -rf site site-zensical .cache $(VENV)
