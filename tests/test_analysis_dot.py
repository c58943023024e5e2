"""Graphviz output for --emit-cfg (s2s.analysis.dot)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from s2s.analysis.divergence import compute_divergence
from s2s.analysis.dot import cfg_dot, write_dot
from s2s.analysis.shapes import VectorShape as S
from s2s.ir.parser import parse_function

TEXT = """
func @d(i1 %v, i32 %n) -> (i32) {
A:
  condbr %v, B, C
B:
  br D
C:
  br D
D:
  %x = phi i32 [i32 0, B], [i32 1, C]
  br H
H:
  %k = phi i32 [i32 0, D], [%k1, H]
  %k1 = add %k, i32 1
  %c = cmp lt %k1, %n
  condbr %c, H, X
X:
  ret %x
}
"""


def analyzed():
    fn = parse_function(TEXT)
    return fn, compute_divergence(fn, {fn.args[0]: S.varying(), fn.args[1]: S.varying()})


def test_marks_divergent_branches_joins_and_loops():
    fn, info = analyzed()
    text = cfg_dot(fn, info)
    assert text.startswith('digraph "d" {')
    assert '"A" [label="A [divergent]", color="red", penwidth=2];' in text
    assert 'label="D [join]"' in text
    assert 'label="loop H (divergent)"' in text
    assert '"H" -> "H" [color="red", style="dotted"];' in text
    assert '"H" -> "X" [color="red", label="exit"];' in text
    assert '"B" -> "D";' in text


def test_plain_cfg_without_analysis(tmp_path):
    fn, _ = analyzed()
    path = tmp_path / "sub" / "d.dot"
    write_dot(fn, None, path)
    text = path.read_text()
    assert "divergent" not in text and "join" not in text
    assert '"A" -> "B";' in text


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz not installed")
def test_graphviz_accepts_the_output(tmp_path):
    fn, info = analyzed()
    path = tmp_path / "d.dot"
    write_dot(fn, info, path)
    subprocess.run(["dot", "-Tsvg", str(path), "-o", str(tmp_path / "d.svg")], check=True)
