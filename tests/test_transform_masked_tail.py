"""The masked last iteration (s2s.transform.masked_tail), on lowered C loops.

The tail region runs the first ``rem`` of W lanes.  After the pipeline it
must, in predicated lock step, hand back the reduction and ``lastprivate``
values the original body gives those lanes, keep the accumulators of the
other lanes, and never let those lanes touch memory: the arrays end where
lane ``rem`` would read.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_codegen_kit import vectorize
from test_lower_support import lower_one

from s2s.ir.interpreter import Memory, run_lanes, run_predicated
from s2s.ir.printer import print_function
from s2s.ir.types import F64
from s2s.pipeline import AnalyzedRegion, analyze_variant
from s2s.transform.masked_tail import guard_tail

LOOP = """
double f(int n, const double *a, const double *b, double t) {
  double s = 0.0, last = -1.0;
  #pragma omp simd reduction(+:s) lastprivate(last)
  for (int i = 0; i < n; ++i) {
    if (a[i] > t)
      s += b[i];
    s += a[i] * b[i];
    last = a[i];
  }
  return s + last;
}
"""
ADDRESSES = """
double f(int n, const double *a, const double *b, double t) {
  double s = 0.0, last = -1.0;
  #pragma omp simd reduction(+:s) lastprivate(last)
  for (int i = 0; i < n; ++i) {
    double *ps = &s, *pl = &last;
    if (a[i] > t)
      *ps += b[i];
    *ps += a[i] * b[i];
    *pl = a[i];
  }
  return s + last;
}
"""
"""LOOP with pointers to its clause variables: they live in stack objects
of the region (s2s.frontend.lower), whose stores do not keep the tail."""
W = 8


def test_the_body_runs_under_lane_less_than_rem(tmp_path: Path) -> None:
    region = guard_tail(lower_one(tmp_path, LOOP))
    assert region is not None
    text = print_function(region.fn)
    entry = text.split("\n\n")[0]
    assert (
        "tail.entry:\n  %active = cmp lt %s2s.lane, %s2s.rem\n  condbr %active, entry, "
        "tail.exit" in entry
    )
    assert [b.role for b in region.args][-2:] == ["lane", "rem"]
    # the reduction keeps its accumulator on the skip edge, lastprivate gets a flag
    assert re.search(r"phi f64 \[%s\.\d+, ret\], \[%s, tail\.entry\]", text)
    assert "phi i1 [i1 1, ret], [i1 0, tail.entry]" in text
    last = next(rb for rb in region.results if rb.role == "lastprivate")
    assert last.assigned_index == len(region.fn.ret_types) - 1


def _lane_args(region, lanes: int, rem: int, a: int, b: int, tail: bool) -> list[list[object]]:
    args = []
    for k in range(lanes):
        values = {"iv": k, "reduction": 0.5 * k, "lane": k, "rem": rem}
        by_name = {"a": a, "b": b, "t": 3.0}
        args.append([values.get(x.role, by_name.get(x.c_expr)) for x in region.args])
    return args if tail else args[:rem]


@pytest.mark.parametrize("loop", [LOOP, ADDRESSES], ids=["values", "addresses"])
@pytest.mark.parametrize("rem", [1, 3, 7])
def test_the_tail_does_what_the_first_rem_lanes_do(tmp_path: Path, rem: int, loop: str) -> None:
    tail = analyze_variant(lower_one(tmp_path, loop), "tail")
    assert isinstance(tail, AnalyzedRegion)
    plain = lower_one(tmp_path, loop)
    data = [float((k * 5) % 7) for k in range(rem)]
    results = []
    for region, predicated in ((tail.region, True), (plain, False)):
        mem = Memory()
        a = mem.alloc_array(F64, data)  # exactly rem elements: lane rem would trap
        b = mem.alloc_array(F64, [1.5 + k for k in range(rem)])
        args = _lane_args(region, W, rem, a, b, predicated)
        results.append((run_predicated if predicated else run_lanes)(region.fn, args, mem))
    tail_out, lane_out = results
    for k in range(W):
        s, last, flag = tail_out[k]
        if k < rem:
            assert (s, last, flag) == (lane_out[k][0], lane_out[k][1], 1)
        else:
            assert (s, flag) == (0.5 * k, 0)  # the accumulator as it was, not assigned


SHORT = """
float dot(int n, const float *a, const float *b) {
  float s = 0.0f;
  #pragma omp simd reduction(+:s)
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}
"""
STORES = """
void scale(int n, const float *a, float *b, float s) {
  #pragma omp simd
  for (int i = 0; i < n; i++)
    b[i] = a[i] * s;
}
"""


def test_avx512_runs_the_remainder_as_a_masked_vector(tmp_path: Path) -> None:
    """AVX-512 (target.toml masked_tail): after the last full vector one
    masked vector iteration, no scalar remainder loop; AVX2 (no cheap
    masked loads) keeps the scalar remainder, and so does a loop that
    stores (store forwarding from masked stores stalls)."""
    avx512, _ = vectorize(SHORT, "avx512", workdir=tmp_path)
    assert "if (s2s_k < s2s_trip) {" in avx512.text
    assert "s2s_e" not in avx512.text
    assert "_mm512_maskz_loadu_ps" in avx512.text
    avx2, _ = vectorize(SHORT, "avx2", workdir=tmp_path)
    assert re.search(r"s2s_e < \(unsigned\)\(s2s_trip % \d+ULL\)", avx2.text)
    assert "if (s2s_k < s2s_trip) {" not in avx2.text
    stores, _ = vectorize(STORES, "avx512", workdir=tmp_path)
    assert "if (s2s_k < s2s_trip) {" not in stores.text
    assert re.search(r"s2s_e < \(unsigned\)\(s2s_trip % \d+ULL\)", stores.text)


def test_stores_to_the_regions_stack_objects_keep_the_tail(tmp_path: Path) -> None:
    """The stores to a clause variable's copies (its address is taken) are
    not stores to memory the next loop reads: the tail is made; a store
    through a pointer the loop reads from outside declines it."""
    region = guard_tail(lower_one(tmp_path, ADDRESSES))
    assert region is not None
    escaped = ADDRESSES.replace(
        "double *ps = &s, *pl = &last;", "double *ps = &s, *pl = (double *)b;"
    )
    assert guard_tail(lower_one(tmp_path, escaped)) is None
