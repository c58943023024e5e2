"""Runs every textual IR test under tests/ir/ (see s2s/analysis/expect.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from s2s.analysis.expect import check_text

IR_DIR = Path(__file__).parent / "ir"
FILES = sorted((IR_DIR / "divergence").rglob("*.ir"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(IR_DIR)) for p in FILES])
def test_ir_file(path: Path):
    errors = check_text(path.read_text())
    assert not errors, "\n".join(errors)


def test_checker_reports_wrong_expectations():
    text = """
; ARG %i stride(1)
; SHAPE %x uni
; BRANCH entry divergent
func @f(i64 %i) -> () {
entry:
  %x = add %i, i64 1
  %uni.y = add %i, i64 2
  ret
}
"""
    errors = check_text(text)
    assert len(errors) == 3, errors
