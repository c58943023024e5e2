"""OpenMP the tool does not implement leaves a loop scalar; bad input is an error.

Issue 10 items 11 and 12: an unsupported clause or directive (inscan on a
worksharing loop,
user-defined reductions without a declaration s2svec takes, allocate,
``loop``, ``target`` when the build offloads, ``ordered threads simd``
inside the loop, ``declare variant``, a pragma on a
statement other than ``for``, ``_Pragma``) must not reject the file: that
loop stays scalar with a ``file:line:col: warning:``, exit 0, the rest of
the file is still vectorized and the output compiles for every target.
Only malformed or contradictory input (a syntax error in a clause, an
undeclared variable, simdlen > safelen) is an error: exit 1, no output.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from itertools import pairwise
from pathlib import Path

import pytest
from hostile_support import compile_everywhere, vectorize

OK = """
void ok(double *o, const double *a, int n)
{
#pragma omp simd
    for (int i = 0; i < n; i++)
        o[i] = a[i] * 2.0;
}
"""

# name: (code before OK, line, column or None, words of the warning)
WARNINGS = {
    "user_defined_reduction_of_another_type": (
        """\
#pragma omp declare reduction(mymax : float : omp_out = omp_out > omp_in ? omp_out : omp_in) \\
    initializer(omp_priv = -1e30f)
double f(const double *a, int n) {
  double m = -1e300;
#pragma omp simd reduction(mymax: m)
  for (int i = 0; i < n; i++) m = m > a[i] ? m : a[i];
  return m;
}
""",
        5,
        1,
        ("no '#pragma omp declare reduction(mymax : ...)' for the type 'double'",),
    ),
    "user_defined_reduction_undeclared": (
        """\
double f(const double *a, int n) {
  double m = -1e300;
#pragma omp simd reduction(mymax: m)
  for (int i = 0; i < n; i++) m = m > a[i] ? m : a[i];
  return m;
}
""",
        3,
        1,
        ("no '#pragma omp declare reduction(mymax : ...)' that s2svec reads before the loop",),
    ),
    "user_defined_reduction_of_a_struct_with_an_array": (
        """\
typedef struct { double lo, hi[2]; } range;
#pragma omp declare reduction(merge : range : omp_out.lo += omp_in.lo, \\
    omp_out.hi[0] += omp_in.hi[0])
range f(const double *a, int n) {
  range r = {0, {0, 0}};
#pragma omp simd reduction(merge: r)
  for (int i = 0; i < n; i++) { r.lo += a[i]; r.hi[0] += 2 * a[i]; }
  return r;
}
""",
        7,
        33,
        (
            "reduction variable 'r': member 'hi' of a struct reduced by a 'declare reduction' "
            "must be a scalar or a struct",
        ),
    ),
    "struct_reduction_without_a_declaration": (
        """\
struct pair { double lo, hi; };
struct pair f(const double *a, int n) {
  struct pair r = {0, 0};
#pragma omp simd reduction(+: r)
  for (int i = 0; i < n; i++) { r.lo += a[i]; r.hi += 2 * a[i]; }
  return r;
}
""",
        4,
        1,
        ("no '#pragma omp declare reduction(+ : ...)' for the type 'struct pair'",),
    ),
    "inscan_reduction_on_taskloop_simd": (
        """\
void f(const double *a, double *b, int n) {
  double s = 0;
#pragma omp taskloop simd reduction(inscan, +: s)
  for (int i = 0; i < n; i++) {
    s += a[i];
#pragma omp scan inclusive(s)
    b[i] = s;
  }
}
""",
        3,
        48,
        ("the scan across threads is not implemented",),
    ),
    "linear_on_a_triangular_collapsed_worksharing_nest": (
        """\
void f(int *o, int n) {
  int k = 0;
#pragma omp parallel for simd collapse(2) linear(k: 1)
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++) { o[k] = j; k++; }
}
""",
        3,
        None,
        ("rectangular nests with constant steps only",),
    ),
    "task_reduction": (
        """\
