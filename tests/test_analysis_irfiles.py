"""Runs the textual IR tests of the analyses (tests/ir/divergence/, see tests/ir_checker.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ir_checker import check_file

IR_DIR = Path(__file__).parent / "ir" / "divergence"
FILES = sorted(IR_DIR.glob("*.ir"))


def test_there_are_files() -> None:
    assert len(FILES) >= 20


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_ir_file(path: Path) -> None:
    errors = check_file(path)
    assert not errors, "\n".join(errors)
