"""Runs the textual IR tests of the transforms (tests/ir/transform/, see tests/filecheck.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from filecheck import check_file, filecheck

IR_DIR = Path(__file__).parent / "ir" / "transform"
FILES = sorted(IR_DIR.glob("*.ir"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_transform_ir_file(path: Path) -> None:
    errors = check_file(path)
    assert not errors, "\n".join(errors)


def test_filecheck_reports_what_does_not_match() -> None:
    out = "a: x\n  b\n  c\n"
    assert filecheck(out, [("CHECK", "a:"), ("CHECK-NEXT", "b")]) == []
    assert filecheck(out, [("CHECK", "a:"), ("CHECK-NEXT", "c")])
    assert filecheck(out, [("CHECK", "c"), ("CHECK", "b")])
    assert filecheck(out, [("CHECK", "a:"), ("CHECK-NOT", "b"), ("CHECK", "c")])
    assert filecheck(out, [("CHECK-COUNT-2", "{{[bc]}}")]) == []
    assert filecheck(out, [("CHECK-COUNT-1", "{{[bc]}}")])
