"""Shared helpers of the code generator tests (tests/test_codegen*.py).

Each test writes C kernels ``void F(name)(int n, KARGS)`` into a file,
vectorizes it with the driver for one target, compiles the original (``ref_``
prefix) and the output (``vec_`` prefix) together with a driver that runs
both on the same data for many sizes and compares every array bit-exactly
(or within ``ulp`` units in the last place for vector math).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from s2s.codegen.generate import CodegenOptions
from s2s.driver import Options, run


@dataclass
class HarnessResult:
    """What one driver run for a single target gives the codegen tests."""

    text: str
    loops: list = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)


def vectorize_file(
    path: str,
    target: str,
    options: CodegenOptions | None = None,
    include_dirs: list[str] | None = None,
    refill: bool = True,
    refill_ratio: float | None = None,
) -> HarnessResult:
    opts = options or CodegenOptions()
    result = run(
        path,
        Options(
            targets=[target],
            include_dirs=include_dirs or [],
            math=opts.math,
            simdlen=opts.simdlen,
            refill=refill,
            refill_ratio=refill_ratio,
            interleave=opts.interleave,
        ),
    )
    return HarnessResult(result.output.decode(), result.loops, result.warnings)


KARGS = (
    "double *x, double *y, double *z, int *p, int *q, float *f, float *g, long long *r, double *d"
)

HEADER = """#ifndef F
#define F(name) name
#endif
#include <math.h>
#include <stdlib.h>
"""

TARGET_FLAGS = {
    "avx2": ["-mavx2", "-mfma"],
    "avx512": ["-mavx512f", "-mavx512dq", "-mavx512bw", "-mavx512vl", "-mavx2", "-mfma"],
    "neon": ["-static"],
}
CROSS = {"neon": ("aarch64-linux-gnu-gcc", ["qemu-aarch64"])}
"""Targets built by a cross compiler and run under an emulator."""
HOST_FLAGS = {"avx2": ("avx2", "fma"), "avx512": ("avx512f", "avx512dq", "avx512bw", "avx512vl")}
"""The /proc/cpuinfo flags a native target's output needs to run here."""
SETUP = "scripts/setup.sh installs it"


def available_targets() -> list[str]:
    """Every target with templates.  Whether its output can be built and run
    here is checked where it is built (``require_target``: a visible skip)."""
    from s2s.codegen.target import TEMPLATE_ROOT

    out = [
        name for name in ("avx2", "avx512", "neon") if (TEMPLATE_ROOT / name / "ops.j2").is_file()
    ]
    assert out, f"no target templates under {TEMPLATE_ROOT}"
    return out


def host_cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    return {
        f
        for line in text.splitlines()
        if line.startswith("flags")
        for f in line.split(":", 1)[1].split()
    }


def require_target(target: str) -> None:
    """Skip the test, with the reason, when ``target``'s output cannot be
    built and run here: the cross tools missing (NEON), or a host CPU without
    the target's instructions (AVX2, AVX-512)."""
    if target in CROSS:
        tools = (CROSS[target][0], *CROSS[target][1])
        missing = [t for t in tools if shutil.which(t) is None]
        if missing:
            pytest.skip(f"{target}: {', '.join(missing)} not installed ({SETUP})")
    elif target in HOST_FLAGS:
        lacking = [f for f in HOST_FLAGS[target] if f not in host_cpu_flags()]
        if lacking:
            pytest.skip(f"{target}: the host CPU has no {', '.join(lacking)}")


def run_with_compilers(compilers: tuple[str, ...], build_and_check) -> None:
    """``build_and_check(cc)`` for each compiler of ``compilers``; a missing
    one is a visible skip once the others have passed."""
    missing = [cc for cc in compilers if shutil.which(cc) is None]
    ran = [cc for cc in compilers if cc not in missing]
    for cc in ran:
        build_and_check(cc)
    if missing:
        done = f"; passed with {', '.join(ran)}" if ran else ""
        pytest.skip(f"{', '.join(missing)} not installed ({SETUP}){done}")


