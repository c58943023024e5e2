"""The driver and command line: splicing, dispatch, preludes, reports, debug views."""

from __future__ import annotations

import configparser
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from s2s.codegen.target import TEMPLATE_ROOT
from s2s.driver import known_targets, resolve_targets

ROOT = Path(__file__).resolve().parents[1]

SOURCE = """\
#define _GNU_SOURCE
#include <math.h>
/* a comment that must survive */
static int helper(int x) { return x + 1; }

double kern(int n, double *restrict a, const double *restrict b, const int *idx)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)   /* not annotated: untouched */
        a[i] = 0.0;
    #pragma omp simd reduction(+:s)
    for (int i = 0; i < n; i++) {
        a[i] = b[idx[i]] * 2.0;
        s += a[i];
    }
    return s;
}

#pragma omp declare simd uniform(k)
double scale(double x, double k) { return x * k; }
"""


def s2svec(tmp_path: Path, *args: str, source: str = SOURCE) -> subprocess.CompletedProcess[str]:
    src = tmp_path / "k.c"
    src.write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "s2s", str(src), "-o", str(tmp_path / "out.c"), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )


def test_json_report_schema_and_counts(tmp_path: Path) -> None:
    r = s2svec(tmp_path, "--report=json", "--report-file", str(tmp_path / "r.json"))
    assert r.returncode == 0, r.stderr
    entries = json.loads((tmp_path / "r.json").read_text())
    keys = {
        "file",
        "line",
        "kind",
        "name",
        "vectorized",
        "reason",
        "target",
        "width",
        "scalable",
        "branches",
        "loops",
        "memory",
        "calls",
        "boscc",
        "allocas",
        "call_sites",
    }
    assert all(set(e) == keys for e in entries)
    assert all(
        set(e["calls"]) == {"vector_variant", "vector_math", "serialized", "inlined"}
        for e in entries
    )
    loops = [e for e in entries if e["kind"] == "loop"]
    assert sorted(e["target"] for e in loops) == ["avx2", "avx512", "neon", "rvv", "sve"]
    by_target = {e["target"]: e for e in loops}
    assert by_target["avx512"]["width"] == 8 and by_target["avx2"]["width"] == 4
    assert by_target["neon"]["width"] == 2
    for name in ("sve", "rvv"):  # vscale x 2 lanes of doubles
        assert by_target[name]["width"] == 2 and by_target[name]["scalable"]
    for e in loops:
        assert e["vectorized"] and e["reason"] is None and e["line"] == 11
        # a[i] store, a[i] reload folded or not, idx[i] load: contiguous; b[idx[i]]: gather
        assert e["memory"]["gather"] == 1
        assert e["memory"]["contiguous"] >= 2
        assert e["branches"] == {"uniform": 0, "divergent": 0}
    # one entry per variant and target: b, c, d, e masked and unmasked on
    # avx2 and avx512, n (1 and 2 lanes, both masks) on neon, the one
    # vector-length agnostic variant on sve and on rvv
    functions = [e for e in entries if e["kind"] == "function"]
    assert all(e["vectorized"] == (e["reason"] is None) == (e["width"] > 1) for e in functions)
    by = {(e["target"], e["name"]): e["width"] for e in functions}
    assert by[("avx2", "_ZGVdN4vu_scale")] == 4 and by[("avx512", "_ZGVeM8vu_scale")] == 8
    assert by[("neon", "_ZGVnN2vu_scale")] == 2 and ("neon", "_ZGVdN4vu_scale") not in by
    assert by[("neon", "_ZGVnN1vu_scale")] == 1  # per lane: the scalar function
    assert by[("sve", "_ZGVsMxvu_scale")] == 2 and by[("rvv", "_ZGVrMxvu_scale")] == 2
    assert len(functions) == 2 * 8 + 4 + 2


def test_text_report_is_compiler_style(tmp_path: Path) -> None:
    r = s2svec(tmp_path, "--report", "--target", "avx2")
    assert r.returncode == 0
    assert "k.c:11:5: remark: loop vectorized for avx2 with 4 lanes" in r.stderr
    assert (
        "k.c:19:1: remark: function '_ZGVdN4vu_scale' vectorized for avx2 with 4 lanes" in r.stderr
    )


CASCADE = """\
#include <math.h>
void f(int n, const double *x, double *y)
{
    #pragma omp simd
    for (int i = 0; i < n; i++) {
        double v = x[i];
        if (v > 1.0)
            y[i] = log(v) + exp(-v);
        else
            v = v * 0.5;
        y[i] += v;
    }
}
"""


