"""AVX2 code generation end to end: vectorize C kernels, compile, compare with the scalar loop."""

from __future__ import annotations

import pytest
from test_codegen_kit import available_targets, build_and_run, kernel_source

TARGETS = available_targets()


@pytest.mark.parametrize("target", TARGETS)
def test_contiguous_and_reduction(target):
    src = kernel_source("""
        void F(saxpy)(int n, KARGS) {
            double s = 2.5;
            #pragma omp simd
            for (int i = 0; i < n; i++)
                x[i] = s * y[i] + x[i];
        }
        void F(dot)(int n, KARGS) {
            double sum = 0.0;
            #pragma omp simd reduction(+:sum)
            for (int i = 0; i < n; i++)
                sum += x[i] * y[i];
            d[0] = sum;
        }
    """)
    build_and_run(target, src, ["saxpy", "dot"], expect_loops=2, rtol=1e-12)


@pytest.mark.parametrize("target", TARGETS)
def test_mixed_widths_and_conversions(target):
    src = kernel_source("""
        void F(mixed)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                int k = p[i] + q[i] * 3;
                x[i] = y[i] * k + (double)q[i];
                q[i] = (int)(y[i] * 2.0) - k;
            }
        }
        void F(floats)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++)
                f[i] = f[i] * g[i] - (float)y[i];
        }
        void F(float_only)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++)
                g[i] = f[i] * 0.5f + g[i];
        }
        void F(int_only)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++)
                q[i] = ((q[i] << 2) ^ (p[i] >> 1)) | (q[i] & 5);
        }
    """)
    build_and_run(target, src, ["mixed", "floats", "float_only", "int_only"], expect_loops=4)


@pytest.mark.parametrize("target", TARGETS)
def test_gather_strided_uniform(target):
    src = kernel_source("""
        void F(gather)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++)
                x[i] = y[p[i]] + z[i];
        }
        void F(strided)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n / 2; i++)
                x[2 * i] = y[2 * i + 1] * 3.0;
        }
        void F(uniform_load_store)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                x[i] = y[i] + d[3];
                z[5] = y[i];
            }
        }
        void F(scatter)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++)
                y[p[i]] = x[i] * 2.0;
        }
        void F(reverse)(int n, KARGS) {
            #pragma omp simd
            for (int i = n - 1; i >= 0; i--)
                x[i] = y[n - 1 - i] + i;
        }
        void F(step3)(int n, KARGS) {
            #pragma omp simd
            for (long i = 1; i < n; i += 3)
                x[i] = y[i] - x[i - 1];
        }
    """)
    build_and_run(
        target,
        src,
        ["gather", "strided", "uniform_load_store", "scatter", "reverse", "step3"],
        expect_loops=6,
    )


REDUCTION_KERNELS = """
    void F(red_add_d)(int n, KARGS) {
        double s = 1.5;
        #pragma omp simd reduction(+:s)
        for (int i = 0; i < n; i++) s += x[i];
        d[0] = s;
    }
    void F(red_sub_i)(int n, KARGS) {
        int s = 7;
        #pragma omp simd reduction(-:s)
        for (int i = 0; i < n; i++) s -= q[i];
        r[0] = s;
    }
    void F(red_mul_d)(int n, KARGS) {
        double s = 1.0;
        #pragma omp simd reduction(*:s)
        for (int i = 0; i < n; i++) s *= z[i] * 0.5;
        d[0] = s;
    }
    void F(red_mul_i)(int n, KARGS) {
        unsigned s = 1;
        #pragma omp simd reduction(*:s)
        for (int i = 0; i < n; i++) s *= (q[i] & 3) + 1;
        r[0] = s;
    }
    void F(red_min_d)(int n, KARGS) {
        double s = 1e300;
        #pragma omp simd reduction(min:s)
        for (int i = 0; i < n; i++) s = fmin(x[i], s);
        d[0] = s;
    }
    void F(red_max_i)(int n, KARGS) {
        int s = -1000;
        #pragma omp simd reduction(max:s)
        for (int i = 0; i < n; i++) s = s ^ ((s ^ q[i]) & -(q[i] > s));
        r[0] = s;
    }
    void F(red_max_f)(int n, KARGS) {
        float s = -1e30f;
        #pragma omp simd reduction(max:s)
        for (int i = 0; i < n; i++) s = fmaxf(s, f[i]);
        g[0] = s;
    }
    void F(red_bits)(int n, KARGS) {
        int a = -1, o = 0, e = 0;
        #pragma omp simd reduction(&:a) reduction(|:o) reduction(^:e)
        for (int i = 0; i < n; i++) { a &= q[i] | 16; o |= p[i]; e ^= q[i]; }
        r[0] = a; r[1] = o; r[2] = e;
    }
    void F(red_logic)(int n, KARGS) {
        int all = 1, any = 0;
        #pragma omp simd reduction(&&:all) reduction(||:any)
        for (int i = 0; i < n; i++) { all = all & (x[i] > -20.0); any = any | (x[i] > 11.0); }
        r[0] = all; r[1] = any;
    }
    void F(red_long)(int n, KARGS) {
        long long s = 0;
        #pragma omp simd reduction(+:s)
        for (int i = 0; i < n; i++) s += (long long)q[i] * p[i];
        r[3] = s;
    }
"""


