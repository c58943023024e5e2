"""Every construct the lowering rejects: message and location."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_lower_support import unsupported_of

# Each case: the text between the loop header line and the closing brace
# (the header is line 6, the body starts on line 7, indented by 4), the
# expected message and line:column.
PRELUDE = """\
struct S { int a; int b : 3; };
union U { int i; float f; };
int ext(int); _Complex double ext2(_Complex double);
void f(int n, int *a, double *d, struct S *s, union U *u, long double *ld, int (*fp)(int)) {
  #pragma omp simd
"""

BODY_CASES = [
    ("for (int i = 0; i < n; i++) {\n  L: a[i] = 0; goto L;\n}", "label in simd loop", 7, 5),
    (
        "for (int i = 0; i < n; i++) {\n  if (a[i]) goto out;\n}\nout:;",
        "'goto' in simd loop",
        7,
        15,
    ),
    (
        "for (int i = 0; i < n; i++) {\n  if (a[i]) return;\n}",
        "'return' leaves the simd loop",
        7,
        15,
    ),
    ("for (int i = 0; i < n; i++) {\n  if (a[i]) break;\n}", "'break' leaves the simd loop", 7, 15),
    (
        "for (int i = 0; i < n; i++) {\n  n = 3;\n}",
        "assignment to shared variable 'n' in simd loop needs a private, lastprivate, "
        "linear or reduction clause",
        7,
        5,
    ),
    (
        "for (int i = 0; i < n; i++) {\n  a++;\n}",
        "assignment to shared variable 'a' in simd loop needs a private, lastprivate, "
        "linear or reduction clause",
        7,
        5,
    ),
    (
        "for (int i = 0; i < n; i++) {\n  i += 2;\n}",
        "loop variable 'i' is modified in the simd loop body",
        7,
        5,
    ),
    (
        "for (int i = 0; i < n; i++) {\n  volatile int v = a[i]; a[i] = v;\n}",
        "volatile object in simd loop",
        7,
        18,
    ),
    (
        "for (int i = 0; i < n; i++) {\n  _Complex long double z = d[i]; d[i] = __real__ z;\n}",
        "'_Complex long double' in simd loop",
        7,
        26,
    ),
    (
        "for (int i = 0; i < n; i++) {\n  _Complex int z = a[i]; a[i] = __real__ z;\n}",
        "'_Complex int' in simd loop",
        7,
        18,
    ),
    (
        "for (int i = 0; i < n; i++) {\n  _Complex double z = d[i]; z++; d[i] = __real__ z;\n}",
        "operator '++' on a complex value in simd loop",
        7,
        31,
    ),
    (
        "for (int i = 0; i < n; i++) {\n  _Complex double z = d[i]; d[i] = __real__ ext2(z);\n}",
        "complex argument or result in call to 'ext2' in simd loop ('ext2' has no body in "
        "this translation unit)",
        7,
        47,
    ),
    ("for (int i = 0; i < n; i++) {\n  ld[i] = 1;\n}", "long double in simd loop", 7, 5),
    (
        "for (int i = 0; i < n; i++) {\n  double t[n]; t[0] = 1; d[i] = t[0];\n}",
        "variable-length array 't' in simd loop",
        7,
        12,
    ),
    (
        "for (int i = 0; i < n; i++) {\n  a[i] = (n > 0 ? fp : fp)(i);\n}",
        "call through a function pointer in simd loop",
        7,
        12,
    ),
    (
        "for (int i = 0; i < n; i++) {\n  a[i] = ({ int q = i; q; });\n}",
        "statement expression in simd loop",
        7,
        12,
    ),
    ('for (int i = 0; i < n; i++) {\n  __asm__("nop");\n}', "inline assembly in simd loop", 7, 5),
    (
        "for (int i = 0; i < n; i++) {\n  a[i] = s[i].b;\n}",
        "bit-field 'b' of 'struct S' in simd loop",
        7,
        12,
    ),
    ("for (int i = 0; i < n; i++) {\n  a[i] = u[i].i;\n}", "union 'union U' in simd loop", 7, 12),
    (
        "for (int i = 0; i < n; i++) {\n  int *p = (int[3]){[2] = 1}; a[i] = p[2];\n}",
        "designated initializer in simd loop",
        7,
        22,
    ),
    (
        "for (int i = 0; i < n; i++) {\n  static int c; c++; a[i] = c;\n}",
        "static or extern local variable 'c' in simd loop",
        7,
        16,
    ),
]


@pytest.mark.parametrize(
    "body, message, line, column", BODY_CASES, ids=[c[1][:40] for c in BODY_CASES]
)
def test_unsupported_in_body(
    tmp_path: Path, body: str, message: str, line: int, column: int
) -> None:
    exc = unsupported_of(tmp_path, PRELUDE + "  " + body.replace("\n", "\n  ") + "\n}\n")
    assert exc.message == message
    assert exc.location is not None
    assert (exc.location.line, exc.location.column) == (line, column), exc.format()
    assert exc.location.file.endswith("k.c")
    assert exc.format().startswith(f"{exc.location.file}:{line}:{column}: warning: ")


LOOP_CASES = [
    ("for (int *p = a; p < a + n; p++) *p = 0;", "pointer induction variable 'p' in simd loop"),
    (
        "for (double x = 0; x < n; x += 1) d[0] = x;",
        "loop variable 'x' of type 'double' is not an integer",
    ),
    # run-time steps (issue 21 item 3): what stays scalar
    (
        "for (int i = 0; i < n; i += (unsigned)n) a[i] = 0;",
        "the run-time loop step '(unsigned)n' has the type 'unsigned int' (only signed "
        "integer steps are vectorized)",
    ),
    (
        "for (int i = 0; i < n; i += ext(n)) a[i] = 0;",
        "the run-time loop step 'ext(n)' is not a plain expression of variables and constants",
    ),
    (
        "for (int i = 0; i < n; i += a[0]) a[i] = 0;",
        "the run-time loop step 'a[0]' is not a plain expression of variables and constants",
    ),
    (
        "for (int i = 0; i < n; i += s->a) a[i] = 0;",
        "the run-time loop step 's->a' is not a plain expression of variables and constants",
    ),
    (
        "for (int i = 0; i < n; i += i) a[i] = 0;",
        "simd loop is not in canonical form: the step reads the loop variable",
    ),
    (
        "for (int i = 0; i != n; i += n) a[i] = 0;",
        "simd loop is not in canonical form: a '!=' condition needs a step of 1 or -1, not a "
        "run-time step",
    ),
    (
        "for (int i = 0; i < n; i *= 2) a[i] = 0;",
        "simd loop is not in canonical form: the increment must add a constant to the "
        "loop variable",
    ),
    (
        "for (int i = 0; i < n; i--) a[i] = 0;",
        "simd loop is not in canonical form: the condition '<' and the step -1 disagree",
    ),
    (
        "for (int i = 0; i != n; i += 2) a[i] = 0;",
        "simd loop is not in canonical form: a '!=' condition needs a step of 1 or -1",
    ),
    (
        "for (int i = 0; a[i] < n; i++) a[i] = 0;",
        "simd loop is not in canonical form: the condition must compare the loop variable "
        "with <, <=, >, >= or != to a bound",
    ),
    (
        "for (int i = 0; i == n; i++) a[i] = 0;",
        "simd loop is not in canonical form: the condition must compare the loop variable "
        "with <, <=, >, >= or != to a bound",
    ),
    (
        "for (int i = 0; ; i++) a[i] = 0;",
        "simd loop is not in canonical form: it needs an initialization, a condition and "
        "an increment",
    ),
    (
        "for (int i = 0; i < n; i += 0) a[i] = 0;",
        "simd loop is not in canonical form: the loop step is zero",
    ),
    (
        "for (int i = 0; i < d[0]; i++) a[i] = 0;",
        "loop variable 'i' is compared with a bound of type 'double': the iteration count "
        "needs an integer bound",
    ),
]


@pytest.mark.parametrize("loop, message", LOOP_CASES, ids=[c[0][:30] for c in LOOP_CASES])
def test_non_canonical_loops(tmp_path: Path, loop: str, message: str) -> None:
    exc = unsupported_of(tmp_path, PRELUDE + "  " + loop + "\n}\n")
    assert exc.message == message
    assert exc.location is not None and exc.location.line == 6


def test_conditional_lastprivate_whose_address_is_taken(tmp_path: Path) -> None:
    """Assignments through pointers are not tracked: the value of the last
    iteration that assigned the variable is not known."""
    exc = unsupported_of(
        tmp_path,
        """
void f(int n, const int *a) {
  int t = 0;
  #pragma omp simd lastprivate(conditional: t)
  for (int i = 0; i < n; i++) { int *p = &t; if (a[i] > 0) *p = a[i]; }
}
""",
    )
    assert exc.message == (
        "lastprivate(conditional: t) whose address is taken (its assignments through "
        "pointers cannot be tracked)"
    )
    assert exc.location is not None and exc.location.line == 5


def test_run_time_linear_step_of_a_pointer(tmp_path: Path) -> None:
    exc = unsupported_of(
        tmp_path,
        """
void f(int n, int k, int *a) {
  int *p = a;
  #pragma omp simd linear(p:k)
  for (int i = 0; i < n; i++) { *p = i; p += k; }
}
""",
    )
    assert exc.message == (
        "linear variable 'p' with the run-time step 'k' is not an integer (only integer "
        "variables take run-time steps)"
    )
    assert exc.location is not None and exc.location.line == 5


@pytest.mark.parametrize(
    "code, name",
    [
        (
            "int g;\nvoid f(int n, int *a) {\n#pragma omp simd\n"
            "  for (int i = 0; i < n; i += g) { a[i] = 0; g = 3; }\n}\n",
            "g",
        ),
        (
            "void f(int n, int *a) {\n  int s = 2;\n#pragma omp simd lastprivate(s)\n"
            "  for (int i = 0; i < n; i += s) { s = a[i]; a[i] = 0; }\n}\n",
            "s",
        ),
        (
            "void g(int *);\nvoid f(int n, int *a) {\n  int s = 2; g(&s);\n#pragma omp simd\n"
            "  for (int i = 0; i < n; i += s) a[i] = 0;\n}\n",
            "s",
        ),
    ],
)
def test_run_time_step_the_loop_may_change(tmp_path: Path, code: str, name: str) -> None:
    """A run-time step is evaluated again where the vector code needs it:
    a step variable the body writes (a global too) or whose address is
    taken keeps the loop scalar (OpenMP makes the program keep it
    invariant; kernel runtime_step_global: a global's is taken)."""
    exc = unsupported_of(tmp_path, code)
    assert exc.message.endswith(
        f"reads '{name}', which the loop may change (its address is taken, or the loop writes it)"
    ), exc.message


def test_body_that_never_completes(tmp_path: Path) -> None:
    exc = unsupported_of(
        tmp_path,
        """
void f(int n, int *a) {
  #pragma omp simd
  for (int i = 0; i < n; i++) { a[i] = 0; for (;;) { a[i]++; } }
}
""",
    )
    assert exc.message == "the simd loop body never completes an iteration"
    assert exc.location is not None and exc.location.line == 4


def test_string_initialized_array(tmp_path: Path) -> None:
    exc = unsupported_of(
        tmp_path,
        """
void f(int n, char *a) {
  #pragma omp simd
  for (int i = 0; i < n; i++) { char s[4] = "abc"; a[i] = s[i & 3]; }
}
""",
    )
    assert exc.message == "array initialized from a string in simd loop"
    assert exc.location is not None and (exc.location.line, exc.location.column) == (4, 45)


def test_run_time_linear_step_the_loop_writes(tmp_path: Path) -> None:
    exc = unsupported_of(
        tmp_path,
        """
void f(int n, int k, int *a) {
  int j = 0;
  #pragma omp simd linear(j:k)
  for (int i = 0; i < n; i++) { a[i] = j; j += k; k = a[i] & 1; }
}
""",
    )
    assert exc.message == "the run-time linear step 'k' of 'j' reads 'k', which the loop writes"
