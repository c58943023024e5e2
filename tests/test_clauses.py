"""Tests of the OpenMP SIMD clause parser (s2s.frontend.clauses)."""

from __future__ import annotations

import pytest

from s2s.diagnostics import Location, UserError
from s2s.frontend.clauses import evaluate_constant, parse_pragma_line, tokenize
from s2s.frontend.declare_reduction import parse_declare_reduction
from s2s.ir.clauses import Aligned, ClauseSet, Linear, Reduction

HERE = Location("k.c", 7, 3)


def parse(text: str, macros: dict[str, str] | None = None) -> ClauseSet:
    """Parse ``#pragma omp <text>`` written at k.c:7:3."""
    result = parse_pragma_line("#pragma omp " + text, HERE, (macros or {}).get)
    assert result is not None
    return result


def error(text: str, macros: dict[str, str] | None = None) -> str:
    """The formatted error ``k.c:7:C: error: ...`` of a bad pragma."""
    with pytest.raises(UserError) as info:
        parse(text, macros)
    return info.value.format()


def col(text: str, needle: str) -> int:
    """Column (in k.c) of ``needle`` within ``#pragma omp <text>`` at column 3."""
    return 3 + len("#pragma omp ") + text.index(needle)


# -- directives -----------------------------------------------------------


@pytest.mark.parametrize("directive", ["simd", "for simd", "parallel for simd", "declare simd"])
def test_directives(directive: str) -> None:
    result = parse(directive)
    assert result.directive == directive
    assert result.location == HERE
    assert result.collapse == 1 and result.simdlen is None and result.other == ""


@pytest.mark.parametrize(
    "line",
    [
        "#pragma omp parallel for",
        "#pragma omp for",
        "#pragma omp critical",
        "#pragma omp declare reduction(foo: int: omp_out += omp_in)",
        "#pragma omp target teams distribute parallel for",
        "#pragma omp target teams loop",
        "#pragma omp ordered simd",
        "#pragma GCC ivdep",
        "#pragma once",
    ],
)
def test_non_simd_directives_are_ignored(line: str) -> None:
    assert parse_pragma_line(line, HERE) is None


def test_worksharing_property() -> None:
    assert parse("simd").worksharing == ""
    assert parse("for simd").worksharing == "for"
    assert parse("parallel for simd").worksharing == "parallel for"
    assert parse("declare simd").worksharing == ""
    assert not parse("parallel for simd").combined and not parse("for simd").combined


# -- every clause form ----------------------------------------------------


def test_simdlen_safelen_collapse() -> None:
    result = parse("simd simdlen(8) safelen(16) collapse(3)")
    assert (result.simdlen, result.safelen, result.collapse) == (8, 16, 3)


def test_safelen_need_not_be_power_of_two() -> None:
    assert parse("simd safelen(12)").safelen == 12


def test_constant_arithmetic_and_macros() -> None:
    macros = {"VL": "8", "TWICE": "(VL * 2)", "ALIGN": "0x40"}
    result = parse("simd simdlen(VL) safelen(TWICE + 1 - 1) aligned(p: ALIGN)", macros)
    assert result.simdlen == 8 and result.safelen == 16
    assert result.aligned == [Aligned("p", 64)]
    assert parse("simd simdlen(1 << 2)").simdlen == 4
    assert parse("simd collapse((5 - 1) / 2)").collapse == 2


def test_linear_list_and_step() -> None:
    result = parse("simd linear(a, b: 2) linear(c) linear(d: -1)")
    assert result.linear == [
        Linear("a", 2, ""),
        Linear("b", 2, ""),
        Linear("c", 1, ""),
        Linear("d", -1, ""),
    ]


def test_linear_step_macro() -> None:
    assert parse("simd linear(k: STEP)", {"STEP": "4"}).linear == [Linear("k", 4, "")]


def test_linear_non_constant_step_on_loop_is_kept_as_text() -> None:
    assert parse("simd linear(j: stride * 2)").linear == [Linear("j", "stride * 2", "")]


