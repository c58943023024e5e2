#!/bin/sh
# Run the application benchmark with the project's virtual environment:
# bench/app/run.sh [options] (same options as bench/app/run.py; --help lists
# them).  Installs the plotting library (setup.cfg's 'bench' extra) into .venv
# the first time.
root=$(cd "$(dirname "$0")/../.." && pwd)
py="$root/.venv/bin/python"
if [ ! -x "$py" ]; then
    echo "bench/app/run.sh: no .venv; run scripts/setup.sh first" >&2
    exit 2
fi
if ! "$py" -c 'import matplotlib' >/dev/null 2>&1; then
    echo "bench/app/run.sh: installing matplotlib into .venv" >&2
    "$py" -m pip install -q --disable-pip-version-check -e "$root[bench]" || exit 2
fi
exec "$py" "$root/bench/app/run.py" "$@"
