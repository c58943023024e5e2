"""Runs every textual IR test under tests/ir/ (see tests/ir_checker.py):
the analyses (divergence/), the transforms (transform/), widening to vector
IR (widen/) and legalization (legalize/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ir_checker import check_file

IR_DIR = Path(__file__).parent / "ir"
FILES = sorted(IR_DIR.rglob("*.ir"))
FOLDERS = {"divergence": 20, "transform": 25, "widen": 2, "legalize": 2}
"""Each folder, and the fewest files it has (a lost folder fails)."""


def test_every_folder_has_its_files() -> None:
    for folder, least in FOLDERS.items():
        assert len(list((IR_DIR / folder).glob("*.ir"))) >= least, folder
    assert {p.parent.name for p in FILES} == set(FOLDERS)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_ir_file(path: Path) -> None:
    errors = check_file(path)
    assert not errors, "\n".join(errors)