def test_linear_modifiers_on_declare_simd() -> None:
    result = parse(
        "declare simd linear(ref(x)) linear(val(y): 2) linear(uval(z)) linear(w: n) uniform(n)"
    )
    assert result.linear == [
        Linear("x", 1, "ref"),
        Linear("y", 2, "val"),
        Linear("z", 1, "uval"),
        Linear("w", "n", ""),
    ]
    assert result.uniform == ["n"]


def test_linear_openmp52_forms() -> None:
    result = parse(
        "declare simd linear(x: step(2)) linear(y: val) linear(z: ref, step(n)) "
        "linear(u: uval, step(S)) uniform(n)",
        {"S": "3"},
    )
    assert result.linear == [
        Linear("x", 2, ""),
        Linear("y", 1, "val"),
        Linear("z", "n", "ref"),
        Linear("u", 3, "uval"),
    ]


def test_linear_step_form_on_loop() -> None:
    assert parse("simd linear(i: step(4))").linear == [Linear("i", 4, "")]


def test_aligned() -> None:
    result = parse("simd aligned(a, b: 32) aligned(c)")
    assert result.aligned == [Aligned("a", 32), Aligned("b", 32), Aligned("c", None)]


@pytest.mark.parametrize("op", ["+", "*", "-", "min", "max", "&", "|", "^", "&&", "||"])
def test_reduction_operators(op: str) -> None:
    assert parse(f"simd reduction({op}: s, t)").reductions == [
        Reduction(op, "s"),
        Reduction(op, "t"),
    ]


def test_reduction_default_modifier() -> None:
    assert parse("simd reduction(default, +: s)").reductions == [Reduction("+", "s")]


def test_private_lastprivate_nontemporal() -> None:
    result = parse(
        "simd private(t, u) lastprivate(v) lastprivate(conditional: w) nontemporal(a, b)"
    )
    assert result.private == ["t", "u"]
    assert result.lastprivate == ["v", "w"]
    assert result.lastprivate_conditional == ["w"]
    assert result.nontemporal == ["a", "b"]


def test_if_clause() -> None:
    assert parse("simd if(simd: n > 16)").if_simd == "n > 16"
    assert parse("simd if(n>16 && m)").if_simd == "n>16 && m"
    assert parse("simd if(f(a, b))").if_simd == "f(a, b)"


def test_order_concurrent() -> None:
    assert parse("simd order(concurrent)").order_concurrent
    assert parse("simd order(reproducible: concurrent)").order_concurrent
    assert not parse("simd").order_concurrent


def test_declare_simd_clauses() -> None:
    result = parse("declare simd simdlen(4) uniform(a, n) aligned(a: 64) inbranch")
    assert result.simdlen == 4 and result.uniform == ["a", "n"]
    assert result.aligned == [Aligned("a", 64)] and result.inbranch is True
    assert parse("declare simd notinbranch").inbranch is False
    assert parse("declare simd").inbranch is None


def test_commas_between_clauses() -> None:
    result = parse("simd simdlen(4), private(t), reduction(+: s)")
    assert (
        result.simdlen == 4
        and result.private == ["t"]
        and result.reductions == [Reduction("+", "s")]
    )


def test_continuation_lines_and_comments() -> None:
    line = "#pragma omp simd /* note */ simdlen(4) \\\n    reduction(+: s) // tail"
    result = parse_pragma_line(line, HERE)
    assert result is not None and result.simdlen == 4 and result.reductions == [Reduction("+", "s")]


# -- worksharing clauses kept verbatim ------------------------------------


def test_for_simd_keeps_worksharing_clauses() -> None:
    result = parse(
        "for simd schedule(static, 4) simdlen(8) private(t) nowait collapse(2) "
        "firstprivate(x) aligned(p)"
    )
    assert result.other == "schedule(static, 4) private(t) nowait collapse(2) firstprivate(x)"
    assert result.private == ["t"] and result.collapse == 2 and result.simdlen == 8


