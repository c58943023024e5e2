"""Legalization (s2s/codegen/legalize.py), checked by running it.

The random regions of tests/transform_gen.py are widened to vector IR for
W lanes, cut into 2, 4 ... parts, verified, and run in the vector
interpreter: results and memory must be those of the uncut function (which
tests/test_to_vector_ir.py checks against per-lane runs).  Then the
textual cases in tests/ir/legalize/ and register_parts on the targets."""

from __future__ import annotations

import pytest
from test_to_vector_ir import _inputs, _memory, _widened
from transform_gen import OUT

from s2s.codegen.legalize import register_parts, split_vectors
from s2s.codegen.target import load_target
from s2s.codegen.to_vector_ir import VectorFunction
from s2s.ir.parser import parse_function
from s2s.ir.printer import print_function
from s2s.ir.types import I32
from s2s.ir.vector_interpreter import VValue, run_vector
from s2s.ir.verifier import verify


def _run(vf: VectorFunction, lanes: list[int], u: int):
    """Results (each vector as the list of its W lanes) and the output array."""
    mem, a, out = _memory()
    n = vf.width // vf.parts
    assert vf.arg_forms == ["vector"] * vf.parts + ["lane0", "scalar", "scalar", "scalar"]
    parts: list[VValue] = [list(lanes[j * n : (j + 1) * n]) for j in range(vf.parts)]
    results = run_vector(vf.fn, [*parts, 0, u, a, out], mem)
    joined: list[VValue] = []
    k = 0
    while k < len(results):
        first = results[k]
        if isinstance(first, list):
            cut = results[k : k + vf.parts]
            joined.append([x for p in cut if isinstance(p, list) for x in p])
            k += vf.parts
        else:
            joined.append(first)
            k += 1
    return joined, mem.read_array(out, I32, OUT)


@pytest.mark.parametrize("seed", range(40))
def test_split_functions_compute_what_the_whole_ones_do(seed: int) -> None:
    lanes, u = _inputs(seed)
    lanes = (lanes * 8)[:8]  # eight lanes, cut into 2, 4 and 8 parts
    whole = _widened(seed, 8)
    expected = _run(whole, lanes, u)
    for parts in (2, 4, 8):
        cut = split_vectors(whole, parts)
        verify(cut.fn)
        assert _run(cut, lanes, u) == expected, (parts, print_function(cut.fn))


MIXED = """
func @mixed(<W x i32> %k, ptr<f64> %p) -> () {
entry:
  %x = vload <W x f64>, %p
  %c = cast %k to <W x f64>
  %y = add %x, %c
  vstore %y, %p
  ret
}
"""


@pytest.mark.parametrize(
    "width, target, parts",
    [(8, "avx512", 1), (8, "avx2", 2), (8, "neon", 4), (16, "avx512", 2), (4, "neon", 2)],
)
def test_register_parts_follow_the_target_registers(width: int, target: str, parts: int) -> None:
    fn = parse_function(MIXED.replace("W", str(width)))
    vf = VectorFunction(fn, width, ["vector", "scalar"])
    assert register_parts(vf, load_target(target)) == parts


def test_a_width_no_split_fits_has_no_parts() -> None:
    fn = parse_function(MIXED.replace("W", "3"))
    assert register_parts(VectorFunction(fn, 3, ["vector", "scalar"]), load_target("avx2")) is None


def test_record_accesses_split_by_whole_records() -> None:
    """Part j of a record load or store starts j * lanes records further."""
    from test_vector_ir import RECORDS

    from s2s.ir.interpreter import Memory, Scalar
    from s2s.ir.types import F64

    def run(vf: VectorFunction) -> list[Scalar]:
        mem = Memory()
        p = mem.alloc_array(F64, [float(k) for k in range(12)])
        run_vector(vf.fn, [p], mem)
        return mem.read_array(p, F64, 12)

    whole = VectorFunction(parse_function(RECORDS), 4, ["scalar"])
    split = split_vectors(whole, 2)
    verify(split.fn)
    text = print_function(split.fn)
    assert "recordload <2 x f64>, %p.p1, slot 2 of 3" in text, text
    assert "gep %p, i32 6" in text, text
    assert run(split) == run(VectorFunction(parse_function(RECORDS), 4, ["scalar"]))