double f(const double *a, int n) {
  double s = 0;
#pragma omp for simd reduction(task, +: s)
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
""",
        3,
        22,
        ("'reduction(task, ...)' is not supported",),
    ),
    "allocate_on_simd": (
        """\
void f(double *a, int n) {
  double t;
#pragma omp simd private(t) allocate(t)
  for (int i = 0; i < n; i++) { t = a[i]; a[i] = t * 2; }
}
""",
        3,
        29,
        ("'allocate' clause is not supported on '#pragma omp simd'",),
    ),
    "if_with_another_constructs_modifier": (
        """\
void f(double *a, int n) {
#pragma omp simd if(target: n > 16)
  for (int i = 0; i < n; i++) a[i] *= 2;
}
""",
        2,
        18,
        ("'if(target: ...)' is not supported on '#pragma omp simd'",),
    ),
    "if_parallel_on_simd": (
        """\
void f(double *a, int n) {
#pragma omp simd if(parallel: n > 16)
  for (int i = 0; i < n; i++) a[i] *= 2;
}
""",
        2,
        18,
        ("'if(parallel: ...)' is not supported on '#pragma omp simd'",),
    ),
    "simd_on_a_while_loop": (
        """\
void f(double *a, int n) {
  int i = 0;
#pragma omp simd
  while (i < n) { a[i] *= 2; i++; }
}
""",
        3,
        1,
        ("must be followed by a for loop, not a while loop",),
    ),
    "simd_on_a_block": (
        """\
void f(double *a, int n) {
#pragma omp simd
  { for (int i = 0; i < n; i++) a[i] *= 2; }
}
""",
        2,
        1,
        ("must be followed by a for loop, not a block",),
    ),
    "range_for_macro": (
        """\
#define RANGE(i, n) for (int i = 0; i < (n); i++)
void f(double *a, int n) {
#pragma omp simd
  RANGE(i, n) a[i] *= 2;
}
""",
        4,
        3,
        ("a loop written with the macro 'RANGE' is not supported",),
    ),
    "declare_variant": (
        """\
double vec(double x) { return x * 2; }
#pragma omp declare variant(vec) match(construct={simd})
double base(double x) { return x * 2; }
void f(double *a, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) a[i] = base(a[i]);
}
""",
        6,
        38,
        ("call to 'base', which has a '#pragma omp declare variant' (line 2)",),
    ),
    "begin_declare_variant": (
        """\
double base(double x);
#pragma omp begin declare variant match(construct={simd})
double base(double x) { return x * 2; }
#pragma omp end declare variant
void f(double *a, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) a[i] = base(a[i]);
}
""",
        7,
        38,
        ("call to 'base'",),
    ),
    "loop_construct": (
        """\
void f(double *a, int n) {
#pragma omp loop bind(thread)
  for (int i = 0; i < n; i++) a[i] *= 2;
}
""",
        2,
        1,
        ("'#pragma omp loop' is not supported",),
    ),
    "ordered_threads_simd_inside": (
        """\
void f(double *a, int n) {
#pragma omp for simd ordered
  for (int i = 1; i < n; i++) {
    a[i] *= 2;
#pragma omp ordered threads simd
    a[i] += a[i - 1];
  }
}
""",
        5,
        1,
        ("'#pragma omp ordered' inside the simd loop is not supported",),
    ),
    "nested_simd_loops": (
        """\
void f(double *a, int n, int m) {
#pragma omp simd
  for (int i = 0; i < n; i++) {
#pragma omp simd
    for (int j = 0; j < m; j++) a[i * m + j] *= 2;
  }
}
""",
        4,
        1,
        ("it is nested in the simd loop at line 2, which is vectorized",),
    ),
    "pragma_operator_in_a_macro_that_names_itself": (
        """\
