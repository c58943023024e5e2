#!/usr/bin/env python3
"""How fast is s2svec itself: start-up and a large generated file.

    .venv/bin/python bench/tool_speed.py [--runs N] [--s2svec CMD] [--keep DIR]

Two inputs, each vectorized for ``--targets`` (default avx512,avx2,neon:
the three fixed-width targets the figures have always been taken for; the
default list of s2svec adds sve and rvv) ``--runs`` times after one
warm-up run:

* ``one_loop.c``: one ``#pragma omp simd`` loop (the start-up cost: Python,
  libclang, the templates, one parse per target view);
* ``big.c``: a generated file of about 5,000 lines with 50 annotated loops
  of ten kinds (contiguous, reduction, gather, divergent if with a math call,
  a per-lane while loop, struct fields, integer min/max, mixed widths,
  collapse(2), linear/lastprivate) among unannotated functions;
* ``big2.c``: the same size with ten other kinds (divergent cascades,
  conditional lastprivate, escape-time and binary-search inner loops,
  records, declare simd functions and their callers, inlined static
  callees, per-lane arrays, an inner loop under a divergent branch with a
  reduction, 64-bit hashing).

For the two big files it also times ``--cc -O2 -c`` of the same file (CPU)
and prints the ratio, the measure of issue 22.

For each it prints the median and the range of the wall time, of the CPU
time (user + system) and of the peak resident memory of the s2svec process,
as the kernel accounts them for the finished child (``os.wait4``).  The
machine is shared: quote medians.  This is a measurement, not a test; the
figures are stated in docs/internals/speed.rst ("Speed of the tool").
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ONE_LOOP = """\
void saxpy(int n, float a, const float *x, float *y)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
"""

HEADER = """\
#include <math.h>
#include <stdint.h>
#include <stddef.h>

struct particle { double x, y, vx, vy; int alive; };
#define SCALE 0.5
"""

# Ten kinds of annotated loops; {k} makes each copy's names unique.
LOOPS = [
    """\
void saxpy_{k}(int n, float a, const float *restrict x, float *restrict y)
{{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i] * (float)SCALE;
}}
""",
    """\