SIZES = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 1001]

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdint.h>
typedef void kern_t(int n, KARGS);
%(protos)s
#define SLACK 72
static void init(int n, double *x, double *y, double *z, int *p, int *q, float *f,
                 float *g, long long *r, double *d) {
    for (int i = 0; i < n + SLACK; i++) {
        x[i] = ((i * 7919) %% 200 - 100) / 8.0;
        y[i] = ((i * 31) %% 97 - 48) / 3.0;
        z[i] = 1.0 + i %% 5;
        p[i] = n ? (i * 13) %% n : 0;
        q[i] = ((i * 5) %% 17 + 1) * (i %% 3 == 0 ? -1 : 1);
        f[i] = (float)(((i * 37) %% 101 - 50) / 4.0);
        g[i] = (float)(1.5 + (i %% 7));
        d[i] = 0.25 * (i %% 11) - 1.0;
    }
    for (int i = 0; i < 64; i++) r[i] = 1000 + i;
}
static int close_enough(double a, double b, int ulp) {
    if (memcmp(&a, &b, sizeof a) == 0) return 1;
    if (ulp == 0) return 0;
    if (isnan(a) && isnan(b)) return 1;
    int64_t ia, ib; memcpy(&ia, &a, 8); memcpy(&ib, &b, 8);
    if ((ia < 0) != (ib < 0)) return a == b;
    int64_t dd = ia > ib ? ia - ib : ib - ia;
    return dd <= ulp;
}
static int closef(float a, float b, int ulp) {
    if (memcmp(&a, &b, sizeof a) == 0) return 1;
    if (ulp == 0) return 0;
    if (isnan(a) && isnan(b)) return 1;
    int32_t ia, ib; memcpy(&ia, &a, 4); memcpy(&ib, &b, 4);
    if ((ia < 0) != (ib < 0)) return a == b;
    int32_t dd = ia > ib ? ia - ib : ib - ia;
    return dd <= ulp;
}
#define NA(T, name) \
    T *name##1 = calloc(N + SLACK, sizeof(T)), *name##2 = calloc(N + SLACK, sizeof(T))