def test_parallel_for_simd_keeps_parallel_clauses() -> None:
    result = parse(
        "parallel for simd num_threads(4) shared(a) default(none) proc_bind(close) "
        "reduction(+: s) linear(j: 2) lastprivate(k) if(n > 100) safelen(8)"
    )
    assert result.other == (  # default(none) dropped: see the next test
        "num_threads(4) shared(a) proc_bind(close) "
        "reduction(+: s) linear(j: 2) lastprivate(k) if(n > 100)"
    )
    assert result.reductions == [Reduction("+", "s")] and result.linear == [Linear("j", 2, "")]
    assert result.if_simd == "n > 100" and result.safelen == 8


@pytest.mark.parametrize(
    "text", ["parallel for simd default(none) shared(a)", "teams distribute simd default(none)"]
)
def test_default_none_is_dropped_from_the_kept_constructs(text: str) -> None:
    """default(none) only checks the program's own clauses (the original
    passes it); kept, it would ask clauses of the vector code's variables."""
    result = parse(text)
    assert "default" not in result.other and "default" not in " ".join(result.teams_clauses)


def test_parallel_for_simd_if_modifiers() -> None:
    result = parse("parallel for simd if(parallel: n > 1000) if(simd: n > 16)")
    assert result.other == "if(parallel: n > 1000)"
    assert result.if_simd == "n > 16"


def test_simd_alone_has_no_other() -> None:
    assert parse("simd private(t) collapse(2)").other == ""
    assert parse("declare simd linear(x)").other == ""


# -- combined constructs: simd's clauses for s2svec, the others kept (issue 21, item 7)

COMBINED = [
    ("target simd", "target", ""),
    ("target parallel for simd", "target parallel for", "target parallel for"),
    ("target teams distribute simd", "target teams distribute", "target teams distribute"),
    (
        "target teams distribute parallel for simd",
        "target teams distribute parallel for",
        "target teams distribute parallel for",
    ),
    ("teams distribute simd", "teams distribute", "teams distribute"),
    (
        "teams distribute parallel for simd",
        "teams distribute parallel for",
        "teams distribute parallel for",
    ),
    ("distribute simd", "distribute", "distribute"),
    ("distribute parallel for simd", "distribute parallel for", "distribute parallel for"),
    ("taskloop simd", "taskloop", "taskloop"),
    ("master taskloop simd", "master taskloop", "master taskloop"),
    ("masked taskloop simd", "masked taskloop", "masked taskloop"),
    ("parallel master taskloop simd", "parallel master taskloop", "parallel master taskloop"),
    ("parallel masked taskloop simd", "parallel masked taskloop", "parallel masked taskloop"),
]


@pytest.mark.parametrize("directive,kept,worksharing", COMBINED)
def test_combined_constructs(directive: str, kept: str, worksharing: str) -> None:
    """The constructs before simd are kept (on the loop over vector blocks
    when they split iterations, around the vector code for target simd)."""
    result = parse(directive + " safelen(16) reduction(+: s)")
    assert result.directive == directive and result.is_loop and result.combined
    assert (result.kept, result.worksharing) == (kept, worksharing)
    assert result.safelen == 16 and result.reductions == [Reduction("+", "s")]
    assert not result.unsupported, result.unsupported


def test_combined_target_clauses_are_kept_and_simd_clauses_taken() -> None:
    result = parse(
        "target teams distribute parallel for simd map(to: a[0:n], b) map(tofrom: s) "
        "num_teams(2) thread_limit(4) dist_schedule(static, 8) reduction(max: s) "
        "aligned(a: 32) nontemporal(b) simdlen(4) if(target: n > 100) if(simd: n > 8) "
        "device(0) private(t) firstprivate(u, v) nowait depend(in: a[0])"
    )
    assert result.other_clauses == [
        ("map", "map(to: a[0:n], b)"),
        ("map", "map(tofrom: s)"),
        ("num_teams", "num_teams(2)"),
        ("thread_limit", "thread_limit(4)"),
        ("dist_schedule", "dist_schedule(static, 8)"),
        ("reduction", "reduction(max: s)"),
        ("if", "if(target: n > 100)"),
        ("device", "device(0)"),
        ("private", "private(t)"),
        ("firstprivate", "firstprivate(u, v)"),
        ("nowait", "nowait"),
        ("depend", "depend(in: a[0])"),
    ]
    assert result.other == " ".join(text for _, text in result.other_clauses)
    assert result.mapped == ["a", "b", "s"] and result.firstprivate == ["u", "v"]
    assert result.if_simd == "n > 8" and result.simdlen == 4 and result.nontemporal == ["b"]
    assert result.reductions == [Reduction("max", "s")] and result.private == ["t"]
    assert not result.unsupported


