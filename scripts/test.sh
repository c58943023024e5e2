#!/usr/bin/env bash
# Set up (idempotent) and run the whole test suite on 2 workers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/pytest -n "${S2S_JOBS:-2}" -q "$@"