@pytest.mark.parametrize(
    "target, flag, boscc, all_true",
    [
        ("avx2", (), 1, 1),
        ("avx2", ("--no-all-true",), 1, 0),
        ("avx2", ("--no-boscc",), 0, 0),
        ("avx512", (), 1, 0),
    ],
)  # all_true_paths = false: its masked stores are cheap
def test_text_report_notes_where_gadgets_and_all_true_paths_went(
    tmp_path: Path, target: str, flag: tuple[str, ...], boscc: int, all_true: int
) -> None:
    r = s2svec(tmp_path, "--report", "--target", target, *flag, source=CASCADE)
    assert r.returncode == 0, r.stderr
    assert f"k.c:4:5: remark: loop vectorized for {target}" in r.stderr
    skip = "k.c:7:13: note: BOSCC: a vector in which no lane takes the true arm of this branch"
    path = "k.c:7:13: note: all-true path: the true arm of this branch runs unmasked"
    assert r.stderr.count(skip) == boscc and r.stderr.count(path) == all_true
    out = (tmp_path / "out.c").read_text()
    assert out.count("_mixed:") == all_true


ELSE_IF_CASCADE = """\
#include <math.h>
void f(int n, const double *r, double *y)
{
    #pragma omp simd
    for (int i = 0; i < n; i++) {
        double v = r[i], e;
        if (v > 8.0)
            e = 0.0;
        else if (v > 4.0)
            e = log(v) * 0.5;
        else if (v > 2.0)
            e = exp(-v) + v;
        else
            e = v * v;
        y[i] = e;
    }
}
"""


@pytest.mark.parametrize(
    "flags, gadgets",
    [
        ((), 4),  # else arms of lines 7, 9 (log, exp below), both arms of 9, exp of 11
        (("--boscc-threshold", "1"), 6),  # every arm that may be skipped
        (("--boscc-threshold", "1000"), 0),
        (("--no-boscc",), 0),
    ],
)
def test_json_report_counts_nested_gadgets(
    tmp_path: Path, flags: tuple[str, ...], gadgets: int
) -> None:
    r = s2svec(
        tmp_path,
        "--report=json",
        "--report-file",
        str(tmp_path / "r.json"),
        "--target",
        "avx512",
        *flags,
        source=ELSE_IF_CASCADE,
    )
    assert r.returncode == 0, r.stderr
    [entry] = json.loads((tmp_path / "r.json").read_text())
    assert entry["vectorized"] and entry["branches"]["divergent"] == 3
    assert entry["boscc"] == gadgets
    out = (tmp_path / "out.c").read_text()
    assert out.count("_boscc:") == gadgets  # one skip target per gadget in the C


def test_everything_else_is_byte_identical(tmp_path: Path) -> None:
    r = s2svec(tmp_path, "--target", "avx2")
    assert r.returncode == 0, r.stderr
    out = (tmp_path / "out.c").read_text()
    pragma_at = SOURCE.index("    #pragma omp simd")
    loop_end = SOURCE.index("    return s;")
    # text before the function holding the loop, and after the loop, is unchanged
    head = SOURCE[: SOURCE.index("double kern")]
    assert out.startswith(head)
    # ... up to the vector variants of 'scale', appended after its definition
    tail = SOURCE[loop_end:]
    assert tail in out and out[out.index(tail) + len(tail) :].startswith("#if defined(__x86_64__)")
    assert SOURCE[SOURCE.index("double kern") : pragma_at] in out
    # the original loop is kept in the #else branch (after its marker), pragma included
    line = SOURCE[:pragma_at].count("\n") + 1
    marker = f"/* s2svec branch: scalar code of the loop at {tmp_path / 'k.c'}:{line}:5 */"
    assert f"#else\n{marker}\n" + SOURCE[pragma_at:loop_end] + "#endif\n" in out


def test_prelude_comes_after_feature_macros(tmp_path: Path) -> None:
    s2svec(tmp_path, "--target", "avx2")
    out = (tmp_path / "out.c").read_text()
    assert out.index("#define _GNU_SOURCE") < out.index("#include <immintrin.h>")
    assert out.index("#include <immintrin.h>") < out.index("double kern")


def test_dispatch_is_widest_first(tmp_path: Path) -> None:
    s2svec(tmp_path, "--target", "neon,avx2,avx512")
    out = (tmp_path / "out.c").read_text()
    body = out[out.index("double kern") :]
    avx512 = (
        "#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)"
        " && defined(__AVX512DQ__) && defined(__FMA__)"
    )
    assert (
        body.index(avx512)
        < body.index("#elif defined(__AVX2__) && defined(__FMA__)")
        < body.index("#elif defined(__ARM_NEON)")
        < body.index("#else")
    )


def test_unannotated_file_is_byte_identical(tmp_path: Path) -> None:
    source = "int f(int *a, int n) {\n  for (int i = 0; i < n; i++) a[i]++;\n  return 0;\n}\n"
    r = s2svec(tmp_path, source=source)
    assert r.returncode == 0 and r.stderr == ""
    assert (tmp_path / "out.c").read_text() == source


