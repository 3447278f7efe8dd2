# make run    - create .venv if needed, install, migrate, serve on http://127.0.0.1:8000
# make prod   - the Procfile's production set on this machine (honcho, tools/prod.py): needs
#               DATABASE_URL, REDIS_URL and SECRET_KEY; runs `release` once, then the rest,
#               web on PORT (8000); PROD_ARGS="-c web=2" for more Daphnes (README, "Production")
# make test   - the whole test suite (PYTEST_ARGS="..." to pass options)
# make lint   - ruff (check and format --check), import-linter's contracts, mypy, then the
#               migrations' safety for the code still running (domino_site/migration_safety.py)
#               (contracts: [tool.importlinter], mypy's scope and strictness: [tool.mypy] in pyproject.toml)
# make bench  - every bench/*.py (prints ratios, never fails on speed)
# make messages - regenerate locale/*/LC_MESSAGES/django{,js}.{po,mo} (needs gettext)
#
# VENV=.venv-ci selects another virtual environment (used by .ci/run).
#
# DEBUG is off unless set (domino_site/settings.py): `make run` and `make messages`
# turn it on (development key, plain HTTP); the tests turn it on themselves
# (tests/settings.py). `make run DEBUG=0 SECRET_KEY=...` tries production settings.

PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: venv run prod test lint bench messages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when a requirements file changed since the last install.
$(STAMP): requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install -q -r requirements-dev.txt
	touch $(STAMP)

venv: $(STAMP)

run: export DEBUG ?= 1
run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/daphne -b $(HOST) -p $(PORT) domino_site.asgi:application

# DEBUG stays as the environment has it (off unless set): production settings.
prod: venv
	PORT=$(PORT) $(BIN)/python tools/prod.py

test: venv
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	DEBUG=1 $(BIN)/python -m domino_site.migration_safety

bench: venv
	@found=0; for f in bench/*.py; do \
	  [ -e "$$f" ] || continue; \
	  case "$$(basename "$$f")" in _*) continue;; esac; \
	  found=1; echo "== $$f"; \
	  PYTHONPATH="$(CURDIR)" $(BIN)/python "$$f" || exit $$?; \
	done; [ $$found = 1 ] || echo "no benchmarks in bench/ yet"

messages: export DEBUG ?= 1
messages: venv
	$(BIN)/python manage.py makemessages -l pt_BR -l en --add-location=file --no-obsolete \
	  --ignore='.venv*' --ignore=staticfiles --ignore=artifacts
	$(BIN)/python manage.py makemessages -d djangojs -l pt_BR -l en --add-location=file --no-obsolete \
	  --ignore='.venv*' --ignore=staticfiles --ignore=artifacts --ignore=static/js/vendor --ignore=bench
	$(BIN)/python manage.py compilemessages -l pt_BR -l en \
	  --ignore='.venv*' --ignore=staticfiles --ignore=artifacts

# make backup  - a backup of DATABASE_URL's database into backups/ (or FILE=...): pg_dump's custom
#                format for PostgreSQL, SQLite's backup API for a sqlite:/// URL (docs/scaling.md, "Backups")
# make restore FILE=... - replace DATABASE_URL's database with that backup (stop the site first)
.PHONY: backup restore
backup: venv
	$(BIN)/python -m domino_site.backup backup $(FILE)

restore: venv
	$(BIN)/python -m domino_site.backup restore $(FILE)
