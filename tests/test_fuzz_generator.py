"""The fuzz program generator itself (testsuite/fuzz/generate.py).

It must be deterministic (a seed is a bug report), cover the constructs it
promises, and produce UB-free programs: they compile without the warnings
that mean undefined behaviour or a generator mistake, and a sample runs
clean under UBSan and ASan.  The runner's configuration rotation and
summaries are checked here too.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FUZZ = ROOT / "testsuite" / "fuzz"
sys.path.insert(0, str(FUZZ))
import generate as gen  # noqa: E402  found through the sys.path entry above
import run  # noqa: E402  found through the sys.path entry above

TESTSUITE = ROOT / "testsuite"
COVERAGE_SEEDS = range(400)

# Warnings that mean undefined behaviour or a generator mistake (uninitialised
# or unused values, out-of-bounds constants, bad shifts, division by zero,
# UB the optimizer proved in a loop, missing declarations, type confusion).
UB_WERROR = (
    "-Werror=uninitialized",
    "-Werror=maybe-uninitialized",
    "-Werror=array-bounds",
    "-Werror=shift-count-overflow",
    "-Werror=shift-count-negative",
    "-Werror=shift-negative-value",
    "-Werror=div-by-zero",
    "-Werror=aggressive-loop-optimizations",
    "-Werror=sequence-point",
    "-Werror=unused-variable",
    "-Werror=unused-but-set-variable",
    "-Werror=implicit-function-declaration",
    "-Werror=int-conversion",
    "-Werror=incompatible-pointer-types",
    "-Werror=return-type",
    "-Werror=tautological-compare",
    "-Werror=parentheses",
    "-Werror=misleading-indentation",
    "-Werror=format",
)
CLANG_WERROR = (
    "-Werror=sometimes-uninitialized",
    "-Werror=self-assign",
    "-Werror=constant-conversion",
    "-Werror=array-bounds-pointer-arithmetic",
)


def test_same_seed_same_program() -> None:
    for seed in (0, 1, 17, 123456):
        assert gen.generate(seed).text == gen.generate(seed).text


def test_deterministic_across_processes() -> None:
    """No dependence on hash randomization or anything else per process."""
    texts = set()
    for hashseed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        out = subprocess.run(
            [sys.executable, str(FUZZ / "generate.py"), "42"],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout
        texts.add(out)
    assert texts == {gen.generate(42).text}


def test_seeds_differ() -> None:
    texts = {gen.generate(s).text for s in range(30)}
    assert len(texts) == 30


def test_programs_are_testsuite_kernels() -> None:
    sys.path.insert(0, str(TESTSUITE))
    import differential as dt

    for seed in range(20):
        text = gen.generate(seed).text
        meta = dt.parse_meta(text)
        assert meta.vectorized is None
        assert '#include "harness.h"' in text and "S2S_FOR_SIZES(n)" in text
        assert re.search(LOOP_PRAGMA, text)
        if "libm" in gen.generate(seed).features:
            assert meta.args[:2] == ("--math", "exact")
        # even seeds: lane refill wherever it can be built
        assert (meta.args[-2:] == ("--refill-ratio", "0")) == (seed % 2 == 0)


# Divergent control flow (issue 6) and declare simd calls (issue 7): also
# required in the CI batch (tests/test_fuzz.py), see ci_batch_features.
DIVERGENT_FEATURES = (
    "divergent-loop",
    "divergent-for",
    "divergent-while",
    "divergent-do",
    "divergent-search",
    "early-exit-loop",
    "multi-exit-loop",
    "nested-break",
    "continue",
    "continue-inner",
    "continue-nested",
    "switch",
    "switch-varying",
    "switch-fallthrough",
    "switch-default-first",
    "switch-default-middle",
    "switch-default-last",
    "local-array",
    "local-histogram",
    "local-stack",
    "select-divergent",
    "logical-divergent",
    "short-circuit",
    "short-circuit-divergent",
    "formula-cascade",
)
DECLARE_SIMD_FEATURES = (
    "declare-simd",
    "declare-simd-varying",
    "declare-simd-uniform",
    "declare-simd-uniform-ptr",
    "declare-simd-linear",
    "declare-simd-linear-ptr",
    "declare-simd-inbranch",
    "declare-simd-notinbranch",
    "declare-simd-masked",
    # how the functions are written (issue 19)
    *(f"declare-simd-form-{f.replace(' ', '-')}" for f in gen.LINKAGES),
)
CALL_GRAPH_FEATURES = (
    "call-walk",
    "call-find",
    "call-mix",
    "call-rec",
    "call-taken",
    "call-big",
    "call-big-thrice",
)
"""Call graphs of plain functions (issue 19, testsuite/fuzz/call_graph.py)."""
BUILD_FEATURES = ("build-fopenmp-simd", "build-fopenmp")
"""The candidates built as OpenMP programs are (issue 19)."""
PRAGMA_FORMS = ("pragma-operator", "pragma-operator-macro")
"""Loop pragmas written as ``_Pragma("omp simd")`` and through a macro."""
LOOP_PRAGMA = r'(?:#pragma omp |_Pragma\("omp |FZ_OMP\(omp )(?:for )?simd'
"""A generated loop's pragma, in each of the forms."""
NEW_KINDS = (
    "switch",
    "continue",
    "divergent_loop",
    "early_exit_loop",
    "nested_break",
    "local_array",
    "short_circuit",
    "declare_simd",
    "formula_cascade",
)

