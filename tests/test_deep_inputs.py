"""Deep and large inputs: long sums, nested parentheses, long loop bodies.

gcc compiles them; s2svec must vectorize them, or leave the loop scalar with
an "expression nested too deeply" warning at the statement, never end in a
Python traceback (s2s/deep.py explains how the walkers get their depth).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import compile_everywhere, vectorize

from s2s import deep, driver


def loop(expr: str, out: str = "o[i]") -> str:
    return (
        "void f(double *o, const double *a, int n)\n{\n#pragma omp simd\n"
        f"    for (int i = 0; i < n; i++)\n        {out} = {expr};\n}}\n"
    )


@pytest.mark.parametrize("terms", [200, 2000])
def test_long_sum_is_vectorized(tmp_path: Path, terms: int) -> None:
    r = vectorize(tmp_path, loop(" + ".join(["a[i]"] * terms)))
    assert r.returncode == 0, r.stderr
    assert r.vectorized_loops() == 1, r.stderr
    compile_everywhere(r.output)


def test_ten_thousand_terms(tmp_path: Path) -> None:
    r = vectorize(tmp_path, loop(" + ".join(f"a[i] * {k % 7}.5" for k in range(10000))))
    assert r.returncode == 0, r.stderr
    assert r.vectorized_loops() == 1, r.stderr


@pytest.mark.parametrize("depth", [300, 5000])
def test_nested_parentheses(tmp_path: Path, depth: int) -> None:
    # clang's default limit is 256 brackets; gcc has none.
    r = vectorize(tmp_path, loop("(" * depth + "a[i] + 1.0" + ")" * depth))
    assert r.returncode == 0, r.stderr
    assert r.vectorized_loops() == 1, r.stderr
    compile_everywhere(r.output)


def test_nested_calls(tmp_path: Path) -> None:
    depth = 3000
    code = "#include <math.h>\n" + loop("sqrt(" * depth + "a[i]" + ")" * depth)
    r = vectorize(tmp_path, code)
    assert r.returncode == 0, r.stderr
    assert r.vectorized_loops() == 1, r.stderr


def test_long_conditional_chain(tmp_path: Path) -> None:
    expr = "".join(f"a[i] > {k}.0 ? {k}.0 : " for k in range(500)) + "0.0"
    r = vectorize(tmp_path, loop(expr))
    assert r.returncode == 0, r.stderr
    assert r.vectorized_loops() == 1, r.stderr
    compile_everywhere(r.output)


def test_loop_of_two_thousand_statements(tmp_path: Path) -> None:
    body = "\n".join(f"        o[i] += a[i] * {k}.0;" for k in range(2000))
    code = (
        "void f(double *o, const double *a, int n)\n{\n#pragma omp simd\n"
        f"    for (int i = 0; i < n; i++) {{\n{body}\n    }}\n}}\n"
    )
    r = vectorize(tmp_path, code)
    assert r.returncode == 0, r.stderr
    assert r.vectorized_loops() == 1, r.stderr


def test_nested_blocks_and_ifs(tmp_path: Path) -> None:
    depth = 1000
    ifs = "".join(f"if (n > {k}) " for k in range(depth))
    code = (
        "void f(double *o, const double *a, int n)\n{\n#pragma omp simd\n"
        f"    for (int i = 0; i < n; i++) {{ {'{' * depth} {ifs} o[i] = a[i]; {'}' * depth} "
        "}\n}\n"
    )
    r = vectorize(tmp_path, code)
    assert r.returncode == 0, r.stderr
    assert r.vectorized_loops() == 1, r.stderr


def test_large_file(tmp_path: Path) -> None:
    parts = []
    for k in range(12000):
        parts.append(f"static int g{k}(int x)\n{{\n    return x * {k} + 1;\n}}\n\n")
        if k % 3000 == 0:
            parts.append(loop(f"a[i] * {k}.0").replace("void f(", f"void f{k}("))
    code = "".join(parts)
    assert code.count("\n") > 60000
    r = vectorize(tmp_path, code)
    assert r.returncode == 0, r.stderr
    assert r.vectorized_loops() == 4, r.stderr


def test_beyond_the_depth_limit_stays_scalar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past ``DEPTH_LIMIT`` the statement is reported, not a traceback."""
    monkeypatch.setattr(deep, "DEPTH_LIMIT", 3000)
    src = tmp_path / "k.c"
    src.write_text(
        loop("(" * 5000 + "a[i]" + ")" * 5000)
        + loop(" + ".join(["a[i]"] * 3000)).replace("void f(", "void g(")
        + loop("a[i] * 2.0").replace("void f(", "void h(")
    )
    result = driver.run(str(src), driver.Options(targets=["avx2"]))
    assert result.warnings == [
        f"{src}:5:9: warning: loop not vectorized: expression nested too deeply",
        f"{src}:11:9: warning: loop not vectorized: expression nested too deeply",
    ]
    assert len(result.loops) == 1  # h is still vectorized


def test_without_a_big_stack_thread_deep_input_is_still_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """Where no thread with a 1 GiB stack can be made (ulimit -v), the file is
    processed on the caller's stack with its recursion limit."""
    import threading

    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    src = tmp_path / "k.c"
    src.write_text(
        loop(" + ".join(["a[i]"] * 3000)) + loop("a[i] * 2.0").replace("void f(", "void h(")
    )
    result = driver.run(str(src), driver.Options(targets=["avx2"]))
    assert result.warnings == [
        f"{src}:5:9: warning: loop not vectorized: expression nested too deeply"
    ]
    assert len(result.loops) == 1
    assert "Exception ignored" not in capfd.readouterr().err


def test_no_walker_uses_libclangs_recursive_walk() -> None:
    """``Cursor.walk_preorder`` of the bindings is a recursive generator: time
    proportional to the depth for every cursor (the 10,000-term sum took over
    a minute in the macro checks).  ``lower_clang.walk_preorder`` is the one
    to call."""
    import ast

    package = Path(deep.__file__).parent
    callers = [
        f"{path.relative_to(package)}:{node.lineno}"
        for path in sorted(package.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "walk_preorder"
    ]
    assert not callers, callers


def test_the_work_is_profiled_on_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``S2S_PROFILE=FILE`` profiles the deep-stack thread, where the work is."""
    import pstats

    src = tmp_path / "k.c"
    src.write_text(loop("a[i] * 2.0"))
    monkeypatch.setenv("S2S_PROFILE", str(tmp_path / "p.prof"))
    result = driver.run(str(src), driver.Options(targets=["avx2"]))
    assert len(result.loops) == 1
    profile = pstats.Stats(str(tmp_path / "p.prof")).get_stats_profile()
    assert "lower_loop" in profile.func_profiles
