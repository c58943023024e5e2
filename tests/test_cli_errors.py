"""Bad input and bad usage: exit status, diagnostic format, and no output left behind.

The contract (docs/user/command-line.rst, "Exit status and diagnostics"):
exit 0 on success (also when loops stay scalar, each with a
``file:line:col: warning: ...``), 1 when the input cannot be processed
(missing/unreadable file, parse error, bad clause, unwritable output) with
OUTPUT not created or left untouched, 2 on bad usage.
The input is never modified; text that is not an annotated loop is kept.
Never a traceback (an unexpected exception is one ``internal error`` line),
never a destroyed file: the output is never the input, symlinks are written
through, devices and FIFOs are never replaced, an interrupt (exit 130/143)
leaves neither a half-written output nor a temporary file.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsuite"))
import differential as dt

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
    double s = 0;   /* trailing spaces follow */  \x20
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
GOTO_LOOP_TEXT = GOTO_LOOP[GOTO_LOOP.index("    for") : GOTO_LOOP.rindex("    }\n") + 6]

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


def test_gnu_nested_function_is_named(tmp_path: Path) -> None:
    """gcc builds a nested function, clang's parser refuses it: the error
    says why, at the nested definition (s2svec-cc compiles the original)."""
    src = tmp_path / "nested.c"
    src.write_text("int f(int k)\n{\n    int add(int x) { return x + k; }\n    return add(1);\n}\n")
    r = run(src, "-o", tmp_path / "out.c")
    assert r.returncode == 1, r.stderr
    assert re.search(r"nested\.c:3:\d+: note: .*GNU C nested function", r.stderr), r.stderr
    assert not (tmp_path / "out.c").exists()


@pytest.mark.parametrize(
    "clause",
    [
        "simdlen(0)",
        "safelen(-4)",
        "reduction(/:s)",
        "reduction(+:nosuch)",
        "private(s) lastprivate(s)",
        "simdlen(8) safelen(4)",
        "linear(i:)",
        "collapse(0)",
    ],
)
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
        "}\n"
    )
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
    assert int(m[1]) in (3, 4, 6), w  # the pragma, the loop or the goto
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


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--frobnicate", "IN", "-o", "OUT"],
        ["IN", "-o", "OUT", "--target", "sse9"],
        ["IN", "-o", "OUT", "--target", "avx2,bogus"],
        ["IN", "-o", "OUT", "--report=xml"],
        ["IN", "-o", "OUT", "--math", "fast"],
        ["IN", "-o", "OUT", "--std", "c42"],
        ["IN", "-o"],
    ],
)
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


# --- issue 10: never a traceback, never destroy a file -----------------------------
#
# Every test below failed before the fix (traceback, wrong exit status, a file
# replaced or created where it must not be).  None of them touches a real
# device node: device and FIFO outputs are private nodes made in tmp_path.


def no_temp_files(d: Path) -> bool:
    return not any(p.name.startswith(".s2svec-") for p in d.rglob("*"))


def assert_no_traceback(stderr: str) -> None:
    assert "Traceback" not in stderr, stderr
    assert "Error:" not in stderr.replace("error:", ""), stderr  # KeyError:, OSError: ...


def good_source(tmp_path: Path, name: str = "good.c") -> Path:
    src = tmp_path / name
    src.write_text(GOOD)
    return src


def expected_output(src: Path, tmp_path: Path) -> bytes:
    """What s2svec writes for ``src`` to a plain file (in a folder of its own;
    the output names the input's path, so it must be the same input)."""
    d = tmp_path / "reference"
    d.mkdir()
    r = run(src, "-o", d / "ref.c")
    assert r.returncode == 0, r.stderr
    return (d / "ref.c").read_bytes()


# --report-file ------------------------------------------------------------------


@pytest.mark.parametrize("where", ["directory", "missing-folder", "below-a-file"])
def test_report_file_unwritable_is_checked_before_writing(tmp_path: Path, where: str) -> None:
    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    out.write_bytes(SENTINEL)
    if where == "directory":
        rep = tmp_path / "rdir"
        rep.mkdir()
    elif where == "missing-folder":
        rep = tmp_path / "nodir" / "r.txt"
    else:
        (tmp_path / "plain.txt").write_text("x")
        rep = tmp_path / "plain.txt" / "r.txt"
    r = run(src, "-o", out, "--report", "--report-file", rep)
    assert r.returncode == 1, r.stderr
    assert_no_traceback(r.stderr)
    line = assert_error_format(r.stderr, str(rep))
    assert "report" in line, line
    assert out.read_bytes() == SENTINEL, "the output must not be written when the report cannot be"
    assert no_temp_files(tmp_path)
    assert not (tmp_path / "nodir").exists()


def test_report_file_without_report_is_bad_usage(tmp_path: Path) -> None:
    src = good_source(tmp_path)
    out, rep = tmp_path / "out.c", tmp_path / "r.txt"
    r = run(src, "-o", out, "--report-file", rep)
    assert r.returncode == 2, r.stderr
    assert "--report-file" in r.stderr and "--report" in r.stderr, r.stderr
    assert listing(tmp_path) == ["good.c"]


def test_report_file_is_written_atomically_through_a_symlink(tmp_path: Path) -> None:
    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    (tmp_path / "reports").mkdir()
    real = tmp_path / "reports" / "r.json"
    real.write_bytes(SENTINEL)
    link = tmp_path / "r.json"
    link.symlink_to(real)
    r = run(src, "-o", out, "--report=json", "--report-file", link)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink()
    import json

    assert json.loads(real.read_text()), "the report goes to the symlink's target"
    assert no_temp_files(tmp_path)


def test_report_file_same_as_output_is_bad_usage(tmp_path: Path) -> None:
    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    r = run(src, "-o", out, "--report", "--report-file", tmp_path / "." / "out.c")
    assert r.returncode == 2, r.stderr
    assert "--report-file" in r.stderr, r.stderr
    assert listing(tmp_path) == ["good.c"]


def test_report_file_naming_the_input_is_refused(tmp_path: Path) -> None:
    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    r = run(src, "-o", out, "--report", "--report-file", src)
    assert r.returncode == 1, r.stderr
    assert_error_format(r.stderr, "good.c")
    assert src.read_text() == GOOD
    assert listing(tmp_path) == ["good.c"]


# Ctrl-C and SIGTERM ----------------------------------------------------------------


def big_source(path: Path, loops: int = 600) -> None:
    path.write_text(
        "".join(
            f"void scale{k}(int n, double *a, double s)\n{{\n#pragma omp simd\n"
            f"    for (int i = 0; i < n; i++)\n        a[i] = a[i] * s + {k};\n}}\n"
            for k in range(loops)
        )
    )


def libclang_loaded(pid: int, arg: Path) -> bool:
    """True once the process has loaded libclang, i.e. it is inside run().
    Its command line must hold `arg` first: between fork and exec the child
    is a copy of this process, libclang included, and a signal sent then is
    lost in the exec (the run then ends with status 0)."""
    try:
        if str(arg).encode() not in Path(f"/proc/{pid}/cmdline").read_bytes():
            return False
        return "libclang" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def _signals_as_from_a_terminal() -> None:
    """The child takes SIGINT and SIGTERM as a shell in a terminal would
    start it: a test run started in the background of a script inherits
    SIGINT ignored (POSIX: asynchronous commands without job control), and
    s2svec would then finish with status 0."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


@pytest.mark.parametrize("sig, status", [("SIGINT", 130), ("SIGTERM", 143)])
def test_signal_while_running(tmp_path: Path, sig: str, status: int) -> None:
    import signal
    import time

    src = tmp_path / "big.c"
    big_source(src)
    out = tmp_path / "out.c"
    out.write_bytes(SENTINEL)
    proc = subprocess.Popen(
        dt.s2svec_command() + [str(src), "-o", str(out)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_signals_as_from_a_terminal,
    )
    deadline = time.monotonic() + 60
    while (
        not libclang_loaded(proc.pid, src) and proc.poll() is None and time.monotonic() < deadline
    ):
        time.sleep(0.02)
    assert proc.poll() is None, "s2svec finished before it could be interrupted"
    proc.send_signal(getattr(signal, sig))
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == status, stderr
    assert_no_traceback(stderr)
    assert stderr.strip().splitlines() == ["s2svec: error: interrupted"], stderr
    assert out.read_bytes() == SENTINEL
    assert listing(tmp_path) == ["big.c", "out.c"]


def call_main(argv: Sequence[str | Path]) -> int:
    """s2s.cli.main in this process; a KeyboardInterrupt escaping it is a failure
    (and must not stop pytest)."""
    from s2s import cli

    try:
        return cli.main([str(a) for a in argv])
    except KeyboardInterrupt:
        pytest.fail("KeyboardInterrupt escaped main()")
    except SystemExit as e:
        return int(e.code or 0)


def patch_run(monkeypatch: pytest.MonkeyPatch, fake) -> None:
    import s2s.cli
    import s2s.driver

    monkeypatch.setattr(s2s.driver, "run", fake)
    monkeypatch.setattr(s2s.cli, "run", fake, raising=False)


def test_ctrl_c_in_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(path, options):
        raise KeyboardInterrupt

    patch_run(monkeypatch, interrupted)
    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    out.write_bytes(SENTINEL)
    assert call_main([src, "-o", out]) == 130
    assert capsys.readouterr().err == "s2svec: error: interrupted\n"
    assert out.read_bytes() == SENTINEL
    assert listing(tmp_path) == ["good.c", "out.c"]


@pytest.mark.parametrize("step", ["write", "replace"])
def test_ctrl_c_while_writing_leaves_no_temp_file(
    tmp_path: Path, step: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    out.write_bytes(SENTINEL)
    if step == "replace":

        def replace(a, b, **kw):
            raise KeyboardInterrupt

        monkeypatch.setattr(os, "replace", replace)
    else:
        real_fdopen = os.fdopen

        class Half:
            def __init__(self, f):
                self.f = f

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.f.close()

            def write(self, data):
                self.f.write(data[:10])
                raise KeyboardInterrupt

            def __getattr__(self, name):
                return getattr(self.f, name)

        monkeypatch.setattr(os, "fdopen", lambda fd, *a, **kw: Half(real_fdopen(fd, *a, **kw)))
    assert call_main([src, "-o", out]) == 130
    assert "s2svec: error: interrupted" in capsys.readouterr().err
    assert out.read_bytes() == SENTINEL
    assert listing(tmp_path) == ["good.c", "out.c"]


# -o: the input, symlinks, devices, FIFOs, stdout --------------------------------------


@pytest.mark.parametrize("how", ["same", "other-spelling", "hard-link", "symlink"])
def test_output_naming_the_input_is_refused(tmp_path: Path, how: str) -> None:
    src = good_source(tmp_path)
    (tmp_path / "sub").mkdir()
    if how == "same":
        out = src
    elif how == "other-spelling":
        out = tmp_path / "sub" / ".." / "good.c"
    elif how == "hard-link":
        out = tmp_path / "hard.c"
        os.link(src, out)
    else:
        out = tmp_path / "sym.c"
        out.symlink_to(src)
    r = run(src, "-o", out)
    assert r.returncode == 1, r.stderr
    line = assert_error_format(r.stderr)
    assert "input" in line, line
    assert src.read_text() == GOOD
    assert how != "symlink" or out.is_symlink()
    assert no_temp_files(tmp_path)


def test_output_symlink_writes_through_to_its_target(tmp_path: Path) -> None:
    src = good_source(tmp_path)
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "target.c"
    target.write_bytes(SENTINEL)
    link = tmp_path / "link.c"
    link.symlink_to(Path("real") / "target.c")
    r = run(src, "-o", link)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink(), "the symlink must stay a symlink"
    assert target.read_bytes() == expected_output(src, tmp_path)
    assert no_temp_files(tmp_path)


def test_output_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    src = good_source(tmp_path)
    (tmp_path / "real").mkdir()
    link = tmp_path / "link.c"
    link.symlink_to(tmp_path / "real" / "new.c")
    r = run(src, "-o", link)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink()
    assert (tmp_path / "real" / "new.c").read_text().startswith("#if")


def test_output_to_a_null_device_stays_a_device(tmp_path: Path) -> None:
    """``-o /dev/null`` writes to the device (a private node with /dev/null's
    numbers, so a failure cannot damage the machine's /dev/null)."""
    import stat

    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        os.close(os.open(null, os.O_WRONLY))
    except OSError as e:
        pytest.skip(f"cannot create and open a device node in {tmp_path}: {e}")
    src = good_source(tmp_path)
    r = run(src, "-o", null)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISCHR(os.lstat(null).st_mode), "the device node was replaced by a file"
    assert no_temp_files(tmp_path)


def test_output_to_a_fifo_is_written_into_it(tmp_path: Path) -> None:
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    src = good_source(tmp_path)
    expected = expected_output(src, tmp_path)
    got: list[bytes] = []

    def reader() -> None:
        with open(fifo, "rb") as f:
            got.append(f.read())

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    r = run(src, "-o", fifo)
    if t.is_alive():  # s2svec never opened the FIFO: unblock the reader
        with open(fifo, "wb"):
            pass
    t.join(10)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced by a file"
    assert got == [expected]


def test_output_to_a_socket_is_refused(tmp_path: Path) -> None:
    import socket
    import stat

    sock_path = tmp_path / "sock"
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(sock_path))
        src = good_source(tmp_path)
        r = run(src, "-o", sock_path)
    finally:
        s.close()
    assert r.returncode == 1, r.stderr
    assert_error_format(r.stderr, "sock")
    assert stat.S_ISSOCK(os.lstat(sock_path).st_mode)
    assert no_temp_files(tmp_path)


def test_output_dash_is_stdout(tmp_path: Path) -> None:
    src = good_source(tmp_path)
    expected = expected_output(src, tmp_path)
    cmd = dt.s2svec_command() + [str(src), "-o", "-"]
    r = subprocess.run(cmd, capture_output=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == expected
    assert listing(tmp_path) == ["good.c", "reference"], "no file named '-'"


def test_output_dev_stdout_writes_to_stdout(tmp_path: Path) -> None:
    src = good_source(tmp_path)
    expected = expected_output(src, tmp_path)
    cmd = dt.s2svec_command() + [str(src), "-o", "/dev/stdout"]
    r = subprocess.run(cmd, capture_output=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == expected


def test_output_dash_with_print_shapes_is_bad_usage(tmp_path: Path) -> None:
    src = good_source(tmp_path)
    r = run(src, "-o", "-", "--print-shapes")
    assert r.returncode == 2, r.stderr
    assert "--print-shapes" in r.stderr
    assert r.stdout == ""


# --simdlen ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args", [["--simdlen", "1024"], ["--simdlen", "64"], ["--simdlen", "32", "--target", "neon"]]
)
def test_simdlen_no_target_can_take_is_bad_usage(tmp_path: Path, args: list[str]) -> None:
    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    r = run(src, "-o", out, *args)
    assert r.returncode == 2, r.stderr
    assert "--simdlen" in r.stderr, r.stderr
    assert "at most" in r.stderr, "the message should say what the limit is"
    assert listing(tmp_path) == ["good.c"]


def test_simdlen_too_wide_for_one_target_warns(tmp_path: Path) -> None:
    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    r = run(src, "-o", out, "--simdlen", "32")
    assert r.returncode == 0, r.stderr
    warns = [w for w in diagnostics(r.stderr, "warning") if "--simdlen" in w]
    assert warns and "neon" in warns[0] and "16" in warns[0], r.stderr
    assert out.exists()


# -D ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "define", ["=1", "", "1X", "A B", "F(=1", "F(x=1", "F(1)=1", "X=1\n#define Y 2"]
)
def test_bad_define_is_bad_usage(tmp_path: Path, define: str) -> None:
    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    r = run(src, "-o", out, "-D", define)
    assert r.returncode == 2, f"-D {define!r}: exit {r.returncode}\n{r.stderr}"
    assert "-D" in r.stderr, r.stderr
    assert "blend.c" not in r.stderr and "<command line>" not in r.stderr
    assert listing(tmp_path) == ["good.c"]


@pytest.mark.parametrize(
    "define", ["X", "X=", "X=a=b", "F(x)=((x)*2)", "G(a, b)=a", "H(...)=0", "_y$=3"]
)
def test_good_define_is_accepted(tmp_path: Path, define: str) -> None:
    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    r = run(src, "-o", out, f"-D{define}")
    assert r.returncode == 0, f"-D {define!r}: {r.stderr}"


# write errors name the user's path ---------------------------------------------------


def test_write_error_names_the_output_not_the_temp_file(tmp_path: Path) -> None:
    """A full disk (here: a file size limit) while writing: the message names
    OUTPUT, the old OUTPUT stays, no temporary file is left."""
    import resource

    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    out.write_bytes(SENTINEL)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))

    r = subprocess.run(
        dt.s2svec_command() + [str(src), "-o", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
    )
    assert r.returncode == 1, r.stderr
    assert_no_traceback(r.stderr)
    line = assert_error_format(r.stderr, str(out))
    assert ".s2svec-" not in r.stderr, line
    assert out.read_bytes() == SENTINEL
    assert listing(tmp_path) == ["good.c", "out.c"]


def test_rename_error_names_the_output_not_the_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import errno

    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    out.write_bytes(SENTINEL)

    def replace(a, b, **kw):
        raise PermissionError(errno.EACCES, "Permission denied", str(a), None, str(b))

    monkeypatch.setattr(os, "replace", replace)
    assert call_main([src, "-o", out]) == 1
    err = capsys.readouterr().err
    assert ".s2svec-" not in err, err
    assert_error_format(err, str(out))
    assert out.read_bytes() == SENTINEL
    assert listing(tmp_path) == ["good.c", "out.c"]


# internal errors ----------------------------------------------------------------------


def test_internal_error_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(path, options):
        raise AttributeError("'NoneType' object has no attribute 'type'")

    patch_run(monkeypatch, broken)
    monkeypatch.delenv("S2SVEC_DEBUG", raising=False)
    src = good_source(tmp_path)
    out = tmp_path / "out.c"
    out.write_bytes(SENTINEL)
    assert call_main([src, "-o", out]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "s2svec: internal error: AttributeError: 'NoneType' object has no attribute "
        "'type'; please report this"
    ], err
    assert out.read_bytes() == SENTINEL
    assert listing(tmp_path) == ["good.c", "out.c"]


def test_internal_error_traceback_with_s2svec_debug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(path, options):
        raise RuntimeError("boom")

    patch_run(monkeypatch, broken)
    monkeypatch.setenv("S2SVEC_DEBUG", "1")
    src = good_source(tmp_path)
    assert call_main([src, "-o", tmp_path / "out.c"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" in err and "RuntimeError: boom" in err, err
    assert err.splitlines()[-1] == "s2svec: internal error: RuntimeError: boom; please report this"
    assert listing(tmp_path) == ["good.c"]


# input that is not a readable regular file with a usable name ---------------------------


def limited_run(
    args: list[str | bytes | Path], timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run s2svec with 2 GB of address space: reading /dev/zero cannot eat the machine."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    cmd: list[str | bytes] = list(dt.s2svec_command()) + [
        a if isinstance(a, bytes) else str(a) for a in args
    ]
    return subprocess.run(
        cmd,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        preexec_fn=limit,
        errors="replace",
    )


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_non_regular_input(tmp_path: Path, kind: str) -> None:
    if kind == "fifo":
        src = tmp_path / "in.c"
        os.mkfifo(src)
    else:
        src = Path("/dev/zero")
    out = tmp_path / "out.c"
    r = limited_run([src, "-o", out], timeout=30)
    assert r.returncode == 1, r.stderr
    assert_no_traceback(r.stderr)
    line = assert_error_format(r.stderr, str(src))
    assert "not a regular file" in line, line
    assert not out.exists()


def test_non_utf8_input_name(tmp_path: Path) -> None:
    name = os.fsencode(tmp_path) + b"/caf\xe9.c"
    with open(name, "w") as f:
        f.write(GOOD)
    out = tmp_path / "out.c"
    r = limited_run([name, "-o", out])
    assert r.returncode == 1, r.stderr
    assert_no_traceback(r.stderr)
    line = assert_error_format(r.stderr, "caf\\xe9.c")
    assert "utf-8" in line, line
    assert not out.exists()


def test_non_utf8_missing_input_name_is_shown_escaped(tmp_path: Path) -> None:
    r = limited_run([os.fsencode(tmp_path) + b"/n\xffne.c", "-o", tmp_path / "out.c"])
    assert r.returncode == 1, r.stderr
    assert_error_format(r.stderr, "n\\xffne.c")
    assert "\\udc" not in r.stderr


def test_non_utf8_output_name_works(tmp_path: Path) -> None:
    src = good_source(tmp_path)
    out = os.fsencode(tmp_path) + b"/\xe9t\xe9.c"
    r = limited_run([src, "-o", out])
    assert r.returncode == 0, r.stderr
    assert os.path.exists(out)


def test_non_utf8_include_dir_is_bad_usage(tmp_path: Path) -> None:
    src = good_source(tmp_path)
    r = limited_run([src, "-o", tmp_path / "out.c", "-I", os.fsencode(tmp_path) + b"/\xff"])
    assert r.returncode == 2, r.stderr
    assert_no_traceback(r.stderr)
    assert "-I" in r.stderr
    assert listing(tmp_path) == ["good.c"]


def test_bug_in_one_loop_leaves_it_scalar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An exception inside one loop's passes is that loop's warning; the
    other loop of the file is still vectorized and the exit status is 0."""
    import s2s.transform.dce as dce  # what the dce pass object runs

    real = dce.eliminate_dead_code

    def broken(fn):
        if any(b.name.startswith("if") for b in fn.blocks):
            raise AssertionError("a dead instruction is used by a live one")
        return real(fn)

    monkeypatch.setattr(dce, "eliminate_dead_code", broken)
    monkeypatch.delenv("S2SVEC_DEBUG", raising=False)
    src = tmp_path / "two.c"
    src.write_text(
        "void f(int n, float *a, float *b) {\n"
        "#pragma omp simd\n"
        "  for (int i = 0; i < n; i++) a[i] = a[i] * 2.0f;\n"
        "#pragma omp simd\n"
        "  for (int i = 0; i < n; i++) { if (b[i] > 0) b[i] = 1.0f; }\n"
        "}\n"
    )
    out = tmp_path / "out.c"
    assert call_main([src, "-o", out, "--target", "avx2"]) == 0
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"{src}:4:1: warning: loop not vectorized: internal error: AssertionError: "
        "a dead instruction is used by a live one; please report this loop to the "
        "s2svec developers"
    ], err
    text = out.read_text()
    assert text.count("_mm256_") > 0 and "if (b[i] > 0) b[i] = 1.0f;" in text
