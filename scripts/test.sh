#!/usr/bin/env bash
# Set up (idempotent), lint (ruff, ruff format, pyright: pyproject.toml) and
# run the whole test suite on 2 workers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/ruff check --quiet .
.venv/bin/ruff format --check --quiet .
.venv/bin/pyright --warnings
exec .venv/bin/pytest -n "${S2S_JOBS:-2}" -q "$@"
