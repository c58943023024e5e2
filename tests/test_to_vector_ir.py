"""Widening to the vector IR (s2s/codegen/to_vector_ir.py), checked by running it.

Random structured regions (tests/transform_gen.py: divergent if/else,
loops with per-lane trip counts, break/continue, switch, loads and stores at
varying, uniform and contiguous addresses, a local array with per-lane
copies) go through the pipeline, are widened to vector IR for W lanes, pass
the verifier, and run once in the vector interpreter
(s2s/ir/vector_interpreter.py); the region run once per lane must give the
same results and the same memory.  The last test breaks the widening on
purpose and checks that this property notices.
"""

from __future__ import annotations

import random

import pytest
from transform_gen import OUT, TABLE, arg_shapes, build_region

from s2s.analysis.divergence import DivergenceInfo
from s2s.analysis.memory import MemoryAccesses
from s2s.analysis.records import RecordInfo
from s2s.analysis.shapes import VectorShape
from s2s.codegen import to_vector_ir
from s2s.codegen.legalize import split_vectors
from s2s.codegen.to_vector_ir import VectorFunction, widen_to_vector_ir
from s2s.ir.interpreter import Memory, Scalar, run_lanes
from s2s.ir.parser import parse_function
from s2s.ir.printer import print_function
from s2s.ir.types import F32, F64, I32, I64, VectorType
from s2s.ir.values import Call, Function
from s2s.ir.vector_interpreter import VValue, run_vector
from s2s.ir.verifier import verify
from s2s.pipeline import PIPELINE, run_passes
from s2s.transform.passes import PassState


def _lane(v: VValue, k: int) -> Scalar:
    """Lane ``k`` of a vector value."""
    assert isinstance(v, list), v
    return v[k]


def _memory() -> tuple[Memory, int, int]:
    mem = Memory()
    a = mem.alloc_array(I32, [(k * 7) % 11 - 3 for k in range(TABLE)])
    out = mem.alloc_array(I32, [0] * OUT)
    return mem, a, out


def _expected(seed: int, lanes: list[int], u: int):
    mem, a, out = _memory()
    results = run_lanes(build_region(seed), [[v, k, u, a, out] for k, v in enumerate(lanes)], mem)
    return results, mem.read_array(out, I32, OUT)


def _widened(seed: int, width: int) -> VectorFunction:
    fn = build_region(seed)
    state = PassState(fn, arg_shapes(fn))
    run_passes(state, PIPELINE)
    vf = widen_to_vector_ir(
        fn,
        state.get(DivergenceInfo),
        width,
        state.get(MemoryAccesses),
        rows=state.get(RecordInfo).rows,
    )
    verify(vf.fn)
    return vf


def _run(vf: VectorFunction, lanes: list[int], u: int):
    mem, a, out = _memory()
    args = {"vector": lanes, "lane0": 0, "scalar": u}
    values = [
        args[form] if k < 3 else (a if k == 3 else out) for k, form in enumerate(vf.arg_forms)
    ]
    assert vf.arg_forms[:3] == ["vector", "lane0", "scalar"]
    results = run_vector(vf.fn, values, mem)
    per_lane = [[_lane(r, k) for r in results] for k in range(len(lanes))]
    return per_lane, mem.read_array(out, I32, OUT)


def _inputs(seed: int) -> tuple[list[int], int]:
    r = random.Random(seed)
    width = r.choice([2, 4, 8])
    return [r.randint(-4, 9) for _ in range(width)], r.randint(-2, 6)


@pytest.mark.parametrize("seed", range(60))
def test_the_vector_ir_computes_what_the_lanes_do(seed: int) -> None:
    lanes, u = _inputs(seed)
    vf = _widened(seed, len(lanes))
    assert _run(vf, lanes, u) == _expected(seed, lanes, u), print_function(vf.fn)


def test_the_regions_use_every_kind_of_vector_instruction() -> None:
    kinds = set()
    for seed in range(60):
        vf = _widened(seed, 4)
        kinds |= {type(i).__name__ for i in vf.fn.instructions()}
    assert {"VStore", "Gather", "Scatter", "Splat", "StepVector", "ExtractLane"} <= kinds


CONTIGUOUS = """func @f(i64 %i, ptr<f64> %x, ptr<f64> %y, f64 %t) -> (f64) {
entry:
  %px = gep %x, %i
  %v = load %px
  %big = cmp gt %v, %t
  condbr %big, scale, done
scale:
  %w = mul %v, f64 2.0
  %py = gep %y, %i
  store %w, %py
  br done
done:
  %r = phi f64 [%v, entry], [%w, scale]
  ret %r
}
"""


