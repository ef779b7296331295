# Two commands from a fresh clone (Python 3.11 and make are all you need):
#   make run    set up .venv and run the demo tournament at http://127.0.0.1:8000
#   make test   set up .venv and run the whole test suite (what CI runs)
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench messages

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py demo

lint: $(STAMP)
	$(BIN)/ruff check .

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m engine bench

# The translations (locale/*/LC_MESSAGES): gather the marked messages into the .po files, then
# compile the .mo files the site reads (committed, so running the site needs no gettext tools).
# Needs GNU gettext (apt-get install gettext).
I18N_IGNORE := --ignore=.venv/* --ignore=examples/* --ignore=staticfiles/* --ignore=tests/* --ignore=var/* --ignore=docs/*
messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l pt_BR -l es $(I18N_IGNORE) --no-obsolete
	$(BIN)/python manage.py makemessages -d djangojs -l pt_BR -l es $(I18N_IGNORE) --no-obsolete
	$(BIN)/python manage.py compilemessages --ignore=.venv
