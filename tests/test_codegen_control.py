"""AVX2: uniform control flow in the body, clauses, worksharing, structs, serialized calls."""

from __future__ import annotations

import pytest
from test_codegen_kit import available_targets, build_and_run, kernel_source

TARGETS = available_targets()


@pytest.mark.parametrize("target", TARGETS)
def test_uniform_branches_and_inner_loops(target):
    src = kernel_source("""
        void F(ubranch)(int n, KARGS) {
            int mode = p[0] & 1;
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                if (mode)
                    x[i] = y[i] * 2.0;
                else
                    x[i] = y[i] + 2.0;
                if (n > 10) z[i] += 1.0;
            }
        }
        void F(inner)(int n, KARGS) {
            int m = 5;
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                double acc = 0.0;
                for (int j = 0; j < m; j++)
                    acc += y[i] * j + d[j];
                x[i] = acc;
            }
        }
        void F(uswitch)(int n, KARGS) {
            int k = n % 3;
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                switch (k) {
                case 0: x[i] = 1.0; break;
                case 1: x[i] = y[i]; break;
                default: x[i] = -y[i]; break;
                }
            }
        }
    """)
    build_and_run(target, src, ["ubranch", "inner", "uswitch"], expect_loops=3)


@pytest.mark.parametrize("target", TARGETS)
def test_clauses_simdlen_safelen_if(target):
    src = kernel_source("""
        void F(slen)(int n, KARGS) {
            #pragma omp simd simdlen(2)
            for (int i = 0; i < n; i++) x[i] = y[i] * z[i];
        }
        void F(safe)(int n, KARGS) {
            #pragma omp simd safelen(2)
            for (int i = 2; i < n; i++) x[i] = x[i - 2] + y[i];
        }
        void F(ifc)(int n, KARGS) {
            #pragma omp simd if(simd: n > 8)
            for (int i = 0; i < n; i++) x[i] = y[i] - z[i];
        }
        void F(flt8)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++) f[i] = f[i] * g[i];
        }
    """)
    res = build_and_run(target, src, ["slen", "safe", "ifc", "flt8"], expect_loops=4)
    from s2s.codegen.target import load_target

    bits = load_target(target).register_bits
    assert [loop.width for loop in res.loops] == [2, 2, bits // 64, bits // 32]


@pytest.mark.parametrize("target", TARGETS)
def test_parallel_for_simd_with_threads(target):
    src = kernel_source("""
        void F(pfs)(int n, KARGS) {
            double s = 0.0;
            int mx = -100;
            #pragma omp parallel for simd reduction(+:s) reduction(max:mx) schedule(static)
            for (int i = 0; i < n; i++) {
                x[i] = y[i] * 2.0;
                s += y[i];
                mx = mx ^ ((mx ^ q[i]) & -(q[i] > mx));
            }
            d[0] = s;
            r[0] = mx;
        }
        void F(fs)(int n, KARGS) {
            double s = 0.0;
            #pragma omp parallel
            {
                #pragma omp for simd reduction(+:s)
                for (int i = 0; i < n; i++) s += x[i] * z[i];
            }
            d[1] = s;
        }
        void F(coll)(int n, KARGS) {
            #pragma omp parallel for simd collapse(2)
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < n / 4; j++)
                    x[i * (n / 4) + j] = y[i * (n / 4) + j] + i;
        }
    """)
    res = build_and_run(
        target, src, ["pfs", "fs", "coll"], expect_loops=3, rtol=1e-12, extra_flags=("-fopenmp",)
    )
    assert (
        "#pragma omp parallel for reduction(+:s) reduction(max:mx) schedule(static)\n" in res.text
    )


@pytest.mark.parametrize("target", TARGETS)
def test_structs_2d_arrays_and_calls(target):
    src = kernel_source("""
        struct pt { double a; int b; float c; };
        static struct pt pts[2000];
        static double grid[40][50];
        void F(aos)(int n, KARGS) {
            for (int i = 0; i < n; i++) { pts[i].a = x[i]; pts[i].b = q[i]; pts[i].c = f[i]; }
            #pragma omp simd
            for (int i = 0; i < n; i++)
                y[i] = pts[i].a * pts[i].b + pts[i].c;
        }
        void F(twod)(int n, KARGS) {
            for (int i = 0; i < 40; i++) for (int j = 0; j < 50; j++) grid[i][j] = i - j * 0.5;
            int m = n < 48 ? n : 48;
            for (int i = 1; i < 39; i++) {
                #pragma omp simd
                for (int j = 1; j < m; j++)
                    x[j] += grid[i - 1][j] + grid[i + 1][j] - 2.0 * grid[i][j + 1];
            }
        }
        static int counter;
        static int tick(int v) { counter += v; return counter; }
        void F(serial)(int n, KARGS) {
            counter = 0;
            #pragma omp simd
            for (int i = 0; i < n; i++)
                p[i] = tick(q[i]);
            r[0] = counter;
        }
    """)
    res = build_and_run(target, src, ["aos", "twod", "serial"], expect_loops=3)
    assert res.loops[2].stats["calls"]["serialized"] == 1


@pytest.mark.parametrize("target", TARGETS)
def test_private_arrays_pointer_linear_collapse(target):
    src = kernel_source("""
        void F(privarr)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                double t[3];
                for (int k = 0; k < 3; k++) t[k] = y[i] * (k + 1);
                x[i] = t[0] + t[1] * t[2];
            }
        }
        void F(plinear)(int n, KARGS) {
            double *w = z;
            #pragma omp simd linear(w:1)
            for (int i = 0; i < n; i++) {
                *w = y[i] + 1.0;
                w++;
            }
            r[0] = (long long)(w - z);
        }
        void F(coll2)(int n, KARGS) {
            int m = n / 3;
            #pragma omp simd collapse(2)
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < m; j++)
                    x[i * m + j] = y[j] * i;
        }
        void F(u64iv)(int n, KARGS) {
            unsigned long k;
            #pragma omp simd
            for (k = 0; k < (unsigned long)n; k++)
                d[k] = (double)k * 0.5 + x[k];
            r[1] = (long long)k;
        }
    """)
    res = build_and_run(target, src, ["privarr", "plinear", "coll2", "u64iv"], expect_loops=4)
    assert res.loops[0].stats["allocas"]["varying"] + res.loops[0].stats["allocas"]["uniform"] <= 1
