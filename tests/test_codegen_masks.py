"""Predicated vector code: masked loads, stores, gathers, scatters, calls and
per-lane fallbacks must not touch memory (or trap) for inactive lanes.

The regions are written in textual IR with explicit ``mask`` operands (what
linearization will produce); the scalar reference is the equivalent C.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest
from test_codegen_kit import (
    CROSS,
    TARGET_FLAGS,
    available_targets,
    require_target,
    run_with_compilers,
)

from s2s.analysis.divergence import compute_divergence
from s2s.analysis.shapes import region_arg_shapes
from s2s.codegen.generate import generate_loop, prelude
from s2s.codegen.target import load_target
from s2s.ir.parser import parse_function
from s2s.ir.region import ArgBinding, LoopBounds, Region

TARGETS = available_targets()

# void k(long n, double *a, double *b, long *idx, int *num, int *den, double *out)
IR = (
    "\nfunc @k(i64 %i, ptr<f64> %a, ptr<f64> %b, ptr<i64> %idx, ptr<i32> %num, ptr<i32> %den,"
    " ptr<f64> %out) -> () {"
    """
entry:
  %pa = gep %a, %i
  %x = load %pa
  %c = cmp gt %x, f64 0.0
  ; contiguous masked load/store
  %pb = gep %b, %i
  %y = load %pb mask %c
  %z = mul %y, f64 2.0
  store %z, %pb mask %c
  ; gather/scatter through indices that are wild for inactive lanes
  %pi = gep %idx, %i
  %j = load %pi
  %pg = gep %b, %j
  %g = load %pg mask %c
  %g2 = add %g, f64 1.0
  store %g2, %pg mask %c
  ; integer division by zero in inactive lanes
  %pn = gep %num, %i
  %pd = gep %den, %i
  %nv = load %pn
  %dv = load %pd
  %q = div %nv, %dv mask %c
  %r = rem %nv, %dv mask %c
  %s = add %q, %r
  store %s, %pn mask %c
  ; a uniform division by zero under a mask that is never true
  %c2 = cmp gt %x, f64 100.0
  %pz = gep %den, i64 1
  %zero = load %pz
  %ud = div i32 100, %zero mask %c2
  store %ud, %pn mask %c2
  ; selects on a varying condition: doubles, ints and booleans
  %c3 = cmp lt %nv, i32 0
  %sel = select %c3, %x, f64 -1.0
  %both = select %c, %c3, i1 0
  %bi = cast %both to i32
  %isel = select %c3, %bi, %nv
  %pa2 = gep %a, i64 100
  %pa3 = gep %pa2, %i
  store %sel, %pa3
  %pd2 = gep %den, i64 100
  %pd3 = gep %pd2, %i
  store %isel, %pd3
  ; a uniform address written by the active lanes: the last active one wins
  %o = gep %out, i64 0
  store %x, %o mask %c
  ret
}
"""
)

BODY = """{
    int num0 = num[i];
    if (a[i] > 0.0) {
        b[i] = b[i] * 2.0;
        b[idx[i]] = b[idx[i]] + 1.0;
        num[i] = num[i] / den[i] + num[i] % den[i];
        out[0] = a[i];
    }
    if (a[i] > 100.0) num[i] = 100 / den[1];
    a[100 + i] = num0 < 0 ? a[i] : -1.0;
    den[100 + i] = num0 < 0 ? (a[i] > 0.0 && num0 < 0) : num0;
}"""

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void ref_k(long n, double *a, double *b, long *idx, int *num, int *den, double *out);
void vec_k(long n, double *a, double *b, long *idx, int *num, int *den, double *out);
int main(void) {
    for (long n = 0; n < 70; n++) {
        double a1[200], a2[200], b1[200], b2[200], o1[1] = {7}, o2[1] = {7};
        long idx[80]; int n1[80], n2[80], den1[200], den2[200];
        for (long i = 0; i < 200; i++) { a1[i] = a2[i] = 0; den1[i] = den2[i] = 0; }
        for (long i = 0; i < 80; i++) {
            a1[i] = a2[i] = (i * 7) % 5 - 2.0;             /* some lanes positive */
            idx[i] = a1[i] > 0 ? 100 + (i * 3) % 90 : (1L << 44);  /* wild when inactive */
            n1[i] = n2[i] = (int)(i * 37 - 500);
            den1[i] = den2[i] = a1[i] > 0 ? (int)(i % 7) + 1 : 0;   /* zero when inactive */
        }
        for (int i = 0; i < 200; i++) b1[i] = b2[i] = i * 0.5;
        ref_k(n, a1, b1, idx, n1, den1, o1);
        vec_k(n, a2, b2, idx, n2, den2, o2);
        if (memcmp(b1, b2, sizeof b1) || memcmp(n1, n2, sizeof n1) || o1[0] != o2[0]
            || memcmp(a1, a2, sizeof a1) || memcmp(den1, den2, sizeof den1)) {
            printf("mismatch at n=%ld\n", n);
            return 1;
        }
    }
    printf("ALL OK\n");
    return 0;
}
"""