def test_a_contiguous_load_and_a_masked_store() -> None:
    fn = parse_function(CONTIGUOUS)
    shapes = {
        fn.args[0]: VectorShape.strided(1),
        fn.args[1]: VectorShape.uniform(),
        fn.args[2]: VectorShape.uniform(),
        fn.args[3]: VectorShape.uniform(),
    }
    state = PassState(fn, shapes)
    run_passes(state, PIPELINE)
    vf = widen_to_vector_ir(fn, state.get(DivergenceInfo), 4, state.get(MemoryAccesses))
    verify(vf.fn)
    text = print_function(vf.fn)
    assert "vload <4 x f64>" in text and "vstore" in text and " mask " in text, text

    def memory() -> tuple[Memory, int, int]:
        mem = Memory()
        return mem, mem.alloc_array(F64, [1.0, 5.0, 2.0, 7.0]), mem.alloc_array(F64, [0.0] * 4)

    mem, x, y = memory()
    want = run_lanes(fn, [[k, x, y, 3.0] for k in range(4)], mem)
    want_y = mem.read_array(y, F64, 4)
    mem, x, y = memory()
    got = run_vector(vf.fn, [0, x, y, 3.0], mem)
    assert [[_lane(got[0], k)] for k in range(4)] == want and mem.read_array(y, F64, 4) == want_y
    assert want_y == [0.0, 10.0, 0.0, 14.0]


DOWNWARDS = """func @f(i64 %i, ptr<f64> %x, ptr<f64> %y) -> () {
entry:
  %px = gep %x, %i
  %v = load %px
  %d = mul %v, f64 2.0
  %fi = cast %i to f64
  %w = add %d, %fi
  %py = gep %y, %i
  store %w, %py
  ret
}
"""


@pytest.mark.parametrize("parts", [1, 2])
def test_a_loop_walking_downwards_reads_and_writes_reversed_vectors(parts: int) -> None:
    """Lane k at lane 0's index - k: a vload and a vstore at the last lane's
    address with the lanes reversed (across registers too), reading and
    writing exactly the elements the lanes do."""
    fn = parse_function(DOWNWARDS)
    shapes = {fn.args[0]: VectorShape.strided(-1)}
    shapes |= {a: VectorShape.uniform() for a in fn.args[1:]}
    state = PassState(fn, shapes)
    run_passes(state, PIPELINE)
    vf = widen_to_vector_ir(fn, state.get(DivergenceInfo), 8, state.get(MemoryAccesses))
    if parts > 1:
        vf = split_vectors(vf, parts)
    verify(vf.fn)
    text = print_function(vf.fn)
    assert "reverse" in text and "gather" not in text and "scatter" not in text, text

    def memory() -> tuple[Memory, int, int]:
        mem = Memory()
        x = mem.alloc_array(F64, [float(k * k) for k in range(8)])
        return mem, x, mem.alloc_array(F64, [-1.0] * 8)

    mem, x, y = memory()
    run_lanes(fn, [[7 - k, x, y] for k in range(8)], mem)
    want = mem.read_array(y, F64, 8)
    mem, x, y = memory()
    run_vector(vf.fn, [7, x, y], mem)
    assert mem.read_array(y, F64, 8) == want == [2.0 * k * k + k for k in range(8)]


def _double_stride(original):
    def strided_vector(self, v, lane0):
        shape = self.div.shape_of(v)
        self.div.shapes[v] = VectorShape.strided(2 * shape.stride)
        try:
            return original(self, v, lane0)
        finally:
            self.div.shapes[v] = shape

    return "strided_vector", strided_vector


def _no_masks(original):
    return "vmask", lambda self, inst: None


@pytest.mark.parametrize("mutation", [_double_stride, _no_masks])
def test_a_broken_widening_is_noticed(monkeypatch: pytest.MonkeyPatch, mutation) -> None:
    """Lanes of strided values spread twice too far, or masks dropped from
    memory operations and calls: the property must fail on some seed."""
    name, broken = mutation(to_vector_ir._Widening.strided_vector)
    monkeypatch.setattr(to_vector_ir._Widening, name, broken)
    failures = 0
    for seed in range(60):
        lanes, u = _inputs(seed)
        try:
            failures += _run(_widened(seed, len(lanes)), lanes, u) != _expected(seed, lanes, u)
        except Exception:
            failures += 1
    assert failures > 0


