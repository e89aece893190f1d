# BLEU Explorer. The README's two commands: `make run` and `make test`.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8501
CHROMIUM := /usr/bin/chromium
NGINX := /usr/sbin/nginx
N ?= 2

.PHONY: run dev serve serve-class test test-core bench lint sanitize install install-test chromium nginx tex postgres app clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# The runtime install is redone only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml setup.py bleu_core/engine/_kernel.c bleu_core/metrics/_ter_kernel.c bleu_core/metrics/_chrf_kernel.c | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/pip install --quiet -e ".[test]"
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

# Debian's Chromium for the browser tests (never `playwright install`: no browser downloads here).
chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
	  echo "installing Debian chromium ..."; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	fi
	@$(CHROMIUM) --version

# Debian's nginx for `make serve-class` and its test (the package's service is not started: the script runs its
# own nginx, as the user, from a temporary directory).
nginx:
	@if [ ! -x $(NGINX) ]; then \
	  echo "installing Debian nginx ..."; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends nginx >/dev/null; \
	fi
	@$(NGINX) -v

# TeX Live from Debian (pdflatex + booktabs) so that the LaTeX exports are compiled by a real TeX engine in the tests.
tex:
	@if ! command -v pdflatex >/dev/null || ! kpsewhich booktabs.sty >/dev/null; then \
	  echo "installing Debian texlive-latex-base texlive-latex-recommended ..."; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends \
	    texlive-latex-base texlive-latex-recommended >/dev/null; \
	fi
	@pdflatex --version | head -1

# Debian's PostgreSQL server binaries, so that the store's tests run against PostgreSQL as well as SQLite (the
# tests start a server of their own in a temporary directory: nothing is configured system-wide).
postgres:
	@if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then \
	  echo "installing Debian postgresql ..."; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends \
	    postgresql >/dev/null; \
	fi
	@ls -d /usr/lib/postgresql/*/bin | tail -1

run: install
	mkdir -p $${BLEU_EXPLORER_DATA_DIR:-data}
	$(BIN)/streamlit run app.py --server.address 127.0.0.1 --server.port $(PORT) \
	  --server.headless true --browser.gatherUsageStats false

# A class on the local network: `make run` listening on every interface of this machine (docs/serving.md says
# what that exposes). HOST=192.168.1.20 listens on one address only.
HOST ?= 0.0.0.0
serve: install
	$(BIN)/streamlit run app.py --server.address $(HOST) --server.port $(PORT) \
	  --server.headless true --browser.gatherUsageStats false

# N app processes behind Debian's nginx (sticky by cookie, static files from nginx, cached and gzipped), all in a
# temporary directory; Ctrl-C stops them all. `make serve-class N=4 PORT=8080 HOST=0.0.0.0`.
serve-class: install nginx
	$(BIN)/python -m bench.serve_class --processes $(N) --port $(PORT) --host $(HOST)

# `make run` with the file watcher on (.streamlit/config.toml turns it off for serving): edits rerun the app.
# Development mode: full tracebacks in the browser, and the developer menu's "Clear cache" is honoured
# (bleu_app.ui.serving refuses a client's clear_cache anywhere else).
dev: install
	$(BIN)/streamlit run app.py --server.address 127.0.0.1 --server.port $(PORT) \
	  --server.headless true --browser.gatherUsageStats false --server.fileWatcherType auto --server.runOnSave true \
	  --client.showErrorDetails full

test: install-test chromium tex postgres nginx
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	BLEU_REQUIRE_TEX=1 BLEU_REQUIRE_POSTGRES=1 $(BIN)/python -m pytest -n 2 --dist loadgroup -q -m "not fuzz"

# The one-minute loop for a change to the core or the CLI (and the app's frames and charts): no server, browser,
# PostgreSQL or TeX, the slow parity runs left out, a fifth of the hypothesis examples. `make test` runs it all.
CORE_TESTS := tests/core tests/cli tests/app tests/test_interface.py tests/test_import_circles.py bleu_core bleu_cli
test-core: install-test
	$(BIN)/python -m pytest -n 2 -q -m "not (browser or live or postgres or tex or slow or fuzz)" \
	  --hypothesis-profile=core $(CORE_TESTS)

bench: install-test
	$(BIN)/python -m bench

# The C kernel's tests under AddressSanitizer and UBSan (any finding is fatal). Not part of `make test`:
# slower, and it swaps an instrumented build in for the run (the normal one is put back afterwards);
# PYTHONMALLOC=malloc so that the kernel's PyMem buffers are malloc's, which ASan watches.
sanitize: install-test
	@set -e; so=$$(ls bleu_core/engine/_kernel.cpython-*.so); cp $$so $$so.bak; trap "mv $$so.bak $$so" EXIT; \
	gcc -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -std=c11 -fPIC -shared \
	  -I$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])') bleu_core/engine/_kernel.c -o $$so; \
	PYTHONMALLOC=malloc ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	  $(BIN)/python -m pytest -q -p no:xdist --capture=sys tests/core/test_kernel.py tests/core/test_fast.py tests/core/test_significance.py

lint: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

clean:
	rm -rf $(VENV) artifacts .pytest_cache .ruff_cache .mypy_cache .hypothesis
