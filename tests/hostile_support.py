"""Shared helpers of the hostile-input tests (no tests here).

``vectorize`` runs the s2svec command on C text and checks what every run
must show whatever the input: no Python traceback, and each warning or error
in the compiler convention ``file:line:col: severity: text``.
``compile_everywhere`` builds the output for every target with the flags a
user would use, so that an output that does not compile fails the test.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "testsuite"))
import differential as dt  # noqa: E402  found through the sys.path entry above

COMPILERS = {
    "avx512": ["gcc", "-mavx512f", "-mavx512dq", "-mavx512bw", "-mavx512vl", "-mavx2", "-mfma"],
    "avx2": ["gcc", "-mavx2", "-mfma"],
    "neon": ["aarch64-linux-gnu-gcc"],
}
_DIAG = re.compile(
    r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>warning|error): "
    r"(?P<text>.+)$"
)


@dataclass
class Run:
    returncode: int
    stderr: str
    output: Path
    source: Path

    def diagnostics(self, severity: str) -> list[re.Match[str]]:
        """The ``file:line:col: severity: text`` lines of stderr."""
        found = []
        for line in self.stderr.splitlines():
            m = _DIAG.match(line)
            if m and m["sev"] == severity:
                found.append(m)
        return found

    def warning_at(self, line: int, *words: str) -> re.Match[str]:
        """The warning at ``line`` of the source that contains every word."""
        for m in self.diagnostics("warning"):
            if int(m["line"]) == line and all(w in m["text"] for w in words):
                assert m["file"].endswith(self.source.name), m.group(0)
                return m
        raise AssertionError(f"no warning at line {line} with {words}:\n{self.stderr}")

    def vectorized_loops(self) -> int:
        """How many loops the output holds an #if chain for."""
        if not self.output.exists():
            return 0
        return self.output.read_text(errors="replace").count("#elif defined(__AVX2__)")


FIXED_TARGETS = "avx512,avx2,neon"
"""The targets of the hostile inputs' output unless a test names others:
the ones compile_everywhere builds (each more target is more s2svec time
on inputs made to be slow)."""


def vectorize(
    tmp_path: Path, code: str | bytes, *args: str, name: str = "k.c", timeout: int = 600
) -> Run:
    """Run s2svec on ``code``; no traceback, every diagnostic located."""
    src = tmp_path / name
    if isinstance(code, bytes):
        src.write_bytes(code)
    else:
        src.write_text(code)
    out = tmp_path / "out.c"
    if not any(a.startswith("--target") for a in args):
        args = (*args, "--target", FIXED_TARGETS)  # what compile_everywhere builds
    r = subprocess.run(
        dt.s2svec_command() + [str(src), "-o", str(out), *args],
        capture_output=True,
        text=True,
        errors="replace",
        timeout=timeout,
        cwd=tmp_path,
    )
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    assert "Exception ignored" not in r.stderr, r.stderr[-3000:]
    for line in r.stderr.splitlines():
        if re.search(r"(^|: )(warning|error): ", line):
            assert _DIAG.match(line) or line.startswith("s2svec: "), (
                f"diagnostic without file:line:col: {line!r}"
            )
    return Run(r.returncode, r.stderr, out, src)


def compile_everywhere(path: Path) -> None:
    """Compile ``path`` (``-c``) for AVX-512, AVX2 and NEON; every build must succeed."""
    for target, command in COMPILERS.items():
        if shutil.which(command[0]) is None:
            pytest.skip(f"needs {command[0]} for {target}")
        r = subprocess.run(
            [*command, "-O1", "-c", str(path), "-o", "/dev/null"],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=600,
        )
        assert r.returncode == 0, f"{target}: {' '.join(command)}\n{r.stderr[-3000:]}"
