"""Bad input and bad usage: exit status, diagnostic format, and no output left behind.

The contract (docs/team.md, DESIGN.md section 1): exit 0 on success (also when
loops stay scalar, each with a ``file:line:col: warning: ...``), 1 when the
input cannot be processed (missing/unreadable file, parse error, bad clause,
unwritable output) with OUTPUT not created or left untouched, 2 on bad usage.
The input is never modified; text that is not an annotated loop is kept.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsuite"))
import differential as dt  # noqa: E402

ROOT = dt.ROOT

GOOD = """\
void scale(int n, double *a, double s)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        a[i] = a[i] * s;
}
"""

UNANNOTATED = """\
/* no pragma here: the output must be this file, byte for byte */
#include <math.h>
#define TWICE(x) ((x) + (x))   // a macro

static double f(const double *a, int n)
{
    double s = 0;   /* trailing spaces follow */   
    for (int i = 0; i < n; i++)
\ts += TWICE(sqrt(a[i]));
    return s;
}
"""

GOTO_LOOP = """\
void g(int n, int *a)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        if (a[i] > 3)
            goto skip;
        a[i] = a[i] * 2;
    skip:
        ;
    }
}
"""
GOTO_LOOP_TEXT = GOTO_LOOP[GOTO_LOOP.index("    for"):GOTO_LOOP.rindex("    }\n") + 6]

SENTINEL = b"/* an existing output file that must not be touched */\n"


def run(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    cmd = dt.s2svec_command() + [str(a) for a in args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=cwd or ROOT)


def diagnostics(stderr: str, severity: str) -> list[str]:
    """Lines of the form ``something: severity: text``."""
    return [ln for ln in stderr.splitlines() if re.search(rf"(^|: ){severity}: ", ln)]


def assert_error_format(stderr: str, file_hint: str | None = None) -> str:
    """One ``error:`` diagnostic in compiler style, lower-case, no final period."""
    errs = diagnostics(stderr, "error")
    assert errs, f"no 'error:' diagnostic in stderr:\n{stderr}"
    line = errs[0]
    m = re.match(r"^(?P<where>.+?): error: (?P<text>.+)$", line)
    assert m, line
    text = m["text"]
    assert text[0] == text[0].lower(), f"diagnostic should start lower-case: {line!r}"
    assert not text.rstrip().endswith("."), f"diagnostic should not end with a period: {line!r}"
    if file_hint is not None:
        assert file_hint in line, f"diagnostic should name {file_hint!r}: {line!r}"
    return line


def assert_located(line: str, path_name: str, expect_line: int) -> None:
    """``<...path_name>:LINE:COL: error|warning:`` with the given line."""
    m = re.match(rf"^(?P<file>[^:]*{re.escape(path_name)}):(?P<line>\d+):(?P<col>\d+): ", line)
    assert m, f"expected '{path_name}:LINE:COL: ...', got {line!r}"
    assert int(m["line"]) == expect_line, f"expected line {expect_line}: {line!r}"
    assert int(m["col"]) >= 1, line


def listing(d: Path) -> list[str]:
    return sorted(p.name for p in d.iterdir())


# --- exit 1: input cannot be processed -------------------------------------------


def test_missing_input_file(tmp_path: Path) -> None:
    out = tmp_path / "out.c"
    r = run(tmp_path / "nope.c", "-o", out)
    assert r.returncode == 1, r.stderr
    assert_error_format(r.stderr, "nope.c")
    assert not out.exists()
    assert listing(tmp_path) == []


def test_missing_input_leaves_existing_output(tmp_path: Path) -> None:
    out = tmp_path / "out.c"
    out.write_bytes(SENTINEL)
    r = run(tmp_path / "nope.c", "-o", out)
    assert r.returncode == 1, r.stderr
    assert out.read_bytes() == SENTINEL
    assert listing(tmp_path) == ["out.c"]


def test_directory_as_input(tmp_path: Path) -> None:
    d = tmp_path / "adir.c"
    d.mkdir()
    out = tmp_path / "out.c"
    r = run(d, "-o", out)
    assert r.returncode == 1, r.stderr
    assert_error_format(r.stderr, "adir.c")
    assert not out.exists()


def without_root_file_access() -> list[str]:
    """Root reads files whatever their mode; without the DAC capabilities
    (util-linux setpriv) it obeys permissions like any user."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def test_unreadable_input(tmp_path: Path) -> None:
    src = tmp_path / "locked.c"
    src.write_text(GOOD)
    src.chmod(0)
    out = tmp_path / "out.c"
    try:
        cmd = without_root_file_access() + dt.s2svec_command() + [str(src), "-o", str(out)]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT)
    finally:
        src.chmod(0o644)
    assert r.returncode == 1, r.stderr
    assert_error_format(r.stderr, "locked.c")
    assert not out.exists()


