"""Code generation from small textual IR regions: what becomes scalar, vector,
gather or per-lane code, checked on the generated text (no compiler needed)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from s2s.analysis.divergence import compute_divergence
from s2s.analysis.shapes import region_arg_shapes
from s2s.codegen.generate import CodegenOptions, choose_width, generate_loop
from s2s.codegen.target import load_target
from s2s.diagnostics import Location
from s2s.ir.clauses import ClauseSet
from s2s.ir.parser import parse_function
from s2s.ir.region import ArgBinding, LoopBounds, Region, ResultBinding
from s2s.pipeline import analyze
from s2s.transform.passes import PassOptions


def region_of(ir: str, roles: dict[str, str], results: Sequence[ResultBinding] = ()) -> Region:
    fn = parse_function(ir)
    args = []
    for arg in fn.args:
        role = roles.get(arg.name, "uniform")
        args.append(
            ArgBinding(
                arg,
                role,
                arg.name,
                "long" if role == "iv" else "void *",
                step=1 if role == "iv" else 0,
                reduction_op="+" if role == "reduction" else "",
            )
        )
    reg = Region(
        kind="loop",
        name="k:1",
        file="k.c",
        line=3,
        column=5,
        fn=fn,
        args=args,
        results=list(results),
        bounds=LoopBounds("i", "long", True, "0", "n", "<", 1),
        body_text="{ }",
        loop_text="for (long i = 0; i < n; i++) { }",
    )
    for r in reg.results:
        r.arg = r.arg or fn.args[[a.name for a in fn.args].index(r.c_var)]
    return reg


def gen(reg: Region, target: str = "avx2", all_true: bool = True, **kw):
    """The pipeline (canonicalize, divergent loops, linearize), then code
    generation through the vector IR (the differential suite checks what
    the output computes; these tests what it is made of)."""
    analyzed = analyze(reg, PassOptions(all_true=all_true))
    options = CodegenOptions(**kw)
    return generate_loop(reg, analyzed.div, analyzed.mem, load_target(target), options)


SAXPY = """
func @k(i64 %i, ptr<f64> %a, ptr<f64> %b, f64 %s) -> () {
entry:
  %pa = gep %a, %i
  %pb = gep %b, %i
  %x = load %pb
  %uni.t = mul %s, f64 3.0
  %y = mul %x, %uni.t
  store %y, %pa
  ret
}
"""


def test_contiguous_access_uniform_math_stays_scalar():
    g = gen(region_of(SAXPY, {"i": "iv"}), interleave=1)
    assert g.width == 4
    assert "_mm256_loadu_pd" in g.text and "_mm256_storeu_pd" in g.text
    # the uniform product is computed once per iteration as a scalar
    product = re.findall(r"(s2s_\w+_uni_t_\d+) = \(s2s_\w+_a3 \* 3\.0\);", g.text)
    assert len(product) == 1, g.text
    assert f"_mm256_set1_pd({product[0]})" in g.text
    assert g.stats["memory"]["contiguous"] == 2 and g.stats["memory"]["gather"] == 0
    assert "/* s2svec: avx2, 4 lanes, loop at k.c:3 */" in g.text


STRIDED = """
func @k(i64 %i, ptr<f32> %a, ptr<f32> %b, ptr<i32> %idx) -> () {
entry:
  %i2 = mul %i, i64 2
  %pa = gep %a, %i2
  %x = load %pa
  %pi = gep %idx, %i
  %j = load %pi
  %j64 = cast %j to i64
  %pb = gep %b, %j64
  store %x, %pb
  ret
}
"""


def test_strided_load_and_scatter():
    g = gen(region_of(STRIDED, {"i": "iv"}), interleave=1)
    mem = g.stats["memory"]
    assert mem == {
        "contiguous": 1,
        "strided": 1,
        "gather": 0,
        "scatter": 1,
        "masked": 0,
        "uniform": 0,
    }
    assert g.width == 4
    # the strided load: a gather at offsets 2k from a[2i]
    assert re.search(r"_mm_i32gather_ps\(\(const float \*\)\(s2s_\w+_pa_\d+\), s2s_\w+", g.text)
    assert "per lane" in g.text  # AVX2 has no scatter


DIVERGENT = """
func @k(i64 %i, ptr<f64> %a) -> () {
entry:
  %pa = gep %a, %i
  %x = load %pa
  %c = cmp lt %x, f64 0.0
  condbr %c, neg, done
neg:
  store f64 0.0, %pa
  br done
done:
  ret
}
"""


DIVERGENT_LOOP = """
func @k(i64 %i, ptr<f64> %a) -> () {
entry:
  %pa = gep %a, %i
  %x = load %pa
  br head
head:
  %v = phi f64 [%x, entry], [%h, body]
  %c = cmp gt %v, f64 1.0
  condbr %c, body, done
body:
  %h = mul %v, f64 0.5
  br head
done:
  store %v, %pa
  ret
}
"""


def test_divergent_triangle_is_predicated():
    g = gen(region_of(DIVERGENT, {"i": "iv"}), all_true=False, interleave=1)
    assert g.stats["memory"]["masked"] == 1
    loop = g.text[g.text.index("for (") :]
    assert "_mm256_maskstore_pd" in loop and "if (" not in loop[: loop.index("for (", 1)]
    # with its all-true path: the same store unmasked, behind a uniform test
    g = gen(region_of(DIVERGENT, {"i": "iv"}), interleave=1)
    assert g.stats["memory"]["masked"] == 1 and g.stats["memory"]["contiguous"] == 3
    assert "_mm256_maskstore_pd" in g.text and "_mixed:;" in g.text


def test_divergent_loop_becomes_a_uniform_loop_on_a_live_mask():
    g = gen(region_of(DIVERGENT_LOOP, {"i": "iv"}), interleave=1)
    # the loop runs while any lane is live: its head tests the live mask
    # (movemask) and its body jumps back to the head; the store after it is
    # not masked
    stay = re.search(
        r"(\w+) = .*_mm256_movemask_pd\(_mm256_castsi256_pd\((s2s_\w+_live_\d+)\)\)", g.text
    )
    assert stay, g.text
    head = re.search(r"(\w+):;\n[^\n]*" + re.escape(stay.group(0)), g.text)
    assert head, g.text
    assert f"if ({stay.group(1)})" in g.text and f"goto {head.group(1)};" in g.text
    assert "_mm256_storeu_pd(" in g.text and "maskstore" not in g.text
    assert g.stats["memory"]["masked"] == 0 and g.stats["memory"]["contiguous"] == 2


REDUCE = """
func @k(i64 %i, ptr<i32> %a, i32 %s) -> (i32) {
entry:
  %pa = gep %a, %i
  %x = load %pa
  %q = div %x, i32 3
  %s2 = add %s, %q
  ret %s2
}
"""


def test_reduction_and_integer_division_fallback():
    reg = region_of(
        REDUCE,
        {"i": "iv", "s": "reduction"},
        [ResultBinding(0, "reduction", "s", parse_function(REDUCE).args[2].type, "+")],
    )
    g = gen(reg)
    assert g.width == 8  # i32 lanes fill the 256-bit register
    assert "per lane" in g.text and "_mm256_add_epi32" in g.text
    assert "s = (int32_t)((uint32_t)s + (uint32_t)s2s_r[s2s_j]);" in g.text


def test_width_clauses():
    reg = region_of(SAXPY, {"i": "iv"})
    reg.clauses = ClauseSet("simd", Location("t.c", 1, 1), safelen=2)
    div = compute_divergence(reg.fn, region_arg_shapes(reg))
    assert choose_width(reg, div, load_target("avx2"), CodegenOptions())[0] == 2
    assert choose_width(reg, div, load_target("avx2"), CodegenOptions(simdlen=2))[0] == 2
    reg.clauses = None
    assert choose_width(reg, div, load_target("avx2"), CodegenOptions(simdlen=8))[0] == 4


RECORDS = """struct.p = { f64 x @0, f64 v @8 } size 16
func @k(i64 %i, ptr<struct.p> %p, f64 %dt) -> () {
entry:
  %rec = gep %p, %i
  %px = fieldaddr %rec, x
  %pv = fieldaddr %rec, v
  %x = load %px
  %v = load %pv
  %m = mul %dt, %v
  %x2 = add %x, %m
  store %x2, %px
  ret
}
"""


def test_record_loops_take_the_record_register_width():
    from s2s.analysis.memory import memory_shapes
    from s2s.analysis.records import compute_record_groups

    reg = region_of(RECORDS, {"i": "iv", "p": "uniform", "dt": "uniform"})
    div = compute_divergence(reg.fn, region_arg_shapes(reg))
    records = compute_record_groups(reg.fn, div, memory_shapes(reg.fn, div))
    assert records.groups
    avx512 = load_target("avx512")
    assert avx512.record_register_bits == 256
    assert choose_width(reg, div, avx512, CodegenOptions())[0] == 8
    assert choose_width(reg, div, avx512, CodegenOptions(), records)[0] == 4
    assert choose_width(reg, div, avx512, CodegenOptions(simdlen=8), records)[0] == 8
    assert choose_width(reg, div, load_target("avx2"), CodegenOptions(), records)[0] == 4


def test_record_width_only_where_the_target_moves_the_records():
    """Records of 16-bit fields have no record macros on x86: the loop keeps
    the full register width (narrower registers would gain nothing)."""
    from s2s.analysis.memory import memory_shapes
    from s2s.analysis.records import compute_record_groups

    ir = RECORDS.replace("f64 x @0, f64 v @8 } size 16", "i16 x @0, i16 v @2 } size 4").replace(
        "f64 %dt", "i16 %dt"
    )
    reg = region_of(ir, {"i": "iv", "p": "uniform", "dt": "uniform"})
    div = compute_divergence(reg.fn, region_arg_shapes(reg))
    records = compute_record_groups(reg.fn, div, memory_shapes(reg.fn, div))
    assert records.groups
    avx512 = load_target("avx512")
    assert choose_width(reg, div, avx512, CodegenOptions(), records) == choose_width(
        reg, div, avx512, CodegenOptions()
    )


GUARDED_LOOKUP = """
func @k(i64 %i, ptr<f32> %x, ptr<i32> %idx, ptr<f32> %t, ptr<f32> %y) -> () {
entry:
  %px = gep %x, %i
  %v = load %px
  %c = cmp gt %v, f32 0.0
  condbr %c, then, done
then:
  %pi = gep %idx, %i
  %j = load %pi
  %j64 = cast %j to i64
  %pt = gep %t, %j64
  %w = load %pt
  br done
done:
  %r = phi f32 [%v, entry], [%w, then]
  %py = gep %y, %i
  store %r, %py
  ret
}
"""


@pytest.mark.parametrize("target, width", [("neon", 4), ("avx2", 8), ("avx512", 16)])
def test_masked_lookup_from_a_32bit_index_keeps_the_full_width(target: str, width: int):
    """``t[idx[i]]`` under a divergent branch: a masked gather from a 32-bit
    index.  NEON has no gather instruction, and at 4 lanes no vector of
    64-bit addresses either: the lanes load one by one from the index, so
    the loop keeps 4 lanes of floats (it fell to 2, for 64-bit addresses)."""
    g = gen(region_of(GUARDED_LOOKUP, {"i": "iv"}), target)
    assert g.width == width
    assert g.stats["memory"]["gather"] == 1 and g.stats["memory"]["masked"] >= 1


ROW_CHAIN = """
func @k(i64 %i, ptr<f64> %grid, ptr<i32> %row, ptr<i32> %col, ptr<i64> %far, ptr<f64> %y) -> () {
entry:
  %pr = gep %row, %i
  %r = load %pr
  %start = mul %r, i32 2048
  %start64 = cast %start to i64
  %g = gep %grid, %start64
  %pc = gep %col, %i
  %c = load %pc
  %sum = add %c, %c
  %mid = shr %sum, i32 1
  %mid64 = cast %mid to i64
  %pg = gep %g, %mid64
  %x = load %pg
  %pf = gep %far, %i
  %f = load %pf
  %h = gep %g, %f
  %z = load %h
  %xz = add %x, %z
  %py = gep %y, %i
  store %xz, %py
  ret
}
"""


@pytest.mark.parametrize(
    "target, gather", [("avx2", "_mm256_i64gather_pd"), ("avx512", "_mm512_i64gather_pd")]
)
def test_gather_through_a_row_pointer_takes_the_uniform_base(target: str, gather: str):
    """``g = grid + row * 2048; g[mid]`` and ``g[far]`` (a 64-bit offset):
    gathers from ``grid`` itself with the two offsets summed into 64-bit
    indices, scaled by the element size; never a vector of addresses
    (``(const void *)0, 1``) nor 32-bit indices (``row * 2048 + mid`` may
    not fit in 32 bits where the pointer arithmetic does).  The constant
    shift count is the immediate form."""
    g = gen(region_of(ROW_CHAIN, {"i": "iv"}), target, interleave=1)
    base = r"\(const \w+ \*\)\(s2s_\w+_a1\), (s2s_\w+, )?8\)"
    assert len(re.findall(re.escape(gather) + r"\([^;]*" + base, g.text)) == 2, g.text
    assert "(const void *)0, 1)" not in g.text and "i32gather_pd" not in g.text
    assert re.search(r"_mm(256)?_srai_epi32\(s2s_\w+, 1\)", g.text) and "srav" not in g.text
    assert "_set1_epi32((int)(1))" not in g.text  # no count vector is made


VARIABLE_SHIFT = """
func @k(i64 %i, ptr<i32> %a, ptr<i32> %s, ptr<i32> %y) -> () {
entry:
  %pa = gep %a, %i
  %x = load %pa
  %ps = gep %s, %i
  %n = load %ps
  %r = shr %x, %n
  %big = shl %r, i32 32
  %py = gep %y, %i
  store %r, %py
  ret
}
"""


def test_shift_by_a_lane_count_keeps_the_vector_form():
    """A count that differs per lane is the per-lane shift (``vpsravd``)."""
    g = gen(region_of(VARIABLE_SHIFT, {"i": "iv"}), "avx2", interleave=1)
    assert "_mm256_srav_epi32" in g.text and "srai" not in g.text
