"""Code generation of the complex helper calls (s2s/ir/complex_calls.py) from
textual IR, through the vector IR: both parts of one value from one per-lane
call of the pair helper, a single part alone, masks, the prelude's helpers
and the report."""

from __future__ import annotations

import re

import pytest
from test_codegen_ir import gen as pipeline_gen
from test_codegen_ir import region_of

from s2s.codegen.generate import prelude
from s2s.codegen.target import load_target
from s2s.ir.parser import parse_function
from s2s.ir.printer import print_function
from s2s.ir.types import PtrType, StructType


def gen(*args, **kw):
    return pipeline_gen(*args, interleave=1, **kw)


CEXP = """
struct.complex.f64 = { f64 re @0, f64 im @8 } size 16

func @k(i64 %i, ptr<struct.complex.f64> %z, ptr<struct.complex.f64> %out) -> () {
entry:
  %p = gep %z, %i
  %pre = fieldaddr %p, re
  %pim = fieldaddr %p, im
  %x = load %pre
  %y = load %pim
  %r = call f64 @s2s_cexp_re(%x, %y) pure
  %m = call f64 @s2s_cexp_im(%x, %y) pure
  %q = gep %out, %i
  %qre = fieldaddr %q, re
  %qim = fieldaddr %q, im
  store %r, %qre
  store %m, %qim
  ret
}
"""


def test_complex_struct_reads_back_with_its_c_spelling():
    fn = parse_function(CEXP)
    t = fn.args[1].type
    assert isinstance(t, PtrType) and isinstance(t.pointee, StructType)
    assert t.pointee.c_spelling == "_Complex double"
    assert print_function(parse_function(print_function(fn))) == print_function(fn)


@pytest.mark.parametrize("target", ["avx2", "avx512", "neon"])
def test_both_parts_from_one_call_per_lane(target: str):
    g = gen(region_of(CEXP, {"i": "iv"}), target)
    assert len(re.findall(r"s2s_cexp_pair\(", g.text)) == 1, g.text
    assert "s2s_cexp_re(" not in g.text and "s2s_cexp_im(" not in g.text
    assert g.needs >= {("complex_pair", "s2s_cexp_re")}
    assert not any(kind == "complex" for kind, *_ in g.needs)
    # one source call: the report names cexp and says why it runs lane by lane
    sites = [s for s in g.stats["call_sites"] if s[0] == "serialized"]
    assert {(how, callee) for how, callee, _, _ in sites} == {("serialized", "cexp")}
    assert "libmvec has no complex functions" in sites[0][3]
    text = prelude(load_target(target), g.needs)
    assert (
        "static inline void s2s_cexp_pair(double z0_re, double z0_im, double *re, "
        "double *im)" in text
    )
    assert "_Complex double r = __builtin_cexp(__builtin_complex(z0_re, z0_im));" in text
    assert "#ifndef S2S_DEFINED_s2s_cexp_pair" in text  # x86 preludes may both be compiled


def test_one_part_alone_calls_its_own_helper():
    ir = CEXP.replace("  store %m, %qim\n", "")
    g = gen(region_of(ir, {"i": "iv"}))
    assert "s2s_cexp_re(" in g.text and "s2s_cexp_pair(" not in g.text
    assert ("complex", "s2s_cexp_re") in g.needs
    text = prelude(load_target("avx2"), g.needs)
    assert "return __real__ (__builtin_cexp(__builtin_complex(z0_re, z0_im)));" in text


DIVERGENT = """
struct.complex.f32 = { f32 re @0, f32 im @4 } size 8

func @k(i64 %i, ptr<struct.complex.f32> %z, ptr<f32> %out) -> () {
entry:
  %p = gep %z, %i
  %pre = fieldaddr %p, re
  %pim = fieldaddr %p, im
  %x = load %pre
  %y = load %pim
  %c = cmp gt %x, f32 0.0
  condbr %c, then, end
then:
  %r = call f32 @s2s_cdivf_re(%x, %y, %y, %x) pure
  %m = call f32 @s2s_cdivf_im(%x, %y, %y, %x) pure
  %s = add %r, %m
  br end
end:
  %v = phi f32 [%s, then], [%x, entry]
  %q = gep %out, %i
  store %v, %q
  ret
}
"""


def test_masked_pair_runs_on_the_active_lanes_only():
    g = gen(region_of(DIVERGENT, {"i": "iv"}), "avx2", all_true=False)
    assert len(re.findall(r"s2s_cdivf_pair\(", g.text)) == 1, g.text
    # the per-lane loop visits the mask's set bits, and the lanes it skips are zeros
    call = g.text.index("s2s_cdivf_pair(")
    assert "for (unsigned s2s_m = s2s_mk; s2s_m != 0u;" in g.text[call - 200 : call]
    for part in ("re", "im"):
        assert f"float s2s_{part}[4] = {{0}};" in g.text[call - 300 : call]
        assert f"&s2s_{part}[s2s_j]" in g.text[call : call + 200]
    text = prelude(load_target("avx2"), g.needs)
    assert "__builtin_complex(z0_re, z0_im) / __builtin_complex(z1_re, z1_im)" in text
