# Every target makes .venv first if it is missing (Python 3.10 or newer on PATH as python3).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test quick-tests test-deep test-matrix test-tools lint codegen check-codegen typecheck docs bench bench-ab fuzz clean

# uv installs the dev group (exact pins, the same versions pip picks) in a fraction of pip's time;
# its own pin is the dev group's. Bytecode is compiled at install, as pip does for the packages it
# installs, and src too, being installed editable: every Python process the tests and benchmarks
# start then loads pydantic and the package instead of compiling them again (where
# PYTHONDONTWRITEBYTECODE is set, Python writes none itself).
UV_PIN := $(shell sed -n 's/^ *"\(uv==[^"]*\)".*/\1/p' pyproject.toml)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check '$(UV_PIN)'
	$(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PY) --group dev -e .
	$(PY) -m compileall -q src
	touch $(STAMP)

## demo: validate every payload under examples/payloads and print a typed summary of each
demo: $(STAMP)
	$(PY) examples/demo.py examples/payloads

# Test processes (pytest-xdist): one per CPU; TEST_JOBS=N for N, TEST_JOBS=0 for none (all in pytest's own).
# Work stealing: a process that runs out of tests takes some of another's, so that all end
# together although a few tests (the round trip's) take much longer than the rest.
TEST_JOBS ?= auto
PYTEST = $(PY) -m pytest -n $(TEST_JOBS) --dist worksteal

## lint: ruff's lint rules and its formatting (pyproject.toml's [tool.ruff]); `ruff format .` and
## `ruff check --fix .` fix most of what it finds; no hand-written function above complexity 15 (radon)
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) tests/complexity_budget.py

## test: every kind of check at quick depth: lint, type checks, the docs build, the tests (generated-code
## drift among them: tests/test_codegen.py) with few hypothesis examples and without the slow ones.
## The type checks and the docs build run beside the tests (one process each; the tests take the
## other cores), their lines printed as they come.
test: $(STAMP)
	@$(MAKE) --no-print-directory --jobs=3 --output-sync=line typecheck docs quick-tests

quick-tests: $(STAMP) test-tools lint
	$(PY) tests/postgres_server.py --install
	$(PYTEST) -m "not slow"

## test-deep: the same at full depth: every test (slow ones too) with the deep hypothesis profile
## (1,000 documents per model in the round trip...; see tests/conftest.py)
test-deep: $(STAMP) test-tools lint typecheck docs
	$(PY) tests/postgres_server.py --install
	MPLP_TEST_PROFILE=deep $(PYTEST)

## test-tools: dot, mermaid's parser and the OTLP backend (Arize Phoenix) for the tests, into .tools/: started in
## the background, beside the lint and type checks; the tests wait for it (tests/tools/setup.sh)
test-tools: $(STAMP)
	tests/tools/setup.sh --background

## codegen: regenerate src/mplp_models/_generated from schemas/
codegen: $(STAMP)
	$(PY) codegen/generate.py

## check-codegen: fail if src/mplp_models/_generated differs from a fresh codegen run
check-codegen: $(STAMP)
	$(PY) codegen/generate.py --check

## typecheck: mypy --strict and pyright strict on the package and on tests/typing (what users' checkers
## see); every public symbol's type known (pyright --verifytypes exits non-zero below 100%); mypy on all
## of tests/ (benchmarks and fuzz too) with the checks pyproject.toml's [[tool.mypy.overrides]] give them
# One mypy run: tests/typing is strict there (pyproject's strict = true; only the modules listed in the
# overrides are not), and the package is checked once for all. verifytypes finds the package through the
# first python on PATH, hence the venv's first.
typecheck: $(STAMP)
	$(PY) -m mypy src/mplp_models tests
	$(VENV)/bin/pyright
	$(VENV)/bin/pyright -p tests/typing
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/pyright --verifytypes mplp_models --ignoreexternal

## docs: build the docs site into site/ (strict: any warning fails)
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --quiet --site-dir site

clean:
	rm -rf $(VENV) build dist site .pytest_cache .mypy_cache .nox
	find src -name __pycache__ -prune -exec rm -rf {} +

## bench: this SDK's JSON paths against the reference points, side by side (prints a table)
bench: $(STAMP)
	$(PY) tests/benchmarks/bench.py

## bench-ab: this tree's reading, writing and parse over commit BASE's (default main), in one process
BASE ?= main
bench-ab: $(STAMP)
	$(PY) tests/benchmarks/bench_ab.py $(BASE)

## fuzz: coverage-guided fuzzing with atheris for SECONDS (default 60); crashes land in tests/fuzz/regressions
SECONDS ?= 60
fuzz: $(STAMP)
	$(PY) -m pip install --quiet 'atheris==3.0.0'
	mkdir -p .fuzz-corpus
	cp examples/payloads/*.json .fuzz-corpus/
	cd tests/fuzz && ../../$(PY) fuzz.py ../../.fuzz-corpus regressions -max_total_time=$(SECONDS) -artifact_prefix=regressions/ -rss_limit_mb=4096

## test-matrix: the tests on Python 3.10 with the lowest pydantic, orjson and typing-extensions, and on
## Python 3.13 with the newest of everything (noxfile.py; ARGS go to pytest). Needs python3.10 and
## python3.13: pyenv's (under PYENV_ROOT, default ~/.pyenv) are put first on PATH when installed.
PYENV_ROOT ?= $(HOME)/.pyenv
MATRIX_PYTHONS = $(foreach v,3.10 3.13,$(shell ls -d $(PYENV_ROOT)/versions/$(v).*/bin 2>/dev/null | grep -E '/[0-9.]+/bin$$' | sort -V | tail -1))
MATRIX_PATH = $(subst $(eval) ,,$(addsuffix :,$(MATRIX_PYTHONS)))$(PATH)
test-matrix: $(STAMP)
	@for v in 3.10 3.13; do PATH="$(MATRIX_PATH)" python$$v -c '' 2>/dev/null || { \
	  echo "make test-matrix needs python$$v on PATH (e.g. pyenv install $$v, or the python$$v package)" >&2; exit 1; }; done
	PATH="$(MATRIX_PATH)" UV_PYTHON_DOWNLOADS=never $(VENV)/bin/nox -- $(ARGS)
