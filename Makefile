# Two entry points do all set-up: `make serve` (build + serve) and `make test` (every test).
# Each step leaves a stamp, so a second run does no network work.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMPS := .cache/stamps
PORT ?= 8000
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve site test test-unit bench check clean

serve: site
	$(BIN)/livelab serve site --port $(PORT)

site: $(STAMPS)/runtime
	$(BIN)/mkdocs build --strict --site-dir site

test: $(STAMPS)/runtime $(STAMPS)/chromium
	$(BIN)/python -m pytest

bench: $(STAMPS)/runtime $(STAMPS)/chromium
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/latency.py

$(STAMPS)/python: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@mkdir -p $(STAMPS) && touch $@

$(STAMPS)/npm: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund
	@mkdir -p $(STAMPS) && touch $@

# Pyodide's NumPy wheel, checked against the sha256 in node_modules/pyodide/pyodide-lock.json.
$(STAMPS)/runtime: $(STAMPS)/python $(STAMPS)/npm
	$(BIN)/livelab fetch-runtime
	@touch $@

# Debian's Chromium for the browser tests; never a browser downloaded by a test tool.
$(STAMPS)/chromium:
	test -x /usr/bin/chromium || (apt-get update && apt-get install -y chromium)
	@mkdir -p $(STAMPS) && touch $@

clean:
	rm -rf site .cache $(VENV) node_modules
