#!/usr/bin/env bash
# Vectorize the bundled example, build scalar and vector versions with the
# same compiler flags, run both and print the speed-up.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
out=out/example
mkdir -p "$out"
src=examples/gaussian_gather.c
flags="-O3 -march=native -ffp-contract=off"
# s2svec takes the compiler's flags: -march=native selects the host's ISA.
.venv/bin/s2svec $flags "$src" -o "$out/gaussian_gather_simd.c" --report
gcc $flags "$src" -o "$out/scalar" -lm
gcc $flags "$out/gaussian_gather_simd.c" -o "$out/vector" -lmvec -lm
"$out/scalar" > "$out/scalar.txt"
"$out/vector" > "$out/vector.txt"
.venv/bin/python - "$out" <<'PY'
import sys
def read(p):
    return dict(line.split() for line in open(p))
d = sys.argv[1]
s, v = read(f"{d}/scalar.txt"), read(f"{d}/vector.txt")
cs, cv = float(s["checksum"]), float(v["checksum"])
print(f"scalar  (gcc -O3 -march=native): {float(s['time']):.3f} s  checksum {cs:.6f}")
print(f"s2svec  (same flags, -lmvec):    {float(v['time']):.3f} s  checksum {cv:.6f}")
ok = abs(cs - cv) <= 1e-9 * abs(cs)
print(f"checksums {'agree' if ok else 'DIFFER'} (libmvec exp is within 4 ulp; the sum is reassociated)")
print(f"speed-up: {float(s['time']) / float(v['time']):.2f}x")
sys.exit(0 if ok else 1)
PY
