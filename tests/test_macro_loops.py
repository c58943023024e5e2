"""Loops written by macros (s2s/frontend/macro_loops.py): a macro use whose
expansion holds ``_Pragma("omp simd")`` and the loop is written out in the
file's place and vectorized; diagnostics keep the lines of the file as
written.  The program-level check (run, compared bit-exactly) is the
kernel testsuite/kernels/macro_written_loops.c."""

from __future__ import annotations

from pathlib import Path

from hostile_support import compile_everywhere, vectorize

from s2s.frontend.macro_loops import expand_loop_macros
from s2s.frontend.parse import LineMap, ParsedFile, parse_file


def _expanded(tmp_path: Path, code: str) -> ParsedFile:
    path = tmp_path / "m.c"
    path.write_text(code)

    def reparse(raw: bytes, lines: LineMap) -> ParsedFile:
        return parse_file(str(path), [], [], "gnu11", rewritten=(raw, lines))

    return expand_loop_macros(parse_file(str(path), [], [], "gnu11"), reparse)


def test_the_expansion_is_written_as_the_preprocessor_makes_it(tmp_path: Path) -> None:
    """Arguments put in as written, ``#`` and ``##`` done, the GNU comma
    before an empty ``__VA_ARGS__`` dropped, the definition's lines kept,
    each ``_Pragma`` a line of its own; macros the body names stay."""
    code = """\
#define N 16
#define P(x) _Pragma(#x)
#define FILL(TYPE, NAME, V, ...)                \\
  void fill_##NAME(TYPE *a) {                   \\
    P(omp simd)                                 \\
    for (int i = 0; i < N; i++)                 \\
      a[i] = (TYPE)(V) + sizeof(#NAME "\\n") + pick(0, ## __VA_ARGS__); \\
  }
int pick(int a, ...);
FILL(float, f32, 1.5f)
FILL(long, i64, -(1), 2, 3)
"""
    parsed = _expanded(tmp_path, code)
    body = parsed.raw.decode().split("int pick(int a, ...);\n")[1]
    assert (
        body
        == """\
void fill_f32(float *a) {
    P(omp simd)
    for (int i = 0; i < N; i++)
      a[i] = (float)(1.5f) + sizeof("f32" "\\n") + pick(0);
  }
void fill_i64(long *a) {
    P(omp simd)
    for (int i = 0; i < N; i++)
      a[i] = (long)(-(1)) + sizeof("i64" "\\n") + pick(0, 2, 3);
  }
"""
    )
    # every new line is the use's line (column 1) for diagnostics
    uses = [parsed.raw.index(f"fill_{n}".encode()) for n in ("f32", "i64")]
    assert [parsed.location(offset).line for offset in uses] == [10, 11]
    assert parsed.unexpanded == {}


def test_a_pragma_that_shares_its_line_gets_one_of_its_own(tmp_path: Path) -> None:
    code = """\
#define SIMD _Pragma("omp simd")
#define TWICE(a, n) { SIMD for (int i = 0; i < (n); i++) a[i] *= 2; }
void f(float *a, int n) {
  if (n) { a[0] = 1; SIMD
    for (int i = 0; i < n; i++) a[i] += 1; }
  TWICE(a, n)
}
"""
    text = _expanded(tmp_path, code).raw.decode()
    assert (
        text.split("void f(float *a, int n) {\n")[1]
        == """\
  if (n) { a[0] = 1;
  #pragma omp simd
    for (int i = 0; i < n; i++) a[i] += 1; }
  {
  #pragma omp simd
  for (int i = 0; i < (n); i++) a[i] *= 2; }
}
"""
    )


def test_loops_of_macros_are_vectorized_and_located_at_the_use(tmp_path: Path) -> None:
    """The report names each use's line; a loop after the expansions keeps
    its own line in warnings; a loop inside one is at the use."""
    code = """\
#define DEF(T)                                    \\
  static T sum_##T(const T *a, int n) {           \\
    T s = 0;                                      \\
    _Pragma("omp simd reduction(+:s)")            \\
    for (int i = 0; i < n; i++) s += a[i];        \\
    return s;                                     \\
  }
#define JUMPY(a, n) _Pragma("omp simd") \\
  for (int i = 0; i < n; i++) { if (a[i]) goto out; a[i] = 1; } out:;
DEF(int)
DEF(double)
double g(double *a, int n) {
  JUMPY(a, n)
#pragma omp simd
  for (int i = 0; i < n; i++) { if (a[i]) goto out2; a[i] = 1; }
out2:
  return sum_double(a, n) + sum_int((const int *)a, n);
}
"""
    r = vectorize(tmp_path, code, "--report", "text")
    assert r.returncode == 0, r.stderr
    assert r.vectorized_loops() == 2, r.stderr
    assert "k.c:10:1: remark: loop vectorized for avx2" in r.stderr
    assert "k.c:11:1: remark: loop vectorized for avx2" in r.stderr
    r.warning_at(13, "goto")  # inside JUMPY's expansion: its use
    r.warning_at(15, "goto")  # after the expansions: its own line (the goto's)
    text = r.output.read_text()
    assert "static int sum_int(const int *a, int n) {" in text
    assert "#pragma omp simd reduction(+:s)" in text
    compile_everywhere(r.output)
    # --line-directives: the lines after an expansion numbered as written
    r = vectorize(tmp_path, code, "--line-directives")
    assert r.returncode == 0, r.stderr
    numbered = r.output.read_text().split("\n")
    after = numbered.index("double g(double *a, int n) {")
    assert numbered[after - 1].startswith("#line 12 "), numbered[after - 3 : after + 1]