def test_parse_error(tmp_path: Path) -> None:
    src = tmp_path / "broken.c"
    src.write_text("int ok(void) { return 0; }\n\nint f(int n {\n    return n +;\n}\n")
    out = tmp_path / "out.c"
    out.write_bytes(SENTINEL)
    before = src.read_bytes()
    r = run(src, "-o", out)
    assert r.returncode == 1, r.stderr
    line = assert_error_format(r.stderr, "broken.c")
    m = re.match(r"^[^:]*broken\.c:(\d+):(\d+): error: ", line)
    assert m, f"parse errors need file:line:col, got {line!r}"
    assert int(m[1]) in (3, 4), line
    assert out.read_bytes() == SENTINEL
    assert src.read_bytes() == before
    assert listing(tmp_path) == ["broken.c", "out.c"]


@pytest.mark.parametrize("clause", [
    "simdlen(3)",
    "simdlen(0)",
    "safelen(-4)",
    "reduction(/:s)",
    "reduction(+:nosuch)",
    "private(s) lastprivate(s)",
    "simdlen(8) safelen(4)",
    "linear(i:)",
    "collapse(0)",
])
def test_bad_clause(tmp_path: Path, clause: str) -> None:
    src = tmp_path / "clause.c"
    src.write_text(
        "double f(int n, const double *a)\n"
        "{\n"
        "    double s = 0;\n"
        f"#pragma omp simd {clause}\n"
        "    for (int i = 0; i < n; i++)\n"
        "        s += a[i];\n"
        "    return s;\n"
        "}\n")
    out = tmp_path / "out.c"
    r = run(src, "-o", out)
    assert r.returncode == 1, f"{clause}: exit {r.returncode}\n{r.stderr}"
    line = assert_error_format(r.stderr, "clause.c")
    assert_located(line, "clause.c", 4)
    assert not out.exists()
    assert listing(tmp_path) == ["clause.c"]


def test_output_in_missing_directory(tmp_path: Path) -> None:
    src = tmp_path / "good.c"
    src.write_text(GOOD)
    out = tmp_path / "no" / "such" / "dir" / "out.c"
    r = run(src, "-o", out)
    assert r.returncode == 1, r.stderr
    assert_error_format(r.stderr)
    assert not (tmp_path / "no").exists()
    assert listing(tmp_path) == ["good.c"]


def test_output_is_a_directory(tmp_path: Path) -> None:
    src = tmp_path / "good.c"
    src.write_text(GOOD)
    out = tmp_path / "outdir"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    r = run(src, "-o", out)
    assert r.returncode == 1, r.stderr
    assert_error_format(r.stderr)
    assert out.is_dir() and listing(out) == ["keep.txt"]
    assert listing(tmp_path) == ["good.c", "outdir"]


def test_output_below_a_regular_file(tmp_path: Path) -> None:
    src = tmp_path / "good.c"
    src.write_text(GOOD)
    blocker = tmp_path / "file.txt"
    blocker.write_bytes(SENTINEL)
    r = run(src, "-o", blocker / "out.c")
    assert r.returncode == 1, r.stderr
    assert_error_format(r.stderr)
    assert blocker.read_bytes() == SENTINEL
    assert listing(tmp_path) == ["file.txt", "good.c"]


# --- exit 0 with a warning: unsupported construct ---------------------------------