def test_simd_only_clauses_stay_off_the_kept_constructs() -> None:
    """linear / order(concurrent) / aligned are simd's where the kept
    constructs do not take them (taskloop: no linear, no order)."""
    result = parse(
        "taskloop simd linear(j: 2) order(concurrent) grainsize(strict: 64) "
        "lastprivate(x) if(n > 8) num_tasks(4) nogroup"
    )
    assert result.other == "grainsize(strict: 64) lastprivate(x) if(n > 8) num_tasks(4) nogroup"
    assert result.grainsize == ("strict", "64") and result.linear == [Linear("j", 2, "")]
    assert result.if_simd == "n > 8" and result.order_concurrent
    result = parse("target simd lastprivate(x) reduction(+: s) linear(j) map(to: x)")
    assert result.other == "map(to: x)" and result.lastprivate == ["x"]
    assert parse("teams distribute simd reduction(+: s)").other == "reduction(+: s)"
    assert parse("distribute simd reduction(+: s) collapse(2)").other == "collapse(2)"


def test_in_reduction_is_the_simd_loops_reduction_and_stays_on_the_taskloop() -> None:
    """The task's copy of x is what the simd lanes reduce into (as gcc
    vectorizes ``taskloop simd in_reduction``); on simd alone it is not allowed."""
    result = parse("taskloop simd in_reduction(+: s, t) in_reduction(max: m) grainsize(8)")
    assert result.reductions == [
        Reduction("+", "s", False),
        Reduction("+", "t", False),
        Reduction("max", "m", False),
    ]
    assert result.other == "in_reduction(+: s, t) in_reduction(max: m) grainsize(8)"
    assert result.mapped == ["s", "t", "m"]  # by the construct: no map(tofrom:) besides
    assert not result.unsupported
    assert [u.message for u in parse("simd in_reduction(+: s)").unsupported] == [
        "'in_reduction' clause is not supported on '#pragma omp simd'"
    ]
    assert error("taskloop simd in_reduction(s)") == (
        "k.c:7:29: error: expected ':' after the reduction operator"
    )


def test_teams_clauses_apart_from_distribute() -> None:
    """For a teams construct nested in a target one, written apart from its
    distribute part: private, firstprivate, lastprivate to the innermost
    construct, reduction, shared and default to every one that takes them."""
    result = parse(
        "teams distribute parallel for simd num_teams(2) thread_limit(4) reduction(+: s) "
        "shared(a) default(shared) private(t) firstprivate(u) lastprivate(v) "
        "dist_schedule(static) num_threads(2) if(parallel: c)"
    )
    assert result.teams_clauses == [
        "num_teams(2)",
        "thread_limit(4)",
        "reduction(+: s)",
        "shared(a)",
        "default(shared)",
    ]
    assert [text for _, text in result.inner_clauses] == [
        "reduction(+: s)",
        "shared(a)",
        "default(shared)",
        "private(t)",
        "firstprivate(u)",
        "lastprivate(v)",
        "dist_schedule(static)",
        "num_threads(2)",
        "if(parallel: c)",
    ]
    result = parse("teams distribute simd reduction(max: m) shared(a) collapse(2)")
    assert result.teams_clauses == ["reduction(max: m)", "shared(a)"]
    assert result.inner_clauses == [("collapse", "collapse(2)")]