double scale(double x);
#define scale(a, n) _Pragma("omp simd") for (int i = 0; i < n; i++) a[i] = (scale)(a[i])
void f(double *a, int n) {
  scale(a, n);
}
""",
        4,
        3,
        (
            "'scale' expands to '_Pragma(\"omp simd\")'",
            "its expansion names 'scale' again",
        ),
    ),
}

EXTRA_VECTORIZED = {"nested_simd_loops": 1}  # the inner loop

# Loops that may run on an offload device when the build offloads
# (issue 21 item 7); without offloading they are vectorized (COMBINED).
OFFLOAD = "-fopenmp-targets=nvptx64"
OFFLOAD_WARNINGS = {
    "combined_target_simd": (
        """\
void f(double *a, int n) {
#pragma omp target teams distribute parallel for simd map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] *= 2;
}
""",
        2,
        1,
        (
            "'#pragma omp target teams distribute parallel for simd' may run on an offload "
            f"device (the build offloads target regions: '{OFFLOAD}')",
        ),
    ),
    "simd_inside_a_target_region": (
        """\
void f(double *a, int n) {
#pragma omp target map(tofrom: a[0:n])
  {
#pragma omp simd
    for (int i = 0; i < n; i++) a[i] *= 2;
  }
}
""",
        4,
        1,
        ("inside the '#pragma omp target' region at line 2", f"(the build offloads: '{OFFLOAD}')"),
    ),
    "declare_target_region": (
        """\
#pragma omp declare target
void f(double *a, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) a[i] *= 2;
}
#pragma omp end declare target
""",
        3,
        1,
        ("function 'f' is compiled for offload devices too",),
    ),
    "declare_target_list": (
        """\
void f(double *a, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) a[i] *= 2;
}
#pragma omp declare target enter(f)
""",
        2,
        1,
        ("function 'f' is compiled for offload devices too",),
    ),
}


@pytest.mark.parametrize("name", sorted(OFFLOAD_WARNINGS))
def test_offloaded_loops_stay_scalar(tmp_path: Path, name: str) -> None:
    code, line, column, words = OFFLOAD_WARNINGS[name]
    r = vectorize(tmp_path, code + OK, "-fopenmp", OFFLOAD)
    assert r.returncode == 0, r.stderr
    m = r.warning_at(line, *words)
    assert int(m["col"]) == column, m.group(0)
    assert r.vectorized_loops() == 1, r.stderr
    # the same file without offloading: every loop vectorized, silently
    r = vectorize(tmp_path, code + OK, "-fopenmp")
    assert r.returncode == 0 and not r.diagnostics("warning"), r.stderr
    assert r.vectorized_loops() == 2, r.stderr
    compile_everywhere(r.output)


COMBINED = {
    "taskloop_simd": """
void f(double *a, int n) {
#pragma omp taskloop simd grainsize(64)
  for (int i = 0; i < n; i++) a[i] *= 2;
}
""",
    "target_simd_linear_reduction": """
double f(double *a, int n) {
  double s = 0; int j = 0;
#pragma omp target simd map(tofrom: a[0:n]) reduction(+: s) linear(j: 3) if(n > 8)
  for (int i = 0; i < n; i++) { a[i] *= j; s += a[i]; j += 3; }
  return s + j;
}
""",
    "teams_distribute_forms": """
void f(double *a, int n) {
#pragma omp teams distribute simd num_teams(2)
  for (int i = 0; i < n; i++) a[i] *= 2;
#pragma omp teams distribute parallel for simd thread_limit(4)
  for (int i = 0; i < n; i++) a[i] += 2;
#pragma omp teams
  {
#pragma omp distribute parallel for simd dist_schedule(static, 64)
    for (int i = 0; i < n; i++) a[i] -= 1;
#pragma omp distribute simd
    for (int i = 0; i < n; i++) a[i] -= 1;
  }
}
""",
    "teams_in_a_target_region": """
double f(double *a, int n) {
  double s = 0;
#pragma omp target map(tofrom: a[0:n], s)
#pragma omp teams distribute parallel for simd reduction(+: s) num_teams(2) firstprivate(n)
  for (int i = 0; i < n; i++) { a[i] *= 2; s += a[i]; }
#pragma omp target map(tofrom: a[0:n])
  {
#pragma omp teams distribute simd thread_limit(2) if(simd: n > 3)
    for (int i = 0; i < n; i++) a[i] += 1;
  }
  return s;
}
""",
    "taskloop_forms": """