static int run(const char *kname, kern_t *ref, kern_t *vec, int ulp, double rtol) {
    static const int sizes[] = {%(sizes)s};
    int bad = 0;
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s], N = n > 64 ? n : 64;
        NA(double, x); NA(double, y); NA(double, z); NA(int, p); NA(int, q);
        NA(float, f); NA(float, g); NA(long long, r); NA(double, d);
        init(n, x1, y1, z1, p1, q1, f1, g1, r1, d1);
        init(n, x2, y2, z2, p2, q2, f2, g2, r2, d2);
        ref(n, x1, y1, z1, p1, q1, f1, g1, r1, d1);
        vec(n, x2, y2, z2, p2, q2, f2, g2, r2, d2);
        for (int i = 0; i < N + SLACK && !bad; i++) {
#define CHK(a, b, fmt) \
    if (!(a)) { \
        printf("%%s n=%%d %%s[%%d]: " fmt "\n", kname, n, #b, i, b##1[i], b##2[i]); \
        bad = 1; \
    }
            CHK(close_enough(x1[i], x2[i], ulp) || fabs(x1[i] - x2[i]) <= rtol * fabs(x1[i]),
                x, "%%.17g vs %%.17g")
            CHK(close_enough(y1[i], y2[i], ulp) || fabs(y1[i] - y2[i]) <= rtol * fabs(y1[i]),
                y, "%%.17g vs %%.17g")
            CHK(close_enough(z1[i], z2[i], ulp) || fabs(z1[i] - z2[i]) <= rtol * fabs(z1[i]),
                z, "%%.17g vs %%.17g")
            CHK(close_enough(d1[i], d2[i], ulp) || fabs(d1[i] - d2[i]) <= rtol * fabs(d1[i]),
                d, "%%.17g vs %%.17g")
            CHK(p1[i] == p2[i], p, "%%d vs %%d")
            CHK(q1[i] == q2[i], q, "%%d vs %%d")
            CHK(closef(f1[i], f2[i], ulp) || fabsf(f1[i] - f2[i]) <= rtol * fabsf(f1[i]),
                f, "%%.9g vs %%.9g")
            CHK(closef(g1[i], g2[i], ulp) || fabsf(g1[i] - g2[i]) <= rtol * fabsf(g1[i]),
                g, "%%.9g vs %%.9g")
            if (i < 64) CHK(r1[i] == r2[i], r, "%%lld vs %%lld")
        }
        free(x1); free(x2); free(y1); free(y2); free(z1); free(z2); free(p1); free(p2);
        free(q1); free(q2); free(f1); free(f2); free(g1); free(g2); free(r1); free(r2);
        free(d1); free(d2);
        if (bad) break;
    }
    return bad;
}
int main(void) {
    int bad = 0;
%(calls)s
    if (!bad) printf("ALL OK\n");
    return bad;
}
"""


def kernel_source(body: str) -> str:
    """A kernel file: the header plus the given functions (KARGS expanded)."""
    return HEADER + textwrap.dedent(body).replace("KARGS", KARGS)


def vectorize(
    src: str,
    target: str = "avx2",
    options: CodegenOptions | None = None,
    workdir: Path | None = None,
    refill: bool = True,
    refill_ratio: float | None = None,
) -> tuple[HarnessResult, Path]:
    workdir = workdir or Path(tempfile.mkdtemp(prefix="s2s_cg_"))
    path = workdir / "kern.c"
    path.write_text(src)
    res = vectorize_file(str(path), target, options, refill=refill, refill_ratio=refill_ratio)
    (workdir / "kern_vec.c").write_text(res.text)
    return res, workdir


def build_and_run(
    target: str,
    src: str,
    kernels: list[str],
    *,
    options: CodegenOptions | None = None,
    ulp: int = 0,
    rtol: float = 0.0,
    compilers: tuple[str, ...] = ("gcc", "clang"),
    extra_flags: tuple[str, ...] = (),
    expect_loops: int | None = None,
    libs: tuple[str, ...] = ("-lm",),
) -> HarnessResult:
    """Vectorize, compile with each compiler, run, assert the driver says ALL OK."""
    res, wd = vectorize(src, target, options)
    assert not res.unsupported, res.unsupported
    if expect_loops is not None:
        assert len(res.loops) == expect_loops, (len(res.loops), res.unsupported)
    protos = "\n".join(f"kern_t ref_{k}, vec_{k};" for k in kernels)
    calls = "\n".join(f'    bad |= run("{k}", ref_{k}, vec_{k}, {ulp}, {rtol!r});' for k in kernels)
    driver = DRIVER.replace("KARGS", KARGS) % {
        "protos": protos,
        "calls": calls,
        "sizes": ", ".join(map(str, SIZES)),
    }
    (wd / "main.c").write_text(driver)
    base = ["-O2", "-ffp-contract=off", "-Wall", *TARGET_FLAGS[target], *extra_flags]
    require_target(target)
    runner: list[str] = []
    if target in CROSS:
        compilers = (CROSS[target][0],)
        runner = CROSS[target][1]
        libs = tuple(lib for lib in libs if lib != "-lmvec")

    def build(cc: str) -> None:
        exe = wd / f"t_{cc}"
        objs = []
        # Debian's clang has no libomp: use gcc's runtime
        flags = [("-fopenmp=libgomp" if cc == "clang" and f == "-fopenmp" else f) for f in base]
        for name, prefix in (("kern.c", "ref_"), ("kern_vec.c", "vec_")):
            obj = wd / f"{name}.{cc}.o"
            cmd = [cc, *flags, f"-DF(n)={prefix}##n", "-c", str(wd / name), "-o", str(obj)]
            out = subprocess.run(cmd, capture_output=True, text=True)
            assert out.returncode == 0, f"{' '.join(cmd)}\n{out.stderr}\n{(wd / name).read_text()}"
            assert "warning" not in out.stderr or name == "kern.c", out.stderr
            objs.append(str(obj))
        cmd = [cc, *flags, str(wd / "main.c"), *objs, "-o", str(exe), *libs]
        out = subprocess.run(cmd, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        run = subprocess.run(
            [*runner, str(exe)],
            capture_output=True,
            text=True,
            timeout=120,
            env=dict(os.environ, OMP_NUM_THREADS="2"),
        )
        assert run.returncode == 0 and "ALL OK" in run.stdout, (
            f"{cc}: {run.stdout}{run.stderr}\n--- output in {wd}"
        )

    run_with_compilers(compilers, build)
    return res
