"""Source files that are not UTF-8 (Latin-1 comments and strings).

The file must be processed, the bytes outside the annotated loops must come
out unchanged, and the original loop (the ``#else`` branch and the scalar
epilogue) keeps its bytes too.
"""

from __future__ import annotations

from pathlib import Path

from hostile_support import compile_everywhere, vectorize

LATIN1 = (
    b"/* caf\xe9, \xa9 2024 -- na\xefve \xfcber alles */\n"  # 1
    b'static const char *who = "Jos\xe9";  // \xb5s\n'  # 2
    b"void f(double *o, const double *a, int n)\n"  # 3
    b"{\n"  # 4
    b"#pragma omp simd /* \xe0 la fran\xe7aise */\n"  # 5
    b"    for (int i = 0; i < n; i++) {\n"  # 6
    b"        /* \xe9t\xe9 */ o[i] = a[i] * 2.0;  // \xb1 0\n"  # 7
    b"    }\n"  # 8
    b"}\n"  # 9
    b"void g(char *s, int n)\n"  # 10
    b"{\n"  # 11
    b"#pragma omp simd\n"  # 12
    b"    for (int i = 0; i < n; i++)\n"  # 13
    b'        s[i] = "\xe9\xe8"[i & 1];\n'  # 14
    b"}\n"  # 15
    b"/* fin \xbb */\n"  # 16
)


def test_latin1_file_is_processed(tmp_path: Path) -> None:
    r = vectorize(tmp_path, LATIN1)
    assert r.returncode == 0, r.stderr
    assert r.vectorized_loops() == 1, r.stderr
    r.warning_at(14, "loop not vectorized", "string literal")
    out = r.output.read_bytes()
    for line in LATIN1.split(b"\n"):
        assert line in out, line
    # Outside the loops the file is unchanged (the preludes go before 'void f').
    assert out.startswith(LATIN1[: LATIN1.index(b"void f")])
    assert out.endswith(LATIN1[LATIN1.index(b"void g") :])
    compile_everywhere(r.output)


def test_latin1_loop_body_is_kept_in_the_vector_code(tmp_path: Path) -> None:
    """The scalar epilogue repeats the loop body: with its bytes, not U+FFFD."""
    r = vectorize(tmp_path, LATIN1)
    out = r.output.read_bytes()
    assert b"\xef\xbf\xbd" not in out
    assert out.count(b"/* \xe9t\xe9 */ o[i] = a[i] * 2.0;") >= 2


def test_utf8_and_latin1_mixed(tmp_path: Path) -> None:
    code = "/* ünïcödé ✓ */\n".encode() + LATIN1
    r = vectorize(tmp_path, code)
    assert r.returncode == 0, r.stderr
    assert r.output.read_bytes().startswith("/* ünïcödé ✓ */\n".encode())
