"""Calls of functions with a body in the translation unit, in a project built as users build.

A small program of three files: ``xs.h`` (static inline helpers, and
prototypes of functions another file defines), ``tables.c`` (defines the
tables and a function of its own) and ``lookup.c`` (static functions and
the ``parallel for simd`` lookup loop that calls them all).  Built with
``-Wall -fopenmp`` by gcc 12 and clang-19 through ``s2svec-cc``, it prints
what the plain build prints; the report says for each call whether it was
inlined (bodies in lookup.c and in the header, transitively) or runs lane
by lane and why (the body is in tables.c).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WRAPPER = [sys.executable, "-m", "s2s.wrapper"]

HEADER = """\
#ifndef XS_H
#define XS_H
#include <stdint.h>
#define NGRID 512
extern double grid[NGRID];
extern double values[NGRID];
double table_bias(int k);
void fill_tables(void);

static inline uint64_t lcg(uint64_t s)
{
    return s * 2862933555777941757ull + 3037000493ull;
}

static inline double to_unit(uint64_t s)
{
    return (double)(s >> 11) * (1.0 / 9007199254740992.0);
}
#endif
"""

TABLES = """\
#include "xs.h"
double grid[NGRID];
double values[NGRID];
double table_bias(int k) { return (k & 3) * 0.125; }
void fill_tables(void)
{
    for (int k = 0; k < NGRID; k++) {
        grid[k] = k * 0.75 + (k % 5) * 0.01;
        values[k] = (k * 37 % 101) * 0.5;
    }
}
"""

LOOKUP = """\
#include <stdio.h>
#include "xs.h"

static int search(double e)
{
    int lo = 0, hi = NGRID - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (grid[mid] > e)
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

static double interpolate(double e)
{
    int k = search(e);
    double f = (e - grid[k]) / (grid[k + 1] - grid[k]);
    return values[k] + f * (values[k + 1] - values[k]);
}

static void lookups(int n, double *out)
{
    int flagged = 0;
#pragma omp parallel for simd reduction(+: flagged)
    for (int i = 0; i < n; i++) {
        uint64_t s = lcg(lcg((uint64_t)i));
        double e = to_unit(s) * (NGRID - 2) * 0.75;
        double v = interpolate(e);
        if (v > 40.0) {
            v += table_bias(i);
            flagged++;
        }
        out[i] = v;
    }
    printf("flagged %d\\n", flagged);
}

int main(void)
{
    static double out[10007];
    fill_tables();
    lookups(10007, out);
    double h = 0.0;
    for (int i = 0; i < 10007; i++)
        h = h * 0.999 + out[i];
    printf("%.17g\\n", h);
    return 0;
}
"""

MAKEFILE = """\
CC ?= gcc
CFLAGS ?= -O2 -Wall -fopenmp -ffp-contract=off -march=native
app: lookup.o tables.o
\t$(CC) $(CFLAGS) -o $@ $^ -lm
%.o: %.c xs.h
\t$(CC) $(CFLAGS) -c $<
clean:
\trm -f app *.o
"""


def project(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (
        ("xs.h", HEADER),
        ("tables.c", TABLES),
        ("lookup.c", LOOKUP),
        ("Makefile", MAKEFILE),
    ):
        (folder / name).write_text(text)
    return folder


def make(folder: Path, cc: list[str], **env: str) -> str:
    subprocess.run(["make", "-s", "clean"], cwd=folder, check=True)
    build = subprocess.run(
        ["make", "-s", f"CC={' '.join(cc)}"],
        cwd=folder,
        text=True,
        capture_output=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT), **env),
    )
    assert build.returncode == 0, build.stderr
    run = subprocess.run(
        ["./app"],
        cwd=folder,
        text=True,
        capture_output=True,
        env=dict(os.environ, OMP_NUM_THREADS="2"),
        check=True,
    )
    return run.stdout + "\n" + build.stderr


@pytest.mark.parametrize("cc", ["gcc", "clang-19"])
def test_project_through_the_wrapper_prints_what_the_plain_build_prints(
    tmp_path: Path, cc: str
) -> None:
    if shutil.which(cc) is None:
        pytest.skip(f"{cc} is not installed (scripts/setup.sh installs it)")
    folder = project(tmp_path / "p")
    plain = make(folder, [cc]).split("\n\n")[0]
    report = tmp_path / "report.json"
    wrapped = make(folder, [*WRAPPER, cc], S2SVEC_FLAGS=f"--report=json --report-file {report}")
    assert wrapped.split("\n\n")[0] == plain
    assert "warning" not in wrapped.split("\n\n", 1)[1], wrapped
    loops = [e for e in json.loads(report.read_text()) if e["kind"] == "loop"]
    assert loops and all(e["vectorized"] for e in loops)
    for e in loops:
        how = {(s["callee"], s["line"]): (s["how"], s["detail"]) for s in e["call_sites"]}
        assert how[("lcg", 29)][0] == "inlined" and how[("to_unit", 30)][0] == "inlined"
        assert how[("interpolate", 31)][0] == "inlined"
        assert how[("search", 19)][0] == "inlined"
        assert how[("table_bias", 33)] == (
            "serialized",
            "'table_bias' has no body in this translation unit",
        )
        assert e["calls"]["inlined"] == 5 and e["calls"]["serialized"] == 1


def test_text_report_notes_each_call(tmp_path: Path) -> None:
    folder = project(tmp_path / "p")
    done = subprocess.run(
        [sys.executable, "-m", "s2s", "lookup.c", "-o", "out.c", "--report", "--target", "avx2"],
        cwd=folder,
        text=True,
        capture_output=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if ": note: call to" in line]
    assert "lookup.c:31:20: note: call to 'interpolate' inlined" in notes
    assert "lookup.c:19:13: note: call to 'search' inlined" in notes
    assert (
        "lookup.c:33:18: note: call to 'table_bias' runs lane by lane: 'table_bias' has "
        "no body in this translation unit"
    ) in notes