REQUIRED_FEATURES = {
    # element types and loop variables
    *(
        f"type-{t}"
        for t in ("i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64", "char")
    ),
    *(f"iv-{t}" for t in ("i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64")),
    "iv-extreme",
    "iv-outside",
    "loop-up",
    "loop-down",
    "step-1",
    "step-2",
    "step-3",
    "step-runtime",
    "test-<",
    "test-<=",
    "test->",
    "test->=",
    "test-!=",
    # control flow and data
    "if-uniform",
    "if-varying",
    "inner-loop",
    "select",
    "logical",
    "division",
    "gather",
    "gather-row",
    "scatter",
    "strided-load",
    "strided-record",
    "strided-store",
    "uniform-load",
    "guarded-load",
    "read-modify-write",
    "record",
    # clauses
    *(f"reduction-{op}" for op in ("+", "-", "*", "min", "max", "&", "|", "^", "&&", "||")),
    "lastprivate",
    "private",
    "linear",
    "collapse",
    "collapse-lastprivate",
    "clauses",
    "declare-reduction",
    "for-simd",
    "call",
    "libm",
    "math-exact",
    *DIVERGENT_FEATURES,
    *DECLARE_SIMD_FEATURES,
    *BUILD_FEATURES,
    *CALL_GRAPH_FEATURES,
    *PRAGMA_FORMS,
}


def test_every_construct_appears() -> None:
    seen: dict[str, int] = {}
    for seed in COVERAGE_SEEDS:
        for f in gen.generate(seed).features:
            seen[f] = seen.get(f, 0) + 1
    missing = REQUIRED_FEATURES - set(seen)
    assert not missing, f"never generated in {len(COVERAGE_SEEDS)} seeds: {sorted(missing)}"
    rare = {f: n for f, n in seen.items() if f in REQUIRED_FEATURES and n < 5}
    assert not rare, f"generated fewer than 5 times: {rare}"


def test_weights_switch_constructs_off() -> None:
    opts = gen.Options()
    for kind in NEW_KINDS + ("call",):
        opts.weights[kind] = 0
    banned = set(DIVERGENT_FEATURES + DECLARE_SIMD_FEATURES) - {
        "select-divergent",
        "logical-divergent",
    }
    for seed in range(60):
        text = gen.generate(seed, opts).text
        assert not set(gen.generate(seed, opts).features) & (banned | {"call"})
        assert "omp declare simd" not in text and "switch ((int)" not in text


