"""Imports go downwards only (docs/internals/architecture.rst; issue 23, item 5).

The layers of ``s2s``, lowest first, and what each may import besides
itself (its own package) and the leaf modules::

    leaf modules  s2s (the package), diagnostics, deep, cache, compiler_flags,
                  report: no s2s import of their own; importable from anywhere
    ir            types, values, the clause model, printer, parser, verifier,
                  interpreters, IR-level clean-ups (fold, value numbering)
    vfabi         ir: the Vector Function ABI (s2s/vfabi.py), names the front
                  end and code generation both need
    analysis      ir
    transform     analysis, ir
    frontend      vfabi, ir: it lowers C to IR and calls no analysis or
                  transform
    codegen       transform, analysis, vfabi, ir; not the front end
    drivers       everything: every other top-level module (pipeline, driver,
                  declare, internal_variants, cli, wrapper, ...)

Every import statement counts: module level, inside functions, under
``if TYPE_CHECKING``, relative (``from ..x import y``, ``from .. import x``)
and absolute (``import s2s.x``, ``from s2s.x import y``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "s2s"

LEAVES = frozenset(
    {"s2s", "s2s.diagnostics", "s2s.deep", "s2s.cache", "s2s.compiler_flags", "s2s.report"}
)
MAY_IMPORT: dict[str, frozenset[str]] = {
    "ir": frozenset(),
    "vfabi": frozenset({"ir"}),
    "analysis": frozenset({"ir"}),
    "transform": frozenset({"analysis", "ir"}),
    "frontend": frozenset({"vfabi", "ir"}),
    "codegen": frozenset({"transform", "analysis", "vfabi", "ir"}),
}
"""Layer -> the lower layers it may import (leaf modules aside)."""


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def layer(module: str, package: Path = PACKAGE) -> str:
    """The layer of a module of s2s: ``leaf``, a key of MAY_IMPORT or ``drivers``."""
    if module in LEAVES:
        return "leaf"
    parts = module.split(".")
    if parts[1] in MAY_IMPORT:
        return parts[1]
    if len(parts) == 2 and (package / f"{parts[1]}.py").is_file():
        return "drivers"
    raise AssertionError(f"{module}: in no layer; give it one in tests/test_layers.py")


def imports(path: Path, package: Path = PACKAGE) -> Iterator[tuple[int, str, str]]:
    """(line, imported s2s module, statement text) of every import in the file."""
    source = path.read_text()
    me = module_name(path, package)
    here = me if is_package(path) else me.rpartition(".")[0]
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source, str(path))):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        text = " ".join(line.strip() for line in lines[node.lineno - 1 : node.end_lineno])
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "s2s":
                    yield node.lineno, alias.name, text
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "s2s":
                continue
            for alias in node.names:
                # ``from .. import vfabi`` imports the module s2s.vfabi
                sub = f"{target}.{alias.name}"
                yield node.lineno, sub if _exists(sub, package) else target, text


def _exists(module: str, package: Path) -> bool:
    rel = Path(*module.split(".")[1:])
    return (package / rel).with_suffix(".py").is_file() or (package / rel / "__init__.py").is_file()


def violation(importer: str, imported: str, package: Path = PACKAGE) -> str | None:
    """Why ``importer`` may not import ``imported`` (None when it may)."""
    group, group_to = layer(importer, package), layer(imported, package)
    if group == "leaf":
        return None if importer == imported else "a leaf module imports nothing from s2s"
    if group_to == "leaf" or group == group_to or group == "drivers":
        return None
    allowed = MAY_IMPORT[group]
    if group_to in allowed:
        return None
    below = ", ".join([*sorted(allowed), "the leaf modules"])
    return f"{group} imports {group_to}; it may import only {below}"


def violations(package: Path = PACKAGE) -> list[str]:
    out = []
    for path in sorted(package.rglob("*.py")):
        me = module_name(path, package)
        for line, imported, text in sorted(set(imports(path, package))):
            why = violation(me, imported, package)
            if why:
                out.append(
                    f"{path.relative_to(package.parent)}:{line}: {me} imports "
                    f"{imported} ({why}): {text}"
                )
    return out


def test_imports_go_downwards_only() -> None:
    found = violations()
    assert not found, "imports against the layers:\n" + "\n".join(found)


def test_every_module_has_a_layer() -> None:
    for path in PACKAGE.rglob("*.py"):
        layer(module_name(path))


@pytest.mark.parametrize(
    "where, statement, expect",
    [
        ("ir/bad.py", "from ..frontend.clauses import ClauseSet", "ir imports"),
        ("ir/bad.py", "def f():\n    from ..transform import cse\n", "ir imports"),
        (
            "ir/bad.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import s2s.analysis.cfg\n",
            "ir imports",
        ),
        ("codegen/bad.py", "from s2s.frontend import lower", "codegen imports frontend"),
        ("frontend/bad.py", "from .. import pipeline", "frontend imports drivers"),
        ("vfabi.py", "from .codegen.target import Target", "vfabi imports codegen"),
        ("deep.py", "from .ir import types", "a leaf module"),
        ("frontend/bad.py", "from ..transform.cse import eliminate", "frontend imports transform"),
        ("transform/bad.py", "import s2s.codegen.target", "transform imports codegen"),
        (
            "analysis/bad.py",
            "from ..ir.values import Function\nfrom .cfg import cfg_of\n"
            "from ..diagnostics import Location",
            None,
        ),
        (
            "codegen/bad.py",
            "from ..transform import cse\nimport s2s.vfabi\nfrom .. import deep",
            None,
        ),
        ("driver.py", "from .codegen import variant\nfrom . import pipeline", None),
    ],
)
def test_the_check_sees(tmp_path: Path, where: str, statement: str, expect: str | None) -> None:
    """The checker on a small fake package: it finds what it must find."""
    package = tmp_path / "s2s"
    for sub in ("", "ir", "analysis", "transform", "frontend", "codegen"):
        (package / sub).mkdir(parents=True, exist_ok=True)
        (package / sub / "__init__.py").write_text("")
    for name in ("deep", "diagnostics", "vfabi", "pipeline", "driver"):
        (package / f"{name}.py").write_text("")
    (package / "frontend" / "clauses.py").write_text("")
    (package / "frontend" / "lower.py").write_text("")
    (package / "transform" / "cse.py").write_text("")
    (package / "analysis" / "cfg.py").write_text("")
    (package / "codegen" / "target.py").write_text("")
    (package / where).write_text(statement + "\n")
    found = violations(package)
    if expect is None:
        assert found == []
    else:
        assert len(found) == 1 and expect in found[0], found
