"""s2svec's output must survive the compiler bugs the x86 templates avoid.

Issue 10 found two gcc 12.2 bugs in code the x86 templates emitted (see
templates/README.md, "Compiler bugs the templates avoid"):

* wrong code: with AVX-512VL enabled (-march=native on an AVX-512 machine,
  -march=x86-64-v4) gcc turns ``_mm256_blendv_epi8(b, a, ~m)`` (and the
  128-bit form) into a ``vpblendvb`` on ``m``, so an AVX2 select whose mask is
  a negation (``>=``, ``!=``, an else arm) takes the wrong arm in every lane;
* a crash (``could not split insn``, internal compiler error in
  final_scan_insn_1): a vector of 8/16/32-bit integers loaded into the low
  part of a register, widened with vpmovzx/vpmovsx and merged under an
  AVX-512 mask becomes a masked extend-from-memory gcc cannot emit.

Both hide from the standard differential configurations: the first needs the
AVX2 code compiled with AVX-512 enabled, which happens only with
``--target avx2`` and a -march that has AVX-512.  So this file builds a few
kernels with gcc, clang (14) and clang-19 under -O2 -mavx2 -mfma,
-O3 -march=x86-64-v3, -O2 -march=native and -O3 -march=x86-64-v4 and compares
each with the original program built the same way; testsuite/differential.py
does the work (``check_kernel`` with a configuration made here, not one of
its CONFIGS).  The default output (every target; the preprocessor picks the
branch) is built with every flag set; the AVX2-only output with the two flag
sets that can enable AVX-512.

    .venv/bin/pytest -q -n 2 tests/test_compiler_bugs.py
    .venv/bin/pytest -q tests/test_compiler_bugs.py -k "select_negated_mask and gcc"
"""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsuite"))
import differential as dt  # noqa: E402

from s2s.codegen.target import load_target  # noqa: E402

# The kernels written for the two bugs, and existing kernels whose selects,
# guarded loads, fmin/fmax and 64-bit max go through the same templates.
KERNELS = [
    "select_negated_mask",
    "gather_guarded_narrow",
    "ternary_select",
    "divergent_if_guarded",
    "math_exact_fmin_fmax",
    "reduction_max_i64",
    "gather_index",
]

COMPILERS = ("gcc", "clang", "clang-19")
FLAG_SETS: dict[str, tuple[str, ...]] = {
    "O2-avx2": ("-O2", "-mavx2", "-mfma"),
    "O3-v3": ("-O3", "-march=x86-64-v3"),
    "O2-native": ("-O2", "-march=native"),
    "O3-v4": ("-O3", "-march=x86-64-v4"),
}
# flag sets under which AVX2 code can meet AVX-512 instruction selection
AVX512_CAPABLE = ("O2-native", "O3-v4")
# CPU features a binary built with the flag set needs (none for -march=native)
CPU_NEEDS = {"O2-avx2": ("avx2", "fma"), "O3-v3": ("avx2", "fma", "bmi2"),
             "O2-native": (), "O3-v4": ("avx512f", "avx512bw", "avx512dq", "avx512vl")}

AVX2_ONLY = "avx2-only"
DEFAULT = "all-targets"


@functools.lru_cache(maxsize=None)
def predefined(cc: str, flags: tuple[str, ...]) -> frozenset[str]:
    """Macros the compiler predefines under `flags` (to know which #if branch it takes)."""
    proc = subprocess.run([cc, *flags, "-dM", "-E", "-x", "c", os.devnull],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return frozenset(line.split()[1] for line in proc.stdout.splitlines() if line.startswith("#define "))


def avx2_only_kernel(kernel: Path) -> Path:
    """A copy of `kernel` whose metadata adds ``--target avx2`` (under testsuite/.build)."""
    text = kernel.read_text()
    meta = dt.parse_meta(text)
    args = " ".join(["--target", "avx2", *meta.args])

    def rewrite(m: re.Match[str]) -> str:
        body = re.sub(r'\s*args="[^"]*"', "", m.group(1))
        return f'/* s2s-test: args="{args}"{body}*/'

    derived = dt._META_RE.sub(rewrite, text, count=1)
    assert dt.parse_meta(derived).args[:2] == ("--target", "avx2")
    out = dt.BUILD / "compiler-bugs" / f"{kernel.stem}.avx2only.c"
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.exists() or out.read_text() != derived:
        tmp = out.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(derived)
        os.replace(tmp, out)
    return out


def skip_reason(cc: str, flag_set: str) -> Optional[str]:
    if shutil.which(cc) is None:
        return f"{cc} is not installed"
    missing = [f for f in CPU_NEEDS[flag_set] if f not in dt._cpu_flags()]
    return f"CPU lacks {' '.join(missing)}" if missing else None


CASES = [
    pytest.param(k, variant, cc, fs, id=f"{k}-{variant}-{cc}-{fs}",
                 marks=[pytest.mark.skip(reason=r)] if (r := skip_reason(cc, fs)) else [])
    for variant in (DEFAULT, AVX2_ONLY)
    for fs in FLAG_SETS
    if variant == DEFAULT or fs in AVX512_CAPABLE
    for cc in COMPILERS
    for k in KERNELS
]


@pytest.mark.parametrize("kernel,variant,cc,flag_set", CASES)
def test_kernel_under_flag_matrix(kernel: str, variant: str, cc: str, flag_set: str) -> None:
    flags = FLAG_SETS[flag_set]
    path = dt.KERNELS / f"{kernel}.c"
    if variant == AVX2_ONLY:
        path = avx2_only_kernel(path)
        target = "avx2"
    else:
        target = "avx512" if "__AVX512F__" in predefined(cc, flags) else "avx2"
    assert "__AVX2__" in predefined(cc, flags), f"{cc} {' '.join(flags)} does not enable AVX2"
    config = dt.Config(
        name=f"{cc}-{flag_set}", cc=cc, flags=flags, target=target,
        intrinsics=dt.AVX512_RE if target == "avx512" else dt.AVX2_RE,
        candidate_libs=("-lmvec", "-lm"))
    dt.check_kernel(path, config)


# --- the matrix itself, and the two rules on the rendered templates -----------------------------

def test_the_flag_matrix_reaches_both_templates() -> None:
    """-O3 -march=x86-64-v4 compiles the AVX-512 branch, -O3 -march=x86-64-v3 the AVX2 one, so the
    AVX2-only cases are the only place where the AVX2 templates meet AVX-512 code generation."""
    assert "__AVX512VL__" in predefined("gcc", FLAG_SETS["O3-v4"])
    assert "__AVX512F__" not in predefined("gcc", FLAG_SETS["O3-v3"])


def test_avx2_selects_never_blend_bytes_on_a_computed_mask() -> None:
    tg = load_target("avx2")
    ops = tg.ops(lambda n: "")
    for t in tg.types.values():
        mt = tg.mask_type(t.bits, t.lanes)
        text = str(ops.select(t=t, m="m", a="a", b="b", mt=mt))
        assert "blendv_epi8" not in text, (t.key, text)
        if t.is_int:
            assert "blendv_epi8" not in str(ops.min(t=t, a="a", b="b")) + str(ops.max(t=t, a="a", b="b"))


def test_avx512_partial_integer_loads_are_masked_loads() -> None:
    tg = load_target("avx512")
    ops = tg.ops(lambda n: "")
    for t in tg.types.values():
        if t.is_int and t.fill > t.lanes:
            text = str(ops.load(t=t, p="p"))
            assert "_maskz_loadu_" in text and "loadl" not in text, (t.key, text)