@pytest.mark.parametrize("target", TARGETS)
def test_reductions(target):
    src = kernel_source(REDUCTION_KERNELS)
    names = [
        "red_add_d",
        "red_sub_i",
        "red_mul_d",
        "red_mul_i",
        "red_min_d",
        "red_max_i",
        "red_max_f",
        "red_bits",
        "red_logic",
        "red_long",
    ]
    build_and_run(target, src, names, expect_loops=len(names), rtol=1e-12)


@pytest.mark.parametrize("target", TARGETS)
def test_linear_lastprivate_iv_after_loop(target):
    src = kernel_source("""
        void F(linear)(int n, KARGS) {
            int j = 3;
            #pragma omp simd linear(j:2)
            for (int i = 0; i < n; i++) {
                x[i] = y[j - i] + 1.0;
                j += 2;
            }
            r[0] = j;
        }
        void F(lastpriv)(int n, KARGS) {
            double t = -1.0;
            int i;
            #pragma omp simd lastprivate(t)
            for (i = 0; i < n; i++) {
                t = x[i] * 2.0;
                y[i] = t;
            }
            d[0] = t;
            r[1] = i;
        }
        void F(down2)(int n, KARGS) {
            long i;
            #pragma omp simd
            for (i = n; i > 1; i -= 2)
                x[i - 1] = y[i - 2] * (double)i;
            r[2] = i;
        }
        void F(le_bound)(int n, KARGS) {
            unsigned u;
            #pragma omp simd
            for (u = 1; u <= (unsigned)n; u++)
                z[u] = z[u] + u;
            r[3] = u;
        }
        void F(ne_bound)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i != n; i++)
                d[i] = x[i] - y[i];
        }
    """)
    build_and_run(
        target, src, ["linear", "lastpriv", "down2", "le_bound", "ne_bound"], expect_loops=5
    )


@pytest.mark.parametrize("target", TARGETS)
def test_fallback_ops(target):
    src = kernel_source("""
        void F(idiv)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                p[i] = p[i] / q[i] + p[i] % q[i];
            }
        }
        void F(i64mul)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                long long a = (long long)q[i] * 1000003LL;
                long long b = a * (long long)p[i];
                x[i] = (double)(b >> 3);
            }
        }
        void F(unsigned_cmp)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                unsigned a = (unsigned)q[i], b = (unsigned)p[i];
                q[i] = (int)(a / 3u) * (a < b) + (int)(b >> 1) - (int)(a >= b);
            }
        }
        void F(shorts)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                short s = (short)(q[i] * 1234);
                p[i] = s * s;
            }
        }
    """)
    build_and_run(target, src, ["idiv", "i64mul", "unsigned_cmp", "shorts"], expect_loops=4)


@pytest.mark.parametrize("target", TARGETS)
def test_divergent_loop_is_vectorized(target):
    """A while loop with a per-lane trip count (seed 001 Section 9.1)."""
    src = kernel_source("""
        void F(divk)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                double v = x[i];
                while (v > 1.0) v *= 0.5;
                y[i] = v;
            }
        }
    """)
    build_and_run(target, src, ["divk"], expect_loops=1)


@pytest.mark.parametrize("target", TARGETS)
def test_divergent_if_and_ternaries_are_predicated(target):
    src = kernel_source("""
        void F(tern)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                x[i] = y[i] > 0 ? y[i] : z[p[i]];
                q[i] = q[i] < 0 ? -q[i] : q[i] / 3;
            }
        }
        void F(guarded)(int n, KARGS) {
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                if (x[i] > 2.0) {
                    y[p[i]] = x[i];
                    p[i] = q[i] / (p[i] + 1);
                    d[0] = x[i];
                }
            }
        }
        void F(minmax)(int n, KARGS) {
            double lo = 1e300; int hi = -1000;
            #pragma omp simd reduction(min:lo) reduction(max:hi)
            for (int i = 0; i < n; i++) {
                lo = x[i] < lo ? x[i] : lo;
                hi = q[i] > hi ? q[i] : hi;
            }
            d[1] = lo; r[0] = hi;
        }
        void F(logic)(int n, KARGS) {
            int all = 1, any = 0;
            #pragma omp simd reduction(&&:all) reduction(||:any)
            for (int i = 0; i < n; i++) {
                all = all && x[i] > -12.0;
                any = any || (y[i] > 15.0 && z[i] > 2.0);
            }
            r[1] = all; r[2] = any;
        }
    """)
    build_and_run(target, src, ["tern", "guarded", "minmax", "logic"], expect_loops=4)


@pytest.mark.parametrize("target", TARGETS)
def test_narrow_types_next_to_wide_ones(target):
    src = kernel_source("""
        void F(chars)(int n, KARGS) {
            unsigned char *c = (unsigned char *)q;
            signed char *s = (signed char *)p;
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                x[i] = (double)c[i] * 0.5 + s[i];
                c[i] = (unsigned char)(c[i] + 3);
            }
        }
        void F(shorts2)(int n, KARGS) {
            short *h = (short *)q;
            #pragma omp simd
            for (int i = 0; i < n; i++) {
                d[i] = h[i] * 2.0 + y[i];
                h[i] = (short)(h[i] > 0);
            }
        }
        void F(chars_int)(int n, KARGS) {
            unsigned char *c = (unsigned char *)q;
            #pragma omp simd
            for (int i = 0; i < n; i++)
                p[i] = c[i] * 3 - (c[i] > 100);
        }
    """)
    build_and_run(target, src, ["chars", "shorts2", "chars_int"], expect_loops=3)