def test_combined_if_modifiers() -> None:
    result = parse("target parallel for simd if(target: a) if(parallel: b) if(simd: c)")
    assert result.other == "if(target: a) if(parallel: b)" and result.if_simd == "c"
    result = parse("parallel masked taskloop simd if(taskloop: a) filter(1)")
    assert result.other == "if(taskloop: a) filter(1)" and result.if_simd is None
    # an unmodified if is every construct's that takes one, simd's too
    result = parse("target simd if(n > 3)")
    assert result.other == "if(n > 3)" and result.if_simd == "n > 3"
    result = parse("teams distribute simd if(n > 3)")  # teams takes no if (gcc 12, clang)
    assert result.other == "" and result.if_simd == "n > 3"


@pytest.mark.parametrize(
    "text,where,message",
    [
        (
            "taskloop simd default(private)",
            "default",
            "'default(private)' on '#pragma omp taskloop simd' is not supported: the vector "
            "loop's own variables, set before it, have no data-sharing clause",
        ),
        (
            "target teams distribute simd defaultmap(none)",
            "defaultmap",
            "'defaultmap(none)' on '#pragma omp target teams distribute simd' is not "
            "supported: the vector loop's own variables, set before it, have no "
            "data-sharing clause",
        ),
        (
            "target parallel for simd num_teams(2)",
            "num_teams",
            "'num_teams' clause is not supported on '#pragma omp target parallel for simd'",
        ),
        (
            "teams distribute simd if(teams: c)",
            "if",
            "'if(teams: ...)' is not supported on '#pragma omp teams distribute simd'",
        ),
        (
            "taskloop simd if(parallel: c)",
            "if",
            "'if(parallel: ...)' is not supported on '#pragma omp taskloop simd'",
        ),
    ],
)
def test_combined_unsupported(text: str, where: str, message: str) -> None:
    result = parse(text)
    assert result.unsupported, text
    assert result.unsupported[0].format() == f"k.c:7:{col(text, where)}: warning: {message}"


def test_default_shared_and_defaultmap_are_fine() -> None:
    assert not parse("teams distribute parallel for simd default(shared)").unsupported
    assert not parse("target simd defaultmap(none)").unsupported  # all inside the region
    assert not parse("target teams distribute simd defaultmap(tofrom: scalar)").unsupported


# -- errors ---------------------------------------------------------------

