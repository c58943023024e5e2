"""Access shapes of loads and stores (s2s.analysis.memory)."""

from __future__ import annotations

from s2s.analysis.divergence import compute_divergence
from s2s.analysis.memory import memory_counts, memory_shapes
from s2s.analysis.shapes import VectorShape as S
from s2s.ir.parser import parse_function
from s2s.ir.values import Load, Store

KERNEL = """
struct.vec3 = { f64 x @0, f64 y @8, f64 z @16 } size 24
func @k(i64 %i, ptr<f64> %a, ptr<f32> %b, ptr<i32> %idx, ptr<struct.vec3> %v, f64 %s) -> () {
entry:
  %pa = gep %a, %i
  %xa = load %pa
  %i2 = mul %i, i64 2
  %pb = gep %b, %i2
  %xb = load %pb
  %pi = gep %idx, %i
  %k = load %pi
  %pg = gep %a, %k
  %xg = load %pg
  %pu = gep %a, i64 3
  %xu = load %pu
  %pv = gep %v, %i
  %py = fieldaddr %pv, y
  %xy = load %py
  %neg = sub i64 0, %i
  %pr = gep %a, %neg
  %xr = load %pr
  %c = cmp lt %xa, %s
  condbr %c, then, done
then:
  store %xg, %pg
  br done
done:
  store %xa, %pa
  ret
}
"""


def setup():
    fn = parse_function(KERNEL)
    args = dict(
        zip(
            fn.args,
            [
                S.strided(1, 8),
                S.uniform(64),
                S.uniform(64),
                S.uniform(64),
                S.uniform(64),
                S.uniform(),
            ],
        )
    )
    info = compute_divergence(fn, args)
    acc = memory_shapes(fn, info)
    by_name = {i.name: acc[i] for i in acc if isinstance(i, Load)}
    stores = [acc[i] for i in acc if isinstance(i, Store)]
    return by_name, stores, acc


def test_access_kinds():
    loads, stores, _ = setup()
    assert loads["xa"].kind == "contiguous" and loads["xa"].stride == 8
    assert loads["xb"].kind == "strided" and loads["xb"].stride == 8 and loads["xb"].elem_size == 4
    assert loads["k"].kind == "contiguous" and loads["k"].elem_size == 4
    assert loads["xg"].kind == "gather"
    assert loads["xu"].kind == "uniform"
    assert loads["xy"].kind == "strided" and loads["xy"].stride == 24
    assert loads["xr"].kind == "strided" and loads["xr"].is_reverse
    assert [s.kind for s in stores] == ["scatter", "contiguous"]


def test_alignment_and_masking():
    loads, stores, _ = setup()
    # %i is (1,8): lane 0 address of a[i] is a multiple of 64 bytes
    assert loads["xa"].alignment == 64 and loads["xa"].is_aligned(64)
    assert loads["xy"].alignment == 8
    assert stores[0].masked and not stores[1].masked
    assert not loads["xa"].masked


def test_counts_for_the_report():
    _, _, acc = setup()
    counts = memory_counts(acc)
    assert counts == {
        "contiguous": 3,
        "strided": 3,
        "gather": 1,
        "scatter": 1,
        "masked": 1,
        "uniform": 1,
    }


def test_per_lane_stack_access_names_its_alloca():
    fn = parse_function("""
func @st(i64 %t, i64 %u) -> (i64) {
entry:
  %m = alloca [8 x i64]
  %m0 = cast %m to ptr<i64>
  %p = gep %m0, %u
  store %t, %p
  %q = gep %m0, %u
  %x = load %q
  ret %x
}
""")
    info = compute_divergence(fn, {fn.args[0]: S.strided(1), fn.args[1]: S.uniform()})
    acc = memory_shapes(fn, info)
    load = next(a for i, a in acc.items() if isinstance(i, Load))
    assert load.alloca is not None and not info.alloca_is_uniform(load.alloca)
    assert load.kind == "gather" and load.lane_offset == S.uniform(8)


INDEXED = """
struct.big = { f64 a @0, f64 b @8 } size 16
func @g(i64 %i, ptr<f64> %a, ptr<i32> %ki, ptr<u32> %ku, ptr<struct.big> %s) -> () {
entry:
  %pk = gep %ki, %i
  %k = load %pk
  %wide = cast %k to i64
  %p1 = gep %a, %wide
  %x1 = load %p1
  %p2 = gep %a, %k
  %x2 = load %p2
  %pu = gep %ku, %i
  %u = load %pu
  %p3 = gep %a, %u
  %x3 = load %p3
  %p4 = gep %s, %wide
  %x4 = load %p4
  %p5 = gep %a, %i
  %x5 = load %p5
  ret
}
"""


def test_indexed_addresses_one_rule_for_width_and_widening() -> None:
    """base[index] a gather takes from the index itself: a sign-extended
    signed 32-bit index is taken as the 32-bit one; an unsigned 32-bit
    index and 16-byte elements have none; a contiguous access has the form
    too (its kind says it needs no gather)."""
    fn = parse_function(INDEXED)
    args = dict(
        zip(fn.args, [S.strided(1, 8), S.uniform(64), S.uniform(64), S.uniform(64), S.uniform(64)])
    )
    acc = memory_shapes(fn, compute_divergence(fn, args))
    by_name = {i.name: acc[i] for i in acc if isinstance(i, Load)}
    k = next(i for i in fn.instructions() if i.name == "k")
    for name in ("x1", "x2"):
        found = by_name[name].indexed
        assert found is not None and found.index is k and found.index_bits == 32, name
        assert found.elem_size == 8 and found.base is fn.args[1], name
    assert by_name["x3"].kind == "gather" and by_name["x3"].indexed is None
    assert by_name["x4"].kind == "gather" and by_name["x4"].indexed is None
    x5 = by_name["x5"]
    assert x5.kind == "contiguous" and x5.indexed is not None and x5.indexed.index is fn.args[0]


CHAINED = """
func @g(i64 %i, ptr<f64> %a, ptr<i32> %ki, ptr<ptr<f64>> %pp) -> () {
entry:
  %pk = gep %ki, %i
  %k = load %pk
  %wide = cast %k to i64
  %row = gep %a, %wide
  %p1 = gep %row, %wide
  %x1 = load %p1
  %p2 = gep %p1, i64 -3
  %x2 = load %p2
  %ppi = gep %pp, %i
  %q = load %ppi
  %qrow = gep %q, %wide
  %p3 = gep %qrow, %wide
  %x3 = load %p3
  ret
}
"""


def test_gep_chain_from_a_uniform_base_sums_its_indices_in_64_bits() -> None:
    """``row = a + k; row[k]`` and ``(row + k)[-3]``: the uniform base and
    every index of the chain (64-bit: their sum in 32 bits could wrap where
    the pointer arithmetic does not); a chain from a varying pointer has
    no base to take."""
    fn = parse_function(CHAINED)
    args = dict(zip(fn.args, [S.strided(1, 8), S.uniform(64), S.uniform(64), S.uniform(64)]))
    acc = memory_shapes(fn, compute_divergence(fn, args))
    by_name = {i.name: acc[i] for i in acc if isinstance(i, Load)}
    named = {i.name: i for i in fn.instructions()}
    x1, x2 = by_name["x1"].indexed, by_name["x2"].indexed
    assert x1 is not None and x1.base is fn.args[1] and x1.index_bits == 64
    assert x1.parts == (named["wide"], named["wide"]) and x1.elem_size == 8
    assert x2 is not None and x2.base is fn.args[1] and len(x2.parts) == 3
    assert by_name["x3"].kind == "gather" and by_name["x3"].indexed is None
