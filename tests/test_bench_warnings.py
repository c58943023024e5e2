"""s2svec's code in the output of the bench kernels is warning-clean.

The testsuite kernels are checked by the differential driver, whose builds
all have ``-Wall -Wextra`` (testsuite/differential.py, ``own_warnings``);
bench/kernels are built only by the bench runner, so here each kernel's
output (all targets) is compiled once per vector branch, by gcc (its
warnings need the optimizers: ``-O3 -c``) and clang-19 (``-fsyntax-only``),
and must draw no warning about code s2svec wrote, by the same rule.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "testsuite"))
import differential as dt  # noqa: E402  found through the sys.path entry above

KERNELS = sorted((ROOT / "bench" / "kernels").glob("*.c"))
BRANCHES = {
    "avx512": ("-march=x86-64-v4",),
    "avx2": ("-mavx2", "-mfma"),
    "neon": ("--target=aarch64-linux-gnu",),
}
COMPILERS = {"gcc": ("-O3", "-c", "-o", "/dev/null"), "clang-19": ("-fsyntax-only",)}
CROSS_GCC = "aarch64-linux-gnu-gcc"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bench_warnings")


def _command(cc: str, branch: str, source: Path) -> list[str]:
    flags = BRANCHES[branch]
    if cc == "gcc" and branch == "neon":
        return [CROSS_GCC, *COMPILERS[cc], str(source)]
    return [cc, *flags, *COMPILERS[cc], str(source)]


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.stem)
def test_bench_kernel_output_is_warning_clean(outputs: Path, kernel: Path) -> None:
    out = outputs / f"{kernel.stem}.s2s.c"
    r = subprocess.run(
        [sys.executable, "-m", "s2s", str(kernel), "-o", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    original, output = kernel.read_text(), out.read_text()
    found = []
    for cc in COMPILERS:
        for branch in BRANCHES:
            cmd = _command(cc, branch, out)
            if shutil.which(cmd[0]) is None:
                pytest.skip(f"{cmd[0]} is not installed (scripts/setup.sh installs it)")
            proc = subprocess.run([*cmd, *dt.COMMON_FLAGS], capture_output=True, text=True)
            assert proc.returncode == 0, proc.stderr[-3000:]
            found += [
                f"{' '.join(cmd[:2])}: {w}"
                for w in dt.own_warnings(original, output, out, proc.stderr, None)
            ]
    assert not found, "\n".join(found)


def _bench_run():  # -> the bench runner module (bench/run.py)
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_run", module)
    spec.loader.exec_module(module)
    return module


HAND = sorted((ROOT / "bench" / "hand").glob("*/*.c"))
HAND_FLAGS = {"avx512": ("-march=x86-64-v4",), "avx2": ("-march=x86-64-v3",)}


@pytest.mark.parametrize("hand", HAND, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_hand_written_bench_versions_are_warning_free(outputs: Path, hand: Path) -> None:
    """bench/hand/<target>/<kernel>.c, spliced into its kernel's harness as
    the runner does, draws no warning at all from gcc or clang-19 with
    -Wall -Wextra (hand-written code has no excuse)."""
    run = _bench_run()
    program = outputs / f"{hand.stem}.{hand.parent.name}.hand.c"
    program.write_text(run.hand_program(ROOT / "bench" / "kernels" / hand.name, hand))
    for cc, flags in COMPILERS.items():
        if shutil.which(cc) is None:
            pytest.skip(f"{cc} is not installed (scripts/setup.sh installs it)")
        cmd = [cc, *HAND_FLAGS[hand.parent.name], "-Wall", "-Wextra", *flags, str(program)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        assert proc.returncode == 0 and not proc.stderr.strip(), f"{' '.join(cmd)}:\n{proc.stderr}"