ERRORS = [
    ("simd foo(3)", "foo", "unknown clause 'foo' in '#pragma omp simd'"),
    ("simd simdlen(8) bogus", "bogus", "unknown clause 'bogus' in '#pragma omp simd'"),
    ("simd simdlen", "simdlen", "expected '(' after 'simdlen'"),
    ("simd simdlen 8", "8", "expected an OpenMP clause, found '8'"),
    ("simd private a", "private", "expected '(' after 'private'"),
    ("simd private(a", "private", "expected ')' in 'private' clause"),
    ("simd private()", "private", "empty list in 'private' clause"),
    ("simd simdlen()", "simdlen", "empty argument in 'simdlen' clause"),
    ("simd private(a,)", "private", "expected a variable name in 'private' clause, found ','"),
    ("simd private(a[2])", "private", "expected a variable name in 'private' clause, found 'a[2]'"),
    ("simd simdlen(n)", "simdlen", "'simdlen' argument must be a constant integer expression"),
    ("simd simdlen(1.5)", "simdlen", "'simdlen' argument must be a constant integer expression"),
    ("simd simdlen(0)", "simdlen", "'simdlen' argument must be positive"),
    ("simd simdlen(-4)", "simdlen", "'simdlen' argument must be positive"),
    ("simd safelen(0)", "safelen", "'safelen' argument must be positive"),
    ("simd safelen(len)", "safelen", "'safelen' argument must be a constant integer expression"),
    ("simd collapse(0)", "collapse", "'collapse' argument must be positive"),
    ("simd collapse(k)", "collapse", "'collapse' argument must be a constant integer expression"),
    (
        "simd safelen(4) simdlen(8)",
        "simdlen",
        "'simdlen' (8) must not be greater than 'safelen' (4)",
    ),
    ("simd simdlen(4) simdlen(4)", "simdlen(4)\x00", "'simdlen' clause appears more than once"),
    (
        "simd aligned(p: 24)",
        "aligned",
        "alignment in 'aligned' clause must be a power of two, not 24",
    ),
    ("simd aligned(p: 0)", "aligned", "alignment in 'aligned' clause must be positive"),
    (
        "simd aligned(p) aligned(p: 16)",
        "aligned(p:",
        "variable 'p' appears more than once in 'aligned' clauses",
    ),
    (
        "simd private(x) lastprivate(x)",
        "lastprivate",
        "variable 'x' already appears in a 'private' clause",
    ),
    (
        "simd lastprivate(x) linear(x)",
        "linear",
        "variable 'x' already appears in a 'lastprivate' clause",
    ),
    (
        "simd linear(x) reduction(+: x)",
        "reduction",
        "variable 'x' already appears in a 'linear' clause",
    ),
    ("simd private(x, x)", "private", "variable 'x' already appears in a 'private' clause"),
    (
        "declare simd uniform(x) linear(x)",
        "linear",
        "variable 'x' already appears in a 'uniform' clause",
    ),
    ("simd reduction(s)", "reduction", "expected ':' after the reduction operator"),
    (
        "declare simd inbranch notinbranch",
        "notinbranch",
        "'inbranch' and 'notinbranch' cannot be used together",
    ),
    ("declare simd inbranch(1)", "inbranch", "'inbranch' clause takes no argument"),
    (
        "declare simd linear(x: n)",
        "linear",
        "linear step 'n' must be a constant or a 'uniform' parameter",
    ),
    (
        "declare simd linear(x: n + 1) uniform(n)",
        "linear",
        "linear step 'n + 1' must be a constant or a 'uniform' parameter",
    ),
    (
        "declare simd linear(x: step(2), step(3))",
        "linear",
        "malformed 'linear' clause near 'step(3)'",
    ),
    ("simd if(a) if(simd: b)", "if(simd", "'if' clause appears more than once"),
    ("simd order(serial)", "order", "expected 'concurrent' in 'order' clause"),
    ("simd lastprivate(always: x)", "lastprivate", "unknown 'lastprivate' modifier 'always'"),
    ("simd , simdlen(4)", ",", "expected an OpenMP clause, found ','"),
    ("simd reduction(/: s)", "reduction", "unknown reduction operator '/'"),
    ("simd reduction(always, +: s)", "reduction", "unknown reduction modifier 'always'"),
    (
        "simd reduction(inscan, +: s) reduction(+: t)",
        "reduction(+",
        "'inscan' and non-'inscan' 'reduction' clauses on one construct",
    ),
    (
        "simd reduction(max: t) reduction(inscan, +: s)",
        "reduction(inscan",
        "'inscan' and non-'inscan' 'reduction' clauses on one construct",
    ),
]


# -- valid OpenMP the loop or function cannot take: unsupported, not errors ----

