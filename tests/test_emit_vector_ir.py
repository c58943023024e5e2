"""C from vector IR (s2s/codegen/emit_vector_ir.py), compiled and run.

Random structured regions (tests/transform_gen.py) go through the pipeline,
are widened to vector IR (s2s/codegen/to_vector_ir.py) for the target's
lanes of ``int32_t`` and emitted as C functions with the target's
intrinsics; one program per target runs them all on the same inputs as the
region run once per lane by the IR interpreter.  Results and the memory the
regions write must be equal.  NEON runs under qemu-aarch64.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest
from test_codegen_kit import require_target
from transform_gen import OUT, TABLE, arg_shapes, build_region

from s2s.analysis.divergence import DivergenceInfo
from s2s.analysis.memory import MemoryAccesses
from s2s.codegen.emit_vector_ir import VectorIREmitter
from s2s.codegen.generate import prelude
from s2s.codegen.target import load_target
from s2s.codegen.to_vector_ir import widen_to_vector_ir
from s2s.ir.interpreter import Memory, run_lanes
from s2s.ir.types import I32
from s2s.pipeline import PIPELINE, run_passes
from s2s.transform.passes import PassState

SEEDS = range(int(__import__("os").environ.get("S2S_EMIT_SEEDS", "16")))
LANES = {"avx2": 8, "avx512": 8, "neon": 4}
"""Lanes of int32_t (the regions have slots for at most 8 lanes)."""


def _inputs(seed: int, width: int) -> tuple[list[int], int]:
    r = random.Random(seed)
    return [r.randint(-4, 9) for _ in range(width)], r.randint(-2, 6)


def _table() -> list[int]:
    return [(k * 7) % 11 - 3 for k in range(TABLE)]


def _expected(seed: int, width: int) -> str:
    lanes, u = _inputs(seed, width)
    mem = Memory()
    a = mem.alloc_array(I32, _table())
    out = mem.alloc_array(I32, [0] * OUT)
    results = run_lanes(build_region(seed), [[v, k, u, a, out] for k, v in enumerate(lanes)], mem)
    per_result = [[r[j] for r in results] for j in range(3)]
    return _line(seed, per_result, mem.read_array(out, I32, OUT))


def _line(seed: int, results: Sequence[Sequence[object]], out: Sequence[object]) -> str:
    return (
        f"{seed}: "
        + " | ".join(" ".join(map(str, r)) for r in results)
        + " | "
        + " ".join(map(str, out))
    )


def _function(seed: int, target_name: str) -> tuple[str, set]:
    """The C function of one region: region_<seed>(lanes, u, a, out, results)."""
    width = LANES[target_name]
    fn = build_region(seed)
    state = PassState(fn, arg_shapes(fn))
    run_passes(state, PIPELINE)
    vf = widen_to_vector_ir(fn, state.get(DivergenceInfo), width, state.get(MemoryAccesses))
    assert vf.arg_forms == ["vector", "lane0", "scalar", "scalar", "scalar"]
    results = [f"res{k}" for k in range(3)]
    em = VectorIREmitter(
        vf.fn, width, load_target(target_name), ["", "id", "u", "a", "out"], results, "s2s_end"
    )
    em.names[vf.fn.args[0]] = "lane"
    em.decls.append(em.decl_of(vf.fn.args[0].type, "lane"))
    body = em.emit()
    lines = [
        f"static void region_{seed}(const int32_t *lane_in, int32_t u, int32_t *a, "
        f"int32_t *out, int32_t *results)",
        "{",
        "    const int32_t id = 0;",
    ]
    lines += [f"    {d};" for d in body.decls]
    lines.append("    " + em.load_lanes(vf.fn.args[0].type, "lane", "lane_in"))
    lines += ["    " + line for line in body.lines]
    lines.append("s2s_end:;")
    for k, (name, t) in enumerate(zip(results, vf.fn.ret_types)):
        lines.append("    " + em.store_lanes(t, name, f"(results + {k * width})"))
    lines.append("}")
    return "\n".join(lines), body.needs


def _program(target_name: str) -> str:
    width = LANES[target_name]
    functions, needs = [], set()
    for seed in SEEDS:
        text, more = _function(seed, target_name)
        functions.append(text)
        needs |= more
    main = ["int main(void)", "{"]
    for seed in SEEDS:
        lanes, u = _inputs(seed, width)
        main += [
            "    {",
            f"        int32_t lane[{width}] = {{{', '.join(map(str, lanes))}}};",
            f"        int32_t a[{TABLE}] = {{{', '.join(map(str, _table()))}}};",
            f"        int32_t out[{OUT}] = {{0}};",
            f"        int32_t results[{3 * width}];",
            f"        region_{seed}(lane, {u}, a, out, results);",
            f'        printf("{seed}:");',
            "        for (int r = 0; r < 3; r++) {",
            f'            for (int k = 0; k < {width}; k++) printf(" %d", '
            f"results[r * {width} + k]);",
            '            printf(" |");',
            "        }",
            f'        for (int k = 0; k < {OUT}; k++) printf(" %d", out[k]);',
            '        printf("\\n");',
            "    }",
        ]
    main += ["    return 0;", "}"]
    head = prelude(load_target(target_name), needs)
    return "\n".join([head, "#include <stdio.h>", "#include <stdint.h>", *functions, *main]) + "\n"


def _expected_text(width: int) -> list[str]:
    return [_expected(seed, width).replace(" | ", " | ", 1) for seed in SEEDS]


@pytest.mark.parametrize("target_name", ["avx2", "avx512", "neon"])
def test_emitted_c_computes_what_the_lanes_do(tmp_path: Path, target_name: str) -> None:
    require_target(target_name)
    target = load_target(target_name)
    src = tmp_path / "regions.c"
    src.write_text(_program(target_name))
    exe = tmp_path / "regions"
    if target_name == "neon":
        cc, run = ["aarch64-linux-gnu-gcc", "-static"], ["qemu-aarch64", str(exe)]
    else:
        cc, run = ["gcc", *target.cflags], [str(exe)]
    build = subprocess.run(
        [*cc, "-O1", "-std=gnu17", "-o", str(exe), str(src), "-lm"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    got = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    want = [_expected(seed, LANES[target_name]) for seed in SEEDS]
    lines = [line.replace(": ", ": ", 1).rstrip() for line in got.stdout.splitlines()]
    assert [_normal(x) for x in lines] == [_normal(x) for x in want]


def _normal(line: str) -> str:
    return " ".join(line.replace("|", " | ").split())


def test_registers_and_intrinsics_are_used() -> None:
    text, _ = _function(3, "avx512")
    assert "__mmask8" in text and "_mm256_" in text
    assert shutil.which("gcc") is not None


def test_masked_lanes_are_visited_by_their_bits() -> None:
    """A masked operation done lane by lane loops over the set bits of its
    mask (lowest lane first), not over every lane with a test of its bit;
    test_emitted_c_computes_what_the_lanes_do runs these regions."""
    texts = [_function(seed, "avx2")[0] for seed in SEEDS]
    looped = [t for t in texts if "for (unsigned s2s_m = s2s_mk; s2s_m != 0u;" in t]
    assert looped, "no region has a masked per-lane operation"
    assert all("__builtin_ctz(s2s_m); (void)s2s_j;" in t for t in looped)
    assert not any("((s2s_mk >> (s2s_j)) & 1u)" in t for t in texts)


PUSHES = """
void search(int n, const int *next, const float *cost, int *out)
{
#pragma omp simd
    for (int q = 0; q < n; q++) {
        int stack[16];
        float bound[16];
        int sp = 1, seen = 0;
        stack[0] = q % 7;
        bound[0] = 0.0f;
        while (sp > 0 && seen < 12) {
            sp--;
            int node = stack[sp];
            seen++;
            int child = next[node];
            if (child >= 0) {
                stack[sp] = child;
                bound[sp] = BETWEEN cost[child];
                sp++;
            }
        }
        out[q] = seen;
    }
}
"""


def _per_lane_loops(tmp_path: Path, between: str) -> list[str]:
    """The per-lane loops of the AVX2 output of PUSHES (BETWEEN spliced in)."""
    from s2s.driver import Options, run

    src = tmp_path / "pushes.c"
    src.write_text(PUSHES.replace("BETWEEN", between))
    out = run(str(src), Options(targets=[load_target("avx2").name])).output.decode()
    blocks = out.split("{ /* per lane */")[1:]
    return [b[: b.index("\n            }\n")] for b in blocks]


def test_stores_of_one_push_share_a_loop_over_the_lanes(tmp_path: Path) -> None:
    """AVX2 has no scatter: a push that writes a node and its bound into two
    stack objects under one mask is one loop over the active lanes, not two
    (the k-d tree search).  A load of a stack object between the two stores
    keeps them apart (it must read the first store).  Correctness: the
    divergent_tree_stack kernels in the differential suite."""
    loops = _per_lane_loops(tmp_path, "")
    both = [b for b in loops if "stack_soa" in b and "bound_soa" in b]
    assert len(both) == 1, loops
    assert both[0].count("s2s_m &= s2s_m - 1u") == 1
    apart = _per_lane_loops(tmp_path, "(float)stack[sp] +")
    assert not [b for b in apart if "stack_soa" in b and "bound_soa" in b], apart
