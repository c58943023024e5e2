#!/bin/sh
# Run the bench with the project's virtual environment: bench/run.sh [options]
# (same options as bench/run.py; --help lists them).  Installs the plotting
# library (setup.cfg's 'bench' extra) into .venv the first time.
root=$(cd "$(dirname "$0")/.." && pwd)
py="$root/.venv/bin/python"
if [ ! -x "$py" ]; then
    echo "bench/run.sh: no .venv; run scripts/setup.sh first" >&2
    exit 2
fi
if ! "$py" -c 'import matplotlib' >/dev/null 2>&1; then
    echo "bench/run.sh: installing matplotlib into .venv" >&2
    "$py" -m pip install -q --disable-pip-version-check -e "$root[bench]" || exit 2
fi
exec "$py" "$root/bench/run.py" "$@"