def test_a_macro_defined_per_target_is_not_expanded_for_the_others(tmp_path: Path) -> None:
    """The output is one text: a target whose compiler would expand the use
    to other code gets no vector code (and says so)."""
    code = """\
#ifdef __AVX512F__
#define BODY(a, i) a[i] * 4
#else
#define BODY(a, i) a[i] * 2
#endif
#define LOOP(a, n) _Pragma("omp simd") for (int i = 0; i < n; i++) a[i] = BODY(a, i);
void f(int *a, int n) {
  LOOP(a, n)
}
"""
    r = vectorize(tmp_path, code, "--target", "avx512,avx2", "--report", "text")
    assert r.returncode == 0, r.stderr
    assert "k.c:8:3: remark: loop vectorized for avx512" in r.stderr
    assert "k.c:8:3: remark: loop vectorized for avx2" in r.stderr
    same = """\
#define LOOP(a, n) _Pragma("omp simd") for (int i = 0; i < n; i++) a[i] = a[i] + 1;
#ifdef __AVX512F__
#define USE(a, n) LOOP(a, n)
#else
#define USE(a, n) LOOP(a, n) a[0] = 0;
#endif
void f(int *a, int n) {
  USE(a, n)
}
"""
    r = vectorize(tmp_path, same, "--target", "avx512,avx2", "--report", "text")
    assert r.returncode == 0, r.stderr
    assert "expand to other code for this target" in r.stderr
    assert r.stderr.count("remark: loop vectorized") == 1, r.stderr


def test_block_comments_stay_and_line_comments_cannot_swallow_code(tmp_path: Path) -> None:
    """A ``/* fall through */`` of the body still stands before its label
    (gcc's -Wimplicit-fallthrough reads it); an argument written over lines
    with a ``//`` comment is put in on one line without it."""
    code = """\
#define CASES(a, n, V)                          \\
  _Pragma("omp simd")                           \\
  for (int i = 0; i < (n); i++)                 \\
    switch (a[i] & 1) {                         \\
    case 0: a[i] += V /* not seen */ ## 0;      \\
      /* fall through */                        \\
    default: a[i] *= 2;                         \\
    }
void f(int *a, int n) {
  CASES(a, n, 3 + // three
        1)
}
"""
    text = _expanded(tmp_path, code).raw.decode()
    assert (
        text.split("void f(int *a, int n) {\n")[1]
        == """\
  #pragma omp simd
  for (int i = 0; i < (n); i++)
    switch (a[i] & 1) {
    case 0: a[i] += 3 + 10;
      /* fall through */
    default: a[i] *= 2;
    }
}
"""
    )


def test_body_lines_that_start_at_column_one(tmp_path: Path) -> None:
    """libclang spells a token that starts a continued line with the line
    splice before it: the expansion has neither backslashes nor lost lines."""
    code = """\
#define W(NAME) \\
void NAME(int n, float *a) \\
{ \\
_Pragma("omp simd") \\
for (int i = 0; i < n; i++) a[i] += 1; \\
}
W(f1)
"""
    text = _expanded(tmp_path, code).raw.decode()
    assert (
        text.split("}\n", 1)[1]
        == """\
void f1(int n, float *a)
{
#pragma omp simd
for (int i = 0; i < n; i++) a[i] += 1;
}
"""
    )


def test_line_map_of_two_rounds() -> None:
    """Lines of a second round's expansion go back through the first's to
    the file as written; ``jumps`` are where a compiler's count goes wrong."""
    first = LineMap(((1, None), (2, 5), (2, 5), (2, 5), (3, None)))  # line 2: a use at column 5
    second = LineMap(((1, None), (2, None), (3, 9), (3, 9), (4, None), (5, None)))
    both = first.then(second)
    assert both.origins == ((1, None), (2, 5), (2, 5), (2, 5), (2, 5), (3, None))
    assert both.original(3, 40) == (2, 5) and both.original(6, 7) == (3, 7)
    assert both.jumps() == [6]
    assert LineMap(((1, None), (2, None))).jumps() == []