def _widened_loop(text: str, records: bool = False) -> tuple[Function, VectorFunction]:
    """A loop body (its first parameter the loop variable, the others
    uniform) through the pipeline and widened for 4 lanes, verified
    (``records``: moving its record groups as whole records)."""
    fn = parse_function(text)
    shapes = {a: VectorShape.uniform() for a in fn.args[1:]}
    shapes[fn.args[0]] = VectorShape.strided(1)
    state = PassState(fn, shapes)
    run_passes(state, PIPELINE)
    vf = widen_to_vector_ir(
        fn,
        state.get(DivergenceInfo),
        4,
        state.get(MemoryAccesses),
        records=state.get(RecordInfo).groups if records else (),
        rows=state.get(RecordInfo).rows,
    )
    verify(vf.fn)
    return fn, vf


CALL = """
func @calls(i64 %i, ptr<f64> %a, f64 %s) -> () {
entry:
  %pa = gep %a, %i
  %x = load %pa
  %y = call f64 @g(%x, %s, %pa)
  store %y, %pa
  ret
}
"""


def test_a_call_keeps_uniform_operands_and_marks_strided_ones() -> None:
    """What a declare simd variant's uniform and linear parameters need:
    the uniform operand as it is, the address's stride in bytes; the call
    still computes per lane what the scalar call does."""
    fn, vf = _widened_loop(CALL)
    call = next(i for i in vf.fn.instructions() if isinstance(i, Call))
    assert [str(o.type) for o in call.operands] == ["<4 x f64>", "f64", "<4 x ptr<f64>>"]
    assert call.lane_strides == {2: 8}

    def g(x: float, s: float, p: int) -> float:
        return x * s + p % 7

    mem = Memory()
    a = mem.alloc_array(F64, [1.0, 5.0, 2.0, 7.0])
    run_lanes(fn, [[k, a, 3.0] for k in range(4)], mem, externals={"g": g})
    want = mem.read_array(a, F64, 4)
    mem = Memory()
    a = mem.alloc_array(F64, [1.0, 5.0, 2.0, 7.0])
    run_vector(vf.fn, [0, a, 3.0], mem, externals={"g": g})
    assert mem.read_array(a, F64, 4) == want


EFFECT = """
func @effect(i64 %i, ptr<i32> %count) -> () {
entry:
  call void @bump(%count)
  ret
}
"""


def test_a_call_with_effects_runs_once_per_lane() -> None:
    """Every iteration makes the call, also when its operands are uniform
    (an atomic update of a shared counter; found on atomic_shared_scalar)."""
    _, vf = _widened_loop(EFFECT)
    calls: list[int] = []
    run_vector(vf.fn, [0, 64], Memory(), externals={"bump": lambda p: calls.append(p)})
    assert calls == [64] * 4


UNIFORM_CALL = """
func @uniform_call(i64 %i, ptr<f64> %a, f64 %u) -> () {
entry:
  %pa = gep %a, %i
  %x = load %pa
  %c = cmp gt %x, f64 0.0
  condbr %c, then, join
then:
  %s = call f64 @sin(%u) pure
  store %s, %pa
  br join
join:
  ret
}
"""


def test_a_pure_call_of_uniform_operands_is_one_scalar_call() -> None:
    """Under a divergent branch it is still one call for all lanes, with no
    mask: a masked vector call would leave lane 0 (the one a uniform use
    reads) empty when lane 0 is inactive (fuzz seed 57)."""
    _, vf = _widened_loop(UNIFORM_CALL)
    calls = [i for i in vf.fn.instructions() if isinstance(i, Call) and i.callee == "sin"]
    assert calls, print_function(vf.fn)
    for call in calls:
        assert str(call.type) == "f64" and call.mask is None, print_function(vf.fn)


ROWS = """
func @rows(i64 %i, ptr<i64> %idx, ptr<f64> %t, ptr<f64> %out) -> () {
entry:
  %pi = gep %idx, %i
  %lo = load %pi
  %c = cmp ge %lo, i64 0
  condbr %c, then, join
then:
  %row = mul %lo, i64 3
  %p0 = gep %t, %row
  %x0 = load %p0
  %p2 = gep %p0, i64 2
  %x2 = load %p2
  %p1 = gep %p0, i64 1
  %x1 = load %p1
  %d = sub %x2, %x0
  %s = mul %d, %x1
  %po = gep %out, %i
  store %s, %po
  br join
join:
  ret
}
"""


