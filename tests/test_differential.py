"""Differential tests: every testsuite kernel x toolchain, original vs s2svec output.

One s2svec run per kernel and output variant is shared by all its
configurations, one reference build per ABI by all configurations of that
ABI (on disk, under a file lock, so pytest-xdist workers share them too);
each binary is built once.  Kernels with vector code run on the whole
matrix, kernels that must stay scalar on the main configurations (see
testsuite/README.md).  Parameters are ordered configuration-major so that
two xdist workers start on different kernels instead of waiting on the same
s2svec run.

    .venv/bin/pytest -q -n 2 tests/test_differential.py
    .venv/bin/pytest -q tests/test_differential.py -k saxpy_f64
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsuite"))
import differential as dt

KERNELS = dt.list_kernels()
KERNEL_CONFIGS = {
    k: dt.configs_for(dt.parse_meta(dt.kernel_text(k)), i) for i, k in enumerate(KERNELS)
}
PARAMS = [
    pytest.param(
        k,
        c,
        id=f"{k.stem}-{c}",
        marks=[pytest.mark.skip(reason=r)] if (r := dt.skip_reason(dt.CONFIGS[c])) else [],
    )
    for c in dt.CONFIGS
    for k in KERNELS
    if c in KERNEL_CONFIGS[k]
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
    """A ``#pragma omp`` line, or the ``_Pragma`` operator (pragma_operator.c)."""
    for k in KERNELS:
        text = k.read_text(errors="surrogateescape")
        assert "#pragma omp" in text or '_Pragma("omp ' in text, k.name


INSTALLED = {n: c for n, c in dt.CONFIGS.items() if c.target is not None}
META_EXACT = dt.parse_meta("/* s2s-test: vectorized=1 tolerance=exact */")
META_RED = dt.parse_meta("/* s2s-test: vectorized=1 tolerance=reduction-fp rel=1e-12 */")
META_ULP = dt.parse_meta("/* s2s-test: vectorized=1 tolerance=ulp=4 */")


def test_metadata_parsing() -> None:
    m = dt.parse_meta('/* s2s-test: vectorized=? regions=2 tolerance=exact args="--math exact" */')
    assert m.vectorized is None and m.regions == 2 and m.args == ("--math", "exact")
    assert META_RED.tolerance == "reduction-fp" and META_RED.rel == 1e-12
    assert META_ULP.tolerance == "ulp" and META_ULP.ulp == 4
    for bad in (
        "/* nothing */",
        "/* s2s-test: tolerance=exact */",
        "/* s2s-test: vectorized=1 tolerance=sloppy */",
        "/* s2s-test: vectorized=1 colour=red */",
    ):
        with pytest.raises(ValueError):
            dt.parse_meta(bad)


def test_compare_exact_lines_must_match() -> None:
    ref = "X size 3\nX y n=3 h=00 01 02 03\n"
    assert dt.compare_outputs(ref, ref, META_EXACT) == []
    assert dt.compare_outputs(ref, ref.replace("03", "04"), META_EXACT)
    assert dt.compare_outputs(ref, "X size 3\n", META_EXACT)  # missing line
    # a reduction line is exact unless the kernel states a tolerance
    assert dt.compare_outputs("R s 1.0\n", "R s 1.0000000000000002\n", META_EXACT)


def test_compare_names_the_first_differing_element() -> None:
    ref = "X y n=3 h=00 01 02 03\n"
    (problem,) = dt.compare_outputs(ref, ref.replace("02 03", "02 07"), META_EXACT)
    assert "element 2: 03 vs 07" in problem


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
    assert (
        dt.compare_outputs("U f f64 1 0000000000000000\n", "U f f64 1 8000000000000001\n", META_ULP)
        == []
    )
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
    fake.write_text(
        "#if defined(__NEVER__)\nint f(void) { return _mm512_add_pd + _mm256_add_pd"
        " + vaddq_f64; }\n#else\nint f(void) { return 0; }\n#endif\n"
    )
    meta = dt.parse_meta("/* s2s-test: vectorized=1 */")
    for name, cfg in INSTALLED.items():
        active = dt.preprocessed_own_text(fake, cfg, meta)
        assert "return 0" in active, name
        assert dt.check_output_text("", fake.read_text(), meta, cfg, active), name