def test_new_constructs_at_real_weights() -> None:
    """Divergent control flow and declare simd calls are no side dish: each
    kind has at least the weight of a uniform inner loop, and most programs
    use several of them."""
    w = gen.STMT_WEIGHTS
    assert min(w[k] for k in NEW_KINDS if k != "nested_break") >= 0.5 * w["inner_loop"]
    programs = [set(gen.generate(s, gen.small_options()).features) for s in range(100)]
    kinds = set(DIVERGENT_FEATURES + DECLARE_SIMD_FEATURES)
    assert sum(len(f & kinds) >= 3 for f in programs) >= 60


def test_narrow_index_off_masks_stepping_values() -> None:
    """--no-narrow-index: no conversion of the loop variable to a narrower
    type without a mask (hides one bug class while hunting others)."""
    opts = gen.Options(narrow_index=False)
    masked = 0
    for seed in range(40):
        text = gen.generate(seed, opts).text
        # k, when declared, is an int: a direct conversion to 8/16 bits is what is hidden
        assert not re.search(r"\(\((?:u?int(?:8|16)_t|char)\)\(k\)\)", text), seed
        masked += text.count(") & 63)")
    assert masked > 20
    direct = r"\(\((?:u?int(?:8|16)_t|char)\)\(k\)\)"
    assert sum(bool(re.search(direct, gen.generate(s).text)) for s in range(40)) > 10


