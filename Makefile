# warband: every target creates the environment first (idempotent).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test fuzz soak check bench clean

# The compiled fast paths (Cython, in place; the .pyx sources stay the reference's twins, see docs/development.md):
# rebuilt when a source changes; without a compiler the build prints one notice and the pure-Python reference runs.
NATIVE_SRC := $(shell find src/warband -name '*.pyx' -o -name '*.pxd')
NATIVE_STAMP := $(VENV)/.native

install: $(STAMP) $(NATIVE_STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray]'
	@touch $(STAMP)

$(NATIVE_STAMP): $(STAMP) $(NATIVE_SRC) scripts/build_native.py
	$(BIN)/python scripts/build_native.py
	@touch $(NATIVE_STAMP)

demo: install
	$(BIN)/python -m warband.demo

# Then once more, short, with every fast path off (WARBAND_PURE=1): the tests of the accelerated code and a golden game.
PURE_TESTS := tests/trench_crusade/test_straight_moves.py tests/trench_crusade/test_golden.py \
	tests/trench_crusade/test_legal_shortcut.py tests/trench_crusade/test_activation.py tests/kernel/test_native.py \
	tests/trenches_and_turbines/test_sight_lines.py tests/trenches_and_turbines/test_tt_shoot_fight.py \
	tests/kernel/test_can_see_compiled.py tests/kernel/test_geometry.py tests/trenches_and_turbines/test_spot_checks.py \
	tests/trenches_and_turbines/test_tt_actions.py tests/trench_crusade/test_threat_pairs.py \
	tests/trench_crusade/test_evaluate_points.py tests/kernel/test_routes_compiled.py tests/trenches_and_turbines/test_fits_compiled.py
test: install
	$(BIN)/python -m pytest -n 2 --dist loadgroup
	WARBAND_PURE=1 $(BIN)/python -m pytest -n 2 -p no:randomly $(PURE_TESTS)

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
	find src/warband \( -name '*.so' -o -name '*.c' \) -path '*warband*' -delete
