"""AVX-512, AVX2, NEON, SVE, RVV templates: every vocabulary macro bit-exact against scalar C.

Two kinds of tests:

* Macro level: for each target one C program renders every macro of
  templates/README.md for every vector type of the target (through the code
  generator's own Target/ops/prelude API), runs it on inputs with negative
  numbers, zeros, NaN, infinities, halfway values, integer limits, and
  compares every lane with the scalar C of the IR semantics (s2s.codegen.cexpr)
  bit for bit.  Masked memory operations run next to a PROT_NONE page so a
  touched inactive lane crashes the program.  One compile and one run per
  target (AVX-512 natively, NEON under qemu-aarch64); SVE is one
  vector-length agnostic build run under qemu-aarch64 at every vector
  length, each type's lane count read at run time (Target.lanes_c), arrays
  sized for the longest vectors (Target.max_lanes); RVV likewise, one
  clang-19 build run under qemu-riscv64 at VLEN 128 to 1024.
* End to end: small kernels vectorized by the driver for the target,
  compiled, run and compared with the original loop (test_codegen_kit's driver).
"""

from __future__ import annotations

import math
import os
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from test_codegen_kit import DRIVER, KARGS, SIZES, kernel_source, vectorize

from s2s.codegen.cexpr import literal, scalar_expr
from s2s.codegen.generate import CodegenOptions, prelude
from s2s.codegen.target import Target, TypeInfo, load_target
from s2s.ir.types import SCALAR_TYPES, FloatType, IntType, Type
from s2s.ir.values import Argument, BinOp, Cast, Cmp, UnOp


def _has_cpu_flags(*names: str) -> bool:
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return all(f" {f}" in flags for f in names)


HAVE_GCC = shutil.which("gcc") is not None
HAVE_AVX512 = _has_cpu_flags("avx512f", "avx512dq", "avx512bw", "avx512vl") and HAVE_GCC
needs_avx2 = pytest.mark.skipif(
    not (_has_cpu_flags("avx2", "fma") and HAVE_GCC),
    reason="needs gcc and an AVX2 CPU",
)
HAVE_NEON = (
    shutil.which("aarch64-linux-gnu-gcc") is not None and shutil.which("qemu-aarch64") is not None
)
needs_avx512 = pytest.mark.skipif(not HAVE_AVX512, reason="needs gcc and an AVX-512 CPU")
needs_neon = pytest.mark.skipif(
    not HAVE_NEON, reason="needs aarch64-linux-gnu-gcc and qemu-aarch64"
)
HAVE_RVV = (
    shutil.which("clang-19") is not None
    and shutil.which("qemu-riscv64") is not None
    and Path("/usr/riscv64-linux-gnu").is_dir()
)
needs_rvv = pytest.mark.skipif(
    not HAVE_RVV,
    reason="needs clang-19 (the RVV 1.0 __riscv_ intrinsics), qemu-riscv64 and the "
    "riscv64-linux-gnu sysroot /usr/riscv64-linux-gnu (Debian: libc6-dev-riscv64-cross)",
)

NP = 1280
REF_FLAGS = [
    "-O1",
    "-fno-tree-vectorize",
    "-ffp-contract=off",
    "-Wall",
    "-Wno-tautological-compare",
]
"""The scalar reference stays scalar (gcc's vectorizer may swap the operands of
a commutative operation, which changes which of two NaNs comes out)."""
"""Lanes per input array (a multiple of every lane count)."""

BINARY = ("add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr", "min", "max")
UNARY = ("neg", "not")
CMPS = ("eq", "ne", "lt", "le", "gt", "ge")
MATH1 = ("sqrt", "fabs", "floor", "ceil", "trunc", "round")
MATH2 = ("fmin", "fmax")
REQUIRED = ("broadcast", "setr", "load", "store", "select")
REQUIRED_MASK = ("mask_and", "mask_or", "mask_xor", "mask_not", "mask_bits")
SCALABLE_VOCABULARY = (
    "stepvector",
    "extract_last",
    "extract_last_active",
    "mask_any",
    "mask_all",
    "mask_count",
    "mask_lanes",
)
"""Macros of scalable targets (templates/README.md), optional elsewhere: a
fixed-width target without them is not counted as falling back."""


# -- input values ------------------------------------------------------------------------
def _f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0] if math.isfinite(x) and abs(x) < 3.4e38 else x


def _f32_below(x: float) -> float:
    """The largest float32 below x (x > 0, x a float32)."""
    bits = struct.unpack("I", struct.pack("f", x))[0]
    return struct.unpack("f", struct.pack("I", bits - 1))[0]


def float_specials(bits: int) -> list[float]:
    inf, nan = math.inf, math.nan
    common = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.5,
        -2.5,
        3.7,
        -3.7,
        1e-3,
        -123456.789,
        1e30,
        -1e30,
        inf,
        -inf,
        nan,
        -nan,
        7.0,
        -8.0,
        0.25,
    ]
    if bits == 64:
        return common + [
            0.49999999999999994,
            -0.49999999999999994,
            4503599627370495.5,
            -4503599627370495.5,
            4503599627370497.0,
            9007199254740993.0,
            1e308,
            -1e308,
            5e-324,
            -2.2250738585072014e-308,
            3e38,
            1e-40,
        ]
    return [_f32(v) for v in common] + [
        _f32(0.49999997),
        _f32(-0.49999997),
        8388607.5,
        -8388607.5,
        8388609.0,
        16777216.0,
        3.4e38,
        -3.4e38,
        1e-45,
        -1.1754944e-38,
    ]