def test_command_line_rejects_unknown_kinds() -> None:
    proc = subprocess.run(
        [sys.executable, str(FUZZ / "generate.py"), "1", "--weights", "nonsense=1"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "unknown statement kind" in proc.stderr


def test_small_programs_have_fewer_loops() -> None:
    def loops(text: str) -> int:
        return len(re.findall(LOOP_PRAGMA, text))

    small = [loops(gen.generate(s, gen.small_options()).text) for s in range(40)]
    full = [loops(gen.generate(s).text) for s in range(40)]
    assert max(small) <= 3 and min(full) >= 2 and sum(small) < sum(full)


def _compile(cc: str, src: Path, out: Path, flags: tuple[str, ...]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            cc,
            "-std=gnu17",
            "-ffp-contract=off",
            "-Wall",
            "-Wno-unknown-pragmas",
            "-Wno-unused-function",
            *flags,
            "-I",
            str(TESTSUITE),
            "-o",
            str(out),
            str(src),
            "-lm",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("cc", ["gcc", "clang-19"])
@pytest.mark.parametrize("seed", [3, 11, 29, 58, 77, 140])
def test_compiles_without_ub_warnings(tmp_path: Path, cc: str, seed: int) -> None:
    if shutil.which(cc) is None:
        pytest.skip(f"{cc} is not installed (scripts/setup.sh installs it)")
    src = tmp_path / f"fuzz{seed}.c"
    gen.generate(seed).write(src)
    flags = ("-O2",) + UB_WERROR + (CLANG_WERROR if cc.startswith("clang") else ())
    proc = _compile(cc, src, tmp_path / "prog", flags)
    assert proc.returncode == 0, proc.stderr[-4000:]


@pytest.mark.parametrize("seed", [5, 21, 64, 99])
def test_sanitizers_find_nothing(tmp_path: Path, seed: int) -> None:
    """UBSan (signed overflow, shifts, division, float-to-int, bounds, ...)
    and ASan (out-of-bounds, use of freed memory) on the reference program."""
    _sanitize(tmp_path, gen.generate(seed), seed)


def _sanitizer_cc() -> str:
    """clang 19: its UBSan sees overflows gcc's folds away (seed 20600973)."""
    if shutil.which("clang-19") is None:
        pytest.skip("clang-19 is not installed (scripts/setup.sh installs it)")
    return "clang-19"


def _sanitize(tmp_path: Path, prog: gen.Program, seed: int) -> None:
    cc = _sanitizer_cc()
    src = tmp_path / f"fuzz{seed}.c"
    prog.write(src)
    exe = tmp_path / "prog"
    proc = _compile(
        cc, src, exe, ("-O1", "-g", "-fsanitize=undefined,address", "-fno-sanitize-recover=all")
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    env = {**os.environ, "ASAN_OPTIONS": "detect_leaks=0", "UBSAN_OPTIONS": "print_stacktrace=1"}
    res = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300, env=env)
    assert res.returncode == 0, res.stderr[-4000:]
    assert "runtime error" not in res.stderr
    assert res.stdout.count("X size ") == 22


def test_distinct_operands_do_not_overflow(tmp_path: Path) -> None:
    """Campaign seed 20600973: two equal operands made distinct as ``x + 1``
    overflowed for x = INT64_MAX (the generated program had UB; gcc folded
    ``x < x + 1`` and its UBSan saw nothing, clang's does)."""
    _sanitize(tmp_path, gen.generate(20600973, gen.small_options()), 20600973)


def test_sanitizers_catch_ub_in_this_setup(tmp_path: Path) -> None:
    """The sanitizer test above can fail: a signed overflow is reported."""
    cc = _sanitizer_cc()
    src = tmp_path / "ub.c"
    src.write_text(
        "#include <limits.h>\nint main(int c, char **v) { (void)v; "
        "int x = INT_MAX - 1 + c; return x + c > 0; }\n"
    )
    exe = tmp_path / "ub"
    assert (
        _compile(
            cc, src, exe, ("-O1", "-fsanitize=undefined", "-fno-sanitize-recover=all")
        ).returncode
        == 0
    )
    res = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert res.returncode != 0 and "runtime error" in res.stderr


# --- the runner ---------------------------------------------------------------


def test_rotation_cycles_through_every_configuration() -> None:
    groups = run.config_groups()
    seen = {n for s in range(40) for n in run.rotation(s, 3)}
    assert seen == {n for g in groups for n in g}
    for s in range(40):
        chosen = run.rotation(s, 3)
        # one configuration per vector branch
        assert len({run.dt.CONFIGS[n].target for n in chosen}) == len(chosen) == len(groups)


def test_select_configs() -> None:
    assert set(run.select_configs("main", 0)) == set(run.dt.MAIN_CONFIGS)
    assert run.select_configs("gcc-avx2,gcc-neon", 5) == ["gcc-avx2", "gcc-neon"]
    with pytest.raises(ValueError):
        run.select_configs("gcc-avx3", 0)


def test_reasons_are_grouped() -> None:
    a = run.normalize_reason(
        "divergent control flow (branch at block 'if.else') is not vectorized yet"
    )
    b = run.normalize_reason(
        "divergent control flow (branch at block 'land.end') is not vectorized yet"
    )
    assert a == b
    assert run.normalize_reason(
        "value <Cast 1406036 : i32> used before its definition"
    ) == run.normalize_reason("value <Load 99 : f64> used before its definition")


def test_report_counts_loops_and_variants_apart() -> None:
    """declare simd variants (one report entry per variant and target) are
    not loops: they must not inflate the vectorized-loop counts."""
    report = [
        {
            "kind": "loop",
            "line": 10,
            "target": "avx2",
            "vectorized": True,
            "calls": {"vector_variant": 1, "serialized": 2},
        },
        {"kind": "loop", "line": 10, "target": "neon", "vectorized": False, "reason": "why"},
        {"kind": "function", "line": 3, "target": "avx2", "vectorized": True},
        {"kind": "function", "line": 3, "target": "neon", "vectorized": False, "reason": "body"},
    ]
    r = run.ProgramResult(1, "a.c", [], [])
    run.read_report(r, report)
    assert r.regions == 1 and r.vectorized == {"avx2": 1}
    assert r.variants == [1, 2] and r.calls == {"vector_variant": 1, "serialized": 2}
    assert r.reasons == ["neon: why", "neon: declare simd function: body"]
    assert "declare simd variants vectorized: 1 of 2" in run.summarize([r])


def test_summary_names_failures(tmp_path: Path) -> None:
    ok = run.ProgramResult(
        1,
        "a.c",
        ["gather"],
        [run.ConfigResult("gcc-avx2", "ok")],
        regions=2,
        vectorized={"avx2": 1},
        reasons=["avx2: divergent control flow (branch at block 'x')"],
    )
    bad = run.ProgramResult(
        2,
        str(tmp_path / "b.c"),
        ["collapse"],
        [run.ConfigResult("gcc-native", "wrong-output", "line 3 differs")],
        regions=1,
    )
    (tmp_path / "b.c").write_text("int main(void) { return 0; }\n")
    text = run.summarize([ok, bad])
    assert "2 programs, 1 with failures" in text
    assert "seed 2: gcc-native wrong-output; line 3 differs" in text
    assert "divergent control flow" in text and "collapse 1/1" in text
    run.save_failure(bad, tmp_path / "out")
    assert (tmp_path / "out" / "failures" / "seed2.c").exists()
    assert "wrong-output" in (tmp_path / "out" / "failures" / "seed2.txt").read_text()


# --- divergent control flow and declare simd calls -------------------------------


def seeds_with(feature: str, count: int, options: gen.Options | None = None) -> list[int]:
    """The first `count` seeds whose program uses `feature`."""
    found = []
    for seed in range(1000):
        if feature in gen.generate(seed, options or gen.small_options()).features:
            found.append(seed)
            if len(found) == count:
                return found
    raise AssertionError(f"no program with {feature} in 1000 seeds")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def enclosing(lines: list[str], idx: int, floor: int) -> list[str]:
    """The statements (if, loop, case, ...) around lines[idx] whose indentation
    is above `floor`, innermost first (the generator indents by 4)."""
    out, cur = [], _indent(lines[idx])
    for j in range(idx - 1, -1, -1):
        ln = lines[j]
        if ln.strip() and _indent(ln) < cur and not ln.lstrip().startswith("}"):
            if _indent(ln) < floor:
                break
            out.append(ln.strip())
            cur = _indent(ln)
    return out


def is_loop(stmt: str) -> bool:
    return stmt.startswith(("for ", "for(", "while ", "do {"))


DECLARE_SIMD_RE = (
    r"(#pragma omp declare simd[^\n]*)\n(?:static |inline )*\w+ (fz_simd\d+)\(([^)]*)\)"
)
"""A generated declare simd function's pragma, name and parameters (its
definition's or, for a pragma only in the program's header, its declaration's)."""


def program_text(prog: gen.Program) -> str:
    """The program and its own headers."""
    return "".join([prog.text, *prog.headers.values()])


def simd_calls(text: str) -> list[tuple[str, str, list[str], bool]]:
    """(callee, its branch clause, the statements around the call inside the
    simd loop body, whether a `continue` of the simd loop comes before it)."""
    branch = {
        m.group(2): next(
            (w for w in m.group(1).split()[-1:] if w in ("inbranch", "notinbranch")), ""
        )
        for m in re.finditer(DECLARE_SIMD_RE, text)
    }
    out = []
    lines = text.splitlines()
    for start, line in enumerate(lines):
        if not re.match(LOOP_PRAGMA, line):
            continue
        brace = next(j for j in range(start, len(lines)) if lines[j].strip() == "{")
        floor = _indent(lines[brace]) + 4
        continued = False
        for j in range(brace + 1, len(lines)):
            if lines[j] and _indent(lines[j]) < floor:
                break
            around = enclosing(lines, j, floor)
            if lines[j].strip() == "continue;" and not any(map(is_loop, around)):
                continued = True
            for callee in re.findall(r"\b(fz_simd\d+)\(", lines[j]):
                out.append((callee, branch[callee], around, continued))
    return out


def test_declare_simd_calls_keep_their_promises() -> None:
    """inbranch functions are called only under a condition, notinbranch ones
    only where every lane of the simd loop runs (OpenMP leaves the other
    calls undefined); every kind of call site occurs."""
    kinds = set()
    for seed in range(150):
        for callee, branch, around, continued in simd_calls(program_text(gen.generate(seed))):
            conditional = bool(around) or continued
            kinds.add((branch, conditional))
            if branch == "inbranch":
                assert conditional, (seed, callee)
            if branch == "notinbranch":
                assert not conditional, (seed, callee, around)
    assert kinds == {("", False), ("", True), ("inbranch", True), ("notinbranch", False)}


def test_call_checker_can_fail() -> None:
    text = (
        "#pragma omp declare simd notinbranch\nint fz_simd0(int x)\n{\n}\n"
        "void f0(int n)\n{\n#pragma omp simd\n    for (int i = 0; i < n; i++)\n    {\n"
        "        if (i > 2) {\n            continue;\n        }\n"
        "        int t = fz_simd0(i);\n        if (t) {\n            t = fz_simd0(t);\n"
        "        }\n    }\n}\n"
    )
    calls = simd_calls(text)
    assert [(c, b, bool(a), k) for c, b, a, k in calls] == [
        ("fz_simd0", "notinbranch", False, True),
        ("fz_simd0", "notinbranch", True, True),
    ]


def test_linear_arguments_step_with_the_loop() -> None:
    """A linear(i:S) argument is (int)(k) of a loop whose k steps by S (no
    collapse); a linear pointer is &a[k]."""
    for seed in seeds_with("declare-simd-linear", 15, gen.Options()):
        text = program_text(gen.generate(seed))
        for m in re.finditer(DECLARE_SIMD_RE, text):
            # linear(a, b:S) gives both the step S: the generator writes one per clause
            steps = dict(x.split(":") for x in re.findall(r"linear\((\w+:-?\d+)\)", m.group(1)))
            assert len(steps) == m.group(1).count("linear("), m.group(1)
            params = [p.split()[-1].lstrip("*") for p in m.group(3).split(",")]
            call = re.search(rf"= {m.group(2)}\((.*)\);", text)  # not a declaration
            assert call, seed
            args = split_args(call.group(1))
            for name, step in steps.items():
                arg = args[params.index(name)]
                assert re.fullmatch(r"\(int\)\(.+\)" if name == "i" else r"&\w+\[.+\]", arg), arg
                assert int(step) != 0


def split_args(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch in "(["
        depth -= ch in ")]"
        cur += ch
    return out + [cur.strip()]


@pytest.mark.parametrize(
    "feature",
    [
        "nested-break",
        "multi-exit-loop",
        "local-stack",
        "local-histogram",
        "switch-fallthrough",
        "short-circuit",
        "declare-simd-linear-ptr",
        "declare-simd-inbranch",
        "continue-inner",
        "divergent-search",
    ],
)
def test_sanitizers_on_divergent_constructs(tmp_path: Path, feature: str) -> None:
    """The reference of a CI-sized program with each construct runs clean
    under UBSan and ASan (every index in bounds, every loop ends)."""
    seed = seeds_with(feature, 1)[0]
    _sanitize(tmp_path, gen.generate(seed, gen.small_options()), seed)


def test_fma_results_have_a_canonical_zero() -> None:
    """Every fma result gets + 0.0: clang on AArch64 folds -(fma(a, b, c))
    into fnmadd, which differs from it in the sign of an exact zero, so a
    program negating an fma would print what its compiler chose (found by
    CI seed 189 on clang-neon, in the epilogue: not an s2svec bug)."""
    seen = 0
    for seed in range(150):
        text = gen.generate(seed).text
        for m in re.finditer(r"\bfmaf?\(", text):
            depth, j = 0, m.end() - 1
            while True:
                depth += text[j] == "("
                depth -= text[j] == ")"
                if depth == 0:
                    break
                j += 1
            assert re.match(r" \+ \(?0\.0f?\)?\)", text[j + 1 :]), (seed, text[m.start() : j + 12])
            seen += 1
    assert seen > 20