def test_report_statistics_and_width_are_checked() -> None:
    meta = dt.parse_meta(
        '/* s2s-test: vectorized=1 width="avx2:4" maxwidth=4 report="memory.gather=1" */'
    )
    entry = {"target": "avx2", "vectorized": True, "width": 4, "line": 3, "memory": {"gather": 1}}
    assert dt.check_report([entry], meta, "avx2") == []
    assert dt.check_report([{**entry, "width": 8}], meta, "avx2")  # width and maxwidth
    assert dt.check_report([{**entry, "memory": {"gather": 0}}], meta, "avx2")
    assert dt.check_report([{**entry, "memory": {}}], meta, "avx2")
    assert dt.check_report([entry, entry], meta, "avx2")  # one region expected


# --- the configuration matrix ------------------------------------------------

EXPECTED_TARGET = {
    "avx2": "avx2",
    "v3": "avx2",
    "v4": "avx512",
    "native-avx2only": "avx2",
    "v4-avx2only": "avx2",
    "neon": "neon",
    "neon-O3": "neon",
    "sve": "sve",
    "rvv": "rvv",
}


def test_matrix_covers_every_compiler_and_flag_set() -> None:
    """gcc, clang-19 and the default clang with every x86 flag set, NEON cross
    builds by gcc and both clangs, all with -ffp-contract=off."""
    assert "-ffp-contract=off" in dt.COMMON_FLAGS
    for cc in ("gcc", "clang19", "clang"):
        for suffix in ("avx2", "v3", "native", "v4", "native-avx2only", "v4-avx2only"):
            assert f"{cc}-{suffix}" in dt.CONFIGS
        assert f"{cc}-neon" in dt.CONFIGS
    flags = {c.describe() for c in dt.CONFIGS.values()}
    for want in (
        "gcc -O2 -mavx2 -mfma",
        "gcc -O3 -march=x86-64-v3",
        "gcc -O2 -march=native",
        "gcc -O3 -march=x86-64-v4",
        "clang-19 -O2 -mavx2 -mfma",
        "clang-19 --target=aarch64-linux-gnu -O2 -static",
        "clang --target=aarch64-linux-gnu -O2 -static",
        "aarch64-linux-gnu-gcc -O2 -static",
    ):
        assert want in flags, want
    assert {c.abi for c in dt.CONFIGS.values()} == set(dt.ABIS)
    # every main configuration exists; each ABI has main configurations
    assert set(dt.CONFIGS) >= dt.MAIN_CONFIGS
    assert {dt.CONFIGS[n].abi for n in dt.MAIN_CONFIGS} == set(dt.ABIS)


@pytest.mark.parametrize("name", sorted(dt.CONFIGS))
def test_config_compiles_the_branch_it_claims(name: str) -> None:
    """The target is asked from the compiler; it must be the one the name says
    (-march=native: AVX-512 when this CPU has it)."""
    cfg = dt.CONFIGS[name]
    if dt.shutil.which(cfg.cc) is None:
        pytest.skip(f"{cfg.cc} is not installed (scripts/setup.sh installs it)")
    suffix = name.split("-", 1)[1]
    if suffix == "native":
        want = "avx512" if "avx512f" in dt._cpu_flags() else "avx2"
    else:
        want = EXPECTED_TARGET[suffix]
    assert cfg.target == want


def test_scalar_kernels_run_on_the_main_configs_only() -> None:
    scalar = dt.parse_meta("/* s2s-test: vectorized=0 */")
    assert set(dt.configs_for(scalar, full=True)) == set(dt.MAIN_CONFIGS)
    maybe = dt.parse_meta("/* s2s-test: vectorized=? */")
    assert set(dt.configs_for(maybe, full=True)) == set(dt.CONFIGS)
    assert set(dt.configs_for(META_EXACT, full=True)) == set(dt.CONFIGS)


def test_kernels_rotate_through_the_whole_matrix() -> None:
    """By default each kernel with vector code gets the main configurations
    and ROTATED others; consecutive kernels cover every configuration."""
    others = {n for n, c in dt.CONFIGS.items() if not c.main and not dt.skip_reason(c)}
    seen: set[str] = set()
    for index in range(len(others)):
        chosen = set(dt.configs_for(META_EXACT, index, full=False))
        assert chosen >= set(dt.MAIN_CONFIGS)
        assert len(chosen - set(dt.MAIN_CONFIGS)) == min(dt.ROTATED, len(others))
        seen |= chosen
    assert seen == others | set(dt.MAIN_CONFIGS)


