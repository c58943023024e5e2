"""Differential tests: every testsuite kernel x toolchain, original vs s2svec output.

One s2svec run per kernel is shared by all its configurations (on disk, under
a file lock, so pytest-xdist workers share it too); each binary is built once.
Parameters are ordered configuration-major so that two xdist workers start
on different kernels instead of waiting on the same s2svec run.

    .venv/bin/pytest -q -n 2 tests/test_differential.py
    .venv/bin/pytest -q tests/test_differential.py -k saxpy_f64
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsuite"))
import differential as dt  # noqa: E402

KERNELS = dt.list_kernels()
PARAMS = [
    pytest.param(k, c, id=f"{k.stem}-{c}",
                 marks=[pytest.mark.skip(reason=r)] if (r := dt.skip_reason(dt.CONFIGS[c])) else [])
    for c in dt.CONFIGS
    for k in KERNELS
]


@pytest.mark.parametrize("kernel,config", PARAMS)
def test_kernel(kernel: Path, config: str) -> None:
    dt.check_kernel(kernel, dt.CONFIGS[config])


# --- the testsuite itself ---------------------------------------------------


def test_enough_kernels_with_valid_metadata() -> None:
    assert len(KERNELS) >= 60
    for k in KERNELS:
        meta = dt.parse_meta(k.read_text(errors="surrogateescape"))
        assert meta.vectorized is None or meta.vectorized >= 0, k.name
        assert "main(int argc, char **argv)" in k.read_text(errors="surrogateescape"), k.name


def test_every_kernel_has_an_annotated_region() -> None:
    for k in KERNELS:
        assert "#pragma omp" in k.read_text(errors="surrogateescape"), k.name


META_EXACT = dt.parse_meta("/* s2s-test: vectorized=1 tolerance=exact */")
META_RED = dt.parse_meta("/* s2s-test: vectorized=1 tolerance=reduction-fp rel=1e-12 */")
META_ULP = dt.parse_meta("/* s2s-test: vectorized=1 tolerance=ulp=4 */")


def test_metadata_parsing() -> None:
    m = dt.parse_meta('/* s2s-test: vectorized=? regions=2 tolerance=exact args="--math exact" */')
    assert m.vectorized is None and m.regions == 2 and m.args == ("--math", "exact")
    assert META_RED.tolerance == "reduction-fp" and META_RED.rel == 1e-12
    assert META_ULP.tolerance == "ulp" and META_ULP.ulp == 4
    for bad in ("/* nothing */", "/* s2s-test: tolerance=exact */",
                "/* s2s-test: vectorized=1 tolerance=sloppy */",
                "/* s2s-test: vectorized=1 colour=red */"):
        with pytest.raises(ValueError):
            dt.parse_meta(bad)


def test_compare_exact_lines_must_match() -> None:
    ref = "X size 3\nX y n=3 h=00 01 02 03\n"
    assert dt.compare_outputs(ref, ref, META_EXACT) == []
    assert dt.compare_outputs(ref, ref.replace("03", "04"), META_EXACT)
    assert dt.compare_outputs(ref, "X size 3\n", META_EXACT)          # missing line
    # a reduction line is exact unless the kernel states a tolerance
    assert dt.compare_outputs("R s 1.0\n", "R s 1.0000000000000002\n", META_EXACT)


def test_compare_reduction_tolerance() -> None:
    assert dt.compare_outputs("R s 1.0\n", "R s 1.0000000000000002\n", META_RED) == []
    assert dt.compare_outputs("R s 1.0\n", "R s 1.000001\n", META_RED)
    assert dt.compare_outputs("R s nan\n", "R s nan\n", META_RED) == []
    assert dt.compare_outputs("R s inf\n", "R s 1e308\n", META_RED)
    # tolerance applies only to R lines
    assert dt.compare_outputs("X s 1.0\n", "X s 1.0000000000000002\n", META_RED)


def test_compare_ulp_tolerance() -> None:
    one, next4, next5 = 0x3FF0000000000000, 0x3FF0000000000004, 0x3FF0000000000005
    ref = f"U f f64 1 {one:016x}\n"
    assert dt.compare_outputs(ref, f"U f f64 1 {next4:016x}\n", META_ULP) == []
    assert dt.compare_outputs(ref, f"U f f64 1 {next5:016x}\n", META_ULP)
    # across zero: +0 and the smallest negative denormal are 1 ulp apart
    assert dt.compare_outputs("U f f64 1 0000000000000000\n",
                              "U f f64 1 8000000000000001\n", META_ULP) == []
    assert dt.compare_outputs("U f f32 1 7fc00000\n", "U f f32 1 3f800000\n", META_ULP)


def test_noop_tool_cannot_pass() -> None:
    """An output identical to the input (no intrinsics, report says scalar) is rejected."""
    src = (dt.KERNELS / "saxpy_f64.c").read_text()
    meta = dt.parse_meta(src)
    for name, cfg in dt.CONFIGS.items():
        assert dt.check_output_text(src, src, meta, cfg), name
        scalar = [{"target": cfg.target, "vectorized": False, "reason": "x", "line": 7}]
        assert dt.check_report(scalar, meta, cfg.target), name
        assert dt.check_report([], meta, cfg.target), name
        assert dt.check_report(None, meta, cfg.target, "no report"), name


def test_kept_lines_are_counted() -> None:
    src = "a /* s2s-keep */\nb\n"
    cfg = dt.CONFIGS["gcc-avx2"]
    meta = dt.parse_meta("/* s2s-test: vectorized=0 */")
    assert dt.check_output_text(src, "x\na /* s2s-keep */\n", meta, cfg) == []
    assert dt.check_output_text(src, "a  /* s2s-keep */\n", meta, cfg)
    assert dt.check_output_text(src, "a /* s2s-keep */\na /* s2s-keep */\n", meta, cfg)


def test_intrinsics_in_a_dead_branch_do_not_count(tmp_path: Path) -> None:
    """Intrinsics behind an #if the build does not take cannot make a kernel pass."""
    fake = tmp_path / "fake.c"
    fake.write_text("#if defined(__NEVER__)\nint f(void) { return _mm512_add_pd + _mm256_add_pd"
                    " + vaddq_f64; }\n#else\nint f(void) { return 0; }\n#endif\n")
    meta = dt.parse_meta("/* s2s-test: vectorized=1 */")
    for name, cfg in dt.CONFIGS.items():
        active = dt.preprocessed_own_text(fake, cfg, meta)
        assert "return 0" in active, name
        assert dt.check_output_text("", fake.read_text(), meta, cfg, active), name


def test_report_statistics_and_width_are_checked() -> None:
    meta = dt.parse_meta('/* s2s-test: vectorized=1 width="avx2:4" maxwidth=4 '
                         'report="memory.gather=1" */')
    entry = {"target": "avx2", "vectorized": True, "width": 4, "line": 3,
             "memory": {"gather": 1}}
    assert dt.check_report([entry], meta, "avx2") == []
    assert dt.check_report([{**entry, "width": 8}], meta, "avx2")          # width and maxwidth
    assert dt.check_report([{**entry, "memory": {"gather": 0}}], meta, "avx2")
    assert dt.check_report([{**entry, "memory": {}}], meta, "avx2")
    assert dt.check_report([entry, entry], meta, "avx2")                     # one region expected
