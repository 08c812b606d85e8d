# Two commands set everything up on a fresh machine:
#   make demo   builds the example dbt project on DuckDB and prints MAP@k per model
#   make test   runs the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DBT := cd integration_tests && DBT_SEND_ANONYMOUS_USAGE_STATS=false DBT_PROFILES_DIR=. ../$(BIN)/dbt

.PHONY: venv system demo test clean

# Debian packages the engine tests need: PostgreSQL (the tests start a throwaway cluster) and a
# Java runtime for Spark. Installed only when missing; needs root, as on CI.
APT_INSTALL := apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
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

test: venv system
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) integration_tests/target integration_tests/dbt_packages integration_tests/logs \
	       integration_tests/*.duckdb dist build
