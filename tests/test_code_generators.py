"""The vector code at other interleavings than the cost model's, on the
testsuite kernels.

The differential suite (tests/test_differential.py) checks the default
output on every kernel and configuration.  Here the other ways of writing it
are checked the same way (the original and the output built and run on the
same inputs, compared as the kernel's metadata says, the output
warning-free), with gcc for AVX-512, AVX2 and NEON (qemu):

- ``--interleave 1``: one vector per trip for every loop;
- ``--interleave 2``: two vectors per trip for every loop, cut into
  registers by s2s/codegen/legalize.py.

In the suite: a fixed sample of the kernels (about one in sixteen, by a
hash of the name, so that a new kernel does not move the others in or
out); ``S2S_CODEGEN_KERNELS=all`` runs them all.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import zlib
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsuite"))
import differential as dt

CONFIGS = [
    dataclasses.replace(dt.CONFIGS[name], name=f"{name}-{variant}", variant=variant)
    for name in ("gcc-v4", "gcc-avx2", "gcc-neon")
    for variant in ("x1", "x2")
]


def _kernels() -> list[Path]:
    simd = [k for k in dt.list_kernels() if "simd" in dt.kernel_text(k)]
    if os.environ.get("S2S_CODEGEN_KERNELS") == "all":
        return simd
    return [k for k in simd if zlib.crc32(k.stem.encode()) % 16 == 0]


KERNELS = _kernels()


@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
@pytest.mark.parametrize("kernel", KERNELS, ids=[k.stem for k in KERNELS])
def test_kernel_through_another_code_generator(kernel: Path, config: dt.Config) -> None:
    reason = dt.skip_reason(config)
    if reason:
        pytest.skip(reason)
    dt.check_kernel(kernel, config)


def test_the_sample_is_not_empty() -> None:
    assert len(KERNELS) >= 12


sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsuite" / "fuzz"))
import run  # noqa: E402  the fuzz driver, after its folder is on the path

VIR_REGRESSIONS = [57, 124, 186]
"""CI fuzz seeds (``--small``) that went wrong through the vector IR path:
57 and 124 computed wrong results (a uniform pure call under a divergent
mask took lane 0 of a masked vector call; a contiguous access walking
downwards was read upwards), 186 left a mask variable unused (-Wall).
The vector IR path is the default code generator, so the default
configurations build them."""


@pytest.mark.parametrize("seed", VIR_REGRESSIONS, ids=lambda s: f"seed_{s}")
def test_fuzz_regressions_of_the_vector_ir(seed: int) -> None:
    configs = ["gcc-v4", "gcc-avx2"]
    result = run.run_program(seed, configs, options=run.CI_OPTIONS, run_timeout=20.0)
    problems = [f"{c.config}: {c.kind}\n{c.detail}" for c in result.failures]
    assert [c.config for c in result.results] == configs
    assert not problems, f"fuzz seed {seed}:\n" + "\n\n".join(problems)