def _fake_cc(tmp_path: Path, name: str, script: str) -> str:
    cc = tmp_path / name
    cc.write_text("#!/bin/sh\n" + script + "\n")
    cc.chmod(0o755)
    return str(cc)


def test_compiler_failures_are_classified(tmp_path: Path) -> None:
    src = tmp_path / "k.c"
    src.write_text("int main(void) { return 0; }\n")
    meta = dt.parse_meta("/* s2s-test: vectorized=? */")
    cases = {
        "ice": _fake_cc(tmp_path, "ice", "echo 'internal compiler error: in foo' >&2; exit 1"),
        "ice-signal": _fake_cc(tmp_path, "sig", "kill -SEGV $$"),
        "compile-error": _fake_cc(tmp_path, "err", "echo 'error: bad' >&2; exit 1"),
    }
    for kind, cc in cases.items():
        with pytest.raises(dt.BuildFailure) as info:
            dt.compile_c(src, tmp_path / f"bin-{kind}", cc, (), meta, ())
        assert info.value.kind == kind.split("-signal")[0], kind
    dt.compile_c(src, tmp_path / "bin-ok", "gcc", ("-O2",), meta, ())
    assert dt.run_binary(tmp_path / "bin-ok") == (0, "")


def test_candidate_prelude_is_precompiled_and_builds_the_same_binary(tmp_path: Path) -> None:
    """An x86 candidate that includes the harness first is built with a
    precompiled harness + immintrin.h; the binary is the one a build
    without it makes.  Other first directives and AArch64 get no prelude."""
    meta = dt.parse_meta("/* s2s-test: vectorized=? */")
    src = tmp_path / "k.c"
    src.write_text(
        '/* a kernel */\n#include "harness.h"\n#include <immintrin.h>\n'
        "int main(void) { __m256d v = _mm256_set1_pd(2.0);\n"
        '  printf("X v %g\\n", _mm256_cvtsd_f64(v)); return 0; }\n'
    )
    config = dt.CONFIGS["gcc-avx2"]
    flags = dt.prelude_flags(src, config, meta)
    assert flags[0] == "-include" and Path(flags[1] + ".gch").exists()
    dt.compile_c(src, tmp_path / "with", config.cc, config.flags, meta, ("-lm",), flags)
    dt.compile_c(src, tmp_path / "without", config.cc, config.flags, meta, ("-lm",))
    assert (tmp_path / "with").read_bytes() == (tmp_path / "without").read_bytes()
    assert dt.run_binary(tmp_path / "with") == (0, "X v 2\n")
    assert dt.prelude_flags(src, dt.CONFIGS["gcc-neon"], meta) == ()
    for text in (
        '#define _GNU_SOURCE\n#include "harness.h"\n',
        '#include "harness.h"\n#pragma GCC target("avx512f")\n#include <immintrin.h>\n',
        '#include "harness.h"\n#define __AVX512F__ 1\n#include <immintrin.h>\n',
    ):
        other = tmp_path / "o.c"
        other.write_text(text + "int main(void) { return 0; }\n")
        assert dt.prelude_flags(other, config, meta) == (), text
    fine = tmp_path / "f.c"
    fine.write_text(
        '#include "harness.h"\n#define N 8\n#if defined(__AVX2__)\n'
        "#include <immintrin.h>\n#endif\n#pragma GCC unroll 4\n"
    )
    assert dt.prelude_flags(fine, config, meta) != ()


PROGRAM = """/* s2s-test: vectorized=? */
#include <stdio.h>
int main(void) { printf("X a %d\\n", 42); return 0; }
"""


