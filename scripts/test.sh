#!/usr/bin/env bash
# Set up (idempotent), lint (ruff, ruff format, pyright: pyproject.toml),
# build the manual and run the whole test suite on 2 workers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/ruff check --quiet .
.venv/bin/ruff format --check --quiet .
.venv/bin/pyright --warnings
# The manual (docs/): any Sphinx warning fails the run -- a broken reference,
# a page in no toctree, bad reST.  -E: read every page again, so a warning
# is never hidden by an earlier build's saved state.
.venv/bin/sphinx-build -W --keep-going -E -q -b html docs docs/_build/html
exec .venv/bin/pytest -n "${S2S_JOBS:-2}" -q --durations=40 "$@"
