"""Random UB-free C programs with `#pragma omp simd` loops, for differential testing of s2svec.

    python testsuite/fuzz/generate.py SEED [-o FILE] [--weights kind=W,...]

`generate(seed)` is a pure function of the seed (and Options): one
``random.Random(seed)`` drives every choice.  A program is a testsuite kernel
(``/* s2s-test: vectorized=? ... */``, testsuite/harness.h, a ``main`` that
runs every function on the harness sizes 0..65 and 1001 and prints every
output as exact bits), with 2-4 functions of one annotated loop each:

* loop forms: increasing or decreasing, ``< <= > >= !=``, steps 1-3, loop
  variables of every integer width and signedness (bases chosen so that no
  value leaves the type; near the top of the range for narrow and unsigned
  types), declared in the ``for`` or before it; ``collapse(2)`` nests.
* data: element types int8..int64 signed and unsigned, plain ``char``,
  float, double, mixed in one loop; contiguous, strided (2, 3, offsets),
  gathered (index arrays, computed indices), scattered (a permutation) and
  uniform accesses; arrays of structs of 2-8 fields of one type whose
  iteration's record is read and written (``p[k].f3 = p[k].f1 + t``: the
  record groups of s2s/analysis/records.py); inputs end at a ``PROT_NONE`` page (``s2s_tail``) so a
  read past the accessed extent faults, outputs are printed whole.
* control: nested if/else on uniform and varying conditions, ``?:``, ``&&``
  and ``||`` (also under divergent conditions), inner loops with uniform
  bounds, guarded loads (``if (k + 2 < kc) x = a[k + 2]``, ``if (k < lim) x
  = a[k]`` with ``a`` ending at ``lim``, ``if (m[k]) x = t[g[k]]`` with wild
  indices where ``m`` is 0, and the same guards in ``&&``, ``||`` and ``?:``).
* divergent control flow: loops with per-lane trip counts (data masked to
  0..7) as ``for``, ``while``, ``do`` and a search ``while (j < b && c)``,
  whose counters are live after them; early exits at up to three places of
  the body, each leaving its own value; a flag that breaks out of two nested
  loops; ``continue`` of the simd loop and of inner loops at any depth;
  ``switch`` on varying or uniform values with fallthrough, grouped labels
  and ``default`` first, between cases, last or absent; per-lane local
  arrays (histograms and stacks indexed by varying values).  Loops nest at
  most two deep inside the simd loop, so every program runs quickly.
* calls: a plain function (per lane) and ``declare simd`` functions of this
  file (one per call site) with varying, ``uniform`` (values and pointers)
  and ``linear`` (the loop's k with its step, ``&a[k]``) parameters, bodies
  with a divergent if/else, a divergent loop and an early return, called
  unmasked or under a divergent condition; ``inbranch`` ones only under a
  condition, ``notinbranch`` ones only where every lane runs.  Each such
  function is written one of the ways of LINKAGES (the definition with the
  pragma; ``static``; ``static inline``; a C99 ``inline`` definition and an
  ``extern`` declaration; the pragma only on a declaration in the program's
  own header ``fz_simd_<seed>.h``; a ``static inline`` definition there),
  and the candidates of a third of the programs are built with
  ``-fopenmp-simd``, of another third with ``-fopenmp`` (metadata
  ``candidate_cflags``).  These choices come from a random stream of their
  own, so the code of the programs of earlier seeds stays what it was.
* clauses: ``reduction`` (+ - * min max & | ^ && ||), ``lastprivate``,
  ``private``, ``linear``, ``collapse``, ``simdlen``/``safelen``,
  ``if(simd:)``, ``order(concurrent)``, ``nontemporal``; the loop's
  directive is written as ``#pragma omp``, or (a sixth of the loops, from
  a stream of its own) as ``_Pragma("omp ...")`` or through the
  stringizing macro ``FZ_OMP(omp ...)``; a tenth of the functions (a
  stream of its own too) are written by a macro, ``FZ_WRITE_F2(NAME)``,
  with ``_Pragma`` operators for their pragma lines, and used once.

UB-freedom is by construction (see c_types.py for the arithmetic): every
index is inside its array, every loop variable stays in its type, signed
arithmetic wraps through unsigned types, shifts and divisions are guarded,
float-to-integer conversions are range-checked, variables are initialised
before use, every inner loop ends (at most 8 trips; its counter steps before
the body or in the condition, so ``continue`` cannot skip it), local arrays
are indexed ``& 7`` or below a checked stack pointer. It also keeps the
program a valid OpenMP simd loop: an iteration writes only its own elements
(``k``, ``s*k+d`` or a permutation), reads other elements only of arrays the
loop does not write, assigns ``lastprivate``/``private`` variables before
reading them, updates reduction variables only in reduction statements and
``linear`` ones by their step once per iteration. Float reductions print
``R`` lines (compared within a relative tolerance: reassociation); float
min/max results, which may legitimately differ in the sign of zero, are
printed as ``v + 0.0``.
Programs with libm calls are run with ``--math exact``.

The generator's modules, beside this entry point (``generate``, ``main``):

    options.py       Options, statement weights, size limits, random choices (Gen)
    c_types.py       C types and UB-free arithmetic on them
    c_text.py        indentation, parentheses, whether a statement reads a name
    values.py        values, arrays, reductions, parameters and results in scope
    func_state.py    one function's state and parameters (FuncState)
    exprs.py         expressions, loads and conditions (Expressions)
    stmts.py         blocks and statements of a loop body (Statements)
    control.py       divergent control flow (ControlFlow)
    declare_simd.py  declare simd functions and the calls to them
    call_graph.py    call graphs of plain functions
    shapes.py        the loop nest and the iteration index k (LoopShapes)
    func_text.py     a function's text and main's code for it (FunctionText)
    func_gen.py      one function: the classes above combined, its clauses (FuncGen)
    program.py       the program: functions, helpers, header, metadata, main
    prelude.py       the C code every program starts with

To add a construct: a weight in STMT_WEIGHTS (options.py; and NESTING/LOOPS
if it opens a block or a loop) and a method ``stmt_<kind>`` returning C
lines in Statements or a subclass of it among FuncGen's bases (see
ControlFlow.stmt_switch for an example), a feature name for it and that
name in tests/test_fuzz_generator.py; ``--weights kind=0`` switches one off.
``--no-narrow-index`` masks values derived from the loop variable before
converting them to 8/16-bit types, to hunt for other bugs while the
wrap-around of such conversions inside a vector is broken.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from declare_simd import LINKAGES
from options import (
    FZ_N,
    LOOPS,
    MAX_OUTPUTS,
    MAX_TAILS,
    NESTING,
    STMT_WEIGHTS,
    TABLE,
    Options,
    small_options,
)
from program import OPENMP_FLAGS, Program, ProgramGen

__all__ = [
    "FZ_N",
    "LINKAGES",
    "LOOPS",
    "MAX_OUTPUTS",
    "MAX_TAILS",
    "NESTING",
    "OPENMP_FLAGS",
    "STMT_WEIGHTS",
    "TABLE",
    "Options",
    "Program",
    "ProgramGen",
    "generate",
    "main",
    "small_options",
]


def generate(seed: int, options: Options | None = None) -> Program:
    """The program of `seed` (a pure function of seed and options)."""
    return ProgramGen(seed, options or Options()).build()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    ap.add_argument(
        "--small",
        action="store_true",
        help="the CI batch's smaller programs (1-3 loops, 2-6 statements)",
    )
    ap.add_argument(
        "--no-narrow-index",
        action="store_true",
        help="mask the loop variable before converting it to a narrower type",
    )
    ap.add_argument(
        "--weights",
        default="",
        help="statement weights, e.g. switch=0,continue=2 (see STMT_WEIGHTS)",
    )
    ns = ap.parse_args(argv)
    options = small_options() if ns.small else Options()
    for item in filter(None, ns.weights.split(",")):
        key, _, value = item.partition("=")
        if key not in options.weights:
            ap.error(f"unknown statement kind {key!r} (known: {', '.join(options.weights)})")
        options.weights[key] = float(value)
    if ns.weights:
        options.command += f" --weights {ns.weights}"
    if ns.no_narrow_index:
        options.narrow_index = False
        options.command += " --no-narrow-index"
    prog = generate(ns.seed, options)
    if ns.output:
        prog.write(Path(ns.output))
    else:
        sys.stdout.write(prog.text)
        for name in prog.headers:
            print(
                f"generate.py: the program includes its own header {name}: write both with -o FILE",
                file=sys.stderr,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