UNSUPPORTED = [
    ("simd reduction(task, +: s)", "reduction", "'reduction(task, ...)' is not supported"),
    ("simd uniform(x)", "uniform", "'uniform' clause is not supported on '#pragma omp simd'"),
    ("simd inbranch", "inbranch", "'inbranch' clause is not supported on '#pragma omp simd'"),
    (
        "for simd notinbranch",
        "notinbranch",
        "'notinbranch' clause is not supported on '#pragma omp for simd'",
    ),
    (
        "declare simd collapse(2)",
        "collapse",
        "'collapse' clause is not supported on '#pragma omp declare simd'",
    ),
    (
        "declare simd private(x)",
        "private",
        "'private' clause is not supported on '#pragma omp declare simd'",
    ),
    (
        "declare simd lastprivate(x)",
        "lastprivate",
        "'lastprivate' clause is not supported on '#pragma omp declare simd'",
    ),
    (
        "declare simd reduction(+: x)",
        "reduction",
        "'reduction' clause is not supported on '#pragma omp declare simd'",
    ),
    (
        "declare simd safelen(4)",
        "safelen",
        "'safelen' clause is not supported on '#pragma omp declare simd'",
    ),
    (
        "declare simd nontemporal(a)",
        "nontemporal",
        "'nontemporal' clause is not supported on '#pragma omp declare simd'",
    ),
    (
        "declare simd order(concurrent)",
        "order",
        "'order' clause is not supported on '#pragma omp declare simd'",
    ),
    ("declare simd if(x)", "if", "'if' clause is not supported on '#pragma omp declare simd'"),
    (
        "simd schedule(static)",
        "schedule",
        "'schedule' clause is not supported on '#pragma omp simd'",
    ),
    (
        "for simd num_threads(4)",
        "num_threads",
        "'num_threads' clause is not supported on '#pragma omp for simd'",
    ),
    (
        "simd linear(ref(x))",
        "linear",
        "linear modifier 'ref' is only supported on '#pragma omp declare simd'",
    ),
    (
        "for simd linear(uval(x))",
        "linear",
        "linear modifier 'uval' is only supported on '#pragma omp declare simd'",
    ),
    ("simd if(parallel: c)", "if", "'if(parallel: ...)' is not supported on '#pragma omp simd'"),
    ("simd reduction(task, +: s)", "reduction", "'reduction(task, ...)' is not supported"),
    (
        "simd allocate(t) private(t)",
        "allocate",
        "'allocate' clause is not supported on '#pragma omp simd'",
    ),
    ("simd if(target: n > 3)", "if", "'if(target: ...)' is not supported on '#pragma omp simd'"),
    ("simd device(0)", "device", "'device' clause is not supported on '#pragma omp simd'"),
]


@pytest.mark.parametrize("text,where,message", UNSUPPORTED)
def test_unsupported(text: str, where: str, message: str) -> None:
    """Parsed without an error; the first unsupported clause is the warning."""
    result = parse(text)
    assert result.unsupported, text
    first = result.unsupported[0]
    assert first.format() == f"k.c:7:{col(text, where)}: warning: {message}"


def test_unsupported_clauses_still_name_their_variables() -> None:
    result = parse("simd reduction(task, +: s) private(t)")
    assert [(v.clause, v.name) for v in result.variables] == [("reduction", "s"), ("private", "t")]
    assert result.reductions == []


def test_linear_val_modifier_on_a_loop_is_the_default() -> None:
    for text in ("simd linear(val(x): 2)", "simd linear(x: val)"):
        result = parse(text)
        assert not result.unsupported, text
        assert [(lin.var, lin.modifier) for lin in result.linear] == [("x", "")]


def test_variables_and_expressions_keep_their_locations() -> None:
    text = "simd reduction(+: s) linear(j: k) if(n > 4)"
    result = parse(text)
    assert [(v.clause, v.name, v.location.column) for v in result.variables] == [
        ("reduction", "s", col(text, "s)")),
        ("linear", "j", col(text, "j:")),
    ]
    assert [(clause, [t.text for t in toks]) for clause, toks in result.expressions] == [
        ("linear", ["k"]),
        ("if", ["n", ">", "4"]),
    ]


def test_simdlen_beyond_every_vector_is_a_note() -> None:
    result = parse("simd simdlen(128)")
    assert result.simdlen == 128 and not result.unsupported
    assert [n.format() for n in result.notes] == [
        f"k.c:7:{col('simd simdlen(128)', 'simdlen')}: warning: 'simdlen(128)' is more lanes "
        "than any target's vectors hold (at most 64); each target uses its widest vector instead"
    ]
    assert not parse("simd simdlen(64)").notes


def test_simdlen_not_a_power_of_two() -> None:
    """OpenMP takes any positive simdlen (gcc and clang do): on a loop it is
    rounded down to a power of two with a note; a declare simd function
    gets no variants (gcc makes no clones of it either)."""
    result = parse("simd simdlen(6)")
    assert result.simdlen == 4 and not result.unsupported
    assert [n.format() for n in result.notes] == [
        f"k.c:7:{col('simd simdlen(6)', 'simdlen')}: warning: 'simdlen' is not a power of "
        "two: 4 lanes are preferred instead"
    ]
    declared = parse("declare simd simdlen(3)")
    assert [u.message for u in declared.unsupported] == [
        "'simdlen(3)' is not a power of two: no vector length has it"
    ]


