#!/bin/sh
# Run the bench with the project's virtual environment: bench/run.sh [options]
# (same options as bench/run.py; --help lists them).
root=$(cd "$(dirname "$0")/.." && pwd)
py="$root/.venv/bin/python"
[ -x "$py" ] || py=python3
exec "$py" "$root/bench/run.py" "$@"
