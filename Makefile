# warband: every target creates the environment first (idempotent).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test fuzz soak check bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray]'
	@touch $(STAMP)

demo: install
	$(BIN)/python -m warband.demo

test: install
	$(BIN)/python -m pytest -n 2 --dist loadgroup

# The loaders' fuzz test, much longer than its bounded run in `make test` (FUZZ_EXAMPLES per loader).
FUZZ_EXAMPLES ?= 2000
fuzz: install
	WARBAND_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -n 2 -p no:randomly tests/harden/test_h_fuzz.py

# Random-vs-random games over every pair of sample warbands (not part of `make test`; see scripts/soak.py).
SOAK_GAMES ?= 10000
soak: install
	$(BIN)/python scripts/soak.py --games $(SOAK_GAMES)

check: install
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy

bench: install
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
