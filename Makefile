# searchvid: only python3 (3.11+) and make are assumed. The first target that needs the
# project creates .venv and installs searchvid with its dev extra into it.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
SV     := $(VENV)/bin/searchvid
STAMP  := $(VENV)/.installed
FRAME  ?= -1
SCENES := $(basename $(notdir $(wildcard scenes/*.toml)))
TILE_DOMAINS := railroad tictactoe quarto watersort

.PHONY: setup test test-integration test-browser lint format bench videos gifs tiles reference pictures clean distclean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,dask]'
	@touch $(STAMP)

# One worker per core (pytest-xdist): on 2 cores the suite takes about 60 % of its serial time.
test: $(STAMP)
	$(PY) -m pytest -q -n auto

# The signal tests with every combination (SEARCHVID_SIGNAL_STRESS=1: signals at start-up,
# pairs on every format, storms), RUNS times in a row (default 50); stops at the first failure.
RUNS ?= 50
.PHONY: test-signals-stress
test-signals-stress: $(STAMP)
	@start=$$(date +%s); \
	for run in $$(seq 1 $(RUNS)); do \
	  echo "signal stress: run $$run of $(RUNS)"; \
	  SEARCHVID_SIGNAL_STRESS=1 $(PY) -m pytest -q -p no:cacheprovider -m 'not slow' \
	    tests/test_signals.py || { \
	    echo "signal stress: run $$run FAILED after $$(( $$(date +%s) - start )) s"; exit 1; }; \
	done; \
	echo "signal stress: $(RUNS) runs, 0 failures, $$(( $$(date +%s) - start )) s"

# The built wheel installed into a fresh venv (dependencies from PyPI), run from an empty folder;
# and sweeps through a real `dask scheduler` and `dask worker` on the loopback address.
test-integration: $(STAMP)
	$(PY) -m pytest -q -m integration tests/integration tests/sweep/test_sweep_dask.py

# The HTML player driven in a real headless Chromium: Debian's chromium (installed with apt-get
# when missing; CI runs as root) and the playwright package, which drives that binary and never
# downloads a browser of its own.
test-browser: $(VENV)/.playwright
	command -v chromium >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)
	$(PY) -m pytest -q -m browser tests/browser

$(VENV)/.playwright: $(STAMP)
	$(PY) -m pip install --quiet playwright
	@touch $@

lint: $(STAMP)
	$(VENV)/bin/ruff check searchvid tests benchmarks examples docs
	$(VENV)/bin/ruff format --check searchvid tests benchmarks examples docs
	$(VENV)/bin/mypy --strict searchvid examples docs/pictures.py

format: $(STAMP)
	$(VENV)/bin/ruff check --fix searchvid tests benchmarks examples docs
	$(VENV)/bin/ruff format searchvid tests benchmarks examples docs

bench: $(STAMP)
	$(PY) benchmarks/run.py

# The README's scene-file reference, regenerated from the option docs.
reference: $(STAMP)
	$(PY) -m searchvid.reference README.md

# The README's pictures (docs/*.png, docs/*.gif), redrawn from the shipped scenes.
pictures: $(STAMP)
	$(PY) docs/pictures.py docs

# Tile art is committed; this regenerates it from the drawing code in each domain.
tiles: $(STAMP)
	@for d in $(TILE_DOMAINS); do \
	  echo "drawing tile_assets/$$d"; \
	  $(PY) -m searchvid.domains.$$d.art tile_assets/$$d || exit 1; \
	done

%.mp4: scenes/%.toml $(STAMP)
	@mkdir -p renders
	$(SV) render scenes/$*.toml -o renders/$*.mp4

%.gif: scenes/%.toml $(STAMP)
	@mkdir -p renders
	$(SV) render scenes/$*.toml -o renders/$*.gif

%.png: scenes/%.toml $(STAMP)
	@mkdir -p renders
	$(SV) preview scenes/$*.toml --frame=$(FRAME) -o renders/$*.png

videos: $(addsuffix .mp4,$(SCENES))

gifs: $(addsuffix .gif,$(SCENES))

clean:
	find renders -mindepth 1 ! -name .gitkeep -exec rm -rf {} +
	rm -rf .pytest_cache .mypy_cache .ruff_cache .hypothesis build *.egg-info
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
