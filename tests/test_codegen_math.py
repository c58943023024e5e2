"""AVX2 math: exact instruction mappings (bit-exact) and libmvec (within 4 ulp)."""

from __future__ import annotations

import re

import pytest
from test_codegen_kit import available_targets, build_and_run, kernel_source

from s2s.codegen.generate import CodegenOptions

EXACT = kernel_source("""
    void F(exact_d)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            double a = x[i], b = y[i];
            x[i] = sqrt(fabs(a)) + floor(a) * 3.0 + ceil(b);
            y[i] = trunc(b) - round(a) + round(b * 0.5);
            z[i] = fmin(a, b) + fmax(a, d[i]) + fma(a, b, z[i]);
        }
    }
    void F(exact_f)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            float a = f[i], b = g[i];
            f[i] = sqrtf(fabsf(a)) + floorf(a) + ceilf(b) + truncf(a) + roundf(a);
            g[i] = fminf(a, b) + fmaxf(a, 1.0f) + fmaf(a, b, 0.5f);
        }
    }
    void F(nan_minmax)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            double a = sqrt(x[i]);   /* NaN for negative x */
            z[i] = fmin(a, y[i]) + fmax(y[i], a);
        }
    }
""")

VMATH = kernel_source("""
    void F(vm_d1)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            double a = x[i] * 0.25, b = z[i];
            x[i] = exp(a); y[i] = log(b); z[i] = pow(b, a); d[i] = sin(a);
        }
    }
    void F(vm_d2)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            double a = x[i] * 0.25, b = z[i];
            x[i] = cos(a); y[i] = tan(a * 0.1); z[i] = atan(a); d[i] = atan2(a, b);
        }
    }
    void F(vm_d3)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            double a = x[i] * 0.25, b = z[i];
            x[i] = exp2(a); y[i] = log2(b); z[i] = log10(b); d[i] = cbrt(a);
        }
    }
    void F(vm_d4)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            double a = x[i] * 0.25;
            x[i] = erf(a); y[i] = tanh(a);
        }
    }
    void F(vm_f)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            float a = f[i] * 0.25f, b = g[i];
            f[i] = expf(a);
            g[i] = powf(b, a);
        }
    }
    void F(vm_mixed)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            g[i] = logf(g[i]);
            x[i] = exp(x[i] * 0.1);
        }
    }
""")
VM_NAMES = ["vm_d1", "vm_d2", "vm_d3", "vm_d4", "vm_f", "vm_mixed"]


TARGETS = available_targets()


@pytest.mark.parametrize("target", TARGETS)
def test_exact_math_maps_to_instructions(target):
    res = build_and_run(target, EXACT, ["exact_d", "exact_f", "nan_minmax"], expect_loops=3)
    calls = [loop.stats["calls"] for loop in res.loops]
    assert calls[0]["vector_math"] + calls[0]["serialized"] == 10
    if target == "avx2":
        assert calls[0]["vector_math"] == 10
        assert "_mm256_sqrt_pd" in res.text and "s2s_avx2_round_f64x4" in res.text


@pytest.mark.parametrize("target", TARGETS)
def test_vector_math_libmvec(target):
    res = build_and_run(target, VMATH, VM_NAMES, ulp=4, expect_loops=6, libs=("-lmvec", "-lm"))
    counts = [loop.stats["calls"]["vector_math"] for loop in res.loops]
    if target == "avx2":
        assert "_ZGVdN4v_exp(" in res.text and "_ZGVdN4vv_pow(" in res.text
        assert "_ZGVdN8v_expf(" in res.text and "_ZGVbN4v_logf(" in res.text
        assert counts == [4, 4, 4, 2, 2, 2]
    elif target == "avx512":
        assert "_ZGVeN8v_exp(" in res.text and "_ZGVeN16v_expf(" in res.text
        assert counts == [4, 4, 4, 2, 2, 2]
    else:  # no vector math library: scalar libm per lane
        assert "_ZGV" not in res.text and counts == [0] * 6


@pytest.mark.parametrize("target", TARGETS)
def test_exact_math_option_calls_libm_per_lane(target):
    res = build_and_run(
        target, VMATH, VM_NAMES, expect_loops=6, options=CodegenOptions(math="exact")
    )
    assert "_ZGV" not in res.text
    assert res.loops[0].stats["calls"] == {"vector_variant": 0, "vector_math": 0, "serialized": 4}


GUARDED_LOG = kernel_source("""
    void F(guarded_log)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            double a = x[i];
            if (a > 0.5)
                a = log(a - 0.5) * y[i];
            z[i] = a;
        }
    }
""")


@pytest.mark.parametrize("target", [t for t in TARGETS if t in ("avx2", "avx512")])
def test_masked_math_call_gets_one_on_inactive_lanes(target):
    """Lanes a math call's mask leaves out get 1.0: their value (here
    a - 0.5 <= 0) would send libmvec's log down its slow special-input path."""
    vlog = "_ZGVdN4v_log" if target == "avx2" else "_ZGVeN8v_log"
    res = build_and_run(
        target, GUARDED_LOG, ["guarded_log"], ulp=4, expect_loops=1, libs=("-lmvec", "-lm")
    )
    # the masked call's argument is a select with 1.0 (a blend; on AVX-512
    # s2s_avx512_blend_<type>, helpers.j2)
    blend = r"(?:_mm\w*blend\w*|s2s_avx512_blend_\w+)"
    selects = re.findall(vlog + r"\((" + blend + r"\(.*?set1_pd\(1\.0\).*?)\);", res.text)
    assert selects, res.text