double dot_{k}(int n, const double *a, const double *b)
{{
    double s = 0.0;
#pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}}
""",
    """\
void gather_{k}(int n, double *restrict out, const double *table, const int *idx)
{{
#pragma omp simd
    for (int i = 0; i < n; i++)
        out[i] = table[idx[i]] * 2.0 + 1.0;
}}
""",
    """\
void branchy_{k}(int n, double *restrict y, const double *restrict x)
{{
#pragma omp simd
    for (int i = 0; i < n; i++) {{
        double v = x[i];
        if (v > 0.0)
            y[i] = exp(-v) * v;
        else if (v < -1.0)
            y[i] = v * v;
        else
            y[i] = 0.0;
    }}
}}
""",
    """\
void collatz_{k}(int n, const uint32_t *x, int32_t *steps)
{{
#pragma omp simd
    for (int i = 0; i < n; i++) {{
        uint32_t v = x[i];
        int32_t s = 0;
        while (v > 1u) {{
            v = (v & 1u) ? 3u * v + 1u : v >> 1;
            s++;
        }}
        steps[i] = s;
    }}
}}
""",
    """\
void move_{k}(int n, struct particle *p, double dt)
{{
#pragma omp simd
    for (int i = 0; i < n; i++) {{
        if (p[i].alive) {{
            p[i].x += p[i].vx * dt;
            p[i].y += p[i].vy * dt;
        }}
    }}
}}
""",
    """\
int range_{k}(int n, const int *a, int *lo_out)
{{
    int lo = a[0], hi = a[0];
#pragma omp simd reduction(min:lo) reduction(max:hi)
    for (int i = 0; i < n; i++) {{
        lo = a[i] < lo ? a[i] : lo;
        hi = a[i] > hi ? a[i] : hi;
    }}
    *lo_out = lo;
    return hi;
}}
""",
    """\
void mixed_{k}(int n, double *restrict d, const int16_t *s, const uint8_t *m)
{{
#pragma omp simd
    for (int i = 0; i < n; i++)
        d[i] = (double)s[i] * 0.25 + (m[i] & 3) - (double)(s[i] >> 2);
}}
""",
    """\
void stencil_{k}(int rows, int cols, double (*restrict o)[64], double (*restrict g)[64])
{{
#pragma omp simd collapse(2)
    for (int r = 1; r < rows; r++)
        for (int c = 1; c < cols; c++)
            o[r][c] = 0.25 * (g[r - 1][c] + g[r][c - 1] + g[r][c] + g[r - 1][c - 1]);
}}
""",
    """\
int scan_{k}(int n, const float *x, float *y, int j0)
{{
    int j = j0;
    float last = 0.0f;
#pragma omp simd linear(j:2) lastprivate(last)
    for (int i = 0; i < n; i++) {{
        last = x[i] * 3.0f;
        y[j] = last;
        j += 2;
    }}
    return j + (int)last;
}}
""",
]

# Ten other kinds for the second file (issue 22: "a second file of that
# size written to differ"): divergent cascades, early exits, escape-time
# inner loops, records, declare simd functions and their callers, inlined
# static callees, per-lane arrays, conditional lastprivate, a while loop
# nested in a divergent branch, and 64-bit integer hashing.
LOOPS2 = [
    """\
void cascade_{k}(int n, float *restrict out, const float *restrict a, const int *restrict c)
{{
#pragma omp simd
    for (int i = 0; i < n; i++) {{
        float v = a[i];
        if (c[i] == 0)
            v = v * 2.0f;
        else if (c[i] == 1)
            v = sqrtf(fabsf(v));
        else if (c[i] < 5)
            v = v > 1.0f ? 1.0f / v : v;
        else
            v = -v;
        out[i] = v;
    }}
}}
""",
    """\
int first_{k}(int n, const int *a, int key)
{{
    int found = -1;
#pragma omp simd lastprivate(conditional: found)
    for (int i = 0; i < n; i++)
        if (a[i] == key)
            found = i;
    return found;
}}
""",
    """\
void escape_{k}(int n, int *restrict it, const float *restrict cx, const float *restrict cy)
{{
#pragma omp simd
    for (int i = 0; i < n; i++) {{
        float x = 0.0f, y = 0.0f;
        int k = 0;
        while (k < 256 && x * x + y * y < 4.0f) {{
            float t = x * x - y * y + cx[i];
            y = 2.0f * x * y + cy[i];
            x = t;
            k++;
        }}
        it[i] = k;
    }}
}}
""",
    """\
struct vec3_{k} {{ float x, y, z; }};
void norm_{k}(int n, struct vec3_{k} *v)
{{
#pragma omp simd
    for (int i = 0; i < n; i++) {{
        float l = v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z;
        if (l > 0.0f) {{
            float r = 1.0f / sqrtf(l);
            v[i].x *= r;
            v[i].y *= r;
            v[i].z *= r;
        }}
    }}
}}
""",
    """\
#pragma omp declare simd uniform(s) notinbranch
static double ramp_{k}(double x, double s)
{{
    if (x < 0.0)
        return 0.0;
    return x > s ? s : x * x / s;
}}
void use_ramp_{k}(int n, double *restrict y, const double *restrict x)
{{
#pragma omp simd
    for (int i = 0; i < n; i++)
        y[i] = ramp_{k}(x[i], 3.0) + 1.0;
}}
""",
    """\
static inline int clampi_{k}(int v, int lo, int hi)
{{
    return v < lo ? lo : v > hi ? hi : v;
}}
void quant_{k}(int n, uint8_t *restrict q, const float *restrict x, float scale)
{{
#pragma omp simd
    for (int i = 0; i < n; i++)
        q[i] = (uint8_t)clampi_{k}((int)(x[i] * scale), 0, 255);
}}
""",
    """\
void hist_{k}(int n, int *restrict out, const int *restrict a)
{{
#pragma omp simd
    for (int i = 0; i < n; i++) {{
        int h[4] = {{0, 0, 0, 0}};
        for (int b = 0; b < 8; b++)
            h[(a[i] >> (2 * b)) & 3]++;
        out[i] = h[0] * 1000 + h[1] * 100 + h[2] * 10 + h[3];
    }}
}}
""",
    """\
double energy_{k}(int n, const double *x, const double *q, double cut)
{{
    double e = 0.0;
#pragma omp simd reduction(+:e)
    for (int i = 0; i < n; i++) {{
        double r = fabs(x[i]);
        if (r < cut) {{
            double s = 1.0 / (r + 1.0);
            for (int j = 0; j < (int)(r * 4.0); j++)
                s *= 0.9;
            e += q[i] * s;
        }}
    }}
    return e;
}}
""",
    """\
void search_{k}(int n, int *restrict pos, const double *restrict key, const double *grid, int m)
{{
#pragma omp simd
    for (int i = 0; i < n; i++) {{
        int lo = 0, hi = m - 1;
        while (hi - lo > 1) {{
            int mid = (lo + hi) / 2;
            if (grid[mid] > key[i])
                hi = mid;
            else
                lo = mid;
        }}
        pos[i] = lo;
    }}
}}
""",
    """\
void hash_{k}(int n, uint64_t *restrict h, const uint64_t *restrict x)
{{
#pragma omp simd
    for (int i = 0; i < n; i++) {{
        uint64_t v = x[i] ^ (x[i] >> 31);
        v *= 0x9e3779b97f4a7c15ULL;
        h[i] = v ^ (v >> 29);
    }}
}}
""",
]

FILLER = """\
/* helper {k}: not annotated, copied byte for byte */
static int helper_{k}(const int *a, int n)
{{
    int best = -1, where = 0;
    for (int i = 0; i < n; i++) {{
        if (a[i] > best) {{
            best = a[i];
            where = i;
        }}
    }}
    switch (where & 3) {{
    case 0:
        best += 1;
        break;
    case 1:
        best -= 1;
        break;
    default:
        best *= 2;
        break;
    }}
    return best + where;
}}

"""


def generate_big(loops: int = 50, lines: int = 5000, kinds: list[str] = LOOPS) -> str:
    """About ``lines`` lines holding ``loops`` annotated loops of mixed kinds."""
    parts = [HEADER]
    for k in range(loops):
        parts.append(kinds[k % len(kinds)].format(k=k) + "\n")
    body_lines = sum(p.count("\n") for p in parts)
    filler_lines = FILLER.count("\n")
    fillers = max(0, (lines - body_lines) // filler_lines)
    out = [HEADER]
    # interleave the fillers between the loops
    per_gap = fillers // loops if loops else fillers
    extra = fillers - per_gap * loops
    f = 0
    for k in range(loops):
        for _ in range(per_gap + (1 if k < extra else 0)):
            out.append(FILLER.format(k=f))
            f += 1
        out.append(kinds[k % len(kinds)].format(k=k) + "\n")
    return "".join(out)


def measure(cmd: list[str], runs: int) -> dict[str, list[float]]:
    """Wall, CPU (user + sys) seconds and peak RSS (MiB) of each run."""
    figures: dict[str, list[float]] = {"wall": [], "cpu": [], "rss": []}
    for k in range(runs + 1):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        if proc.returncode != 0:
            raise SystemExit(f"{shlex.join(cmd)} failed ({proc.returncode}):\n{err}")
        if k == 0:
            continue  # warm-up: file cache, compiled Python
        figures["wall"].append(wall)
        figures["cpu"].append(usage.ru_utime + usage.ru_stime)
        figures["rss"].append(usage.ru_maxrss / 1024)
    return figures


def row(name: str, values: list[float], unit: str) -> str:
    return (
        f"  {name:5s} median {statistics.median(values):8.3f} {unit}   "
        f"(min {min(values):.3f}, max {max(values):.3f})"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument(
        "--s2svec",
        default=str(ROOT / ".venv" / "bin" / "s2svec"),
        help="how to call s2svec (a command line, split like a shell does)",
    )
    p.add_argument("--keep", metavar="DIR", help="write the inputs and outputs to DIR")
    p.add_argument("--only", choices=["one_loop", "big", "big2"], help="run one input only")
    p.add_argument(
        "--cc",
        default="gcc",
        help="the compiler whose -O2 -c time the big files are compared with (default: gcc)",
    )
    p.add_argument(
        "--targets", default="avx512,avx2,neon", help="s2svec's --target (default: %(default)s)"
    )
    args = p.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="s2svec-speed-"))
    work.mkdir(parents=True, exist_ok=True)
    inputs = {
        "one_loop": ONE_LOOP,
        "big": generate_big(),
        "big2": generate_big(kinds=LOOPS2),
    }
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average before: {load} (other work on the machine slows every figure)")
    for name, text in inputs.items():
        if args.only and name != args.only:
            continue
        src = work / f"{name}.c"
        src.write_text(text)
        out = str(work / f"{name}_simd.c")
        cmd = shlex.split(args.s2svec) + [str(src), "-o", out, "--target", args.targets]
        figs = measure(cmd, args.runs)
        lines = text.count("\n")
        loops = text.count("#pragma omp simd")
        print(f"{name}.c ({lines} lines, {loops} annotated loops), {args.runs} runs:")
        print(row("wall", figs["wall"], "s"))
        print(row("cpu", figs["cpu"], "s"))
        print(row("rss", figs["rss"], "MiB"))
        if name != "one_loop":
            cc = measure([args.cc, "-O2", "-c", str(src), "-o", str(work / f"{name}.o")], args.runs)
            ratio = statistics.median(figs["cpu"]) / statistics.median(cc["cpu"])
            print(row("cc", cc["cpu"], "s") + f"   {args.cc} -O2 -c, CPU; s2svec/cc {ratio:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