def test_row_loads_read_what_the_gathers_read_and_no_more() -> None:
    """The three loads of a row of 3 become row loads (s2s.analysis.rows);
    lanes whose row is the table's last read up to its very end, and an
    inactive lane's index points far outside it (the interpreter stops at
    any access outside an object): the widened loop gives what the loop
    run once per lane gives."""
    fn, vf = _widened_loop(ROWS)
    loads = [i.opcode for i in vf.fn.instructions() if i.opcode in ("rowload", "gather")]
    assert loads and set(loads) == {"rowload"}, print_function(vf.fn)  # (also an all-true copy)

    def run(vector: bool) -> list[Scalar]:
        mem = Memory()
        idx = mem.alloc_array(I64, [3, -1000000, 0, 3])
        t = mem.alloc_array(F64, [float(k * k % 7) for k in range(12)])
        out = mem.alloc_array(F64, [0.5] * 4)
        if vector:
            run_vector(vf.fn, [0, idx, t, out], mem)
        else:
            run_lanes(fn, [[k, idx, t, out] for k in range(4)], mem)
        return mem.read_array(out, F64, 4)

    assert run(vector=True) == run(vector=False)


LATER_SLOT_FIRST = """
func @later_slot_first(i64 %i, ptr<f32> %x, ptr<f32> %out) -> () {
entry:
  %k = mul i64 2, %i
  %k1 = add %k, i64 1
  %p1 = gep %x, %k1
  %b = load %p1
  %p0 = gep %x, %k
  %a = load %p0
  %t = mul %b, f32 3.0
  %s = add %t, %a
  %po = gep %out, %i
  store %s, %po
  ret
}
"""


def test_records_read_later_slot_first_begin_at_slot_0() -> None:
    """``x[2*i + 1]`` read before ``x[2*i]``: the records are loaded at
    the first read, before slot 0's address is computed, from the first
    read's address one element back (once "internal error: no scalar
    form"); the array holds exactly the 4 lanes' records (the interpreter
    stops at any access outside it), and the widened loop gives what the
    loop run once per lane gives."""
    fn, vf = _widened_loop(LATER_SLOT_FIRST, records=True)
    loads = [i.opcode for i in vf.fn.instructions() if i.opcode in ("recordload", "gather")]
    assert loads == ["recordload", "recordload"], print_function(vf.fn)

    def run(vector: bool) -> list[Scalar]:
        mem = Memory()
        x = mem.alloc_array(F32, [float(k * k % 7) - 2.5 for k in range(8)])
        out = mem.alloc_array(F32, [0.5] * 4)
        if vector:
            run_vector(vf.fn, [0, x, out], mem)
        else:
            run_lanes(fn, [[k, x, out] for k in range(4)], mem)
        return mem.read_array(out, F32, 4)

    assert run(vector=True) == run(vector=False)


def _widened_scalable(seed: int, factor: int) -> VectorFunction:
    fn = build_region(seed)
    state = PassState(fn, arg_shapes(fn))
    run_passes(state, PIPELINE)
    vf = widen_to_vector_ir(
        fn, state.get(DivergenceInfo), factor, state.get(MemoryAccesses), max_vscale=16
    )
    verify(vf.fn)
    return vf


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_scalable_vectors_compute_what_the_lanes_do_at_every_vscale(seed: int) -> None:
    """Widened once for ``vscale x 2`` lanes (SVE), the function gives each
    lane's results whatever vscale it runs at: its lane count (the last
    lane, an address walking downwards, per-lane copies) is read at run
    time, never a constant."""
    vf = _widened_scalable(seed, 2)
    assert all(
        t.scalable
        for inst in vf.fn.instructions()
        for t in [inst.type, *(o.type for o in inst.operands)]
        if isinstance(t, VectorType)
    )
    r = random.Random(seed)
    for vscale in (1, 2, 3):
        lanes = [r.randint(-4, 9) for _ in range(2 * vscale)]
        u = r.randint(-2, 6)
        mem, a, out = _memory()
        args = {"vector": lanes, "lane0": 0, "scalar": u}
        values = [
            args[form] if k < 3 else (a if k == 3 else out) for k, form in enumerate(vf.arg_forms)
        ]
        results = run_vector(vf.fn, values, mem, vscale=vscale)
        per_lane = [[_lane(x, k) for x in results] for k in range(len(lanes))]
        got = per_lane, mem.read_array(out, I32, OUT)
        assert got == _expected(seed, lanes, u), (vscale, print_function(vf.fn))
