"""Capability tables (templates/<target>/capabilities.toml) and Target.has.

* The checked-in tables are exactly what the templates render: a template or
  target.toml change without running scripts/capabilities.py fails here.
* ``Target.has`` answers from the table alone (no template is rendered),
  says no to what the table lacks, and refuses questions the table does
  not cover.
"""

from __future__ import annotations

import dataclasses
import difflib
import subprocess
import sys
from pathlib import Path

import pytest

from s2s.codegen.capabilities import table_path, table_text, target_names
from s2s.codegen.target import Target, load_target
from s2s.diagnostics import Unsupported

ROOT = Path(__file__).resolve().parents[1]


def test_every_target_has_a_table() -> None:
    assert {"avx2", "avx512", "neon"} <= set(target_names())
    for name in target_names():
        assert table_path(name).is_file(), (
            f"{table_path(name)} is missing: run scripts/capabilities.py"
        )


@pytest.mark.parametrize("name", target_names())
def test_table_is_what_the_templates_render(name: str) -> None:
    path = table_path(name)
    want = table_text(load_target(name))
    have = path.read_text() if path.is_file() else ""
    if have != want:
        diff = "".join(
            list(
                difflib.unified_diff(
                    have.splitlines(True),
                    want.splitlines(True),
                    f"{path} (checked in)",
                    "what the templates render",
                )
            )[:40]
        )
        pytest.fail(
            f"{path} is out of date or was edited by hand: run "
            f"scripts/capabilities.py and commit the table\n{diff}"
        )


def test_check_option_of_the_script() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "capabilities.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _fresh(name: str, **changes: object) -> Target:
    """A copy of the loaded target with its own answer memo."""
    return dataclasses.replace(load_target(name), _answers={}, **changes)


def test_has_says_no_to_what_the_table_lacks() -> None:
    tg = _fresh("avx2")
    ty = tg.types
    m = tg.mask_type
    assert tg.has("add", t=ty["f64x4"])
    assert tg.has("shl", t=ty["i32x8"]) and not tg.has("shl", t=ty["i16x16"])
    assert not tg.has("rem", t=ty["i32x8"])  # an empty list
    assert not tg.has("scatter", t=ty["f64x4"], at=ty["u64x4"])  # AVX2 has no scatter
    assert not tg.has("scatter_base", t=ty["f64x4"], it=ty["i32x4"])  # no such macro
    assert tg.has("masked_load", t=ty["f64x4"], mt=m(64, 4))
    assert not tg.has("masked_load", t=ty["i8x32"], mt=m(8, 32))
    assert tg.has("load_records", t=ty["f64x4"], k=3)
    assert tg.has("load_records", t=ty["f64x2"], k=3)  # 128-bit records too
    assert not tg.has("load_records", t=ty["i16x16"], k=3)  # 32- and 64-bit lanes only
    assert tg.has("convert", f=ty["i32x4"], t=ty["f64x4"])
    assert not tg.has("convert", f=ty["f64x4"], t=ty["i64x4"])
    neon = _fresh("neon")
    assert neon.has("load_records", t=neon.types["f32x4"], k=4)
    assert not neon.has("load_records", t=neon.types["f32x4"], k=5)


def test_has_answers_from_the_table_only(monkeypatch: pytest.MonkeyPatch) -> None:
    base = load_target("avx2")
    table = dict(base.capabilities or {})
    table["add"] = table["add"] - {"f64x4"}
    tg = _fresh("avx2", capabilities=table)

    def no_rendering(*args: object, **kwargs: object) -> None:
        raise AssertionError("Target.has rendered a template")

    monkeypatch.setattr(tg, "ops", no_rendering)
    monkeypatch.setattr(tg, "render", no_rendering)
    monkeypatch.setattr(tg.env, "get_template", no_rendering)
    f64x4, f32x8 = tg.types["f64x4"], tg.types["f32x8"]
    assert not tg.has("add", t=f64x4)  # the templates have it; this table does not
    assert tg.has("add", t=f32x8)
    assert tg.has("select", t=f64x4, m="x", a="y", b="z", mt=tg.mask_type(64, 4))
    assert tg.has("store_records", t=f64x4, k=2, p="p", vs=["a", "b"])


def test_questions_the_table_does_not_cover() -> None:
    tg = _fresh("avx2")
    ty = tg.types
    with pytest.raises(Unsupported, match="different lane counts"):
        tg.has("convert", f=ty["f64x4"], t=ty["f32x8"])
    with pytest.raises(Unsupported, match="mask of other bits"):
        tg.has("cmp_eq", t=ty["f64x4"], mt=tg.mask_type(32, 4))
    with pytest.raises(Unsupported, match="is not a mask"):
        tg.has("masked_load", t=ty["f64x4"], mt=ty["i64x4"])
    with pytest.raises(Unsupported, match="k=9"):
        tg.has("load_records", t=ty["f64x4"], k=9)
    with pytest.raises(Unsupported, match="entries"):
        tg.has("load_records", t=ty["f64x4"], k=2, outs=["a", "b", "c"])
    with pytest.raises(Unsupported, match="not a type of the target"):
        tg.has("add", t=load_target("avx512").types["f64x8"])


def test_missing_table_says_how_to_make_it() -> None:
    tg = _fresh("avx2", capabilities=None)
    with pytest.raises(FileNotFoundError, match=r"scripts/capabilities\.py"):
        tg.has("add", t=tg.types["f64x4"])


def test_cached_tables_read_like_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    from s2s.codegen.target import read_capabilities

    monkeypatch.setenv("S2SVEC_CACHE", str(tmp_path))
    path = table_path("avx512")
    want = {op: frozenset(keys) for op, keys in tomllib.loads(path.read_text()).items()}
    assert read_capabilities(path) == want  # parsed, then cached
    entries = list((tmp_path / "capabilities").iterdir())
    assert len(entries) == 1
    assert read_capabilities(path) == want  # from the cache
    entries[0].write_bytes(b"\x00broken")
    assert read_capabilities(path) == want  # a broken entry: parsed again
    assert read_capabilities(tmp_path / "none.toml") is None
