# Set-up lives here so that the README's two commands work on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test check lint

$(BIN)/companion: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

run: $(BIN)/companion
	$(BIN)/companion demo

lint: $(BIN)/companion
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy jsonfile companion vision calibration models lab

test: $(BIN)/companion
	$(BIN)/pytest -q -n auto --maxprocesses 4

check: lint test
