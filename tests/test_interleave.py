"""The interleave cost model (s2s/codegen/interleave.py) on textual IR.

Each loop body goes through the pipeline as a region would (the first
parameter the loop variable, the rest uniform); the model reads the result.
"""

from __future__ import annotations

from s2s.analysis.divergence import DivergenceInfo
from s2s.analysis.shapes import VectorShape
from s2s.codegen.interleave import interleave_factor
from s2s.ir.parser import parse_function
from s2s.pipeline import PIPELINE, run_passes
from s2s.transform.passes import PassState


def _factor(text: str) -> int:
    fn = parse_function(text)
    shapes = {a: VectorShape.uniform() for a in fn.args[1:]}
    shapes[fn.args[0]] = VectorShape.strided(1)
    state = PassState(fn, shapes)
    run_passes(state, PIPELINE)
    return interleave_factor(fn, state.get(DivergenceInfo))


STREAM = """
func @stream(i64 %i, ptr<f32> %x, ptr<f32> %y, f32 %a) -> () {
entry:
  %px = gep %x, %i
  %py = gep %y, %i
  %vx = load %px
  %vy = load %py
  %m = mul %a, %vx
  %s = add %m, %vy
  store %s, %py
  ret
}
"""


def test_straight_code_runs_two_vectors_per_trip() -> None:
    assert _factor(STREAM) == 2


# while (lo < hi) { mid = (lo + hi) / 2; if (grid[mid] < e) lo = mid + 1; else hi = mid; }
SEARCH = """
func @search(i64 %i, ptr<f64> %grid, ptr<f64> %e, i64 %n, ptr<i64> %out) -> () {
entry:
  %pe = gep %e, %i
  %key = load %pe
  br head
head:
  %lo = phi i64 [i64 0, entry], [%lo.next, body]
  %hi = phi i64 [%n, entry], [%hi.next, body]
  %more = cmp lt %lo, %hi
  condbr %more, body, done
body:
  %sum = add %lo, %hi
  %mid = shr %sum, i64 1
  %pg = gep %grid, %mid
  %g = load %pg
  %below = cmp lt %g, %key
  %mid1 = add %mid, i64 1
  %lo.next = select %below, %mid1, %lo
  %hi.next = select %below, %hi, %mid
  br head
done:
  %po = gep %out, %i
  store %lo, %po
  ret
}
"""


def test_a_search_whose_next_step_waits_on_a_load_runs_four() -> None:
    """The next probe's address comes from this probe's load: four vectors
    keep four of these chains in flight."""
    assert _factor(SEARCH) == 4


# while (zr * zr + zi * zi < 4.0 && k < 64) { z = z * z + c; k++; }
ESCAPE = """
func @escape(i64 %i, ptr<f64> %cr, ptr<i32> %out) -> () {
entry:
  %pc = gep %cr, %i
  %c = load %pc
  br head
head:
  %zr = phi f64 [f64 0.0, entry], [%zr.next, body]
  %zi = phi f64 [f64 0.0, entry], [%zi.next, body]
  %k = phi i32 [i32 0, entry], [%k.next, body]
  %rr = mul %zr, %zr
  %ii = mul %zi, %zi
  %r2 = add %rr, %ii
  %in = cmp lt %r2, f64 4.0
  %few = cmp lt %k, i32 64
  %go = and %in, %few
  condbr %go, body, done
body:
  %d = sub %rr, %ii
  %zr.next = add %d, %c
  %p = mul %zr, %zi
  %p2 = add %p, %p
  %zi.next = add %p2, %c
  %k.next = add %k, i32 1
  br head
done:
  %po = gep %out, %i
  store %k, %po
  ret
}
"""


def test_a_loop_of_arithmetic_runs_two() -> None:
    """Loads before the loop and masks aside, its chains are additions and
    multiplications: two vectors (four spilled registers on AVX2)."""
    assert _factor(ESCAPE) == 2


# while (v > 1.0) { v = log(v); count++; }
ITERATED_CALL = """
func @iterated(i64 %i, ptr<f64> %x, ptr<i32> %out) -> () {
entry:
  %px = gep %x, %i
  %v0 = load %px
  br head
head:
  %v = phi f64 [%v0, entry], [%v.next, body]
  %k = phi i32 [i32 0, entry], [%k.next, body]
  %big = cmp gt %v, f64 1.0
  condbr %big, body, done
body:
  %v.next = call f64 @log(%v) pure
  %k.next = add %k, i32 1
  br head
done:
  %po = gep %out, %i
  store %k, %po
  ret
}
"""


def test_a_loop_whose_value_waits_on_a_call_runs_four() -> None:
    assert _factor(ITERATED_CALL) == 4


STACK = """
func @stack(i64 %i, i64 %j, i64 %k, ptr<i32> %out) -> () {
entry:
  %st = alloca [64 x i32]
  %p = cast %st to ptr<i32>
  %q = gep %p, %j
  %v = cast %i to i32
  store %v, %q
  %q0 = gep %p, %k
  %w = load %q0
  %po = gep %out, %i
  store %w, %po
  ret
}
"""


def test_per_lane_stack_objects_keep_one_vector() -> None:
    """Every vector would need its own copy of each lane's stack object
    (the tree search with its per-lane stacks ran at 0.70x with two)."""
    assert _factor(STACK) == 1


def _long_sum(terms: int) -> str:
    loads = "".join(
        f"  %p{k} = gep %x, %i{k}\n  %v{k} = load %p{k}\n  %s{k + 1} = add %s{k}, %v{k}\n"
        for k in range(terms)
    )
    offsets = "".join(f"  %i{k} = add %i, i64 {k}\n" for k in range(terms))
    return (
        "func @long(i64 %i, ptr<f64> %x, ptr<f64> %out) -> () {\nentry:\n"
        "  %s0 = add f64 0.0, f64 0.0\n"
        + offsets
        + loads
        + f"  %po = gep %out, %i\n  store %s{terms}, %po\n  ret\n}}\n"
    )


def test_a_long_body_keeps_one_vector() -> None:
    """Independent work enough, and a second vector would double the C
    the compiler reads (deep_expressions' 1,500-term sum)."""
    assert _factor(_long_sum(40)) == 2
    assert _factor(_long_sum(400)) == 1
