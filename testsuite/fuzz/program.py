"""A whole program: its functions (FuncGen), the helpers they share (call
graphs of plain functions, record structs, declare simd functions), its own
header, the testsuite metadata line and main, which runs every function on
the harness sizes and prints every output."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from c_text import indent
from c_types import CType
from call_graph import CallGraph
from declare_simd import LINKAGES, SimdBody, SimdParam, simd_pragma, written_as
from func_gen import FuncGen
from options import Gen, Options
from prelude import PRELUDE
from values import Array


@dataclass
class Program:
    seed: int
    text: str
    features: tuple[str, ...]
    """Constructs the program uses (for statistics and reduction)."""
    headers: dict[str, str] = field(default_factory=dict)
    """The program's own headers by file name (``#include "NAME"``): they go
    next to the program's file (``write``)."""

    def write(self, path: Path) -> None:
        """The program as ``path`` and its headers next to it (a file whose
        text is already that is not rewritten: build caches see no change)."""
        for name, text in [(path.name, self.text), *self.headers.items()]:
            target = path.with_name(name)
            if not target.exists() or target.read_text() != text:
                tmp = target.with_name(target.name + ".tmp")
                tmp.write_text(text)
                tmp.replace(target)


OPENMP_FLAGS = ("", "-fopenmp-simd", "-fopenmp")
"""The candidate builds of a program are made with one of these (metadata
``candidate_cflags``): s2svec's output must build as OpenMP programs are built."""