def test_goto_in_simd_loop_stays_scalar(tmp_path: Path) -> None:
    src = tmp_path / "jump.c"
    src.write_text(GOTO_LOOP)
    out = tmp_path / "out.c"
    r = run(src, "-o", out)
    assert r.returncode == 0, r.stderr
    warns = diagnostics(r.stderr, "warning")
    assert warns, f"expected a warning, stderr:\n{r.stderr}"
    assert not diagnostics(r.stderr, "error"), r.stderr
    w = next((ln for ln in warns if "jump.c" in ln), warns[0])
    m = re.match(r"^[^:]*jump\.c:(\d+):(\d+): warning: (.+)$", w)
    assert m, f"warning needs file:line:col: {w!r}"
    assert int(m[1]) in (3, 4, 6), w          # the pragma, the loop or the goto
    assert "goto" in m[3].lower(), f"the warning should name the construct: {w!r}"
    text = out.read_text()
    assert GOTO_LOOP_TEXT in text, "the loop must stay as the original text"
    assert "_mm" not in text.replace(GOTO_LOOP_TEXT, "")


def test_goto_report_says_why(tmp_path: Path) -> None:
    src = tmp_path / "jump.c"
    src.write_text(GOTO_LOOP)
    out, rep = tmp_path / "out.c", tmp_path / "r.json"
    r = run(src, "-o", out, "--report=json", "--report-file", rep)
    assert r.returncode == 0, r.stderr
    import json
    entries = json.loads(rep.read_text())
    assert entries and all(e["vectorized"] is False for e in entries), entries
    assert all(isinstance(e["reason"], str) and e["reason"] for e in entries), entries


# --- exit 2: bad usage -----------------------------------------------------------------


@pytest.mark.parametrize("args", [
    [],
    ["--frobnicate", "IN", "-o", "OUT"],
    ["IN", "-o", "OUT", "--target", "sse9"],
    ["IN", "-o", "OUT", "--target", "avx2,bogus"],
    ["IN", "-o", "OUT", "--report=xml"],
    ["IN", "-o", "OUT", "--math", "fast"],
    ["IN", "-o", "OUT", "--std", "c42"],
    ["IN", "-o"],
])
def test_bad_usage(tmp_path: Path, args: list[str]) -> None:
    src = tmp_path / "good.c"
    src.write_text(GOOD)
    out = tmp_path / "out.c"
    real = [str(src) if a == "IN" else str(out) if a == "OUT" else a for a in args]
    r = run(*real)
    assert r.returncode == 2, f"{args}: exit {r.returncode}\n{r.stderr}"
    assert r.stderr.strip(), "bad usage should say what is wrong"
    assert not out.exists()
    assert src.read_text() == GOOD


def test_help_exits_zero() -> None:
    r = run("--help")
    assert r.returncode == 0, r.stderr
    assert "--target" in r.stdout


# --- the input is never modified; un-annotated text is kept --------------------------


def test_input_never_modified(tmp_path: Path) -> None:
    src = tmp_path / "good.c"
    src.write_text(GOOD)
    st = src.stat()
    out = tmp_path / "out.c"
    r = run(src, "-o", out)
    assert r.returncode == 0, r.stderr
    assert src.read_text() == GOOD
    assert src.stat().st_mtime_ns == st.st_mtime_ns
    assert out.exists() and out.read_text() != GOOD
    assert listing(tmp_path) == ["good.c", "out.c"], "no temporary files left behind"


def test_unannotated_file_is_byte_identical(tmp_path: Path) -> None:
    src = tmp_path / "plain.c"
    src.write_bytes(UNANNOTATED.encode())
    out = tmp_path / "out.c"
    r = run(src, "-o", out)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == UNANNOTATED.encode()
    assert not diagnostics(r.stderr, "error"), r.stderr


def test_existing_output_is_replaced_on_success(tmp_path: Path) -> None:
    src = tmp_path / "plain.c"
    src.write_bytes(UNANNOTATED.encode())
    out = tmp_path / "out.c"
    out.write_bytes(SENTINEL)
    r = run(src, "-o", out)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == UNANNOTATED.encode()