def make_region() -> Region:
    fn = parse_function(IR)
    iv, a, b, idx, num, den, out = fn.args
    args = [ArgBinding(iv, "iv", "i", "long", step=1)]
    for arg, c_type in (
        (a, "double *"),
        (b, "double *"),
        (idx, "long *"),
        (num, "int *"),
        (den, "int *"),
        (out, "double *"),
    ):
        args.append(ArgBinding(arg, "uniform", arg.name, c_type))
    return Region(
        kind="loop",
        name="k:1",
        file="masks.c",
        line=1,
        column=5,
        fn=fn,
        args=args,
        bounds=LoopBounds("i", "long", True, "0", "n", "<", 1),
        body_text=BODY,
        loop_text="for (long i = 0; i < n; i++) " + BODY,
    )


@pytest.mark.parametrize("target", TARGETS)
def test_masked_operations_do_not_touch_inactive_lanes(target):
    region = make_region()
    tgt = load_target(target)
    div = compute_divergence(region.fn, region_arg_shapes(region))
    gen = generate_loop(region, div, None, tgt)
    mem = gen.stats["memory"]
    assert mem == {
        "contiguous": 10,
        "strided": 0,
        "gather": 1,
        "scatter": 1,
        "masked": 7,
        "uniform": 2,
    }
    sig = "(long n, double *a, double *b, long *idx, int *num, int *den, double *out)"
    vec = prelude(tgt, gen.needs) + f"void vec_k{sig}\n{{\n    {gen.text}\n}}\n"
    ref = f"void ref_k{sig}\n{{\n    for (long i = 0; i < n; i++) {BODY}\n}}\n"
    wd = Path(tempfile.mkdtemp(prefix="s2s_mask_"))
    (wd / "vec.c").write_text(vec)
    (wd / "ref.c").write_text(ref)
    (wd / "main.c").write_text(DRIVER)
    require_target(target)
    if target in CROSS:
        compilers, runner = (CROSS[target][0],), CROSS[target][1]
    else:
        compilers, runner = ("gcc", "clang"), []

    def build(cc: str) -> None:
        exe = wd / f"t_{cc}"
        cmd = [
            cc,
            "-O2",
            "-Wall",
            "-ffp-contract=off",
            *TARGET_FLAGS[target],
            str(wd / "main.c"),
            str(wd / "ref.c"),
            str(wd / "vec.c"),
            "-o",
            str(exe),
            "-lm",
        ]
        out = subprocess.run(cmd, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr + vec
        assert "warning" not in out.stderr, out.stderr
        run = subprocess.run([*runner, str(exe)], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and "ALL OK" in run.stdout, (cc, run.stdout, run.stderr, str(wd))

    run_with_compilers(compilers, build)