class ProgramGen:
    """Generates the program of one seed: ``build`` gives it."""

    def __init__(self, seed: int, options: Options) -> None:
        self.seed = seed
        self.g = Gen(seed, options)
        self.math_exact = self.g.chance(options.math_exact)
        self.helpers: dict[str, str] = {}
        self.red_float: set[str] = set()
        self.call_graph = CallGraph(seed)
        # choices made after issue 19 draw from a stream of their own, so the
        # programs of the seeds before it keep their code
        self.forms = random.Random(f"declare-simd-forms:{seed}")
        self.conditional = random.Random(f"lastprivate-conditional:{seed}")
        """lastprivate(conditional:) variables (added later, a stream of their own too)."""
        self.simdlens = random.Random(f"declare-simd-simdlen:{seed}")
        """simdlen clauses of declare simd functions (later still, their own stream)."""
        self.operators = random.Random(f"pragma-operator:{seed}")
        """How loop pragmas are written (``loop_pragma``; its own stream too)."""
        self.macros = random.Random(f"macro-written:{seed}")
        """Which functions a macro writes (``macro_written``; its own stream)."""
        self.header: list[str] = []
        """Declarations and definitions for the program's own header."""
        self.features: set[str] = set()

    def helper(self, t: CType) -> str:
        """The top of a call graph of plain functions of the program
        (call_graph.py: inlined, given vector variants or kept calls)."""
        key = t.tag
        if key not in self.helpers:
            for k, text in enumerate(self.call_graph.texts(t)):
                self.helpers[key if k == 0 else f"{key}:{k}"] = text
        return f"fz_h_{t.tag}"

    def record_type(self, a: Array) -> None:
        """Declare ``a``'s struct (before the functions)."""
        fields = ", ".join(f"f{i}" for i in range(a.fields))
        self.helpers.setdefault(a.struct, f"{a.struct} {{ {a.type.name} {fields}; }};\n")

    def declare_simd(self, t: CType, params: list[SimdParam], branch: str) -> str:
        """A new declare simd function of `params` returning t, written one
        of the ways of LINKAGES (declare_simd.py); its name."""
        name = f"fz_simd{len(self.helpers)}"
        body = SimdBody(self.g, t, params).lines()
        signature = f"{t.name} {name}({', '.join(p.decl() for p in params)})"
        form = self.forms.choice(LINKAGES)
        self.features.add(f"declare-simd-form-{form.replace(' ', '-')}")
        simdlen = self.simdlens.choice((2, 4, 8, 16)) if self.simdlens.random() < 0.25 else 0
        if simdlen:
            self.features.add("declare-simd-simdlen")
        pragma = simd_pragma(params, branch, simdlen)
        text, header = written_as(form, pragma, signature, body)
        self.header += header
        self.helpers[name] = text
        return name

    def loop_pragma(self, directive: str) -> tuple[str, str]:
        """A loop's ``omp`` directive written as ``#pragma omp ...``, or as
        the ``_Pragma`` operator: directly, or through the program's
        stringizing macro; and the feature it adds (or '')."""
        r = self.operators.random()
        if r < 0.08:
            return f'_Pragma("omp {directive}")', "pragma-operator"
        if r < 0.16:
            self.helpers.setdefault("FZ_OMP", "#define FZ_OMP(x) _Pragma(#x)\n")
            return f"FZ_OMP(omp {directive})", "pragma-operator-macro"
        return f"#pragma omp {directive}", ""

    def header_name(self) -> str:
        return f"fz_simd_{self.seed}.h"

    def header_text(self) -> str:
        guard = f"FZ_SIMD_{self.seed}_H"
        return "\n".join(
            [
                f"/* declare simd functions of testsuite/fuzz/generate.py seed {self.seed} */",
                f"#ifndef {guard}",
                f"#define {guard}",
                "",
                *self.header,
                f"#endif /* {guard} */",
                "",
            ]
        )

    def float_reduction(self, t: CType) -> None:
        self.red_float.add(t.tag)

    def build(self) -> Program:
        opts = self.g.options
        nfun = self.g.rng.randint(*opts.functions)
        funcs, mains, features = [], [], set()
        for i in range(nfun):
            fg = FuncGen(self.g, self, i)
            text, main = fg.build()
            if self.macros.random() < 0.1:
                text = macro_written(text, f"f{i}")
                fg.features.add("macro-written")
            funcs.append((fg, text))
            mains.append(main)
            features |= fg.features
            features |= {f"type-{t.tag}" for t in fg.types}
        features |= self.call_graph.features
        if self.math_exact:
            features.add("math-exact")
        tol = "exact"
        if self.red_float:
            tol = f"reduction-fp rel={'2e-3' if 'f32' in self.red_float else '1e-9'}"
        # even seeds: lane refill wherever it can be built, not only where
        # it pays (the cost model lets few generated loops through)
        s2s_args = ["--math exact"] * self.math_exact + ["--refill-ratio 0"] * (self.seed % 2 == 0)
        args = f' args="{" ".join(s2s_args)}"' if s2s_args else ""
        # gcc 12 folds 0.0 - (double)k to -(double)k at any -O (and so gives
        # -0.0 for k == 0; IEEE and clang give +0.0) once an operand folds to
        # zero, e.g. ((double)i - (double)i) - (double)k: seed 20200082.
        # -frounding-math keeps that fold out of the reference and the
        # candidate alike.  gcc only: clang 19 needs none, and its strict-FP
        # path crashes now and then at -O3 (LICM, seeds 137 and 20603878).
        cflags = ' gcc_cflags="-frounding-math"'
        # s2svec's output is built as OpenMP programs are, by part of the seeds
        openmp = self.forms.choice(OPENMP_FLAGS)
        if "for-simd" in features:
            # an orphaned 'omp for simd' may not reduce into a local of its
            # function: OpenMP compilers reject it (gcc: "reduction variable
            # is private in outer context", clang: "... must be shared")
            openmp = ""
        if "lastprivate-conditional" in features:
            # clang 19 builds the original loop (the output's scalar branch
            # where a target keeps it, e.g. for safelen) wrong under
            # -fopenmp-simd: `generate.py 38 --small` built with clang-19
            # --target=aarch64-linux-gnu -march=armv8-a+sve -O2
            # -fopenmp-simd prints f1.lc11 = 4, 9, 12 ... where gcc, and
            # clang without the flag, print 6 (seed 39 the same on RISC-V V)
            openmp = ""
        if openmp:
            cflags += f' candidate_cflags="{openmp}"'
            features.add(f"build{openmp}")
        features |= self.features
        header = (
            f"/* s2s-test: vectorized=? tolerance={tol}{args}{cflags} */\n"
            f"/* Generated by testsuite/fuzz/generate.py, seed {self.seed}: "
            "python testsuite/fuzz/generate.py "
            f"{self.seed}{opts.command}\n * features: {' '.join(sorted(features))} */\n"
        )
        include = f'#include "{self.header_name()}"\n' if self.header else ""
        text = (
            header
            + PRELUDE
            + include
            + "\n"
            + "".join(h + "\n" for h in self.helpers.values() if h)
            + "\n".join(text for _, text in funcs)
            + "\n"
            + self.main(funcs, mains)
        )
        headers = {self.header_name(): self.header_text()} if self.header else {}
        return Program(self.seed, text, tuple(sorted(features)), headers)

    def main(self, funcs, mains: list[list[str]]) -> str:
        """One test_fN(n) per function (a small function each: gcc's SLP
        vectorizer is slow on one huge main), main calls them per size."""
        out = []
        for (fg, _), body in zip(funcs, mains):
            decls = [
                f"static {a.type.name} "
                f"{fg.name}_{a.name}[FZ_N{f' * {a.fields}' if a.fields else ''}];"
                for a in fg.arrays
            ]
            out += [
                f"static void test_{fg.name}(int n)",
                "{",
                *indent(decls),
                *indent(body),
                "}",
                "",
            ]
        out += [
            "int main(int argc, char **argv)",
            "{",
            "    (void)argc;",
            "    (void)argv;",
            "    S2S_FOR_SIZES(n) {",
            *(f"        test_{fg.name}(n);" for fg, _ in funcs),
            "    }",
            "    return 0;",
            "}",
        ]
        return "\n".join(out) + "\n"


def macro_written(text: str, name: str) -> str:
    """The function ``name`` written by a macro as test programs write one
    per type: its pragma lines ``_Pragma`` operators, its name a parameter
    (s2svec writes the use's expansion out and vectorizes its loops)."""
    lines = []
    for line in text.rstrip("\n").split("\n"):
        stripped = line.lstrip()
        if stripped.startswith("#pragma "):
            pragma = stripped[len("#pragma ") :].replace("\\", "\\\\").replace('"', '\\"')
            line = f'{line[: len(line) - len(stripped)]}_Pragma("{pragma}")'
        lines.append(line)
    lines[0] = lines[0].replace(f" {name}(", " NAME(", 1)
    macro = f"FZ_WRITE_{name.upper()}"
    return f"#define {macro}(NAME) \\\n" + " \\\n".join(lines) + f"\n{macro}({name})\n"