@pytest.mark.parametrize(
    "candidate,kind",
    [
        ('int main(void) { printf("X a %d\\n", 43); return 0; }', "wrong-output"),
        ("int main(void) { int *p = 0; return *(volatile int *)p; }", "crash"),
        ("int main(void) { for (;;) { } }", "timeout"),
        ("int main(void) { return undeclared; }", "compile-error"),
        ('int main(void) { printf("X a %d\\n", 42); return 0; }', None),
    ],
)
def test_candidate_problems_are_classified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, candidate: str, kind: str
) -> None:
    """check_source (used by the kernels and by testsuite/fuzz) names what went wrong."""
    src = tmp_path / "prog.c"
    src.write_text(PROGRAM)
    out = tmp_path / "out"
    out.mkdir()
    (out / "prog.s2s.c").write_text("#include <stdio.h>\n" + candidate + "\n")

    def fake_transform(kernel: Path, variant: str = "all", build: Path = dt.BUILD) -> dt.Transform:
        text = (out / "prog.s2s.c").read_text()
        return dt.Transform(kernel, out, ["s2svec"], 0, "", text, [], "")

    monkeypatch.setattr(dt, "transform", fake_transform)
    problems = dt.check_source(src, dt.CONFIGS["gcc-avx2"], build=tmp_path, run_timeout=3)
    # a crash also shows as missing lines; the first problem is the verdict
    assert [p.kind for p in problems][:1] == ([kind] if kind else [])
    assert problems or kind is None


def test_s2svec_failures_are_classified(tmp_path: Path) -> None:
    tr = dt.Transform(
        tmp_path / "k.c",
        tmp_path,
        ["s2svec"],
        1,
        "Traceback (most recent call last):\n  ...\nKeyError: 'x'",
        None,
        None,
    )
    crash = dt.s2svec_failure(tr)
    assert crash is not None and crash.kind == "s2svec" and "crashed" in crash.text
    tr.stderr, tr.returncode = "k.c:3:1: error: bad clause", 1
    err = dt.s2svec_failure(tr)
    assert err is not None and "exited 1" in err.text
    tr.returncode, tr.output = 0, "int x;"
    assert dt.s2svec_failure(tr) is None


def test_gcc_cflags_reach_gcc_builds_only() -> None:
    """``gcc_cflags`` (the fuzz programs' -frounding-math, a gcc workaround)
    go to gcc and its cross compiler, not to clang: clang 19's strict-FP path
    crashes now and then at -O3 (fuzz seeds 137 and 20603878)."""
    meta = dt.parse_meta('/* s2s-test: vectorized=? cflags="-O1" gcc_cflags="-frounding-math" */\n')
    assert dt.kernel_cflags("gcc", meta) == ["-O1", "-frounding-math"]
    assert dt.kernel_cflags("aarch64-linux-gnu-gcc", meta) == ["-O1", "-frounding-math"]
    assert dt.kernel_cflags("clang-19", meta) == ["-O1"]


def test_candidate_cflags_reach_the_candidate_only(tmp_path: Path) -> None:
    """``candidate_cflags`` (a generated program's -fopenmp-simd or -fopenmp)
    build s2svec's output, not the reference; clang gets gcc's OpenMP
    runtime; candidates find the kernel's own headers."""
    meta = dt.parse_meta('/* s2s-test: vectorized=? candidate_cflags="-fopenmp" */\n')
    assert dt.kernel_cflags("gcc", meta) == []
    assert dt.kernel_cflags("gcc", meta, candidate=True) == ["-fopenmp"]
    kernel = tmp_path / "k.c"
    assert dt.candidate_flags("clang-19", meta, kernel) == (
        "-fopenmp=libgomp",
        "-iquote",
        str(tmp_path),
    )


def test_a_kernels_own_headers_key_its_builds(tmp_path: Path) -> None:
    kernel = tmp_path / "k.c"
    kernel.write_text('#include "harness.h"\n#include "k_own.h"\nint main(void) { return 0; }\n')
    (tmp_path / "k_own.h").write_text("#define A 1\n")
    before = dt._ref_directory(kernel, tmp_path)
    (tmp_path / "k_own.h").write_text("#define A 2\n")
    assert dt._ref_directory(kernel, tmp_path) != before
    assert dt.own_headers(kernel) == b"#define A 2\n"


# --- warnings about s2svec's code ----------------------------------------------

ORIGINAL = "int f(int n)\n{\n    int unused_user;\n    return n;\n}\n"
OUTPUT = (
    "int f(int n)\n{\n    int unused_user;\n    int s2s_t_0;\n    s2s_t_0 = n;\n    return n;\n}\n"
)


def _messages(path: Path, *lines: tuple[int, str, str]) -> str:
    return "".join(
        f"{path}:{line}:5: warning: {text} [{flag}]\n  note: ...\n" for line, text, flag in lines
    )