@pytest.mark.parametrize("text,where,message", ERRORS)
def test_errors(text: str, where: str, message: str) -> None:
    column = col(text + "\x00", where)
    assert error(text) == f"k.c:7:{column}: error: {message}"


def test_error_location_on_continuation_line() -> None:
    line = "#pragma omp simd simdlen(4) \\\n     safelen(2)"
    with pytest.raises(UserError) as info:
        parse_pragma_line(line, HERE)
    # The simdlen clause is on line 7; safelen's would be 8:6.
    assert (
        info.value.format()
        == "k.c:7:20: error: 'simdlen' (4) must not be greater than 'safelen' (2)"
    )
    with pytest.raises(UserError) as info:
        parse_pragma_line("#pragma omp simd simdlen(4) \\\n     frobnicate", HERE)
    assert (
        info.value.format() == "k.c:8:6: error: unknown clause 'frobnicate' in '#pragma omp simd'"
    )


# -- tokens and constants -------------------------------------------------


def test_tokenize_locations_and_splices() -> None:
    tokens = tokenize("a  b\\\n(c)/*x*/d", Location("f.c", 2, 5))
    assert [t.text for t in tokens] == ["a", "b", "(", "c", ")", "d"]
    assert [(t.location.line, t.location.column) for t in tokens] == [
        (2, 5),
        (2, 8),
        (3, 1),
        (3, 2),
        (3, 3),
        (3, 9),
    ]
    assert [t.space_before for t in tokens] == [False, True, False, False, False, True]


def test_tokenize_splice_inside_identifier() -> None:
    assert [t.text for t in tokenize("sim\\\nd", HERE)] == ["simd"]


def test_tokenize_byte_columns() -> None:
    tokens = tokenize("/*é*/ x", Location("f.c", 1, 1))
    assert tokens[0].location.column == 8  # é is two bytes


@pytest.mark.parametrize(
    "text,value",
    [
        ("42", 42),
        ("0x10", 16),
        ("010", 8),
        ("0b101", 5),
        ("16u", 16),
        ("8UL", 8),
        ("2+3*4", 14),
        ("(2+3)*4", 20),
        ("-7/2", -3),
        ("-7%2", -1),
        ("1<<4|1", 17),
        ("~0&7", 7),
        ("N*2", 8),
        ("M", 8),
        ("R", None),
        ("x", None),
        ("1.0", None),
        ("1/0", None),
        ("(1", None),
        ("1 2", None),
    ],
)
def test_evaluate_constant(text: str, value: int | None) -> None:
    macros = {"N": "4", "M": "(N + N)", "R": "R + 1"}
    assert evaluate_constant(tokenize(text, HERE), macros.get) == value


# -- declare reduction ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        (
            "(imax : int : omp_out = omp_out > omp_in ? omp_out : omp_in) "
            "initializer(omp_priv = INT_MIN)",
            (
                "imax",
                ("int",),
                "omp_out = omp_out > omp_in ? omp_out : omp_in",
                "omp_priv = INT_MIN",
            ),
        ),
        (
            "(lmul : long, unsigned int : omp_out *= omp_in) initializer(one(&omp_priv, omp_orig))",
            ("lmul", ("long", "unsigned int"), "omp_out *= omp_in", "one(&omp_priv, omp_orig)"),
        ),
        ("(bits : unsigned : omp_out |= omp_in)", ("bits", ("unsigned",), "omp_out |= omp_in", "")),
        ("(bits : unsigned)", None),
        ("(bits : unsigned : omp_out |= omp_in) initialiser(omp_priv = 0)", None),
        ("(bits : unsigned : omp_out |= omp_in", None),
        ("bits : unsigned : omp_out |= omp_in", None),
    ],
)
def test_declare_reduction(text: str, expect: tuple[str, ...] | None) -> None:
    udr = parse_declare_reduction(tokenize(text, HERE))
    got = None if udr is None else (udr.name, udr.types, udr.combiner, udr.initializer)
    assert got == expect
