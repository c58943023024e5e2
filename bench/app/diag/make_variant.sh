#!/bin/sh
# bench/app/diag/make_variant.sh DEST KIND: a copy of the application in DEST
# with the changes of KIND, to build with bench/app/run.sh --app-dir DEST.
# Diagnostics for bench/RESULTS.md, not the benchmark: they show what s2svec
# makes of the hot loop once the obstacles of issue 19 are out of the way.
#   guard          the header guard renamed (__XSPROXY_H__ -> XSPROXY_H_INCLUDED,
#                  which s2svec does not take for a target macro) and the
#                  'const double macro[XS_NCHAN]' parameters of lookup.c
#                  written 'const double *macro' (s2svec's internal error
#                  "no vector element type for [5 x f64]"): the calls run
#                  serialized, one lane at a time
#   inlined        guard, and every call of the loop inlined by hand
#                  (diag/lookup_inlined.c)
#   inlined-shift  inlined, and the binary search's '(hi - lo) / 2' written
#                  '(hi - lo) >> 1' (s2svec divides 64-bit lanes one at a time)
#   inlined-uniform  inlined-shift, and every material made of 16 nuclides
#                  (another problem, with a hash of its own: the lanes of a
#                  vector then run the nuclide loop for the same trip count)
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 DEST guard|inlined|inlined-shift|inlined-uniform" >&2
    exit 2
fi
app=$(cd "$(dirname "$0")/.." && pwd)
dest=$1 kind=$2
case $kind in guard|inlined|inlined-shift|inlined-uniform) ;; *) echo "$0: unknown KIND $kind" >&2; exit 2;; esac
rm -rf "$dest"
mkdir -p "$dest"
cp "$app"/*.c "$app"/*.h "$app"/Makefile "$dest"/
sed -i 's/__XSPROXY_H__/XSPROXY_H_INCLUDED/g' "$dest/xsproxy.h"
sed -i 's/const double macro\[XS_NCHAN\])/const double *macro)/' "$dest/lookup.c"
if [ "$kind" != guard ]; then
    cp "$app/diag/lookup_inlined.c" "$dest/lookup.c"
fi
if [ "$kind" = inlined-shift ] || [ "$kind" = inlined-uniform ]; then
    sed -i 's|long mid = lo + (hi - lo) / 2;|long mid = lo + ((hi - lo) >> 1);|' "$dest/lookup.c"
fi
if [ "$kind" = inlined-uniform ]; then
    sed -i 's/^\(static const int mat_share64\[XS_NMATS\] = \){[^}]*}/\1{16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16}/' "$dest/data.c"
    grep -q '{16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16}' "$dest/data.c"
fi
grep -q XSPROXY_H_INCLUDED "$dest/xsproxy.h"
echo "$dest: xsproxy, $kind"
