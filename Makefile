# Two commands from a fresh clone (Python 3.11 and make are all you need):
#   make run              set up .venv (runtime dependencies only) and run the demo tournament
#                         at http://127.0.0.1:8000
#   make run PORT=8001    the same on another port (HOST=0.0.0.0 to listen on every interface)
#   make test             add the dev tools to .venv and run the whole test suite (what CI runs)
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: `run` needs only the runtime dependencies, `test` also the dev extras.
RUNTIME_STAMP := $(VENV)/.installed-runtime
DEV_STAMP := $(VENV)/.installed-dev
PORT ?= 8000
HOST ?= 127.0.0.1

.PHONY: install install-runtime run test lint bench messages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUNTIME_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUNTIME_STAMP)

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(RUNTIME_STAMP) $(DEV_STAMP)

install-runtime: $(RUNTIME_STAMP)

install: $(DEV_STAMP)

run: $(RUNTIME_STAMP)
	$(BIN)/python manage.py demo --host $(HOST) --port $(PORT)

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports

test: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python -m pytest

bench: $(RUNTIME_STAMP)
	$(BIN)/python -m engine bench

# The translations (locale/*/LC_MESSAGES): gather the marked messages into the .po files, then
# compile the .mo files the site reads (committed, so running the site needs no gettext tools).
# Needs GNU gettext (apt-get install gettext).
I18N_IGNORE := --ignore=.venv/* --ignore=examples/* --ignore=staticfiles/* --ignore=tests/* --ignore=var/* --ignore=docs/*
messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l pt_BR -l es $(I18N_IGNORE) --no-obsolete
	$(BIN)/python manage.py makemessages -d djangojs -l pt_BR -l es $(I18N_IGNORE) --no-obsolete
	$(BIN)/python manage.py compilemessages --ignore=.venv