void f(double *a, int n) {
  int i;
#pragma omp parallel master taskloop simd num_tasks(4) lastprivate(i)
  for (i = 0; i < n; i++) a[i] *= 2;
#pragma omp parallel
  {
#pragma omp masked taskloop simd filter(0) nogroup
    for (int k = 0; k < n; k++) a[k] += 1;
#pragma omp master taskloop simd
    for (int k = 0; k < n; k++) a[k] += 1;
  }
}
""",
}


@pytest.mark.parametrize("name", sorted(COMBINED))
def test_combined_constructs_are_vectorized(tmp_path: Path, name: str) -> None:
    """Without offloading every combined construct with simd is vectorized
    (issue 21 item 7), its other constructs kept on the vector loop."""
    code = COMBINED[name]
    loops = sum(1 for line in code.splitlines() if "simd" in line)
    r = vectorize(tmp_path, code, "-fopenmp")
    assert r.returncode == 0, r.stderr
    assert not r.diagnostics("warning"), r.stderr
    assert r.vectorized_loops() == loops
    compile_everywhere(r.output)
    # and with OpenMP, which reads the kept constructs and their clauses
    for cc in ("gcc", "clang-19"):
        if shutil.which(cc) is None:
            pytest.skip(f"needs {cc}")
        for flags in (["-mavx2", "-mfma"], ["-march=x86-64-v4"]):
            done = subprocess.run(
                [cc, "-fopenmp", *flags, "-Wall", "-Wextra", "-Werror", "-O1", "-c"]
                + [str(r.output), "-o", "/dev/null"],
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, f"{cc} {flags}:\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("name", sorted(WARNINGS))
def test_unsupported_construct_leaves_the_loop_scalar(tmp_path: Path, name: str) -> None:
    code, line, column, words = WARNINGS[name]
    r = vectorize(tmp_path, code + OK)
    assert r.returncode == 0, r.stderr
    assert not r.diagnostics("error"), r.stderr
    m = r.warning_at(line, *words)
    if column is not None:
        assert int(m["col"]) == column, m.group(0)
    assert r.vectorized_loops() == 1 + EXTRA_VECTORIZED.get(name, 0), r.stderr
    compile_everywhere(r.output)


def test_pragma_operators_are_read_as_pragmas(tmp_path: Path) -> None:
    """_Pragma forms that start their line before a for loop: directly,
    through macros (of a header too), with OpenMP's combined constructs."""
    (tmp_path / "simd.h").write_text('#define PRAGMA_SIMD _Pragma("omp simd")\n')
    code = """\
#include "simd.h"
#define OMP(x) _Pragma(#x)
double f(double *a, int n) {
  double s = 0;
  PRAGMA_SIMD
  for (int i = 0; i < n; i++) a[i] = a[i] > 1 ? a[i] * 2 : a[i];
  _Pragma("omp simd reduction(+:s)")
  for (int i = 0; i < n; i++) s += a[i];
  OMP(omp parallel for simd)
  for (int i = 0; i < n; i++) a[i] += s;
  return s;
}
"""
    r = vectorize(tmp_path, code + OK, "-fopenmp", "-I", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert not r.diagnostics("warning"), r.stderr
    assert r.vectorized_loops() == 4
    compile_everywhere(r.output)


def test_pragma_operators_that_say_nothing_about_simd_are_silent(tmp_path: Path) -> None:
    code = """\
#define PAR _Pragma("omp parallel for")
/* _Pragma("omp simd") in a comment */
static const char *s = "_Pragma(\\"omp simd\\")";
#if 0
_Pragma("omp simd")
#endif
void f(double *a, int n) {
  PAR
  for (int i = 0; i < n; i++) a[i] *= 2;
  _Pragma("GCC ivdep")
  for (int i = 0; i < n; i++) a[i] *= 2;
}
"""
    r = vectorize(tmp_path, code + OK)
    assert r.returncode == 0, r.stderr
    assert not r.diagnostics("warning"), r.stderr


def test_simdlen_1_is_one_lane(tmp_path: Path) -> None:
    """As with gcc: simdlen(1) leaves the loop scalar (for every target)."""
    code = """\
void f(double *a, int n) {
#pragma omp simd simdlen(1)
  for (int i = 0; i < n; i++) a[i] *= 2;
}
"""
    r = vectorize(tmp_path, code + OK)
    assert r.returncode == 0, r.stderr
    # one warning: every target fails the same way
    r.warning_at(2, "loop not vectorized: 'simdlen(1)' asks for one lane")
    assert "not vectorized for" not in r.stderr
    assert r.vectorized_loops() == 1
    compile_everywhere(r.output)
    # --simdlen overrides the clause, as documented.
    r = vectorize(tmp_path, code + OK, "--simdlen", "2")
    assert r.returncode == 0 and not r.diagnostics("warning"), r.stderr
    assert r.vectorized_loops() == 2


def test_simdlen_beyond_every_vector(tmp_path: Path) -> None:
    """Capped to each target's widest vector, as gcc does; beyond 64 lanes
    (more than any target has for any type) also a warning."""
    code = """\
void f(double *a, int n) {
#pragma omp simd simdlen(64)
  for (int i = 0; i < n; i++) a[i] *= 2;
}
void g(double *a, int n) {
#pragma omp simd simdlen(1024)
  for (int i = 0; i < n; i++) a[i] *= 2;
}
"""
    r = vectorize(tmp_path, code, "--report=json", "--report-file", str(tmp_path / "r.json"))
    assert r.returncode == 0, r.stderr
    assert r.vectorized_loops() == 2
    (w,) = r.diagnostics("warning")
    assert (int(w["line"]), int(w["col"])) == (6, 18), w.group(0)
    assert "'simdlen(1024)' is more lanes than any target's vectors hold" in w["text"]
    widths = {
        (e["line"], e["target"]): e["width"] for e in json.loads((tmp_path / "r.json").read_text())
    }
    assert widths[(2, "avx512")] == 8 and widths[(2, "avx2")] == 4 and widths[(2, "neon")] == 2
    compile_everywhere(r.output)


VALID = {
    # compilers expand macros in OpenMP pragmas: libgomp's for-2.h writes
    # '#pragma omp F S' and each test defines F and S (s2svec saw no simd)
    "directive_written_with_macros": """
#define F parallel for simd
#define S num_threads(2)
#define RED reduction(+: s)
#define NONE
double f(double *a, int n) {
  double s = 0;
#pragma omp F S RED NONE
  for (int i = 0; i < n; i++) s += a[i];
#pragma omp NONE simd
  for (int i = 0; i < n; i++) a[i] *= 2;
  return s;
}
""",
    "unused_clause_variables": """
void f(double *a, int n) {
  double s = 0, t = 0;
#pragma omp simd reduction(+: s) private(t) lastprivate(n)
  for (int i = 0; i < n; i++) a[i] *= 2;
  a[0] = s + t;
}
""",
    "if_simd_forms": """
void f(double *a, int n) {
#pragma omp simd if(simd: n > 16)
  for (int i = 0; i < n; i++) a[i] *= 2;
#pragma omp simd if(n > 16 && a != 0)
  for (int i = 0; i < n; i++) a[i] *= 3;
#pragma omp parallel for simd if(parallel: n > 1000) if(simd: n > 16)
  for (int i = 0; i < n; i++) a[i] *= 4;
}
""",
    "allocate_on_for_simd": """
void f(double *a, int n) {
  double t;
#pragma omp for simd private(t) allocate(t)
  for (int i = 0; i < n; i++) { t = a[i]; a[i] = t * 2; }
}
""",
    "target_data_runs_on_the_host": """
void f(double *a, int n) {
#pragma omp target data map(tofrom: a[0:n])
  {
#pragma omp simd
    for (int i = 0; i < n; i++) a[i] *= 2;
  }
}
""",
    "if_with_tags_members_macros_literals_and_builtins": """
#include <stddef.h>
#define MAX 100
struct S { int a; };
static int lim(int n) { return n; }
void f(double *a, int n, struct S *s) {
#pragma omp simd if(simd: sizeof(struct S) > 2 && n > MAX && lim(n) > (int)sizeof(size_t) \\
                          && s->a > 0 && L'a' > 0 && __LINE__ > 0)
  for (int i = 0; i < n; i++) a[i] *= 2;
}
""",
    "run_time_linear_step": """
void f(const double *a, double *b, int n, int k) {
  int j = 0;
#pragma omp simd linear(j: 2 * k + 1)
  for (int i = 0; i < n; i++) { b[i] = a[j]; j += 2 * k + 1; }
}
""",
    "run_time_loop_step": """
void f(const double *a, double *b, int n, int k) {
#pragma omp simd
  for (int i = n; i > 0; i -= k + 1) b[i] = a[i] * 2;
}
""",
    "linear_val_modifier": """
void f(const double *a, double *b, int n) {
  int j = 0;
#pragma omp simd linear(val(j): 2)
  for (int i = 0; i < n; i++) { b[i] = a[j]; j += 2; }
}
""",
    "clause_names_from_globals_and_enclosing_blocks": """
double g;
void f(double *a, int n) {
  double s = 0;
  for (int k = 0; k < 2; k++) {
    double t;
#pragma omp simd reduction(+: s) private(t) aligned(a: 16) if(k < 1)
    for (int i = 0; i < n; i++) { t = a[i] + g; s += t; }
  }
  a[0] = s;
}
""",
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_supported_forms_are_vectorized(tmp_path: Path, name: str) -> None:
    code = VALID[name]
    r = vectorize(tmp_path, code)
    assert r.returncode == 0, r.stderr
    assert not r.diagnostics("warning"), r.stderr
    assert r.vectorized_loops() == code.count("#pragma omp") - code.count("target data")
    compile_everywhere(r.output)


# name: (pragma and loop, line, column, message)
ERRORS = {
    "undeclared_reduction_variable": (
        "#pragma omp simd reduction(+:nosuch)",
        4,
        30,
        "use of undeclared identifier 'nosuch' in 'reduction' clause",
    ),
    "undeclared_private_variable": (
        "#pragma omp simd private(s, tmp)",
        4,
        29,
        "use of undeclared identifier 'tmp' in 'private' clause",
    ),
    "undeclared_linear_variable": (
        "#pragma omp simd linear(k: 2)",
        4,
        25,
        "use of undeclared identifier 'k' in 'linear' clause",
    ),
    "undeclared_aligned_pointer": (
        "#pragma omp simd aligned(b: 32)",
        4,
        26,
        "use of undeclared identifier 'b' in 'aligned' clause",
    ),
    "undeclared_in_if": (
        "#pragma omp simd if(simd: m > 4)",
        4,
        27,
        "use of undeclared identifier 'm' in 'if' clause",
    ),
    "undeclared_linear_step": (
        "#pragma omp simd linear(s: step)",
        4,
        28,
        "use of undeclared identifier 'step' in 'linear' clause",
    ),
    "declared_inside_the_loop": (
        "#pragma omp simd private(t)",
        4,
        26,
        "use of undeclared identifier 't' in 'private' clause",
    ),
    "a_function_is_not_a_variable": (
        "#pragma omp simd private(f)",
        4,
        26,
        "'f' in 'private' clause is not a variable",
    ),
    "missing_colon": (
        "#pragma omp simd reduction(+ s)",
        4,
        18,
        "expected ':' after the reduction operator",
    ),
    "contradictory_simdlen_safelen": (
        "#pragma omp simd safelen(2) simdlen(4)",
        4,
        29,
        "'simdlen' (4) must not be greater than 'safelen' (2)",
    ),
    "two_data_sharing_clauses": (
        "#pragma omp simd private(s) reduction(+: s)",
        4,
        29,
        "variable 's' already appears in a 'private' clause",
    ),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_malformed_input_is_an_error(tmp_path: Path, name: str) -> None:
    pragma, line, column, message = ERRORS[name]
    code = (
        "double f(int n, const double *a)\n{\n    double s = 0;\n" + pragma + "\n"
        "    for (int i = 0; i < n; i++) { double t = a[i]; s += t; }\n"
        "    return s;\n}\n" + OK
    )
    r = vectorize(tmp_path, code)
    assert r.returncode == 1, r.stderr
    (e,) = r.diagnostics("error")
    assert (int(e["line"]), int(e["col"]), e["text"]) == (line, column, message), e.group(0)
    assert not r.output.exists()


def test_declare_simd_clauses_must_name_parameters(tmp_path: Path) -> None:
    code = "#pragma omp declare simd uniform(scale) linear(k)\ndouble f(double x, int j);\n"
    r = vectorize(tmp_path, code)
    assert r.returncode == 1, r.stderr
    (e,) = r.diagnostics("error")
    assert (int(e["line"]), int(e["col"])) == (1, 34), e.group(0)
    assert e["text"] == "'scale' in 'uniform' clause is not a parameter of 'f'"


def test_declare_simd_of_a_device_function_is_left_to_the_compiler(tmp_path: Path) -> None:
    code = """\
#pragma omp declare target
#pragma omp declare simd
double sq(double x) { return x * x; }
#pragma omp end declare target
"""
    r = vectorize(tmp_path, code, "-fopenmp", OFFLOAD)
    assert r.returncode == 0, r.stderr
    r.warning_at(
        2,
        "function not vectorized: function 'sq' is compiled for offload devices too",
        "its vector variants are left to the compiler (OpenMP makes them)",
    )
    assert r.output.read_text() == code


def test_declare_simd_warning_keeps_the_reason(tmp_path: Path) -> None:
    """A function whose body s2svec cannot take says why, also after the
    variants of the file's other functions are made again without it."""
    code = """\
#pragma omp declare simd
double g(double *p, double x) { double *q = &x; return *q * p[0]; }
#pragma omp declare simd
double h(double x) { return g(&x, x) + 1.0; }
"""
    r = vectorize(tmp_path, code)
    assert r.returncode == 0, r.stderr
    r.warning_at(
        2,
        "function not vectorized: the address of parameter 'x' is taken",
        "no vector variants of 'g' are emitted",
    )


def test_lastprivate_conditional_on_a_shared_loop_excludes_clang(tmp_path: Path) -> None:
    """clang 19 with its OpenMP runtime loses lastprivate(conditional:)
    values in the vector code's loop over blocks: on a loop shared by
    threads, every vector branch excludes clang (which runs the original),
    with a warning; a simd loop keeps its branches for clang."""
    code = """\
int f(const int *a, int n) {
  int x = -1, y = -1;
#pragma omp parallel for simd lastprivate(conditional: x)
  for (int i = 0; i < n; i++) if (a[i] > 3) x = i;
#pragma omp simd lastprivate(conditional: y)
  for (int i = 0; i < n; i++) if (a[i] > 5) y = i;
  return x + y;
}
"""
    r = vectorize(tmp_path, code)
    assert r.returncode == 0, r.stderr
    r.warning_at(3, "clang builds run this loop's original code")
    text = r.output.read_text()
    first, second = text.split("#pragma omp parallel for simd lastprivate(conditional: x)", 1)
    lines = first.splitlines()
    branches = [
        ln
        for ln, nxt in pairwise(lines)
        if ln.startswith(("#if", "#elif")) and nxt.startswith("/* s2svec branch")
    ]
    assert branches and all(ln.endswith("&& !defined(__clang__)") for ln in branches), branches
    assert "__clang__" not in second
