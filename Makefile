# factsentry — run `make up` to start the guardrail, `make test` to run every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
export LITELLM_LOCAL_MODEL_COST_MAP := True

.PHONY: up test demo lint bench install kb tools

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

var/demo-kb.sqlite3: $(STAMP) $(wildcard knowledge/demo/*.jsonl)
	mkdir -p var
	$(BIN)/factsentry kb import knowledge/demo --db $@ --quiet

kb: var/demo-kb.sqlite3

up: $(STAMP) var/demo-kb.sqlite3
	$(BIN)/factsentry up --kb var/demo-kb.sqlite3

demo: $(STAMP)
	$(BIN)/factsentry demo --json

test: $(STAMP) tools
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# Offline validators of the deployment files (helm 4, promtool, prometheus) into .tools/bin; idempotent.
tools:
	$(PYTHON) deploy/tools/install_tools.py --dest .tools/bin

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/factsentry bench gateway --json
	$(BIN)/factsentry bench kb --json
	$(BIN)/factsentry bench scoring --json
