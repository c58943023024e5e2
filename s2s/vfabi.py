"""The Vector Function ABI: which vector variants a ``declare simd`` function
has, their mangled names and their C signatures.

Specifications: Intel's x86-64 "Vector Function ABI" and the AArch64 Vector
Function ABI (AdvSIMD), read as gcc 12 implements them, because gcc-built
callers are what the variants must link with:

    _ZGV <isa> <mask> <vlen> <parameters> _ <name>

    isa   b SSE (128-bit), c AVX (256-bit floats, 128-bit integers),
          d AVX2 (256), e AVX-512 (512), n AArch64 AdvSIMD (64 and 128)
    mask  N unmasked, M masked (both when neither inbranch nor notinbranch)
    vlen  simdlen, or the register size over the characteristic data type
          (CDT: the return type, else the first varying parameter, else int)
    param v varying, u uniform, l<step> linear (``l`` for 1, ``n`` for a
          negative step, steps of pointers in bytes), ls<pos> linear with the
          step in uniform parameter <pos>, R/U/L for linear(ref/uval/val) of
          references (C++ only), then a<align> for aligned

Calling convention: a varying value of vlen lanes is passed as vlen*bits/reg
registers of the ISA's vector type (several when it does not fit one), a
return that needs several registers comes back in memory (a struct of them);
the mask comes last: for b/c/d/n one vector of the CDT per register (lane
active when nonzero), for e one integer per CDT register (bit j = lane j).

SVE (isa ``s``, the AArch64 Vector Function ABI's vector-length agnostic
variant ``_ZGVsMx...``, which gcc 12 does not make): one masked variant
without ``simdlen``, whose lanes are the elements of the widest data size
(WDS: the largest lane size of the return and every parameter, uniform and
linear ones included) in the run-time register; each varying value is one
``sv<T>_t``, *unpacked* when narrower than the WDS (lane k at element
k * WDS / size, the low bits of its container); the mask is an
``svbool_t`` of WDS-bit lanes.

Everything here is data about the ABI; nothing depends on an s2svec target.
The front end (declare simd discovery, the region of a variant) and code
generation (the wrappers) both read it, so it sits below both and imports
only the IR (types, clause model).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .ir.clauses import ClauseSet, Linear
from .ir.types import FloatType, IntType, PtrType, StructType, Type

# -- the ISAs ------------------------------------------------------------------------


@dataclass(frozen=True)
class Isa:
    letter: str
    arch: str
    """Predefined macro of the architecture whose objects define the variants."""
    int_bits: tuple[int, ...]
    """Register sizes for integer and pointer CDTs (default simdlen: one
    variant per size)."""
    float_bits: tuple[int, ...]
    attribute: str
    """``__attribute__((target(...)))`` that makes the ISA's types legal in
    the variant whatever the file is compiled with ("" for the base ISA)."""
    mask: str
    """``vector``: a CDT vector per register; ``bits``: an integer per
    register; ``predicate``: the ISA's predicate type (type_names' ``mask``)
    with lanes as wide as the widest data size."""
    splits: bool
    """Whether a vlen beyond one register is passed in several (x86) or
    not supported at all (AdvSIMD in gcc 12)."""
    same_size_only: bool
    """gcc 12 on AArch64 makes no variants when the return type and the
    types of the parameters that are not uniform differ in size ("mixed
    size types")."""
    header: str
    type_names: tuple[tuple[str, str], ...]
    """C type of a full register, per element class: ``f32``, ``f64``,
    ``int`` (any integer or pointer); {bits}, {ebits}, {lanes}, {sign} filled in."""
    scalable: bool = False
    """Vector-length agnostic (SVE): one variant, always masked, whose lanes
    are the register's elements of the widest data size (``x`` for vlen)."""
    max_bits: int = 0
    """A scalable ISA's longest register (the lane arrays of its wrappers)."""


def _x86(letter: str, ints: int, floats: int, attribute: str, mask: str) -> Isa:
    return Isa(
        letter,
        "__x86_64__",
        (ints,),
        (floats,),
        attribute,
        mask,
        True,
        False,
        "immintrin.h",
        (("f32", "__m{bits}"), ("f64", "__m{bits}d"), ("int", "__m{bits}i")),
    )


ISAS: dict[str, Isa] = {
    "b": _x86("b", 128, 128, "", "vector"),
    "c": _x86("c", 128, 256, "avx", "vector"),
    "d": _x86("d", 256, 256, "avx2", "vector"),
    "e": _x86("e", 512, 512, "avx512f", "bits"),
    "n": Isa(
        "n",
        "__aarch64__",
        (64, 128),
        (64, 128),
        "",
        "vector",
        False,
        True,
        "arm_neon.h",
        (
            ("f32", "float32x{lanes}_t"),
            ("f64", "float64x{lanes}_t"),
            ("int", "{sign}int{ebits}x{lanes}_t"),
        ),
    ),
}


def _scalable(letter: str, arch: str, header: str, spellings: tuple[tuple[str, str], ...]) -> Isa:
    """A vector-length agnostic ISA of at most 2048-bit registers: 128-bit
    granules, predicate masks, one register a value."""
    return Isa(
        letter,
        arch,
        (128,),
        (128,),
        "",
        "predicate",
        False,
        False,
        header,
        spellings,
        scalable=True,
        max_bits=2048,
    )


ISAS["s"] = _scalable(
    "s",
    "__ARM_FEATURE_SVE",
    "arm_sve.h",
    (
        ("f32", "svfloat32_t"),
        ("f64", "svfloat64_t"),
        ("int", "sv{sign}int{ebits}_t"),
        ("mask", "svbool_t"),
        # the wrapper's moves between registers and lane arrays of {n} lanes
        # (sfx: the ACLE suffix f64 s32 u8 ...; wbits: the WDS); an unpacked
        # vector is packed (each svuzp1 halves the spacing) before a store
        # and unpacked (svzip1) after a load
        ("sfx", "{kind}{ebits}"),
        ("signed", "s"),
        ("lanes", "(int)(svcntb() / {wbytes})"),
        ("store", "svst1_{sfx}(svwhilelt_b{ebits}_s32(0, {n}), ({elem} *)(void *)({dst}), {src});"),
        (
            "load",
            "svld1_{sfx}(svwhilelt_b{ebits}_s32(0, {n}), (const {elem} *)(const void *)({src}))",
        ),
        ("pack", "svuzp1_{sfx}({x}, {x})"),
        ("unpack", "svzip1_{sfx}({x}, {x})"),
        (
            "store_mask",
            "svst1_u{wbits}(svptrue_b{wbits}(), (uint{wbits}_t *)(void *)({dst}), "
            "svdup_n_u{wbits}_z({src}, 1));",
        ),
    ),
)
"""SVE, vector-length agnostic (``_ZGVsMx``): defined where the build has
SVE (``__ARM_FEATURE_SVE``); ``vlen`` is the lanes of each 128 bits."""
ISAS["r"] = _scalable(
    "r",
    "__riscv_v_intrinsic",
    "riscv_vector.h",
    (
        # each value the register group of its elements at the variant's
        # lanes (LMUL = lanes * bits / 128: vfloat32mf2_t beside doubles),
        # so nothing is unpacked; the mask a vbool of the lanes
        ("f32", "vfloat32{lmul}_t"),
        ("f64", "vfloat64{lmul}_t"),
        ("int", "v{sign}int{ebits}{lmul}_t"),
        ("mask", "vbool{wbits}_t"),
        ("sfx", "{kind}{ebits}{lmul}"),
        ("signed", "i"),
        # vl: VLEN / WDS, at most 2048-bit vectors (the rvv target's cap)
        (
            "lanes",
            "(int)(__riscv_vsetvlmax_e{wbits}m1() < {cap} "
            "? __riscv_vsetvlmax_e{wbits}m1() : {cap})",
        ),
        ("store", "__riscv_vse{ebits}_v_{sfx}(({elem} *)(void *)({dst}), {src}, {n});"),
        ("load", "__riscv_vle{ebits}_v_{sfx}((const {elem} *)(const void *)({src}), {n})"),
        ("pack", "{x}"),
        ("unpack", "{x}"),
        (
            "store_mask",
            "__riscv_vse{wbits}_v_u{wbits}m1((uint{wbits}_t *)(void *)({dst}), "
            "__riscv_vmerge_vxm_u{wbits}m1(__riscv_vmv_v_x_u{wbits}m1(0, {n}), 1, {src}, {n}), "
            "{n});",
        ),
    ),
)
"""RISC-V V: no vector function ABI is published; s2svec's own variants,
named like the AArch64 ABI's SVE ones with the letter ``r`` (LLVM's for
RISC-V V vector functions): ``_ZGVrMx...``, always masked, lanes of the
widest data size; defined and called by s2svec's code only."""
FAMILIES: tuple[tuple[str, ...], ...] = (("b", "c", "d", "e"), ("n",), ("s",), ("r",))
"""The variants every object of one architecture defines for a declaration."""

MASK_C = {8: "unsigned char", 16: "unsigned short", 32: "unsigned int", 64: "unsigned long long"}
"""Unsigned C type of so many bits: a lane of the mask array of a variant's
core (as wide as the CDT), and an ``e`` mask register (one bit a lane)."""


# -- parameters ------------------------------------------------------------------------


@dataclass(frozen=True)
class ParamKind:
    """How one parameter varies over the lanes of a call."""

    kind: str
    """``v`` varying, ``u`` uniform, ``l`` linear (constant step), ``ls``
    linear with the step in a uniform parameter, ``R``/``U``/``L`` linear
    ref/uval/val of a reference."""
    step: int = 1
    """For ``l``/``R``/``U``/``L``: the step (in bytes for pointers); for
    ``ls``: the position of the uniform parameter holding it."""
    align: int = 0

    def mangle(self) -> str:
        text = self.kind
        if self.kind == "ls":
            text += str(self.step)
        elif self.kind in ("l", "R", "U", "L") and self.step != 1:
            text += f"n{-self.step}" if self.step < 0 else str(self.step)
        return text + (f"a{self.align}" if self.align else "")

    @property
    def is_vector(self) -> bool:
        return self.kind == "v"


@dataclass(frozen=True)
class Variant:
    isa: Isa
    masked: bool
    vlen: int
    params: tuple[ParamKind, ...]
    name: str
    cdt_bits: int
    cdt_float: bool

    @property
    def mangled(self) -> str:
        vlen = "x" if self.isa.scalable else self.vlen
        return (
            f"_ZGV{self.isa.letter}{'M' if self.masked else 'N'}{vlen}"
            f"{''.join(p.mangle() for p in self.params)}_{self.name}"
        )

    @property
    def shape(self) -> tuple[bool, int, tuple[ParamKind, ...], int]:
        """What the body of the variant depends on (not the ISA); the mask
        lanes are as wide as the CDT, so their vector exists where the data's does."""
        return (self.masked, self.vlen, self.params, self.cdt_bits)


class NoVariants(Exception):
    """The declaration has no variants under the ABI (gcc makes none either)."""


def element_bits(t: Type) -> int:
    """The bits of a lane of type ``t`` (NoVariants: the ABI passes it by address)."""
    if isinstance(t, (IntType, FloatType)):
        return max(8, t.bits)
    if isinstance(t, PtrType):
        return 64
    spelling = t.c_spelling if isinstance(t, StructType) and t.c_spelling else t
    raise NoVariants(
        f"a parameter or return type the Vector Function ABI does not pass by vector ('{spelling}')"
    )


def characteristic_type(
    ret: Type | None, params: Sequence[Type], kinds: Sequence[ParamKind]
) -> Type:
    """The CDT: the return type, else the first varying parameter's, else int."""
    if ret is not None:
        return ret
    for t, k in zip(params, kinds):
        if k.is_vector:
            return t
    return IntType(32)


def param_kinds(
    names: Sequence[str], types: Sequence[Type], clauses: ClauseSet
) -> tuple[ParamKind, ...]:
    """The kind of each parameter from the clauses (default varying)."""
    uniform = set(clauses.uniform)
    aligned = {a.var: a.alignment for a in clauses.aligned}
    linear = {lin.var: lin for lin in clauses.linear}
    out = []
    for name, t in zip(names, types):
        align = aligned.get(name, 0) or 0
        if name in aligned and not align:
            raise NoVariants(
                f"'aligned({name})' without an alignment (its default depends on the ISA)"
            )
        if name in uniform:
            out.append(ParamKind("u", align=align))
        elif name in linear:
            out.append(_linear_kind(linear[name], t, names, align))
        else:
            out.append(ParamKind("v", align=align))
    return tuple(out)


def _linear_kind(lin: Linear, t: Type, names: Sequence[str], align: int) -> ParamKind:
    modifier = lin.modifier
    if modifier in ("ref", "uval"):
        raise NoVariants(f"'linear({modifier}(...))' needs a C++ reference parameter")
    step = lin.step
    if isinstance(step, str):
        return ParamKind("ls", names.index(step), align)
    if isinstance(t, PtrType):
        step *= t.pointee.size
    return ParamKind("l", step, align)


def variants(
    name: str,
    ret: Type | None,
    params: Sequence[Type],
    kinds: Sequence[ParamKind],
    simdlen: int | None,
    inbranch: bool | None,
    family: Sequence[str],
) -> list[Variant]:
    """Every variant of one ``declare simd`` for the ISAs of ``family``, in
    gcc's order (ISA, then unmasked before masked).  Raises NoVariants."""
    cdt = characteristic_type(ret, params, kinds)
    cbits = element_bits(cdt)
    for t, k in zip(params, kinds):
        if k.is_vector:
            element_bits(t)
    masks = [False, True] if inbranch is None else [bool(inbranch)]
    out: list[Variant] = []
    for letter in family:
        isa = ISAS[letter]
        if isa.scalable:
            out += _scalable_variant(isa, name, ret, params, kinds, simdlen)
            continue
        if isa.same_size_only and any(
            element_bits(t) != cbits
            for t, k in [*zip(params, kinds), *([(ret, None)] if ret else [])]
            if k is None or k.kind != "u"
        ):
            continue
        sizes = isa.float_bits if isinstance(cdt, FloatType) else isa.int_bits
        vlens = [s // cbits for s in sizes if s >= cbits] if not simdlen else [simdlen]
        if not isa.splits:
            vlens = [v for v in vlens if v * cbits in sizes]
        for vlen in vlens:
            for masked in masks:
                out.append(
                    Variant(
                        isa, masked, vlen, tuple(kinds), name, cbits, isinstance(cdt, FloatType)
                    )
                )
    return out


def _scalable_variant(
    isa: Isa,
    name: str,
    ret: Type | None,
    params: Sequence[Type],
    kinds: Sequence[ParamKind],
    simdlen: int | None,
) -> list[Variant]:
    """The one vector-length agnostic variant (AAVFABI, SVE): masked, as many
    lanes as the register has elements of the widest data size (WDS), whose
    bits are the mask's lane width too.  A ``simdlen`` asks for a variant of
    one vector length (VLS), which s2svec does not make."""
    if simdlen:
        return []
    sizes = [lane_size_bits(t, k) for t, k in zip(params, kinds)]
    if ret is not None:
        sizes.append(element_bits(ret))
    widest = max(sizes, default=32)
    return [Variant(isa, True, 128 // widest, tuple(kinds), name, widest, False)]


def lane_size_bits(t: Type, kind: ParamKind) -> int:
    """LS(P) of the AAVFABI in bits: a vector parameter's element size; a
    uniform or linear pointer's pointee size when it is a scalar, else the
    size of the parameter (a pointer, a scalar: what it passes)."""
    if kind.is_vector:
        return element_bits(t)
    if isinstance(t, PtrType) and isinstance(t.pointee, (IntType, FloatType, PtrType)):
        return element_bits(t.pointee)
    if isinstance(t, (IntType, FloatType, PtrType)):
        return element_bits(t)
    return 64  # passed by address: uintptr_t


# -- C signatures ------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """One register-sized C parameter (or return part) of a variant."""

    ctype: str
    lanes: int
    typedef: str = ""
    """A GNU vector typedef to emit first (pieces smaller than a register)."""
    spelled: str = ""
    """The typedef's type written out (``__typeof__(float
    __attribute__((vector_size(16))))``): a caller's declaration needs no
    typedef of its own."""

    @property
    def written(self) -> str:
        """The type as a declaration that emits no typedef writes it."""
        return self.spelled or self.ctype


def _class(t: Type) -> str:
    if isinstance(t, FloatType):
        return f"f{t.bits}"
    return "int"


def pieces(isa: Isa, t: Type, vlen: int, tag: str) -> list[Piece]:
    """The registers a varying value of type t and vlen lanes is passed in."""
    ebits = element_bits(t)
    names = dict(isa.type_names)
    sign = "u" if (isinstance(t, IntType) and not t.signed) or isinstance(t, PtrType) else ""
    if isa.scalable:  # one register (SVE: narrower elements unpacked)
        return [
            Piece(names[_class(t)].format(ebits=ebits, sign=sign, lmul=lmul(vlen, ebits)), vlen)
        ]
    sizes = isa.float_bits if isinstance(t, FloatType) else isa.int_bits
    reg = max(sizes)
    lanes = min(vlen, reg // ebits)
    count = vlen // lanes
    if lanes * ebits in sizes:
        ctype = names[_class(t)].format(bits=lanes * ebits, ebits=ebits, lanes=lanes, sign=sign)
        return [Piece(ctype, lanes)] * count
    # smaller than any register: gcc's own vector(lanes) type
    elem = {"f32": "float", "f64": "double"}.get(
        _class(t), f"__INT{ebits}_TYPE__" if ebits > 8 else "signed char"
    )
    if ebits == 64 and not isinstance(t, FloatType):
        elem = "long long"
    name = f"s2s_{tag}_{_class(t) if isinstance(t, FloatType) else f'i{ebits}'}x{lanes}"
    vector = f"__attribute__((vector_size({lanes * ebits // 8})))"
    return [
        Piece(name, lanes, f"typedef {elem} {name} {vector};", f"__typeof__({elem} {vector})")
    ] * count


def lmul(lanes: int, bits: int) -> str:
    """The RISC-V V register group of ``lanes`` elements of ``bits`` per 128
    bits: m1, mf2, mf4, mf8."""
    fraction = 128 // (lanes * bits)
    return "m1" if fraction == 1 else f"mf{fraction}"


def mask_pieces(v: Variant) -> list[Piece]:
    """The mask parameters of a masked variant."""
    if v.isa.mask == "predicate":
        return [Piece(dict(v.isa.type_names)["mask"].format(wbits=v.cdt_bits), v.vlen)]
    cdt: Type = FloatType(v.cdt_bits) if v.cdt_float else IntType(v.cdt_bits)
    regs = pieces(v.isa, cdt, v.vlen, v.mangled)
    if v.isa.mask == "vector":
        return regs
    bits = max(8, regs[0].lanes)
    return [Piece(MASK_C[bits], regs[0].lanes)] * len(regs)