def test_warnings_in_lines_s2svec_wrote_are_its_own(tmp_path: Path) -> None:
    out = tmp_path / "k.s2s.c"
    messages = _messages(
        out,
        (4, "variable ‘s2s_t_0’ set but not used", "-Wunused-but-set-variable"),
        (3, "unused variable ‘unused_user’", "-Wunused-variable"),
    )
    found = dt.own_warnings(ORIGINAL, OUTPUT, out, messages, None)
    assert len(found) == 1 and "s2s_t_0" in found[0]
    # a header's warnings are not the output's
    assert (
        dt.own_warnings(
            ORIGINAL, OUTPUT, out, _messages(tmp_path / "harness.h", (4, "x", "-Wunused")), None
        )
        == []
    )


def test_unused_warnings_at_user_lines_compare_with_the_reference(tmp_path: Path) -> None:
    """Under gcc, an unused-name warning at one of the user's lines is
    s2svec's unless the (gcc) reference has it too, quoted the same."""
    out, src = tmp_path / "k.s2s.c", tmp_path / "k.c"
    messages = _messages(out, (3, "unused variable ‘unused_user’", "-Wunused-variable"))
    reference = dt.parse_warnings(
        _messages(src, (3, "unused variable ‘unused_user’", "-Wunused-variable")), src
    )
    assert dt.own_warnings(ORIGINAL, OUTPUT, out, messages, reference) == []
    assert dt.own_warnings(ORIGINAL, OUTPUT, out, messages, []) != []
    clang = _messages(out, (3, "unused variable 'unused_user'", "-Wunused-variable"))
    assert dt.own_warnings(ORIGINAL, OUTPUT, out, clang, reference) == []


def test_builds_warn_with_wall_wextra() -> None:
    assert {"-Wall", "-Wextra"} <= set(dt.COMMON_FLAGS)


def test_a_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    """A compile that times out takes its children with it (clang's cc1
    outlived its killed driver by an hour, at 18 GB)."""
    import os
    import subprocess
    import time

    pid_file = tmp_path / "child.pid"
    start = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        dt.run_group(["sh", "-c", f"sleep 60 & echo $! > {pid_file}; wait"], 1.0, text=True)
    # a child left alive would hold the output pipe open until it ends
    assert time.monotonic() - start < 30
    child = int(pid_file.read_text())
    for _ in range(50):  # reaped by init once killed
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    raise AssertionError(f"the child {child} of the timed-out command still runs")


def test_scalable_configs_share_out_their_vector_lengths() -> None:
    """Each program runs at two neighbouring vector lengths of a scalable
    configuration, chosen by its name; over the kernels every length is
    used; S2S_MATRIX=full runs them all."""
    for name in ("gcc-sve", "clang19-rvv"):
        cfg = dt.CONFIGS[name]
        every = {run for _, run in cfg.runs("x", full=True)}
        assert len(every) == len(cfg.cpus) >= 4
        used: set[tuple[str, ...]] = set()
        for k in KERNELS:
            runs = [run for _, run in cfg.runs(k.stem, full=False)]
            assert len(runs) == dt.RUN_LENGTHS and set(runs) <= every
            assert runs == [run for _, run in cfg.runs(k.stem, full=False)]  # stable
            used |= set(runs)
        assert used == every
    assert dt.CONFIGS["gcc-neon"].runs("x") == [("", ("qemu-aarch64",))]


def test_scalar_in_looks_at_the_branch_taken() -> None:
    """A kernel that keeps a configuration on the original code fails when
    the build takes a vector branch, not when unused helper functions of the
    output's prelude hold intrinsics."""
    cfg = dt.CONFIGS["clang19-neon"]
    meta = dt.parse_meta('/* s2s-test: vectorized=1 scalar_in="clang*" */')
    output = "/* s2svec branch: neon code of the loop at k.c:3:1 */\nvaddq_f32(a, b);\n"
    marked = dt._mark_branches(output)
    assert dt.check_output_text("", output, meta, cfg, marked)
    prelude = "static inline float32x4_t h(float32x4_t a) { return vaddq_f32(a, a); }\n"
    scalar = dt._mark_branches("/* s2svec branch: scalar code of the loop at k.c:3:1 */\n")
    assert dt.check_output_text("", output, meta, cfg, prelude + scalar) == []
