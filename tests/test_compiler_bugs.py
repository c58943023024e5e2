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

A third, clang 19's (program generator seed 20607491), is in code for
every -march with AVX2: a 2-lane vector of 32-bit ints stored with one 64-bit
store into an array read back lane by lane became one 64-bit index for lane
0 (kernel clang19_lane_pair_index; testsuite/fuzz/compiler_bugs/
clang19_lane_pair_index/).

The gcc bugs hide from most builds: the first needs the AVX2 code compiled with
AVX-512 enabled, which happens only with ``--target avx2`` and a -march that
has AVX-512.  The differential matrix (testsuite/README.md) has those builds
but gives each kernel only some of them by default; the kernels written for
the bugs, and the kernels whose selects, guarded loads, fmin/fmax and 64-bit
max go through the same templates, run here on every configuration of the
matrix (gcc, clang and clang-19 with -O2 -mavx2 -mfma, -O3 -march=x86-64-v3,
-O2 -march=native and -O3 -march=x86-64-v4, the AVX2-only output under the
last two, and the NEON builds).

    .venv/bin/pytest -q -n 2 tests/test_compiler_bugs.py
    .venv/bin/pytest -q tests/test_compiler_bugs.py -k "select_negated_mask and gcc"
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsuite"))
import differential as dt

KERNELS = [
    "select_negated_mask",
    "gather_guarded_narrow",
    "ternary_select",
    "divergent_if_guarded",
    "math_exact_fmin_fmax",
    "reduction_max_i64",
    "gather_index",
    "clang19_lane_pair_index",
]

CASES = [
    pytest.param(
        k,
        name,
        id=f"{k}-{name}",
        marks=[pytest.mark.skip(reason=r)] if (r := dt.skip_reason(c)) else [],
    )
    for name, c in dt.CONFIGS.items()
    for k in KERNELS
]


@pytest.mark.parametrize("kernel,config", CASES)
def test_kernel_on_the_whole_matrix(kernel: str, config: str) -> None:
    dt.check_kernel(dt.KERNELS / f"{kernel}.c", dt.CONFIGS[config])


CLANG19_HANG_SEEDS = {
    12: "hangs clang-19 with the mask or as C operators",
    18: "hangs clang-19 with the mask and and andn both as C operators",
    37: "hangs clang-19 with the mask and and xor both as C operators",
}
"""CI fuzz programs (``--small``) that hung clang-19's back end (LLVM issue
123333) when mask logic the AVX-512 helpers keep in asm was written in C
(templates/README.md): each must build and run on the clang-19 AVX-512
configurations, whose compiles have the suite's time limit."""


@pytest.mark.parametrize("seed", sorted(CLANG19_HANG_SEEDS), ids=lambda s: f"seed_{s}")
def test_clang19_avx512_mask_logic_programs(seed: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsuite" / "fuzz"))
    import run

    configs = [c for c in ("clang19-native", "clang19-v4") if not dt.skip_reason(dt.CONFIGS[c])]
    if not configs:
        pytest.skip("no AVX-512 clang-19 configuration runs here")
    result = run.run_program(seed, configs, options=run.CI_OPTIONS)
    problems = [f"{c.config}: {c.kind}\n{c.detail}" for c in result.failures]
    assert not problems, f"seed {seed} ({CLANG19_HANG_SEEDS[seed]}):\n" + "\n".join(problems)
