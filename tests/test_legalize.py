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
from s2s.ir.interpreter import Scalar
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

    from s2s.ir.interpreter import Memory
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


MIXED_BODY = """
func @mixed(ptr<i32> %kp, ptr<f64> %p, ptr<i32> %q) -> (i32) {
entry:
  %k = vload <8 x i32>, %kp
  %x = vload <8 x f64>, %p
  %c = cast %k to <8 x f64>
  %y = add %x, %c
  vstore %y, %p
  %t = cast %y to <8 x i32>
  %s = stepvector <8 x i32>
  %u = add %t, %s
  vstore %u, %q
  %last = extractlane %u, i32 7
  ret %last
}
"""


def _run_mixed(vf: VectorFunction) -> tuple[list[VValue], list[Scalar], list[Scalar]]:
    from s2s.ir.interpreter import Memory
    from s2s.ir.types import F64

    mem = Memory()
    kp = mem.alloc_array(I32, [3 * j - 7 for j in range(8)])
    p = mem.alloc_array(F64, [0.25 * k - 1.0 for k in range(8)])
    q = mem.alloc_array(I32, [0] * 8)
    results = run_vector(vf.fn, [kp, p, q], mem)
    return results, mem.read_array(p, F64, 8), mem.read_array(q, I32, 8)


def test_mixed_cut_puts_each_element_type_in_whole_registers() -> None:
    """On AVX2, 8 lanes of f64 take two registers and 8 of i32 one: the
    ints stay whole, the casts between them go through part and concat, and
    the function computes what the uncut one does."""
    from s2s.codegen.legalize import split_mixed

    whole = VectorFunction(parse_function(MIXED_BODY), 8, ["scalar"] * 3)
    cut = split_mixed(whole, 2, load_target("avx2"))
    assert cut is not None and cut.cut_by_type and cut.parts == 2
    verify(cut.fn)
    text = print_function(cut.fn)
    for line in (
        "func @mixed.x2(ptr<i32> %kp, ptr<f64> %p, ptr<i32> %q) -> (i32)",
        "vload <8 x i32>, %kp",
        "vload <4 x f64>, %p.p1",
        "part <4 x i32>, %k, 1",
        "%t = concat %2, %3",
        "stepvector <8 x i32>",
        "extractlane %u, i32 7",
    ):
        assert line in text, (line, text)
    assert _run_mixed(cut) == _run_mixed(whole)


@pytest.mark.parametrize(
    "body, why",
    [
        (MIXED_BODY.replace("vstore %u, %q", "vstore %u, %q mask %m"), "a mask on the ints"),
        (MIXED_BODY.replace("i32 7\n", "%i\n"), "a lane picked at run time"),
    ],
)
def test_mixed_cut_leaves_to_the_even_cut(body: str, why: str) -> None:
    """What only the even cut handles (a mask on a type cut into fewer
    parts than the widest, a lane picked at run time) gets it."""
    from s2s.codegen.legalize import split_mixed

    if "mask %m" in body:
        body = body.replace("%kp, ptr<f64>", "%kp, <8 x i1> %m, ptr<f64>")
        forms = ["scalar", "vector", "scalar", "scalar"]
    else:
        body = body.replace("ptr<i32> %q)", "ptr<i32> %q, i32 %i)")
        forms = ["scalar"] * 4
    whole = VectorFunction(parse_function(body), 8, forms)
    assert split_mixed(whole, 2, load_target("avx2")) is None, why


def test_mixed_cut_only_where_types_differ_in_registers() -> None:
    """All element types of one width: nothing to cut by type.  On NEON 8
    lanes of f64 take four registers, of i32 two."""
    from s2s.codegen.legalize import split_mixed

    same = MIXED.replace("W", "8").replace("<8 x i32> %k", "<8 x i64> %k")
    whole = VectorFunction(parse_function(same), 8, ["vector", "scalar"])
    assert split_mixed(whole, 2, load_target("avx2")) is None
    mixed = VectorFunction(parse_function(MIXED_BODY), 8, ["scalar"] * 3)
    neon = split_mixed(mixed, 4, load_target("neon"))
    assert neon is not None
    verify(neon.fn)
    text = print_function(neon.fn)
    assert "vload <4 x i32>, %kp.p1" in text and "part <2 x i32>, %k.1, 1" in text, text
    assert _run_mixed(neon) == _run_mixed(mixed)


def test_mixed_cut_keeps_calls_on_narrow_types_even() -> None:
    """A math call on the narrower type (float next to double) would be
    emitted for the widest type's lanes: such a function keeps the even cut."""
    from s2s.codegen.legalize import split_mixed

    body = """
func @f(ptr<f32> %a, ptr<f64> %b) -> () {
entry:
  %x = vload <8 x f32>, %a
  %s = call <8 x f32> @sqrtf(%x) pure
  vstore %s, %a
  %w = cast %s to <8 x f64>
  vstore %w, %b
  ret
}
"""
    whole = VectorFunction(parse_function(body), 8, ["scalar"] * 2)
    assert split_mixed(whole, 2, load_target("avx2")) is None
    unary = body.replace("call <8 x f32> @sqrtf(%x) pure", "neg %x")
    cut = split_mixed(
        VectorFunction(parse_function(unary), 8, ["scalar"] * 2), 2, load_target("avx2")
    )
    assert cut is not None and "part <4 x f32>, %s, 1" in print_function(cut.fn)


def test_mixed_cut_takes_masks_of_the_widest_type() -> None:
    """Compares, selects and masked accesses of the doubles keep their
    masks in the doubles' parts while the ints stay whole."""
    from s2s.codegen.legalize import split_mixed

    body = MIXED_BODY.replace(
        "  vstore %y, %p\n",
        "  %zero = splat f64 0.0 to <8 x f64>\n"
        "  %pos = cmp gt %y, %zero\n"
        "  %r = select %pos, %y, %x\n"
        "  vstore %r, %p mask %pos\n",
    )
    whole = VectorFunction(parse_function(body), 8, ["scalar"] * 3)
    cut = split_mixed(whole, 2, load_target("avx2"))
    assert cut is not None
    verify(cut.fn)
    text = print_function(cut.fn)
    assert "vstore %r.1, %p.p1 mask %pos.1" in text and "vload <8 x i32>, %kp" in text, text
    assert _run_mixed(cut) == _run_mixed(whole)
