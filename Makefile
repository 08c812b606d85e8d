# Two commands set everything up on a fresh machine:
#   make demo   builds the example dbt project on DuckDB and prints MAP@k per model
#   make test   runs the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DBT := cd integration_tests && DBT_SEND_ANONYMOUS_USAGE_STATS=false DBT_PROFILES_DIR=. ../$(BIN)/dbt

.PHONY: venv system demo test test-fast docs bench bench-engines bench-report bench-smoke clean

# Debian packages the engine tests need: PostgreSQL (the tests start a throwaway cluster), a
# Java runtime for Spark, and Chromium (tests/test_report.py opens the HTML report in it). Installed only when missing; needs root, as on CI.
APT_INSTALL := apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml dbt_project.yml
	$(PYTHON) -m venv $(VENV)
	PIP_DISABLE_PIP_VERSION_CHECK=1 $(BIN)/pip install --quiet -e '.[dev]'
	touch $@

demo: venv
	$(DBT) deps --quiet
	$(DBT) build --target duckdb
	cd integration_tests && ../$(BIN)/python print_example.py

system:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { echo "installing PostgreSQL"; $(APT_INSTALL) postgresql; }
	@command -v java >/dev/null 2>&1 || { echo "installing Java"; $(APT_INSTALL) openjdk-17-jre-headless; }
	@command -v chromium >/dev/null 2>&1 || { echo "installing Chromium (the report's browser test)"; $(APT_INSTALL) chromium; }

# the peers the conformance tests run (tests/test_peers.py) live in the bench's venv. The suite runs
# in three lanes at once (tests/lanes.py): Spark, the dbt projects and Snowflake's emulator, the rest;
# `$(BIN)/python -m pytest` runs the same tests one after another. The two venvs and the Debian
# packages install at once (pip keeps one core busy: 3 and 5 minutes one after the other)
test:
	$(MAKE) --no-print-directory -j3 venv system bench/.venv/.installed
	$(BIN)/ruff check .
	$(BIN)/python tests/lanes.py

# The edit-run loop: the tests that need no server or outside program and start no process of
# their own (DuckDB and the reference; the markers tests/conftest.py puts on each test), with
# hypothesis's quick `dev` profile, in two lanes. `make test` runs everything.
test-fast: venv
	$(BIN)/ruff check .
	HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-dev} $(BIN)/python tests/lanes.py --fast

# macros/dbt/macros.yml's generated entries (the metrics', from the registry; the internal
# macros') and docs/reference.md; tests/test_docs.py fails when they are out of date
docs: venv
	$(BIN)/python docs/make_reference.py

# The benchmark compares against peers (ranx, recommenders, pyspark) whose dependencies pin
# other versions (recommenders wants pandas < 3), so it has a venv of its own. torch is pinned to
# the CPU build this kind of machine keeps on disk (pip finds it there); any other release is a
# CUDA build of several GB from PyPI. torchmetrics runs on it (tests/test_peers.py); Evidently's
# beyond-accuracy metrics are checked in tests/test_peers_beyond_accuracy.py.
BENCH_BIN := bench/.venv/bin

bench/.venv/.installed: pyproject.toml dbt_project.yml Makefile
	$(PYTHON) -m venv bench/.venv
	PIP_DISABLE_PIP_VERSION_CHECK=1 $(BENCH_BIN)/pip install --quiet -e '.[dbt,spark,arrow,polars,postgres]' 'dbt-spark[session]>=1.11,<1.12' ranx recommenders matplotlib psutil ir_measures cwl-eval \
		'torch==2.13.0' torchmetrics 'evidently>=0.7,<0.8'
	touch $@

# every implementation at 1M, 10M and 100M rows, then the scored and 100-long lists with the
# DuckDB implementations: about an hour on 2 cores (58 minutes on 2026-11-22), plus
# 10 minutes of data generation the first time
BENCH_DUCKDB := "floor (DuckDB hash join, counted)" "floor + a pass per list and per truth user" "rank_metrics (Python API, DuckDB)" "dbt model (DuckDB)"
bench: bench/.venv/.installed system
	$(BENCH_BIN)/python bench/run.py --rows 1M 10M 100M --runs 3
	$(BENCH_BIN)/python bench/run.py --rows 1M 10M --runs 3 --variant s12 --only $(BENCH_DUCKDB)
	$(BENCH_BIN)/python bench/run.py --rows 1M 10M 100M --runs 3 --variant r100 --only $(BENCH_DUCKDB)
	$(BENCH_BIN)/python bench/comparisons.py --rows 1M --runs 3
	$(BENCH_BIN)/python bench/over_time.py --rows 30M --runs 3
	$(BENCH_BIN)/python bench/report.py

# Spark (local[2]) and PostgreSQL, warm, each against its own floor: bench/results/engines.json
# and the README's engines table (about 20 minutes)
bench-engines: bench/.venv/.installed system
	$(BENCH_BIN)/python bench/engines.py --engine spark --rows 1M 10M --runs 3
	$(BENCH_BIN)/python bench/engines.py --engine postgres --rows 1M 10M --runs 3

# the README's table and chart from bench/results/results.json
bench-report: bench/.venv/.installed
	$(BENCH_BIN)/python bench/report.py

# CI: every implementation once on the smoke size (100K rows, in no table), numbers checked to
# agree; results kept apart. 4 minutes at 100K; 7 at 1M, mostly the peers' own (recommenders 40 s)
bench-smoke: bench/.venv/.installed system
	$(BENCH_BIN)/python bench/run.py --rows 100K --runs 1 --results bench/data/smoke.json
	$(BENCH_BIN)/python bench/engines.py --engine spark --rows 100K --runs 1 --warmup 0 --results bench/data/smoke-engines.json
	$(BENCH_BIN)/python bench/engines.py --engine postgres --rows 100K --runs 1 --warmup 0 --results bench/data/smoke-engines.json
	$(BENCH_BIN)/python bench/comparisons.py --rows 100K --runs 1 --results bench/data/smoke-comparisons.json
	$(BENCH_BIN)/python bench/over_time.py --rows 300K --runs 1 --results bench/data/smoke-over-time.json

clean:
	rm -rf $(VENV) integration_tests/target integration_tests/dbt_packages integration_tests/logs \
	       integration_tests/*.duckdb dist build