def test_print_shapes_and_emit_cfg(tmp_path: Path) -> None:
    r = s2svec(tmp_path, "--target", "avx2", "--print-shapes", "--emit-cfg", str(tmp_path / "cfg"))
    assert r.returncode == 0, r.stderr
    assert "; region kern:12 at " in r.stdout
    assert "stride(" in r.stdout and "uni" in r.stdout
    dots = sorted(p.name for p in (tmp_path / "cfg").glob("*.dot"))
    assert dots == ["k.c.11.after.dot", "k.c.11.before.dot"]
    assert all((tmp_path / "cfg" / d).read_text().startswith("digraph") for d in dots)


DIVERGENT_LOOP = """\
void f(int *out, const int *a, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) {
    int x = a[i], c = 0;
    while (x > 1) { x = (x & 1) ? 3 * x + 1 : x / 2; c++; }
    out[i] = c;
  }
}
"""


def test_emit_cfg_shows_the_region_before_and_after_linearization(tmp_path: Path) -> None:
    r = s2svec(
        tmp_path,
        "--target",
        "avx2",
        "--emit-cfg",
        str(tmp_path / "cfg"),
        "--print-after",
        "linearize",
        source=DIVERGENT_LOOP,
    )
    assert r.returncode == 0, r.stderr
    before = (tmp_path / "cfg" / "k.c.2.before.dot").read_text()
    after = (tmp_path / "cfg" / "k.c.2.after.dot").read_text()
    assert "[divergent]" in before and "(divergent)" in before
    assert "[divergent]" not in after and "(divergent)" not in after
    assert "; IR of f:3 after linearize" in r.stdout and "@s2s.any(%live)" in r.stdout


def test_print_after_names_an_unknown_pass(tmp_path: Path) -> None:
    r = s2svec(tmp_path, "--print-after", "nosuch", source=DIVERGENT_LOOP)
    assert r.returncode == 2 and "unknown pass 'nosuch'" in r.stderr


def test_help_and_manual_name_every_pass(tmp_path: Path) -> None:
    from s2s.pipeline import PASS_NAMES

    r = s2svec(tmp_path, "--help", source=DIVERGENT_LOOP)
    manual = (ROOT / "docs" / "user" / "command-line.rst").read_text()
    help_text = " ".join(re.sub(r"(\w-)\n\s+", r"\1", r.stdout).split())  # argparse wraps at '-'
    for name in PASS_NAMES:
        assert f" {name}," in help_text or f" {name};" in help_text or f"({name}," in help_text, (
            name
        )
        assert f"``{name}``" in manual, name  # --print-after (docs/internals/pipeline.rst too)


def test_target_lists() -> None:
    assert resolve_targets("avx2, avx512 ,avx2") == ["avx2", "avx512"]
    assert resolve_targets("host")[0] in ("avx512", "avx2", "neon")
    with pytest.raises(ValueError):
        resolve_targets("sse9")
    assert set(known_targets()) == {"avx2", "avx512", "neon", "rvv", "sve"}


def test_every_target_folder_is_packaged() -> None:
    """A non-editable install copies templates via setup.cfg data_files."""
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    listed = set(cfg["options.data_files"])
    for folder in TEMPLATE_ROOT.iterdir():
        if folder.is_dir():
            assert f"share/s2svec/templates/{folder.name}" in listed, folder.name


def test_reductions_use_two_accumulators(tmp_path: Path) -> None:
    """The loop-carried accumulator chain is split in two (see
    bench/RESULTS.md, dot): two vectors per trip, one accumulator each;
    ``--interleave 1`` keeps one."""
    s2svec(tmp_path, "--target", "avx2")
    out = (tmp_path / "out.c").read_text()
    accumulators = re.findall(r"__m256d (s2s_avx2_\w+_a\d+)_([01]);", out)
    assert len(accumulators) == 2 and accumulators[0][0] == accumulators[1][0], accumulators
    assert "s2s_trip - s2s_k >= 8ULL; s2s_k += 8ULL" in out
    s2svec(tmp_path, "--target", "avx2", "--interleave", "1")
    out = (tmp_path / "out.c").read_text()
    assert len(re.findall(r"__m256d (s2s_avx2_\w+_a\d+)_([01]);", out)) == 1
    assert "s2s_trip - s2s_k >= 4ULL; s2s_k += 4ULL" in out


WIDE_SIMDLEN = """\
#include <stdint.h>
void f(int n, const int64_t *a, int64_t *b) {
#pragma omp simd simdlen(16)
    for (int i = 0; i < n; i++) b[i] = a[i] * 3;
}
"""