def int_specials(t: IntType) -> list[int]:
    b = t.bits
    lo, hi = (-(1 << (b - 1)), (1 << (b - 1)) - 1) if t.signed else (0, (1 << b) - 1)
    vals = [0, 1, 2, 3, 5, 7, 100, lo, lo + 1, hi, hi - 1, hi // 3, 0x55 & hi, -1, -2, -7, -100]
    if b >= 32:
        vals += [16777217, 16777219, -16777217]
    if b == 64:
        vals += [(1 << 53) + 1, -(1 << 53) - 3, (1 << 62) + 12345, 1 << 63]
    mod = 1 << b
    out = []
    for v in vals:
        v %= mod
        if t.signed and v >= 1 << (b - 1):
            v -= mod
        if v not in out:
            out.append(v)
    return out


def cycle(vals: list[Any], n: int = NP) -> list[Any]:
    return [vals[i % len(vals)] for i in range(n)]


def pairs(
    vals: list[Any], keep: Callable[[Any, Any], bool] = lambda a, b: True
) -> tuple[list[Any], list[Any]]:
    ps = [(a, b) for a in vals for b in vals if keep(a, b)]
    ps = cycle(ps)
    return [a for a, _ in ps], [b for _, b in ps]


def c_value(v: Any, t: Type) -> str:
    if isinstance(t, FloatType) and isinstance(v, float) and math.isnan(v):
        neg = "-" if math.copysign(1.0, v) < 0 else ""
        return f"({neg}({'float' if t.bits == 32 else 'double'})NAN)"
    if isinstance(t, FloatType) and v == 0.0 and math.copysign(1.0, v) < 0:
        return "-0.0f" if t.bits == 32 else "-0.0"
    if isinstance(t, FloatType) and t.bits == 32 and math.isfinite(v):
        return f"{float(v).hex()}f" if v >= 0 else f"(-{(-float(v)).hex()}f)"
    if isinstance(t, FloatType) and math.isfinite(v):
        return float(v).hex() if v >= 0 else f"(-{(-float(v)).hex()})"
    return literal(v, t)


def float_to_int_inputs(f: FloatType, t: IntType) -> list[float]:
    """In-range values only (C leaves the others undefined)."""
    b = t.bits
    top = float(1 << (b - 1)) if t.signed else float(1 << b)
    below = _f32_below(top) if f.bits == 32 else math.nextafter(top, 0.0)
    vals = [
        0.0,
        -0.0,
        0.5,
        0.99,
        1.5,
        2.5,
        100.7,
        1e-30,
        below,
        below - 1.0 if b <= 24 else below / 2,
    ]
    if t.signed:
        vals += [-0.5, -0.99, -1.5, -2.5, -100.7, -top, -top + 0.5 if b <= 16 else -top / 2]
    else:
        vals += [-0.5, -0.99]
    return [_f32(v) for v in vals] if f.bits == 32 else vals


# -- the macro-level program ------------------------------------------------------------------
@dataclass
class MacroProgram:
    """Builds one C program checking every macro of a target."""

    target: Target
    needs: set[str] = field(default_factory=set)
    fallbacks: set[tuple[str, str]] = field(default_factory=set)
    """(macro, type key) pairs that rendered nothing (per-lane fallback)."""
    rendered: set[tuple[str, str]] = field(default_factory=set)
    arrays: dict[str, str] = field(default_factory=dict)
    funcs: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.ops = self.target.ops(self._need)

    def _need(self, name: str) -> str:
        self.needs.add(name)
        return ""

    def m(self, name: str, key: str, **args: Any) -> str:
        """Render macro ``name``; "" (recorded) when the target has none."""
        macro = getattr(self.ops, name, None)
        text = str(macro(**args)).strip() if macro is not None else ""
        if text or self.target.scalable or name not in SCALABLE_VOCABULARY:
            (self.rendered if text else self.fallbacks).add((name, key))
        return text

    def array(self, name: str, t: Type, vals: list[Any]) -> str:
        if name not in self.arrays:
            if str(t) == "f64":
                ct = "double"
            elif str(t) == "f32":
                ct = "float"
            else:
                assert isinstance(t, IntType)
                ct = f"{'u' if not t.signed else ''}int{t.bits}_t"
            body = ", ".join(c_value(v, t) for v in vals)
            self.arrays[name] = f"{ct} {name}[{len(vals)}] = {{{body}}};"
        return name

    # -- per vector type --------------------------------------------------------------------
    def inputs(self, t: TypeInfo) -> dict[str, str]:
        ir = SCALAR_TYPES[t.elem]
        e = t.elem
        if ir.is_float():
            vals = float_specials(t.bits)
            a, b = pairs(vals)
            da, db = a, b
            sa, sb = a, b
        else:
            assert isinstance(ir, IntType)
            vals = int_specials(ir)
            a, b = pairs(vals)
            lo = -(1 << (t.bits - 1))
            # C: no division by zero, no INT_MIN / -1 in int and wider
            da, db = pairs(vals, lambda x, y: y != 0 and not (t.bits >= 32 and x == lo and y == -1))
            # C: per-lane counts below the promoted width (8/16-bit lanes: up to 31)
            cnt = list(range(0, 32 if t.bits < 32 else t.bits))
            sa = cycle(vals)
            sb = cycle(cnt, NP)
        c = b[7:] + b[:7]
        return {
            "A": self.array(f"A_{e}", ir, a),
            "B": self.array(f"B_{e}", ir, b),
            "C": self.array(f"C_{e}", ir, c),
            "DA": self.array(f"DA_{e}", ir, da),
            "DB": self.array(f"DB_{e}", ir, db),
            "SA": self.array(f"SA_{e}", ir, sa),
            "SB": self.array(f"SB_{e}", ir, sb),
        }

    def patterns(self, bits: int) -> tuple[str, str]:
        """Two arrays of i<bits> lane predicates (0 / non-zero), all-off and all-on chunks too."""
        t = IntType(bits)
        seq, x = [], 12345
        for i in range(NP):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            chunk = (i // 32) % 4
            seq.append(0 if chunk == 0 else -1 if chunk == 1 else ((x >> 16) % 3) - 1)
        p = self.array(f"P_i{bits}", t, seq)
        q = self.array(f"Q_i{bits}", t, seq[13:] + seq[:13])
        return p, q

    def mask_of(self, t: TypeInfo, arr: str, idx: str, dst: str) -> list[str]:
        """C lines defining mask ``dst`` of t's lane width from predicates at arr + idx
        (an int<bits>_t array; ``idx`` "" = the array itself)."""
        it = self.target.vtype(f"i{t.bits}", t.lanes)
        mt = self.target.mask_type(t.bits, t.lanes)
        assert it is not None and mt is not None
        ld = self.m("load", it.key, t=it, p=f"({arr} + {idx})" if idx else arr)
        zero = self.m("broadcast", it.key, t=it, x="0")
        return [
            f"{it.ctype} {dst}_p = {ld};",
            f"{it.ctype} {dst}_z = {zero};",
            f"{mt.ctype} {dst} = "
            f"{self.m('cmp_ne', it.key, t=it, a=dst + '_p', b=dst + '_z', mt=mt)};",
        ]

    def lanes(self, t: TypeInfo) -> tuple[str, int]:
        """The C expression of t's lane count (run time on a scalable target)
        and the most lanes it can have (array sizes)."""
        return self.target.lanes_c(t.lanes), self.target.max_lanes(t.lanes)

    def mask_reader(self, mt: TypeInfo, m: str, what: str) -> tuple[list[str], str]:
        """C lines reading mask ``m`` and the C int of lane j's bit.  With
        ``mask_bits``: its bits.  Else (scalable targets) ``mask_lanes`` into
        an array, checking it writes nothing beyond the lanes and that
        ``mask_count``, ``mask_any`` and ``mask_all`` agree with the lanes (so
        no element is set beyond them)."""
        bits = self.m("mask_bits", mt.key, mt=mt, m=m)
        if bits:
            return [f"unsigned {m}_bits = {bits};"], f"(int)(({m}_bits >> j) & 1u)"
        n, cap = self.lanes(mt)
        S, key = mt.scalar, mt.key
        count = self.m("mask_count", key, mt=mt, m=m)
        any_ = self.m("mask_any", key, mt=mt, m=m)
        all_ = self.m("mask_all", key, mt=mt, m=m)
        lines = [
            f"{S} {m}_l[{cap + 1}];",
            f"for (int j = 0; j <= {cap}; j++) {m}_l[j] = ({S})0x55;",
            self.m("mask_lanes", key, mt=mt, p=f"{m}_l", m=m),
            f"{{ int j = {n}, c_ = 0; for (int e = 0; e < j; e++) c_ += {m}_l[e] != 0;",
            f'  CHECKI("{key} {what} mask_lanes end", (int){m}_l[j], 0x55);',
        ]
        if count:
            lines.append(f'  CHECKI("{key} {what} mask_count", {count}, c_);')
        if any_:
            lines.append(f'  CHECKI("{key} {what} mask_any", {any_}, c_ != 0);')
        if all_:
            lines.append(f'  CHECKI("{key} {what} mask_all", {all_}, c_ == j);')
        lines.append("}")
        return lines, f"(int){m}_l[j]"

    def type_func(self, t: TypeInfo) -> None:
        k, T, V = t.key, t.scalar, t.ctype
        L, cap = self.lanes(t)
        ir = SCALAR_TYPES[t.elem]
        mt = self.target.mask_type(t.bits, t.lanes)
        assert mt is not None
        arr = self.inputs(t)
        P, _ = self.patterns(t.bits)
        a_, b_ = Argument(ir, "a", 0), Argument(ir, "b", 1)

        def ld(p):
            return self.m("load", k, t=t, p=p)

        def st(p, v):
            return self.m("store", k, t=t, p=p, v=v)

        body: list[str] = []

        def check(
            name: str,
            expr: str,
            ref: str,
            src: tuple[str, str] = ("A", "B"),
            is_mask: bool = False,
            nans: int = 0,
            alt: str = "",
        ) -> None:
            """One loop over the inputs comparing ``expr`` (lane j) with ``ref``;
            ``nans``: inputs whose double NaN makes any NaN right; ``alt``: C
            condition under which any result is accepted."""
            if not expr:
                return
            sa, sb = src
            lines = [
                f"const {T} *pa = {arr[sa]} + i, *pb = {arr[sb]} + i, *pc = {arr['C']} + i;",
                f"{V} va = {ld('pa')}, vb = {ld('pb')}, vc = {ld('pc')};",
                "(void)va; (void)vb; (void)vc;",
            ]
            if is_mask:
                read, lane = self.mask_reader(mt, "r", name)
                lines += [f"{mt.ctype} r = {expr};", *read]
                lines.append(
                    f'for (int j = 0; j < {L}; j++) CHECKI("{k} {name}", {lane}, (int)({ref}));'
                )
            else:
                # which of two NaN inputs an arithmetic instruction returns depends
                # on the operand order the C compiler picked: any NaN is right then
                cond = " + ".join(f"NANBITS({p}[j])" for p in ("pa", "pb", "pc")[:nans]) or "0"
                lines += [
                    f"{V} r = {expr};",
                    f"{T} o[{cap}];",
                    st("o", "r"),
                    f"for (int j = 0; j < {L}; j++) {{ if (({cond}) >= 2 && NANBITS(o[j])) "
                    "continue;",
                    f"  if ({alt or '0'}) continue;",
                    f'  CHECK("{k} {name}", {T}, o[j], {ref}); }}',
                ]
            body.append(self.loop(L, lines))

        refs = {"a": "pa[j]", "b": "pb[j]"}
        for op in BINARY:
            src = (
                ("DA", "DB")
                if op in ("div", "rem")
                else ("SA", "SB")
                if op in ("shl", "shr")
                else ("A", "B")
            )
            if ir.is_float() and op in ("rem", "and", "or", "xor", "shl", "shr"):
                continue
            ref = scalar_expr(BinOp(op, a_, b_), [refs["a"], refs["b"]])
            check(
                op,
                self.m(op, k, t=t, a="va", b="vb"),
                ref,
                src,
                nans=2 if ir.is_float() and op in ("add", "sub", "mul", "div") else 0,
            )
        for op in ("shl", "shr"):  # by one constant count: the immediate forms
            if ir.is_float() or not self.target.has(f"{op}_imm", t=t):
                continue
            for n in sorted({0, 1, t.bits // 2 + 1, t.bits - 1}):
                ref = scalar_expr(BinOp(op, a_, b_), [refs["a"], str(n)])
                check(f"{op}_imm{n}", self.m(f"{op}_imm", k, t=t, a="va", n=str(n)), ref)
        for op in UNARY:
            if ir.is_float() and op == "not":
                continue
            check(op, self.m(op, k, t=t, a="va"), scalar_expr(UnOp(op, a_), [refs["a"]]))
        # lanes reversed: full registers only (partial ones run lane by lane),
        # scalable targets also partial ones
        if t.fill == t.lanes or self.target.scalable:
            check("reverse", self.m("reverse", k, t=t, a="va"), f"pa[{L} - 1 - j]")
        for pred in CMPS:
            check(
                f"cmp_{pred}",
                self.m(f"cmp_{pred}", k, t=t, a="va", b="vb", mt=mt),
                scalar_expr(Cmp(pred, a_, b_), [refs["a"], refs["b"]]),
                is_mask=True,
            )
        if ir.is_float():
            sfx = "f" if t.bits == 32 else ""
            for fn in MATH1:
                check(fn, self.m(fn, k, t=t, a="va"), f"{fn}{sfx}(pa[j])")
            for fn in MATH2:
                # C leaves fmin(+0, -0) either zero, and gcc treats fmin as commutative
                check(
                    fn,
                    self.m(fn, k, t=t, a="va", b="vb"),
                    f"{fn}{sfx}(pa[j], pb[j])",
                    nans=2,
                    alt="pa[j] == 0 && pb[j] == 0 && o[j] == 0",
                )
            check(
                "fma",
                self.m("fma", k, t=t, a="va", b="vb", c="vc"),
                f"fma{sfx}(pa[j], pb[j], pc[j])",
                nans=3,
            )
        # building values
        check("broadcast", self.m("broadcast", k, t=t, x="pa[0]"), "pa[0]")
        check("setr", self.m("setr", k, t=t, xs=[f"pa[{j}]" for j in range(t.lanes)]), "pa[j]")
        check("load", "va", "pa[j]")
        check("stepvector", self.m("stepvector", k, t=t), f"({T})j")
        # every lane a constant index names (on a scalable target: also at run time)
        ex = [self.m("extract", k, t=t, v="va", j=j) for j in range(t.lanes)]
        if all(ex):
            lines = [f"const {T} *pa = {arr['A']} + i;", f"{V} va = {ld('pa')};"] + [
                f'{{ int j = {j}; {T} x = ({T})({e}); CHECK("{k} extract", {T}, x, pa[j]); }}'
                for j, e in enumerate(ex)
            ]
            if self.target.scalable:
                e = self.m("extract", k, t=t, v="va", j="j")
                lines.append(
                    f"for (int j = 0; j < {L}; j++) {{ {T} x = ({T})({e}); "
                    f'CHECK("{k} extract at run time", {T}, x, pa[j]); }}'
                )
            body.append(self.loop(L, lines))
        self.last_lane_checks(t, arr, P, body)
        self.contiguous_checks(t, arr, body)
        # select with a lane pattern
        sel = self.m("select", k, t=t, m="m", a="va", b="vb", mt=mt)
        body.append(
            self.loop(
                L,
                [
                    f"const {T} *pa = {arr['A']} + i, *pb = {arr['B']} + i;",
                    f"{V} va = {ld('pa')}, vb = {ld('pb')};",
                ]
                + self.mask_of(t, P, "i", "m")
                + [
                    f"{V} r = {sel};",
                    f"{T} o[{cap}];",
                    st("o", "r"),
                    f'for (int j = 0; j < {L}; j++) CHECK("{k} select", {T}, o[j], '
                    f"{P}[i + j] ? pa[j] : pb[j]);",
                ],
            )
        )
        self.memory_checks(t, mt, arr, P, body)
        self.convert_checks(t, body)
        if self.target.scalable:
            self.record_checks(t, arr, body)
        self.funcs.append(f"static void check_{k}(void)\n{{\n" + "\n".join(body) + "\n}\n")

    @staticmethod
    def loop(L: int | str, lines: list[str]) -> str:
        inner = "\n".join("        " + x for x in lines)
        return f"    for (int i = 0; i + {L} <= {NP}; i += {L}) {{\n{inner}\n    }}"

    def last_lane_checks(self, t: TypeInfo, arr: dict[str, str], P: str, body: list[str]) -> None:
        """extract_last (lane n - 1) and extract_last_active (the last lane
        of a mask, when it has one)."""
        k, T, V = t.key, t.scalar, t.ctype
        L, _ = self.lanes(t)
        mt = self.target.mask_type(t.bits, t.lanes)
        assert mt is not None
        last = self.m("extract_last", k, t=t, v="va")
        active = self.m("extract_last_active", k, t=t, v="va", m="m", mt=mt)
        head = [f"const {T} *pa = {arr['A']} + i;", f"{V} va = {self.m('load', k, t=t, p='pa')};"]
        if last:
            body.append(
                self.loop(
                    L,
                    head
                    + [
                        f"{{ int j = {L} - 1; {T} x = {last}; "
                        f'CHECK("{k} extract_last", {T}, x, pa[j]); }}'
                    ],
                )
            )
        if active:
            body.append(
                self.loop(
                    L,
                    head
                    + self.mask_of(t, P, "i", "m")
                    + [
                        "int j = -1;",
                        f"for (int e = 0; e < {L}; e++) if ({P}[i + e]) j = e;",
                        f"if (j >= 0) {{ {T} x = {active}; "
                        f'CHECK("{k} extract_last_active", {T}, x, pa[j]); }}',
                    ],
                )
            )

    def contiguous_checks(self, t: TypeInfo, arr: dict[str, str], body: list[str]) -> None:
        """load and store of the last lanes before a PROT_NONE page: exactly
        the type's lanes move (partial types too)."""
        k, T, V = t.key, t.scalar, t.ctype
        L, _ = self.lanes(t)
        A, B = arr["A"], arr["B"]
        lines = [
            f"{T} *base = ({T} *)s2s_guard - {L};",
            f"for (int j = 0; j < {L}; j++) base[j] = {A}[j];",
            f"{V} r = {self.m('load', k, t=t, p='base')};",
            f"{V} vb = {self.m('load', k, t=t, p=B)};",
            self.m("store", k, t=t, p="base", v="vb"),
            f'for (int j = 0; j < {L}; j++) CHECK("{k} store at a page end", {T}, base[j], '
            f"{B}[j]);",
            f"{self.m('store', k, t=t, p='base', v='r')}",
            f'for (int j = 0; j < {L}; j++) CHECK("{k} load at a page end", {T}, base[j], {A}[j]);',
        ]
        body.append("    {\n" + "\n".join("        " + x for x in lines) + "\n    }")

    def record_checks(self, t: TypeInfo, arr: dict[str, str], body: list[str]) -> None:
        """load_records / store_records of k = 2..4 (and 5..8 where the target
        has them: RVV): field s of lane j is element j * k + s; the store
        writes exactly the k * n elements."""
        key, T, V = t.key, t.scalar, t.ctype
        L, cap = self.lanes(t)
        A, B = arr["A"], arr["B"]
        for k in range(2, 9):
            if k > 4 and not self.target.has("load_records", t=t, k=k):
                continue  # NEON, SVE: 2 to 4 fields
            outs = [f"f{s}" for s in range(k)]
            ld = self.m("load_records", key, t=t, k=k, p="src", outs=outs)
            st = self.m("store_records", key, t=t, k=k, p="dst", vs=outs)
            if not ld or not st:
                continue
            size = k * cap + 8
            lines = [
                f"int n = {L};",
                f"{T} src[{size}], dst[{size}], o[{cap}];",
                f"for (int e = 0; e < {size}; e++) {{ src[e] = {A}[e % {NP}]; "
                f"dst[e] = {B}[e % {NP}]; }}",
                f"{V} {', '.join(outs)};",
                ld,
            ]
            for s in range(k):
                lines += [
                    self.m("store", key, t=t, p="o", v=outs[s]),
                    f'for (int j = 0; j < n; j++) CHECK("{key} load_records {k}.{s}", {T}, '
                    f"o[j], src[j * {k} + {s}]);",
                ]
            lines += [
                st,
                "{ int j = 0;",
                f'  for (int e = 0; e < {size}; e++) CHECK("{key} store_records {k}", {T}, '
                f"dst[e], e < {k} * n ? src[e] : {B}[e % {NP}]); }}",
            ]
            body.append("    {\n" + "\n".join("        " + x for x in lines) + "\n    }")

    # -- masked memory, gathers, scatters ----------------------------------------------------------
    def memory_checks(
        self, t: TypeInfo, mt: TypeInfo, arr: dict[str, str], P: str, body: list[str]
    ) -> None:
        k, T, V = t.key, t.scalar, t.ctype
        L, cap = self.lanes(t)

        def ld(p):
            return self.m("load", k, t=t, p=p)

        def st(p, v):
            return self.m("store", k, t=t, p=p, v=v)

        mload = self.m("masked_load", k, t=t, p="base", m="m", mt=mt)
        mstore = self.m("masked_store", k, t=t, p="base", v="vb", m="m", mt=mt)
        head = [
            f"const {T} *pa = {arr['A']} + i, *pb = {arr['B']} + i;",
            f"{V} vb = {ld('pb')};",
            "(void)vb;",
        ]
        if mload:
            body.append(
                self.loop(
                    L,
                    head
                    + self.mask_of(t, P, "i", "m")
                    + [
                        f"const {T} *base = pa;",
                        f"{V} r = {mload};",
                        f"{T} o[{cap}];",
                        st("o", "r"),
                        f'for (int j = 0; j < {L}; j++) CHECK("{k} masked_load", {T}, o[j], '
                        f"{P}[i + j] ? pa[j] : ({T})0);",
                    ],
                )
            )
        if mstore:
            body.append(
                self.loop(
                    L,
                    head
                    + self.mask_of(t, P, "i", "m")
                    + [
                        f"{T} buf[{cap}];",
                        f"for (int j = 0; j < {L}; j++) buf[j] = pa[j];",
                        f"{T} *base = buf;",
                        mstore,
                        f'for (int j = 0; j < {L}; j++) CHECK("{k} masked_store", {T}, buf[j], '
                        f"{P}[i + j] ? pb[j] : pa[j]);",
                    ],
                )
            )
        # next to a PROT_NONE page: lanes k.. are inaccessible and masked off
        if mload or mstore:
            lines = [
                f"for (int kk = 0; kk <= {L}; kk++) {{",
                f"{T} *base = ({T} *)s2s_guard - kk;",
                f"int{t.bits}_t pat[{cap}];",
                f"for (int j = 0; j < {L}; j++) pat[j] = j < kk ? 1 : 0;",
            ]
            lines += self.mask_of(t, "pat", "", "m")
            if self.target.mask_kind == "bits":
                # templates/README.md: mask bits at or above `lanes` may hold any value
                lines.append(f"m = ({mt.ctype})(m | ~((1ull << {L}) - 1));")
            lines += [f"for (int j = 0; j < kk; j++) base[j] = {arr['A']}[j];"]
            if mload:
                lines += [
                    f"{V} r = {mload};",
                    f"{T} o[{cap}];",
                    st("o", "r"),
                    f'for (int j = 0; j < {L}; j++) CHECK("{k} masked_load guard", {T}, o[j], '
                    f"j < kk ? {arr['A']}[j] : ({T})0);",
                ]
            if mstore:
                lines += [
                    f"{V} vb = {ld(arr['B'])};",
                    mstore,
                    f'for (int j = 0; j < kk; j++) CHECK("{k} masked_store guard", {T}, '
                    f"base[j], {arr['B']}[j]);",
                ]
            lines.append("}")
            body.append("    {\n" + "\n".join("        " + x for x in lines) + "\n    }")
        self.gather_checks(t, mt, arr, P, body)

    def gather_checks(
        self, t: TypeInfo, mt: TypeInfo, arr: dict[str, str], P: str, body: list[str]
    ) -> None:
        self.gather_base_checks(t, arr, body)
        self.masked_base_checks(t, mt, arr, P, body)
        at = self.target.vtype("u64", t.lanes)
        if at is None:
            return
        k, T, V = t.key, t.scalar, t.ctype
        L, cap = self.lanes(t)

        def st(p, v):
            return self.m("store", k, t=t, p=p, v=v)

        ald = self.m("load", at.key, t=at, p="adr")
        g = self.m("gather", k, t=t, a="va", at=at)
        mg = self.m("masked_gather", k, t=t, a="va", at=at, m="m", mt=mt)
        sc = self.m("scatter", k, t=t, a="va", at=at, v="vb")
        msc = self.m("masked_scatter", k, t=t, a="va", at=at, v="vb", m="m", mt=mt)
        A, B = arr["A"], arr["B"]
        pre = [f"uint64_t adr[{cap}];"]
        if g:
            body.append(
                self.loop(
                    L,
                    pre
                    + [
                        f"for (int j = 0; j < {L}; j++) adr[j] = (uint64_t)(uintptr_t)&{A}[(i "
                        f"* 7 + j * 13) % {NP}];",
                        f"{at.ctype} va = {ald};",
                        f"{V} r = {g};",
                        f"{T} o[{cap}];",
                        st("o", "r"),
                        f'for (int j = 0; j < {L}; j++) CHECK("{k} gather", {T}, o[j], '
                        f"{A}[(i * 7 + j * 13) % {NP}]);",
                    ],
                )
            )
        if mg:
            body.append(
                self.loop(
                    L,
                    pre
                    + self.mask_of(t, P, "i", "m")
                    + [
                        f"for (int j = 0; j < {L}; j++) adr[j] = {P}[i + j] ? "
                        f"(uint64_t)(uintptr_t)&{A}[(i + j * 5) % {NP}] : "
                        "(uint64_t)(uintptr_t)s2s_guard;",
                        f"{at.ctype} va = {ald};",
                        f"{V} r = {mg};",
                        f"{T} o[{cap}];",
                        st("o", "r"),
                        f'for (int j = 0; j < {L}; j++) CHECK("{k} masked_gather", {T}, o[j], '
                        f"{P}[i + j] ? {A}[(i + j * 5) % {NP}] : ({T})0);",
                    ],
                )
            )
        if sc or msc:
            # colliding addresses: the last lane wins, like the scalar loop
            common = [
                f"{T} buf[4], ref[4];",
                "for (int j = 0; j < 4; j++) buf[j] = ref[j] = A0[j];",
                f"const {T} *pb = {B} + i;",
                f"{V} vb = {self.m('load', k, t=t, p='pb')};",
            ]
            common = [x.replace("A0", A) for x in common]
            if sc:
                body.append(
                    self.loop(
                        L,
                        pre
                        + common
                        + [
                            f"for (int j = 0; j < {L}; j++) adr[j] = "
                            f"(uint64_t)(uintptr_t)&buf[(j * 3 + i) % 4 % ({L} > 2 ? 3 : 4)];",
                            f"{at.ctype} va = {ald};",
                            sc,
                            f"for (int j = 0; j < {L}; j++) ref[(j * 3 + i) % 4 % ({L} > 2 ? 3 "
                            ": 4)] = pb[j];",
                            f'for (int j = 0; j < 4; j++) CHECK("{k} scatter", {T}, buf[j], '
                            "ref[j]);",
                        ],
                    )
                )
            if msc:
                body.append(
                    self.loop(
                        L,
                        pre
                        + common
                        + self.mask_of(t, P, "i", "m")
                        + [
                            f"for (int j = 0; j < {L}; j++) adr[j] = {P}[i + j] ? "
                            "(uint64_t)(uintptr_t)&buf[(j + i) % 3] : "
                            "(uint64_t)(uintptr_t)s2s_guard;",
                            f"{at.ctype} va = {ald};",
                            msc,
                            f"for (int j = 0; j < {L}; j++) if ({P}[i + j]) ref[(j + i) % 3] = "
                            "pb[j];",
                            f'for (int j = 0; j < 4; j++) CHECK("{k} masked_scatter", {T}, '
                            "buf[j], ref[j]);",
                        ],
                    )
                )

    def gather_base_checks(self, t: TypeInfo, arr: dict[str, str], body: list[str]) -> None:
        """base + idx[j] * scale with signed (also negative) 32/64-bit indices
        (scalable targets: also u64 indices, which wrap to the same
        addresses, and every scale; an element e at e * size / scale)."""
        k, T, V = t.key, t.scalar, t.ctype
        L, cap = self.lanes(t)
        A, size = arr["A"], t.bits // 8
        scalable = self.target.scalable
        for ie in ("i32", "i64", "u64") if scalable else ("i32", "i64"):
            it = self.target.vtype(ie, t.lanes)
            if it is None:
                continue
            for scale in (1, 2, 4, 8) if scalable else sorted({1, size}):
                g = self.m("gather_base", k, t=t, base="base", idx="vi", it=it, scale=str(scale))
                if not g:
                    continue
                step = scale // math.gcd(scale, size)  # elements e with e * size % scale == 0
                body.append(
                    self.loop(
                        L,
                        [
                            f"const {T} *base = {A} + {NP // 2};",
                            f"{it.scalar} ix[{cap}]; int ex[{cap}];",
                            f"for (int j = 0; j < {L}; j++) {{ ex[j] = (((i * 5 + j * 37) % {NP}) "
                            f"- {NP // 2}) / {step} * {step};",
                            f"  ix[j] = ({it.scalar})(ex[j] * {size} / {scale}); }}",
                            f"{it.ctype} vi = {self.m('load', it.key, t=it, p='ix')};",
                            f"{V} r = {g};",
                            f"{T} o[{cap}];",
                            self.m("store", k, t=t, p="o", v="r"),
                            f'for (int j = 0; j < {L}; j++) CHECK("{k} gather_base {ie} '
                            f'x{scale}", {T}, o[j], base[ex[j]]);',
                        ],
                    )
                )

    def masked_base_checks(
        self, t: TypeInfo, mt: TypeInfo, arr: dict[str, str], P: str, body: list[str]
    ) -> None:
        """masked_gather_base, scatter_base, masked_scatter_base: an inactive
        lane's index points 4 GiB away (unmapped: touching it would crash);
        colliding scatter indices: the last lane wins."""
        k, T, V = t.key, t.scalar, t.ctype
        L, cap = self.lanes(t)
        A, B = arr["A"], arr["B"]
        for ie in ("i32", "i64"):
            it = self.target.vtype(ie, t.lanes)
            if it is None:
                continue
            far = "0x3fffffff" if ie == "i32" else "0x100000000LL"
            args = dict(t=t, base="base", it=it, scale=str(t.bits // 8))
            mg = self.m("masked_gather_base", k, idx="vi", m="m", mt=mt, **args)
            sb = self.m("scatter_base", k, idx="vi", v="vb", **args)
            msb = self.m("masked_scatter_base", k, idx="vi", v="vb", m="m", mt=mt, **args)
            load_ix = f"{it.ctype} vi = {self.m('load', it.key, t=it, p='ix')};"
            if mg:
                body.append(
                    self.loop(
                        L,
                        self.mask_of(t, P, "i", "m")
                        + [
                            f"const {T} *base = {A};",
                            f"{it.scalar} ix[{cap}];",
                            f"for (int j = 0; j < {L}; j++) ix[j] = {P}[i + j] ? "
                            f"({it.scalar})((i + j * 5) % {NP}) : ({it.scalar}){far};",
                            load_ix,
                            f"{V} r = {mg};",
                            f"{T} o[{cap}];",
                            self.m("store", k, t=t, p="o", v="r"),
                            f'for (int j = 0; j < {L}; j++) CHECK("{k} masked_gather_base '
                            f'{ie}", {T}, o[j], {P}[i + j] ? {A}[(i + j * 5) % {NP}] : ({T})0);',
                        ],
                    )
                )
            for name, code in (("scatter_base", sb), ("masked_scatter_base", msb)):
                if not code:
                    continue
                masked = name.startswith("masked")
                on = f"{P}[i + j]" if masked else "1"
                body.append(
                    self.loop(
                        L,
                        (self.mask_of(t, P, "i", "m") if masked else [])
                        + [
                            f"{T} buf[4], ref[4];",
                            f"for (int j = 0; j < 4; j++) buf[j] = ref[j] = {A}[j];",
                            f"{T} *base = buf;",
                            f"const {T} *pb = {B} + i;",
                            f"{V} vb = {self.m('load', k, t=t, p='pb')};",
                            f"{it.scalar} ix[{cap}];",
                            f"for (int j = 0; j < {L}; j++) ix[j] = {on} ? ({it.scalar})((j * "
                            f"3 + i) % 4) : ({it.scalar}){far};",
                            load_ix,
                            code,
                            f"for (int j = 0; j < {L}; j++) if ({on}) ref[(j * 3 + i) % 4] = "
                            "pb[j];",
                            f'for (int j = 0; j < 4; j++) CHECK("{k} {name} {ie}", {T}, '
                            "buf[j], ref[j]);",
                        ],
                    )
                )

    # -- conversions -------------------------------------------------------------------------------
    def convert_checks(self, f: TypeInfo, body: list[str]) -> None:
        fir = SCALAR_TYPES[f.elem]
        for t in self.target.types.values():
            if t.lanes != f.lanes or t.key == f.key:
                continue
            tir = SCALAR_TYPES[t.elem]
            expr = self.m("convert", f"{f.key}->{t.key}", f=f, t=t, a="va")
            if not expr:
                continue
            if isinstance(fir, FloatType) and isinstance(tir, IntType):
                vals = cycle(float_to_int_inputs(fir, tir), NP)
                src = self.array(f"CV_{f.elem}_{t.elem}", fir, vals)
            else:
                src = self.inputs(f)["A"]
            ref = scalar_expr(Cast(Argument(fir, "a", 0), tir), ["pa[j]"])
            n, cap = self.lanes(f)
            body.append(
                self.loop(
                    n,
                    [
                        f"const {f.scalar} *pa = {src} + i;",
                        f"{f.ctype} va = {self.m('load', f.key, t=f, p='pa')};",
                        f"{t.ctype} r = {expr};",
                        f"{t.scalar} o[{cap}];",
                        self.m("store", t.key, t=t, p="o", v="r"),
                        f'for (int j = 0; j < {n}; j++) CHECK("{f.key}->{t.key} '
                        f'convert", {t.scalar}, o[j], {ref});',
                    ],
                )
            )

    # -- masks -------------------------------------------------------------------------------------
    def mask_func(self, bits: int, lanes: int) -> None:
        tg = self.target
        mt = tg.mask_type(bits, lanes)
        it = tg.vtype(f"i{bits}", lanes)
        if mt is None or it is None:
            return
        key = mt.key
        n, cap = self.lanes(mt)
        P, Q = self.patterns(bits)
        lines = self.mask_of(it, P, "i", "m1") + self.mask_of(it, Q, "i", "m2")

        def block(name: str, expr: str, ref: str, ctype: str = mt.ctype, m: TypeInfo = mt) -> None:
            """``expr`` (a mask of type ``m``) lane by lane against the C int ``ref``."""
            read, lane = self.mask_reader(m, "r", name)
            lines.extend(
                [f"{{ {ctype} r = {expr};", *read]
                + [f'  for (int j = 0; j < {n}; j++) CHECKI("{key} {name}", {lane}, {ref}); }}']
            )

        for name, op in (("mask_and", "&&"), ("mask_or", "||"), ("mask_xor", "!=")):
            e = self.m(name, key, mt=mt, a="m1", b="m2")
            block(name, e, f"(int)(({P}[i + j] != 0) {op} ({Q}[i + j] != 0))")
        e = self.m("mask_not", key, mt=mt, a="m1")
        block("mask_not", e, f"(int)({P}[i + j] == 0)")
        bits_not = self.m("mask_bits", key, mt=mt, m="r")
        if bits_not:
            lines += [
                f"{{ {mt.ctype} r = {e}; unsigned bits = {bits_not};",
                f'  {{ int j = -1; CHECKI("{key} mask_not high bits", '
                f"(int)((unsigned long long)bits >> {lanes}), 0); }} }}",
            ]
        # a uniform condition made a mask: all lanes or none
        splat = self.m("mask_splat", key, mt=mt, x=f"{P}[i] != 0")
        if splat:
            block("mask_splat", splat, f"(int)({P}[i] != 0)")
        # the mask as a select operand of its own width (all-ones lanes for kind "lanes")
        for b2 in (8, 16, 32, 64):
            mt2, it2 = tg.mask_type(b2, lanes), tg.vtype(f"i{b2}", lanes)
            if mt2 is None or it2 is None:
                continue
            if b2 == bits:
                conv = "m1"
            else:
                conv = self.m("mask_convert", f"{key}->{mt2.key}", f=mt, t=mt2, m="m1")
                if not conv:
                    continue
            X = self.inputs(it2)["A"]
            sel = self.m("select", it2.key, t=it2, m="c", a="x", b="nx", mt=mt2)
            read, lane = self.mask_reader(mt2, "c", f"->{mt2.key} mask_convert")
            lines += [
                f"{{ {mt2.ctype} c = {conv};",
                *read,
                f"  {it2.ctype} x = {self.m('load', it2.key, t=it2, p=f'({X} + i)')};",
                f"  {it2.ctype} nx = {self.m('not', it2.key, t=it2, a='x')};",
                f"  {it2.ctype} r = {sel}; {it2.scalar} o[{cap}];",
                f"  {self.m('store', it2.key, t=it2, p='o', v='r')}",
                f"  for (int j = 0; j < {n}; j++) {{",
                f'    CHECKI("{key}->{mt2.key} mask_convert", {lane}, (int)({P}[i + j] != 0));',
                f'    CHECK("{key}->{mt2.key} select", {it2.scalar}, o[j], '
                f"{P}[i + j] ? {X}[i + j] : ({it2.scalar})~{X}[i + j]); }} }}",
            ]
        self.funcs.append(f"static void check_{key}(void)\n{{\n{self.loop(n, lines)}\n}}\n")

    # -- whole program -----------------------------------------------------------------------------
    def source(self) -> str:
        keys = list(self.target.types)
        for key in keys:
            self.type_func(self.target.types[key])
        masks = sorted({(t.bits, t.lanes) for t in self.target.types.values()})
        for bits, lanes in masks:
            self.mask_func(bits, lanes)
        head = prelude(self.target, {("helper", n) for n in self.needs})
        calls = "\n".join(f"    check_{k}();" for k in keys)
        calls += "\n" + "\n".join(
            f"    check_m{b}x{lanes}();"
            for b, lanes in masks
            if f"check_m{b}x{lanes}(void)" in "".join(self.funcs)
        )
        return PROGRAM % {
            "prelude": head,
            "arrays": "\n".join(self.arrays.values()),
            "funcs": "\n".join(self.funcs),
            "calls": calls,
        }


PROGRAM = r"""%(prelude)s
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static long s2s_checks, s2s_bad;
static char *s2s_guard;   /* first byte of a PROT_NONE page */

static void fail(const char *what, int lane, const void *got, const void *want, int size)
{
    if (s2s_bad++ >= 40)
        return;
    printf("FAIL %%s lane %%d: got 0x", what, lane);
    for (int b = size - 1; b >= 0; b--) printf("%%02x", ((const unsigned char *)got)[b]);
    printf(" want 0x");
    for (int b = size - 1; b >= 0; b--) printf("%%02x", ((const unsigned char *)want)[b]);
    printf("\n");
}
#define CHECK(what, T, got, want) do { T g_ = (got), w_ = (want); s2s_checks++; \
    if (memcmp(&g_, &w_, sizeof(T)) != 0) fail(what, j, &g_, &w_, (int)sizeof(T)); } while (0)
/* NaN test on the bits: immune to the compiler's float reasoning */
static int nanbits_d(double x)
{ uint64_t u; memcpy(&u, &x, 8); return (u << 1) > (0x7ffULL << 53); }
static int nanbits_f(float x)
{ uint32_t u; memcpy(&u, &x, 4); return (u << 1) > (0xffU << 24); }
#define NANBITS(x) (sizeof(x) == 8 ? nanbits_d(x) : nanbits_f(x))
#define CHECKI(what, got, want) do { int g_ = (got), w_ = (want); s2s_checks++; \
    if (g_ != w_) fail(what, j, &g_, &w_, (int)sizeof(int)); } while (0)

%(arrays)s

%(funcs)s

int main(void)
{
    long page = sysconf(_SC_PAGESIZE);
    char *mem = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED || mprotect(mem + page, page, PROT_NONE) != 0)
        { printf("mmap failed\n"); return 2; }
    s2s_guard = mem + page;
%(calls)s
    printf("CHECKS %%ld FAILS %%ld\n", s2s_checks, s2s_bad);
    return s2s_bad != 0;
}
"""


def build_macro_program(target_name: str) -> tuple[MacroProgram, str]:
    prog = MacroProgram(load_target(target_name))
    return prog, prog.source()


def run_program(src: str, cc: list[str], run: list[str], name: str) -> str:
    wd = Path(tempfile.mkdtemp(prefix=f"s2s_tg_{name}_"))
    (wd / "prog.c").write_text(src)
    exe = wd / "prog"
    out = subprocess.run(
        [*cc, str(wd / "prog.c"), "-o", str(exe), "-lm"], capture_output=True, text=True
    )
    assert out.returncode == 0, f"compile failed ({wd}):\n{out.stderr[:6000]}"
    assert "warning" not in out.stderr, out.stderr[:4000]
    res = subprocess.run([*run, str(exe)], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0 and "FAILS 0" in res.stdout, (
        f"{wd}\n{res.stdout[-6000:]}{res.stderr[-2000:]}"
    )
    return res.stdout


# -- tests: templates render -----------------------------------------------------------------------
SCALABLE_NOT_REQUIRED = {"setr", "mask_bits"}
"""Required macros a scalable target cannot have (lanes named at compile
time); it renders them as nothing and has stepvector, mask_lanes ... instead."""


@pytest.mark.parametrize("name", ["avx512", "neon", "sve", "rvv"])
def test_required_macros_render_for_every_type(name):
    tg = load_target(name)
    ops = tg.ops(lambda n: "")
    skip = SCALABLE_NOT_REQUIRED if tg.scalable else set()
    for t in tg.types.values():
        mt = tg.mask_type(t.bits, t.lanes)
        assert mt is not None, t.key
        args = {
            "broadcast": dict(x="x"),
            "setr": dict(xs=["x"] * t.lanes),
            "load": dict(p="p"),
            "store": dict(p="p", v="v"),
            "select": dict(m="m", a="a", b="b", mt=mt),
        }
        for macro in REQUIRED:
            text = str(getattr(ops, macro)(t=t, **args[macro])).strip()
            assert bool(text) != (macro in skip), (macro, t.key)
        for macro in REQUIRED_MASK:
            kw = (
                {"m": "m"}
                if macro == "mask_bits"
                else {"a": "a"}
                if macro == "mask_not"
                else {"a": "a", "b": "b"}
            )
            text = str(getattr(ops, macro)(mt=mt, **kw)).strip()
            assert bool(text) != (macro in skip), (macro, mt.key)


def _vtype(tg: Target, elem: str, lanes: int) -> TypeInfo:
    t = tg.vtype(elem, lanes)
    assert t is not None, (tg.name, elem, lanes)
    return t


def _mask(tg: Target, bits: int, lanes: int) -> TypeInfo:
    t = tg.mask_type(bits, lanes)
    assert t is not None, (tg.name, bits, lanes)
    return t


def test_avx512_target_description():
    tg = load_target("avx512")
    assert tg.guard == "__AVX512F__" and tg.mask_kind == "bits" and tg.register_bits == 512
    assert _mask(tg, 64, 8).ctype == "__mmask8" and _mask(tg, 32, 16).ctype == "__mmask16"
    assert tg.vector_math_name("exp", 1, _vtype(tg, "f64", 8)) == "_ZGVeN8v_exp"
    assert tg.vector_math_name("powf", 2, _vtype(tg, "f32", 16)) == "_ZGVeN16vv_powf"
    assert tg.vector_math_name("sin", 1, _vtype(tg, "f64", 4)) == "_ZGVdN4v_sin"
    assert tg.vector_math_name("logf", 1, _vtype(tg, "f32", 4)) == "_ZGVbN4v_logf"


def test_neon_target_description():
    tg = load_target("neon")
    assert tg.guard == "__ARM_NEON" and tg.mask_kind == "lanes" and tg.register_bits == 128
    assert _mask(tg, 64, 2).ctype == "int64x2_t" and _mask(tg, 32, 2).ctype == "int32x2_t"
    assert tg.vector_math_name("exp", 1, _vtype(tg, "f64", 2)) is None
    ops = tg.ops(lambda n: "")
    f64 = tg.vtype("f64", 2)
    # C round is ties away from zero: frinta, never the ties-to-even frintn
    assert "vrndaq_f64" in str(ops.round(t=f64, a="x"))
    assert not str(ops.masked_load(t=f64, p="p", m="m", mt=tg.mask_type(64, 2))).strip()


def test_sve_target_description():
    tg = load_target("sve")
    assert tg.guard == "__ARM_FEATURE_SVE" and tg.mask_kind == "predicate" and tg.scalable
    assert tg.register_bits == 128 and tg.max_vscale == 16 and not tg.plain_char_signed
    assert _mask(tg, 64, 2).ctype == "svbool_t" and _mask(tg, 8, 16).ctype == "svbool_t"
    i32x2, f64x2 = _vtype(tg, "i32", 2), _vtype(tg, "f64", 2)
    assert i32x2.fill == 4 and i32x2.ctype == "svint32_t" and f64x2.fill == 2
    assert tg.lanes_c(2) == "(((int)svcntd() / 2) * 2)" and tg.max_lanes(4) == 64
    assert tg.vector_math_name("exp", 1, f64x2) is None
    ops = tg.ops(lambda n: "")
    m32x2 = _mask(tg, 32, 2)
    # full types: all elements; partial ones: exactly the vscale * lanes low ones
    assert "svptrue_b64()" in str(ops.load(t=f64x2, p="p"))
    assert "svwhilelt_b32_u64(0, svcntd())" in str(ops.store(t=i32x2, p="p", v="v"))
    assert "svwhilelt_b32_u64(0, svcntd())" in str(ops.cmp_lt(t=i32x2, a="a", b="b", mt=m32x2))
    assert str(ops.mask_not(mt=m32x2, a="a")) == "svnot_b_z(svwhilelt_b32_u64(0, svcntd()), a)"
    assert "svrinta_f64" in str(ops.round(t=f64x2, a="x"))
    assert "svcmplt_f64" in str(ops.min(t=f64x2, a="a", b="b"))  # not fmin on NaN
    assert not str(ops.setr(t=f64x2, xs=["a", "b"])).strip()
    assert not str(ops.mask_bits(mt=m32x2, m="m")).strip()
    assert str(ops.stepvector(t=i32x2)).strip() == "svindex_s32(0, 1)"
    assert tg.has("extract_last_active", t=f64x2, mt=_mask(tg, 64, 2))
    assert tg.has("load_records", t=f64x2, k=4) and not tg.has("load_records", t=f64x2, k=5)
    assert tg.has("gather_base", t=f64x2, it=i32x2)
    assert tg.has("div", t=_vtype(tg, "i8", 16)) and tg.has("convert", f=i32x2, t=f64x2)


def test_rvv_target_description():
    tg = load_target("rvv")
    # gcc 12 and clang 14 define __riscv_vector but have no __riscv_ intrinsics
    assert tg.guards == ["__riscv_vector", "__riscv_v_intrinsic"]
    assert tg.mask_kind == "predicate" and tg.scalable
    assert tg.register_bits == 128 and tg.max_vscale == 16 and not tg.plain_char_signed
    # one mask type per lane count, whatever the element width
    assert _mask(tg, 64, 2).ctype == "vbool64_t" and _mask(tg, 8, 2).ctype == "vbool64_t"
    assert _mask(tg, 32, 4).ctype == "vbool32_t" and _mask(tg, 8, 16).ctype == "vbool8_t"
    i32x2, f64x2, i8x2 = _vtype(tg, "i32", 2), _vtype(tg, "f64", 2), _vtype(tg, "i8", 2)
    assert (i32x2.ctype, f64x2.ctype, i8x2.ctype) == ("vint32mf2_t", "vfloat64m1_t", "vint8mf8_t")
    assert all(t.fill == t.lanes for t in tg.types.values())  # no partial types
    for t in tg.types.values():  # the free-form spellings agree with the type
        lmul = {16: "mf8", 32: "mf4", 64: "mf2", 128: "m1"}[t.reg_bits]
        kind = "f" if t.is_float else "i" if t.signed else "u"
        assert (t["sfx"], t["lmul"], t["sew"]) == (f"{kind}{t.bits}{lmul}", lmul, str(t.bits))
        assert (t["sfx_s"], t["sfx_u"]) == (f"i{t.bits}{lmul}", f"u{t.bits}{lmul}")
        assert (t["ctype_s"], t["ctype_u"]) == (f"vint{t.bits}{lmul}_t", f"vuint{t.bits}{lmul}_t")
        assert t["b"] == str(128 // t.lanes)
    assert tg.lanes_c(2) == f"({tg.vscale} * 2)" and tg.max_lanes(4) == 64
    assert tg.vector_math_name("exp", 1, f64x2) is None
    # every intrinsic takes vl = vscale * lanes (s2s_rvv_vl_<lanes>), never VLMAX
    needs: set[str] = set()
    ops = tg.ops(lambda n: needs.add(n) or "")
    load = str(ops.load(t=i32x2, p="p"))
    assert load == "__riscv_vle32_v_i32mf2((const int32_t *)(const void *)(p), s2s_rvv_vl_2())"
    assert needs == {"vl:2"}
    # the code generator's way: one module of ops.j2, each call's helpers to its caller
    first: list[str] = []
    second: list[str] = []
    assert tg.call("load", first.append, t=i32x2, p="p") == load
    assert tg.call("load", second.append, t=i32x2, p="q") == load.replace("(p)", "(q)")
    assert first == second == ["vl:2"]
    helpers = tg.env.get_template("helpers.j2").module
    vl_helper = str(helpers.helper_vl("2"))  # pyright: ignore[reportAttributeAccessIssue]
    assert f"({tg.vscale} * 2)" in vl_helper and "s2s_rvv_vl_2(void)" in vl_helper
    m64x2, m8x2 = _mask(tg, 64, 2), _mask(tg, 8, 2)
    assert str(ops.mask_convert(f=m64x2, t=m8x2, m="m")) == "m"
    assert "_mu(m, " in str(ops.masked_load(t=f64x2, p="p", m="m", mt=m64x2))  # inactive: 0
    u64x2 = _vtype(tg, "u64", 2)
    scatter = str(ops.scatter(t=f64x2, a="a", at=u64x2, v="v"))
    assert "__riscv_vsoxei64_v_f64m1(" in scatter  # ordered: the last lane wins
    assert "vcpop_m_b64(m, s2s_rvv_vl_2())" in str(ops.mask_count(mt=m64x2, m="m"))
    assert "vmflt_vv_f64m1_b64" in str(ops.min(t=f64x2, a="a", b="b"))  # not vfmin on NaN
    assert str(ops.select(t=f64x2, m="m", a="a", b="b", mt=m64x2)).startswith(
        "__riscv_vmerge_vvm_f64m1(b, a, m, "
    )
    assert not str(ops.setr(t=f64x2, xs=["a", "b"])).strip()
    assert not str(ops.mask_bits(mt=m64x2, m="m")).strip()
    assert str(ops.stepvector(t=i32x2)) == (
        "__riscv_vreinterpret_v_u32mf2_i32mf2(__riscv_vid_v_u32mf2(s2s_rvv_vl_2()))"
    )
    # qemu 7.2 aborts on the vector rtz conversions: float -> int rounds down / up
    for f in tg.types.values():
        for t in tg.types.values():
            if f.lanes == t.lanes and f.is_float:
                assert "rtz" not in str(ops.convert(f=f, t=t, a="a")), (f.key, t.key)
    assert "rtz" not in str(helpers.helper_trunc(f64x2))  # pyright: ignore[reportAttributeAccessIssue]
    assert "__RISCV_FRM_RMM" in str(helpers.helper_round(f64x2))  # pyright: ignore[reportAttributeAccessIssue]
    assert tg.has("extract_last_active", t=f64x2, mt=m64x2)
    assert tg.has("load_records", t=i8x2, k=8) and tg.has("store_records", t=f64x2, k=5)
    assert tg.has("gather_base", t=f64x2, it=i32x2) and tg.has(
        "gather_base", t=i8x2, it=_vtype(tg, "i64", 2)
    )
    assert not tg.has("gather_base", t=f64x2, it=_vtype(tg, "u32", 2))  # zero-extended
    f32x2, m32x2 = _vtype(tg, "f32", 2), _mask(tg, 32, 2)
    assert tg.has("gather", t=i8x2, at=u64x2)
    assert tg.has("masked_scatter", t=f32x2, at=u64x2, mt=m32x2)
    assert tg.has("div", t=_vtype(tg, "i8", 16)) and tg.has("convert", f=i32x2, t=f64x2)


# -- tests: every macro bit-exact ------------------------------------------------------------------
GATHERS_AND_SCATTERS = {
    f"{masked}{op}{base}"
    for masked in ("", "masked_")
    for op in ("gather", "scatter")
    for base in ("", "_base")
}


def check_macros_bit_exact(name: str, fallback_ops: set[str]) -> None:
    """Every macro of target ``name`` against the scalar C of each lane, and
    what it leaves to the per-lane fallback no more than ``fallback_ops``
    (kept small on purpose)."""
    prog, src = build_macro_program(name)
    flags = [*REF_FLAGS, *load_target(name).cflags]
    out = run_program(src, ["gcc", *flags], [], name)
    assert "FAILS 0" in out
    fb = {(m, k) for m, k in prog.fallbacks if "->" not in k}
    assert {m for m, _ in fb} <= fallback_ops, sorted(fb)


@needs_avx512
def test_avx512_macros_bit_exact():
    check_macros_bit_exact("avx512", {"div", "rem", *GATHERS_AND_SCATTERS})


@needs_avx2
def test_avx2_macros_bit_exact():
    """Also: a mask that fills part of its register (m8x4 in an __m128i)
    must not show its unused lanes in mask_bits: mask_not sets them, and
    the last set bit picks a lane (lastprivate, conditional assignments).
    AVX2 has no multiply of 8-bit lanes, no per-lane shift counts of 8- and
    16-bit lanes and no masked loads and stores of 8-, 16-bit and 2 x 32-bit
    lanes."""
    fallback = {"div", "rem", "mul", "shl", "shr", "masked_load", "masked_store"}
    check_macros_bit_exact("avx2", fallback | GATHERS_AND_SCATTERS)


CLANG_TARGET_FLAGS = {
    "avx512": load_target("avx512").cflags,
    "neon": ["--target=aarch64-linux-gnu"],
    "sve": ["--target=aarch64-linux-gnu", *load_target("sve").cflags],
    "rvv": ["--target=riscv64-linux-gnu", *load_target("rvv").cflags],
}


@pytest.mark.parametrize("cc", ["clang", "clang-19"])
@pytest.mark.parametrize("name", ["avx512", "neon", "sve", "rvv"])
def test_macros_compile_with_clang(name, cc):
    """clang accepts every rendered macro (its arm_neon.h intrinsics are macros)."""
    if name == "rvv" and cc != "clang-19":
        pytest.skip("the RVV 1.0 __riscv_ intrinsics need clang 19 (Debian's clang 14 lacks them)")
    if shutil.which(cc) is None:
        pytest.skip(f"needs {cc}")
    if name == "rvv" and not Path("/usr/riscv64-linux-gnu").is_dir():
        pytest.skip("needs the riscv64-linux-gnu sysroot /usr/riscv64-linux-gnu")
    _, src = build_macro_program(name)
    wd = Path(tempfile.mkdtemp(prefix="s2s_tg_clang_"))
    (wd / "prog.c").write_text(src)
    out = subprocess.run(
        [
            cc,
            "-fsyntax-only",
            "-Wall",
            "-Wno-tautological-compare",
            *CLANG_TARGET_FLAGS[name],
            str(wd / "prog.c"),
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0 and "warning" not in out.stderr, out.stderr[:6000]


@needs_neon
def test_neon_macros_bit_exact():
    prog, src = build_macro_program("neon")
    flags = [*REF_FLAGS, "-static", *load_target("neon").cflags]
    out = run_program(src, ["aarch64-linux-gnu-gcc", *flags], ["qemu-aarch64"], "neon")
    assert "FAILS 0" in out
    fb = {m for m, k in prog.fallbacks if "->" not in k}
    assert "masked_load" in fb and "masked_scatter" in fb  # documented per-lane fallbacks
    assert "round" not in fb and "fmin" not in fb and "shr" not in fb


SVE_VECTOR_BYTES = (16, 32, 64, 128, 256)
"""Every SVE vector length qemu runs the one build at (128 to 2048 bits)."""


def check_scalable_coverage(prog: Any) -> set[str]:
    """What a scalable target's macro program rendered: only setr and
    mask_bits fall back, the new macros and the masked memory ones are there."""
    fb = {m for m, k in prog.fallbacks if "->" not in k}
    assert fb == SCALABLE_NOT_REQUIRED, sorted(fb)
    done = {m for m, _ in prog.rendered}
    new = {"stepvector", "extract_last", "extract_last_active", "mask_lanes", "mask_count"}
    assert new | {"mask_any", "mask_all", "mask_splat", "load_records", "store_records"} <= done
    assert {"reverse", "masked_gather_base", "masked_scatter", "div", "rem", "fma"} <= done
    return done


def compile_quietly(src: str, cc: list[str]) -> Path:
    """The macro program built by ``cc`` (no warning allowed) in a fresh folder."""
    wd = Path(tempfile.mkdtemp(prefix="s2s_tg_"))
    (wd / "prog.c").write_text(src)
    exe = wd / "prog"
    out = subprocess.run(
        [*cc, str(wd / "prog.c"), "-o", str(exe), "-lm"], capture_output=True, text=True
    )
    assert out.returncode == 0, f"compile failed ({wd}):\n{out.stderr[:6000]}"
    assert "warning" not in out.stderr, out.stderr[:4000]
    return exe


@needs_neon
def test_sve_macros_bit_exact():
    """One vector-length agnostic build, run at every vector length: each
    type's lane count is read at run time, arrays are sized for 2048 bits,
    lanes beyond the count are never compared; masks are read with
    mask_lanes (which must write nothing beyond the lanes) and must agree
    with mask_count/any/all (no element set beyond the lanes)."""
    tg = load_target("sve")
    prog, src = build_macro_program("sve")
    exe = compile_quietly(src, ["aarch64-linux-gnu-gcc", *REF_FLAGS, "-static", *tg.cflags])
    wd = exe.parent
    for vl in SVE_VECTOR_BYTES:
        cpu = f"max,sve-default-vector-length={vl}"
        res = subprocess.run(
            ["qemu-aarch64", "-cpu", cpu, str(exe)], capture_output=True, text=True, timeout=600
        )
        assert res.returncode == 0 and "FAILS 0" in res.stdout, (
            f"{wd} VL {vl * 8} bits\n{res.stdout[-6000:]}{res.stderr[-2000:]}"
        )
    check_scalable_coverage(prog)


RVV_RUNS = ((128, 0), (256, 0), (512, 0), (1024, 0), (512, 1), (1024, 2), (1024, 1))
"""(VLEN, vscale cap) of each run of the one RVV build: qemu 7.2 allows VLEN
128 to 1024, so the target's cap of 16 (VLEN 2048 and above: vl below
VLMAX) is never reached; a cap set at run time (0: the target's) puts vl
below VLMAX there too."""
RVV_VSCALE_CAP = r"""#include <stdlib.h>
/* the test's vscale cap (S2S_RVV_VSCALE_CAP, default 16: the target's) */
static int s2s_vscale_cap(void)
{
    static int cap;
    if (!cap) { const char *s = getenv("S2S_RVV_VSCALE_CAP"); cap = s ? atoi(s) : 16; }
    return cap;
}
"""


@needs_rvv
def test_rvv_macros_bit_exact():
    """One vector-length agnostic clang-19 build, run under qemu-riscv64 at
    every VLEN: each type's vl read at run time, arrays sized for vscale 16,
    lanes at or beyond vl never compared; masked memory next to a PROT_NONE
    page.  The target's vscale (its cap of 16 out of qemu's reach) is
    replaced by one capped at run time, so some runs have vl below VLMAX:
    with qemu filling tail and masked-off elements with ones
    (rvv_ta_all_1s, rvv_ma_all_1s), a macro relying on what the agnostic
    policies leave there, or reading a mask at or beyond vl, fails.  Only
    setr and mask_bits fall back (nothing names lane j of a scalable
    vector)."""
    tg = load_target("rvv")
    prog, src = build_macro_program("rvv")
    vs = "__riscv_vsetvlmax_e64m1() / 2"
    capped = f"((int)({vs} < s2s_vscale_cap() ? {vs} : s2s_vscale_cap()))"
    # the lanes of the test (Target.lanes_c) and the vl of the intrinsics
    # (helpers.j2, vl) are both the target's vscale
    assert src.count(tg.vscale) > 100 and "s2s_rvv_vl_2(void)" in src
    src = RVV_VSCALE_CAP + src.replace(tg.vscale, capped)
    # -O0: clang-19 spends about 100 s CPU on this program at -O1 for RISC-V
    # V (its vector back end), 9 s at -O0; the runs take 1.5x as long
    flags = ["-O0" if f == "-O1" else f for f in REF_FLAGS]
    exe = compile_quietly(
        src, ["clang-19", *flags, "-static", "--target=riscv64-linux-gnu", *tg.cflags]
    )
    wd = exe.parent
    for vlen, cap in RVV_RUNS:
        cpu = f"rv64,v=true,vlen={vlen},vext_spec=v1.0,rvv_ta_all_1s=true,rvv_ma_all_1s=true"
        env = {**os.environ, "S2S_RVV_VSCALE_CAP": str(cap or tg.max_vscale)}
        res = subprocess.run(
            ["qemu-riscv64", "-cpu", cpu, str(exe)],
            capture_output=True,
            text=True,
            timeout=600,
            env=env,
        )
        assert res.returncode == 0 and "FAILS 0" in res.stdout, (
            f"{wd} VLEN {vlen} vscale cap {cap}\n{res.stdout[-6000:]}{res.stderr[-2000:]}"
        )
    done = check_scalable_coverage(prog)
    assert {"gather", "masked_gather", "scatter_base", "masked_scatter_base"} <= done
    assert {"round", "floor", "ceil", "trunc", "fmin", "shl", "shr", "convert"} <= done
    # every vector type, its conversions to every other type of its lanes
    types = tg.types.values()
    converts = {k for m, k in prog.rendered if m == "convert"}
    assert converts == {
        f"{f.key}->{t.key}" for f in types for t in types if f.lanes == t.lanes and f != t
    }
    records = {k for m, k in prog.rendered if m == "load_records"}
    assert records == {t.key for t in types}


# -- tests: libmvec names --------------------------------------------------------------------------
@needs_avx512
def test_avx512_libmvec_names_link_and_agree():
    tg = load_target("avx512")
    ops = tg.ops(lambda n: "")
    lines, protos = [], set()
    for key in ("f64x8", "f64x4", "f64x2", "f32x16", "f32x8", "f32x4"):
        t = tg.types[key]
        for fn in sorted(tg.math_functions):
            nargs = 2 if fn in ("pow", "atan2", "hypot") else 1
            name = fn + ("f" if t.bits == 32 else "")
            vname = tg.vector_math_name(name, nargs, t)
            assert vname is not None
            protos.add(f"{t.ctype} {vname}({', '.join([t.ctype] * nargs)});")
            args = ", ".join(["v"] * nargs)
            sargs = ", ".join(["x[j]"] * nargs)
            lines.append(f"""    {{ {t.scalar} x[{t.lanes}], o[{t.lanes}];
      for (int j = 0; j < {t.lanes}; j++)
        x[j] = ({t.scalar})({"1.0 + " if fn == "acosh" else ""}0.05 + 0.055 * j);
      {t.ctype} v = {ops.load(t=t, p="x")};
      {t.ctype} r = {vname}({args});
      {ops.store(t=t, p="o", v="r")}
      for (int j = 0; j < {t.lanes}; j++) {{ double w = {name}({sargs});
        if (!(fabs(o[j] - w) <= 1e-5 * fabs(w) + 1e-30))
          {{ printf("FAIL {vname} %d\\n", j); bad++; }} }} }}""")
    src = (
        prelude(tg, set())
        + "#include <stdio.h>\n"
        + "\n".join(f"extern {p}" for p in sorted(protos))
        + "\nint main(void)\n{\n    int bad = 0;\n"
        + "\n".join(lines)
        + '\n    printf("CHECKS 1 FAILS %d\\n", bad);\n    return bad != 0;\n}\n'
    )
    flags = ["-O2", "-ffp-contract=off", *tg.cflags]
    wd = Path(tempfile.mkdtemp(prefix="s2s_tg_mvec_"))
    (wd / "m.c").write_text(src)
    out = subprocess.run(
        ["gcc", *flags, str(wd / "m.c"), "-o", str(wd / "m"), "-lmvec", "-lm"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr[:4000]
    res = subprocess.run([str(wd / "m")], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stdout


# -- tests: end to end through the code generator --------------------------------------------------
E2E_KERNELS = """
    void F(saxpy)(int n, KARGS) {
        double s = 2.5;
        #pragma omp simd
        for (int i = 0; i < n; i++) x[i] = s * y[i] + x[i];
    }
    void F(dot)(int n, KARGS) {
        double sum = 0.0;
        #pragma omp simd reduction(+:sum)
        for (int i = 0; i < n; i++) sum += x[i] * y[i];
        d[0] = sum;
    }
    void F(mixed)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            int k = p[i] + q[i] * 3;
            x[i] = y[i] * k + (double)q[i];
            q[i] = (int)(y[i] * 2.0) - k;
        }
    }
    void F(floats)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) f[i] = f[i] * g[i] - (float)y[i];
    }
    void F(gather_scatter)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) { x[i] = y[p[i]] + z[i]; d[p[i]] = y[i] * 2.0; }
    }
    void F(exact_math)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            x[i] = round(y[i] * 0.5) + fmin(y[i], z[i]) - floor(d[i]) + sqrt(z[i]) + fabs(y[i]);
            f[i] = roundf(f[i]) + fmaxf(f[i], g[i]) + truncf(g[i] * 0.3f) + ceilf(f[i]);
        }
    }
    void F(ints)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            q[i] = ((q[i] << (i & 7)) ^ (p[i] >> 1)) | (q[i] & 5);
            p[i] = q[i] / (i % 5 + 1) + q[i] % 3 + (p[i] & q[i]);
        }
    }
    void F(i64_mix)(int n, KARGS) {
        long long acc = 0;
        #pragma omp simd reduction(+:acc)
        for (int i = 0; i < n; i++) { acc += (long long)q[i] * 3 - (long long)(y[i] * 4.0); }
        r[1] = acc;
    }
    void F(minmax_red)(int n, KARGS) {
        double lo = 1e9;
        #pragma omp simd reduction(min:lo)
        for (int i = 0; i < n; i++) lo = fmin(y[i] * 2.0, lo);
        d[1] = lo;
    }
    void F(narrow)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            short s = (short)(q[i] * 1000 + p[i]);
            signed char c = (signed char)(p[i] * 7 + q[i]);
            unsigned char u = (unsigned char)(q[i] * 5);
            q[i] = s / 7 + c * 3 - (u >> 2) + (s << (i & 3)) + (short)(s * c) % 5;
        }
    }
    void F(unsigned_ops)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            unsigned a = (unsigned)q[i] * 2654435761u, b = (unsigned)p[i] + 1u;
            p[i] = (int)((a / b) + (a % b) + (a > b) + (a >> (i & 31)) + (b < 3u));
        }
    }
    void F(i64_ops)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) {
            long long v = (long long)q[i] * 1000003LL * (long long)(p[i] - 7);
            x[i] = (double)(v >> 3) + (double)(v / 7) + (double)(unsigned long long)v;
            r[i % 8] = 0;
        }
    }
    void F(floats16)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++)
            g[i] = fmaf(f[i], g[i], 1.0f) + (float)(int)f[i] + sqrtf(g[i]) - fminf(f[i], -g[i]);
    }
    void F(vmath)(int n, KARGS) {
        #pragma omp simd
        for (int i = 0; i < n; i++) { x[i] = exp(y[i] * 0.1); f[i] = sinf(g[i]); }
    }
    void F(gather_w4)(int n, KARGS) {
        #pragma omp simd safelen(4)
        for (int i = 0; i < n; i++) {
            f[i] = g[p[i]] * 2.0f + (float)(short)q[i];
            x[i] = y[i] - (double)f[i] + (double)(signed char)(p[i] * 9);
        }
    }
"""
E2E_NAMES = [
    "gather_w4",
    "saxpy",
    "dot",
    "mixed",
    "floats",
    "gather_scatter",
    "exact_math",
    "ints",
    "i64_mix",
    "minmax_red",
    "narrow",
    "unsigned_ops",
    "i64_ops",
    "floats16",
    "vmath",
]


def build_e2e(
    target: str,
    cc: list[str],
    run: list[str],
    libs: list[str],
    options: CodegenOptions | None = None,
) -> str:
    src = kernel_source(E2E_KERNELS)
    res, wd = vectorize(src, target, options)
    assert not res.unsupported, res.unsupported
    assert len(res.loops) == len(E2E_NAMES)
    protos = "\n".join(f"kern_t ref_{k}, vec_{k};" for k in E2E_NAMES)
    # reductions may reassociate (rtol); libmvec is within 4 ulp
    tol = {"vmath": "4, 0.0"}
    calls = "\n".join(
        f'    bad |= run("{k}", ref_{k}, vec_{k}, {tol.get(k, "0, 1e-12")});' for k in E2E_NAMES
    )
    driver = DRIVER.replace("KARGS", KARGS) % {
        "protos": protos,
        "calls": calls,
        "sizes": ", ".join(map(str, SIZES)),
    }
    (wd / "main.c").write_text(driver)
    objs = []
    for name, prefix in (("kern.c", "ref_"), ("kern_vec.c", "vec_")):
        obj = wd / f"{name}.o"
        out = subprocess.run(
            [*cc, f"-DF(n)={prefix}##n", "-c", str(wd / name), "-o", str(obj)],
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0, f"{wd}\n{out.stderr[:4000]}"
        assert name == "kern.c" or "warning" not in out.stderr, out.stderr[:4000]
        objs.append(str(obj))
    out = subprocess.run(
        [*cc, str(wd / "main.c"), *objs, "-o", str(wd / "t"), *libs], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[:4000]
    res2 = subprocess.run([*run, str(wd / "t")], capture_output=True, text=True, timeout=300)
    assert res2.returncode == 0 and "ALL OK" in res2.stdout, f"{wd}\n{res2.stdout}{res2.stderr}"
    return (wd / "kern_vec.c").read_text()


@needs_avx512
@pytest.mark.parametrize("cc", ["gcc", "clang"])
def test_avx512_end_to_end(cc):
    if shutil.which(cc) is None:
        pytest.skip(f"needs {cc}")
    flags = ["-O2", "-ffp-contract=off", "-Wall", *load_target("avx512").cflags]
    text = build_e2e("avx512", [cc, *flags], [], ["-lmvec", "-lm"])
    assert "_mm512_" in text and "__mmask8" in text


@needs_neon
@pytest.mark.parametrize("cc", ["aarch64-linux-gnu-gcc", "clang"])
def test_neon_end_to_end(cc):
    if shutil.which(cc) is None:
        pytest.skip(f"needs {cc}")
    flags = ["-O2", "-static", "-ffp-contract=off", "-Wall"]
    if cc == "clang":
        flags.append("--target=aarch64-linux-gnu")
    text = build_e2e("neon", [cc, *flags], ["qemu-aarch64"], ["-lm"])
    assert "vld1q_f64" in text and "vrndaq_f64" in text


@needs_neon
def test_neon_plain_char_is_unsigned():
    src = kernel_source("""
        void F(chars)(int n, KARGS) {
            char *c = (char *)f;
            #pragma omp simd
            for (int i = 0; i < n; i++) q[i] = c[i] / 3 + (c[i] >> 1);
        }
    """)
    res, wd = vectorize(src, "neon")
    assert not res.unsupported, res.unsupported
    protos = "kern_t ref_chars, vec_chars;"
    calls = '    bad |= run("chars", ref_chars, vec_chars, 0, 0.0);'
    driver = DRIVER.replace("KARGS", KARGS) % {
        "protos": protos,
        "calls": calls,
        "sizes": ", ".join(map(str, SIZES)),
    }
    (wd / "main.c").write_text(driver)
    cc = ["aarch64-linux-gnu-gcc", "-O2", "-static", "-ffp-contract=off"]
    objs = []
    for name, prefix in (("kern.c", "ref_"), ("kern_vec.c", "vec_")):
        obj = wd / f"{name}.o"
        subprocess.run(
            [*cc, f"-DF(n)={prefix}##n", "-c", str(wd / name), "-o", str(obj)], check=True
        )
        objs.append(str(obj))
    subprocess.run([*cc, str(wd / "main.c"), *objs, "-o", str(wd / "t"), "-lm"], check=True)
    out = subprocess.run(
        ["qemu-aarch64", str(wd / "t")], capture_output=True, text=True, timeout=120
    )
    assert "ALL OK" in out.stdout, out.stdout


# -- the command line: one output, #if dispatch, built for each target ----------------------------
CLI_KERNEL = r"""
#include <math.h>
#include <stdio.h>
void kern(int n, double *x, const double *y, const int *p, float *f, short *s)
{
    #pragma omp simd
    for (int i = 0; i < n; i++) {
        x[i] = round(y[i]) + fmax(x[i], y[p[i]]) + (double)(p[i] / 3);
        f[i] = (float)x[i] * 0.5f;
        s[i] = (short)(s[i] * 3 + p[i]);
    }
}
int main(void)
{
    static double x[103], y[103]; static int p[103]; static float f[103]; static short s[103];
    for (int i = 0; i < 103; i++) {
        x[i] = (i % 7) - 3.5; y[i] = (i % 11) * 0.5 - 2.5; p[i] = (i * 37) % 103;
        s[i] = (short)(i * 1000);
    }
    kern(103, x, y, p, f, s);
    unsigned long long h = 0;
    for (int i = 0; i < 103; i++) {
        unsigned long long u; unsigned v;
        __builtin_memcpy(&u, &x[i], 8); __builtin_memcpy(&v, &f[i], 4);
        h = h * 1000003u ^ u ^ v ^ (unsigned short)s[i];
    }
    printf("%llx\n", h);
    return 0;
}
"""


@needs_avx512
@needs_neon
def test_cli_output_runs_on_avx512_and_neon():
    wd = Path(tempfile.mkdtemp(prefix="s2s_tg_cli_"))
    src, out = wd / "k.c", wd / "k_vec.c"
    src.write_text(CLI_KERNEL)
    exe = Path(__file__).resolve().parents[1] / ".venv" / "bin" / "s2svec"
    res = subprocess.run(
        [str(exe), str(src), "-o", str(out), "--report"], capture_output=True, text=True
    )
    assert res.returncode == 0 and out.is_file(), res.stderr
    assert (
        "vectorized for avx512 with 8 lanes" in res.stderr and "vectorized for neon" in res.stderr
    ), res.stderr
    text = out.read_text()
    assert "__AVX512F__" in text and "__ARM_NEON" in text
    builds = {
        "avx512": (
            ["gcc", "-O2", "-ffp-contract=off", *load_target("avx512").cflags],
            [],
            ["-lmvec", "-lm"],
        ),
        "neon": (
            ["aarch64-linux-gnu-gcc", "-O2", "-static", "-ffp-contract=off"],
            ["qemu-aarch64"],
            ["-lm"],
        ),
    }
    for name, (cc, run, libs) in builds.items():
        outs = []
        for c in (src, out):
            binary = wd / f"{c.stem}_{name}"
            b = subprocess.run(
                [*cc, str(c), "-o", str(binary), *libs], capture_output=True, text=True
            )
            assert b.returncode == 0, b.stderr[:3000]
            r = subprocess.run([*run, str(binary)], capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, r.stderr
            outs.append(r.stdout)
        assert outs[0] == outs[1], (name, outs)
