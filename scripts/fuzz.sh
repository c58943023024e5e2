#!/usr/bin/env bash
# A fuzz campaign: N generated programs through s2svec and the build matrix.
#   scripts/fuzz.sh N [--start SEED] [--configs all|main|rotate:K|NAMES] [--jobs J] [--small]
# Seeds start at a fresh value each run (printed) unless --start is given;
# failing programs are kept with their seed under fuzz-out/<time>/failures/,
# the summary (failures per configuration, why loops stayed scalar) is
# printed and written to fuzz-out/<time>/summary.txt.  Exit status 1 if any
# program failed.  Default: 6 configurations per program (rotate:6), 2 jobs.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh N [--start SEED] [--configs all|main|rotate:K|NAMES] [--jobs J] [--small]" >&2
  exit 2
fi
count=$1; shift
scripts/setup.sh
start=$(( $(date +%s) % 1000000 * 1000 ))
out=fuzz-out/$(date +%Y%m%d-%H%M%S)
echo "fuzz: $count programs from seed $start (unless --start is given), results in $out"
exec .venv/bin/python testsuite/fuzz/run.py --count "$count" --start "$start" \
  --jobs "${S2S_JOBS:-2}" --configs rotate:6 --out "$out" "$@"