def test_a_simdlen_wider_than_a_register_takes_several(tmp_path: Path) -> None:
    """simdlen(16) of int64: 16 iterations per trip in two AVX-512
    registers, four AVX2 and eight NEON ones (issue 21, item 6); an explicit
    --interleave still wins."""
    r = s2svec(tmp_path, "--target", "avx512,avx2,neon", source=WIDE_SIMDLEN)
    assert r.returncode == 0, r.stderr
    out = (tmp_path / "out.c").read_text()
    for text in (
        "avx512, 8 lanes x 2 vectors",
        "avx2, 4 lanes x 4 vectors",
        "neon, 2 lanes x 8 vectors",
    ):
        assert text in out, text
    assert "s2s_trip - s2s_k >= 16ULL; s2s_k += 16ULL" in out
    s2svec(tmp_path, "--target", "avx512", "--interleave", "1", source=WIDE_SIMDLEN)
    assert "avx512, 8 lanes, loop" in (tmp_path / "out.c").read_text()


COMBINED = """\
double kern(int n, double *a, const double *b)
{
    double s = 0.0;
    #pragma omp target teams distribute parallel for simd reduction(+:s) map(to: b[0:n]) \\
        map(tofrom: a[0:n]) num_teams(2) safelen(64)
    for (int i = 0; i < n; i++) {
        a[i] = b[i] > 0 ? b[i] * 2.0 : -b[i];
        s += a[i];
    }
    return s;
}
"""


def test_combined_target_construct_report(tmp_path: Path) -> None:
    """Issue 21 item 7: without an offload target the loop of a combined
    target construct runs on the host and is vectorized, its target, teams,
    distribute and parallel for kept (with their clauses, not simd's) on the
    vector loop; with -fopenmp-targets= it stays scalar with the reason."""
    report = tmp_path / "r.json"
    args = ("-fopenmp", "--target", "avx2", "--report=json", "--report-file", str(report))
    r = s2svec(tmp_path, *args, source=COMBINED)
    assert r.returncode == 0 and not r.stderr, r.stderr
    (entry,) = json.loads(report.read_text())
    assert entry["vectorized"] and entry["reason"] is None and entry["width"] == 4
    assert entry["line"] == 4 and entry["branches"] == {"uniform": 0, "divergent": 1}
    out = (tmp_path / "out.c").read_text()
    vector = out[out.index("avx2 code") : out.index("#else")]
    (kept,) = [line.strip() for line in vector.splitlines() if "#pragma omp" in line]
    assert kept == (
        "#pragma omp target teams distribute parallel for reduction(+:s) map(to: b[0:n]) "
        "map(tofrom: a[0:n]) num_teams(2)"
    )
    assert "_mm256_" in vector
    r = s2svec(tmp_path, *args, "-fopenmp-targets=nvptx64", source=COMBINED)
    assert r.returncode == 0, r.stderr
    reason = (
        "'#pragma omp target teams distribute parallel for simd' may run on an offload "
        "device (the build offloads target regions: '-fopenmp-targets=nvptx64')"
    )
    assert f"k.c:4:5: warning: loop not vectorized: {reason}" in r.stderr
    (entry,) = json.loads(report.read_text())
    assert not entry["vectorized"] and entry["reason"] == reason
    assert (tmp_path / "out.c").read_text() == COMBINED


RUNTIME_STEP = """\
void kern(int n, int s, double *a, const double *b)
{
    #pragma omp simd
    for (int i = 0; i < n; i += s)
        a[i] = b[i] * 2.0;
}
"""


def test_run_time_step_versions(tmp_path: Path) -> None:
    """Issue 21 item 3: a run-time loop step gets a version for the step 1
    (contiguous accesses), one for any step of the sign OpenMP asks for
    (lane l at lb + (k + l) * s: gathers and scatters, the report's
    counts), and the loop as written for a step of the wrong sign."""
    report = tmp_path / "r.json"
    args = ("--target", "avx2", "--report=json", "--report-file", str(report))
    r = s2svec(tmp_path, *args, source=RUNTIME_STEP)
    assert r.returncode == 0 and not r.stderr, r.stderr
    (entry,) = json.loads(report.read_text())
    assert entry["vectorized"] and entry["memory"]["gather"] == 1
    assert entry["memory"]["scatter"] == 1
    out = (tmp_path / "out.c").read_text()
    vector = out[out.index("avx2 code") : out.index("#else")]
    lines = [line.strip() for line in vector.splitlines()]
    unit, general = lines.index("if ((s) == 1) {"), lines.index("if ((s) > 0) {")
    assert unit < general
    assert "_mm256_loadu_pd" in "\n".join(lines[unit:general])
    assert "_mm256_i32gather_pd" in "\n".join(lines[general:])
    assert "for (int i = 0; i < n; i += s)" in lines[general:]  # a step of the wrong sign
