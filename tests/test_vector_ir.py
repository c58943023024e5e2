"""The vector IR: vector types and instructions in the textual IR.

Printing, parsing and verifying vector IR (s2s/ir/vector.py): fixed and
scalable vector types, masks ``<N x i1>``, lanewise scalar instructions on
vectors, and the vector IR's own instructions; the verifier's type rules
reject lane mismatches; copies keep everything.
"""

from __future__ import annotations

import pytest

from s2s.ir.clone import clone_function
from s2s.ir.interpreter import Memory
from s2s.ir.parser import parse_function
from s2s.ir.printer import print_function
from s2s.ir.types import F64, I1, VectorType
from s2s.ir.values import IRError
from s2s.ir.vector_interpreter import run_vector
from s2s.ir.verifier import verify

KERNEL = """func @axpy(i64 %i, f64 %a, ptr<f64> %x, ptr<f64> %y, ptr<i32> %idx) -> (f64) {
entry:
  %px = gep %x, %i
  %vx = vload <8 x f64>, %px
  %va = splat %a to <8 x f64>
  %ax = mul %va, %vx
  %zero = splat f64 0.0 to <8 x f64>
  %pos = cmp gt %ax, %zero
  %keep = select %pos, %ax, %zero
  %pi = gep %idx, %i
  %k = vload <8 x i32>, %pi mask %pos
  %ptrs = gep %y, %k
  %old = gather %ptrs mask %pos
  %new = add %old, %keep
  scatter %new, %ptrs mask %pos
  %lanes = stepvector <8 x i32>
  %l3 = extractlane %lanes, i32 3
  %w = insertlane %new, %a, %l3
  %wide = cast %k to <8 x i64>
  %sum = reduce add %w mask %pos
  %any = call i1 @s2s.any(%pos)
  vstore %w, %px
  condbr %any, yes, no
yes:
  ret %sum
no:
  ret f64 0.0
}
"""

SCALABLE = """func @sve(ptr<f32> %p, i64 %n) -> (f32) {
entry:
  %v = vload <vscale x 4 x f32>, %p
  %z = splat f32 0.0 to <vscale x 4 x f32>
  %m = cmp lt %v, %z
  %neg = neg %v
  %abs = select %m, %neg, %v
  %s = reduce max %abs
  ret %s
}
"""


@pytest.mark.parametrize("text", [KERNEL, SCALABLE])
def test_vector_ir_prints_as_written_and_verifies(text: str) -> None:
    fn = parse_function(text)
    verify(fn)
    assert print_function(fn) == text
    copy, _ = clone_function(fn)
    verify(copy)
    assert print_function(copy) == text


def test_types_of_lanewise_instructions() -> None:
    fn = parse_function(KERNEL)
    by_name = {i.name: i for i in fn.instructions() if i.name}
    assert by_name["pos"].type == VectorType(I1, 8)
    assert str(by_name["ptrs"].type) == "<8 x ptr<f64>>"
    assert by_name["old"].type == VectorType(F64, 8)
    assert by_name["sum"].type == F64 and by_name["l3"].type.is_int()
    assert str(parse_function(SCALABLE).args[0].type) == "ptr<f32>"
    v = next(i for i in parse_function(SCALABLE).instructions() if i.name == "v")
    assert isinstance(v.type, VectorType) and v.type == VectorType(v.type.elem, 4, scalable=True)
    with pytest.raises(TypeError):
        _ = v.type.size


BAD = [
    ("%v = splat %a to <8 x f32>", "splat of f64"),
    ("%v = vload <4 x f64>, %px mask %m8", "mask of type <8 x i1>"),
    ("%v = vload <8 x f32>, %px", "vload of <8 x f32> through ptr<f64>"),
    ("%v = select %m4, %v8, %v8", "select condition of type <4 x i1>"),
    ("%v = cast %v8 to f64", "changes the lanes"),
    ("%v = gather %px", "gather of void through ptr<f64>"),
    ("%v = reduce and %v8", "reduce and of <8 x f64>"),
    ("%v = extractlane %v8, i64 1", "extractlane of <8 x f64> at a lane of type i64"),
    ("%v = add %v8, %a", "operand types differ"),  # the parser's own check
    ("%v = load %px mask %m8", "mask of type <8 x i1>, not i1"),
]


@pytest.mark.parametrize("line, problem", BAD)
def test_the_verifier_rejects_lane_and_type_mismatches(line: str, problem: str) -> None:
    text = f"""func @f(f64 %a, ptr<f64> %px, <8 x i1> %m8, <4 x i1> %m4, <8 x f64> %v8) -> () {{
entry:
  {line}
  ret
}}
"""
    with pytest.raises(IRError) as error:
        verify(parse_function(text))
    assert problem in str(error.value)


@pytest.mark.parametrize(
    "text, message",
    [
        ("<0 x f64>", "no vector of 0 lanes"),
        ("<4 x [2 x f64]>", "no vector of 4 lanes"),
        ("<vscale 4 x f64>", "expected 'x'"),
    ],
)
def test_bad_vector_types_are_parse_errors(text: str, message: str) -> None:
    with pytest.raises(IRError, match=message):
        parse_function(f"func @f({text} %v) -> () {{\nentry:\n  ret\n}}\n")


def test_an_unknown_reduction_is_a_parse_error() -> None:
    with pytest.raises(IRError, match="unknown reduction 'avg'"):
        parse_function(
            "func @f(<4 x f64> %v) -> (f64) {\nentry:\n  %s = reduce avg %v\n  ret %s\n}\n"
        )


RECORDS = """func @swap(ptr<f64> %p) -> () {
entry:
  %x = recordload <4 x f64>, %p, slot 0 of 3
  %y = recordload <4 x f64>, %p, slot 1 of 3
  %z = recordload <4 x f64>, %p, slot 2 of 3
  recordstore %y, %x, %z, %p
  ret
}
"""


def test_record_loads_and_stores_move_fields_of_whole_records() -> None:
    """Field s of record k is element k*slots + s; a record store writes
    every field of every record (here the first two fields swapped)."""
    fn = parse_function(RECORDS)
    verify(fn)
    assert print_function(fn) == RECORDS
    mem = Memory()
    p = mem.alloc_array(F64, [float(k) for k in range(12)])
    run_vector(fn, [p], mem)
    assert mem.read_array(p, F64, 12) == [
        1.0,
        0.0,
        2.0,
        4.0,
        3.0,
        5.0,
        7.0,
        6.0,
        8.0,
        10.0,
        9.0,
        11.0,
    ]


@pytest.mark.parametrize(
    "line, problem",
    [
        ("%v = recordload <4 x f64>, %px, slot 3 of 3", "slot 3 of 3"),
        ("%v = recordload <4 x f32>, %px, slot 0 of 2", "recordload of <4 x f32>"),
        ("recordstore %v8, %m8, %px", "recordstore of <8 x f64>, <8 x i1>"),
    ],
)
def test_the_verifier_checks_record_accesses(line: str, problem: str) -> None:
    text = f"""func @f(ptr<f64> %px, <8 x f64> %v8, <8 x i1> %m8) -> () {{
entry:
  {line}
  ret
}}
"""
    with pytest.raises(IRError) as error:
        verify(parse_function(text))
    assert problem in str(error.value)
