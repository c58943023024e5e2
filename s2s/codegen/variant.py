"""C text of the vector variants of a declare simd function.

Each variant is an ABI wrapper around a core (s2s.vfabi has the ABI):

    [static unused] <target attribute> RET _ZGV...(vector pieces..., mask pieces...)
    {
        lane arrays of the varying parameters  <- the vector registers
        uniform and linear parameters           <- their scalars (lane 0)
        s2s_mask[l] = lane l active              <- the mask registers
    #if <widest s2svec target the build has>
        the vectorized body (the function region as a loop over the lanes)
    #elif ...
    #else
        for each active lane: s2s_ret[l] = f(lane l's arguments);
    #endif
        return the lanes of s2s_ret as the ABI's vector(s)
    }

The wrapper is plain C with the ISA's vector types (the target attribute
makes them legal whatever the file is compiled with); the core is compiled
with the file's flags, so a build without AVX2 still defines correct ``d``
and ``e`` variants (per lane), as the ABI requires of every object.

The variants of a function with internal linkage are static (gcc's clones
of a static function are local symbols too), marked unused: like gcc's
clones they may have no caller in the file.  A declare simd function's block
first redeclares the function ``__noclone__`` for gcc: with ``-fopenmp`` or
``-fopenmp-simd`` gcc would otherwise clone the definition under the same
names, and the object would define each variant twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir.types import FloatType, IntType, PtrType, Type
from ..vfabi import MASK_C, Piece, Variant, element_bits, lmul, mask_pieces, pieces
from .branch_markers import SCALAR, branch_marker, variant_region

INDENT = "    "


@dataclass
class Signature:
    """The scalar function as C declares it."""

    name: str
    ret_c: str
    """C spelling of the return type ("" for void)."""
    ret: Type | None
    params_c: list[str]
    params: list[Type]
    names: list[str]
    static: bool = False
    """Internal linkage: the variants are static too."""


@dataclass
class Core:
    condition: str
    """The #if condition of the s2svec target (``defined(__AVX2__) && ...``)."""
    text: str
    """The vectorized block (braces included)."""
    target: str = ""
    """The s2svec target's name (for the branch's marker)."""


def lane_call(sig: Signature, v: Variant, lane: str = "s2s_l") -> str:
    """The scalar call computing one lane."""
    args = []
    for name, t, k in zip(sig.names, sig.params, v.params):
        if k.kind == "v":
            args.append(f"s2s_a_{name}[{lane}]")
        elif k.kind == "l":
            step = k.step // t.pointee.size if isinstance(t, PtrType) else k.step
            args.append(
                f"{name} + {lane} * ({step})"
                if isinstance(t, PtrType)
                else f"({_typeof(sig, name)})({name} + ({_typeof(sig, name)}){lane} * ({step}))"
            )
        elif k.kind == "ls":
            step = sig.names[k.step]
            args.append(
                f"{name} + {lane} * {step}"
                if isinstance(t, PtrType)
                else f"({_typeof(sig, name)})({name} + ({_typeof(sig, name)}){lane} * {step})"
            )
        else:
            args.append(name)
    call = f"{sig.name}({', '.join(args)})"
    body = f"s2s_ret[{lane}] = {call};" if sig.ret is not None else f"{call};"
    return f"if (s2s_mask[{lane}]) {body}" if v.masked else body


def _unqualified(ctype: str) -> str:
    """``ctype`` without its top-level qualifiers (a cast's result is
    unqualified, C11 6.5.4): lane arrays are written, and a ``const`` or
    ``restrict`` element would make that undefined (and each memcpy a
    warning)."""
    return f"__typeof__(({ctype})0)"


def _typeof(sig: Signature, name: str) -> str:
    return f"__typeof__({sig.params_c[sig.names.index(name)]})"


def wrapper(sig: Signature, v: Variant, cores: list[Core]) -> str:
    """The whole definition of one variant."""
    if v.isa.scalable:
        return _scalable_wrapper(sig, v, cores)
    tag = v.mangled
    typedefs: list[str] = []
    params: list[str] = []
    unpack: list[str] = []
    n = v.vlen
    for name, t, ct, k in zip(sig.names, sig.params, sig.params_c, v.params):
        if k.kind == "v":
            regs = pieces(v.isa, t, n, tag)
            unpack.append(f"{_unqualified(ct)} s2s_a_{name}[{n}];")
            for i, p in enumerate(regs):
                params.append(f"{p.ctype} s2s_{name}_{i}")
                typedefs.append(p.typedef)
                unpack.append(
                    f"__builtin_memcpy(&s2s_a_{name}[{i * p.lanes}], &s2s_{name}_{i}, "
                    f"sizeof s2s_{name}_{i});"
                )
        else:
            params.append(f"__typeof__({ct}) {name}")
    if v.masked:
        unpack.append(f"{MASK_C[v.cdt_bits]} s2s_mask[{n}];")
        for i, p in enumerate(mask_pieces(v)):
            params.append(f"{p.ctype} s2s_m_{i}")
            typedefs.append(p.typedef)
            unpack.extend(_unpack_mask(v, p, i))
    ret_type, ret_lines = _return(sig, v, typedefs)
    head = _head(sig, v, ret_type, params)
    if sig.ret is not None:
        # an inactive lane's result is returned too: a defined zero
        unpack.insert(0, f"{_unqualified(sig.ret_c)} s2s_ret[{n}]{' = {0}' if v.masked else ''};")
    body = unpack + _branches(sig, v, cores, str(n)) + ret_lines
    return _definition([t for t in dict.fromkeys(typedefs) if t], head, body)


def _branches(sig: Signature, v: Variant, cores: list[Core], n: str) -> list[str]:
    """The body on the lane arrays: the widest core the build has, else
    each of the ``n`` lanes through the scalar function."""
    scalar = [f"for (int s2s_l = 0; s2s_l < {n}; s2s_l++) {{", INDENT + lane_call(sig, v), "}"]
    body: list[str] = []
    region = variant_region(v.mangled)
    for i, core in enumerate(cores):
        body.append(f"{'#if' if i == 0 else '#elif'} {core.condition}")
        body.append(branch_marker(core.target, region))
        body.extend(core.text.rstrip("\n").split("\n"))
    if cores:
        body.extend(["#else", branch_marker(SCALAR, region)])
    body.extend(scalar)
    if cores:
        body.append("#endif")
    return body


def _definition(before: list[str], head: str, body: list[str]) -> str:
    lines = before + (
        [head, "{"]
        + [INDENT + line if line and not line.startswith("#") else line for line in body]
        + ["}"]
    )
    return "\n".join(lines) + "\n"


LANES = "s2s_n"
"""The lanes of a scalable variant, read at run time."""


def _scalable_wrapper(sig: Signature, v: Variant, cores: list[Core]) -> str:
    """A vector-length agnostic variant: its LANES lanes moved between the
    registers and lane arrays as long as the ISA's longest register (the
    ISA's spellings in type_names; v.cdt_bits is the widest data size)."""
    spell = dict(v.isa.type_names)
    wbits = v.cdt_bits
    size = v.isa.max_bits // wbits
    params: list[str] = []
    lanes = spell["lanes"].format(wbytes=wbits // 8, wbits=wbits, cap=size)
    body = [f"const int {LANES} = {lanes};"]
    if sig.ret is not None:
        body.append(f"{_unqualified(sig.ret_c)} s2s_ret[{size}] = {{0}};")
    for name, t, ct, k in zip(sig.names, sig.params, sig.params_c, v.params):
        if k.kind != "v":
            params.append(f"__typeof__({ct}) {name}")
            continue
        (piece,) = pieces(v.isa, t, v.vlen, v.mangled)
        params.append(f"{piece.ctype} s2s_{name}_0")
        body.append(f"{_unqualified(ct)} s2s_a_{name}[{size}];")
        body += _store_lanes(spell, t, wbits, f"s2s_a_{name}", f"s2s_{name}_0")
    (mask,) = mask_pieces(v)
    params.append(f"{mask.ctype} s2s_m_0")
    body.append(f"uint{wbits}_t s2s_mask[{size}];")
    body.append(spell["store_mask"].format(wbits=wbits, dst="s2s_mask", src="s2s_m_0", n=LANES))
    body += _branches(sig, v, cores, LANES)
    ret_type = "void"
    if sig.ret is not None:
        (piece,) = pieces(v.isa, sig.ret, v.vlen, v.mangled)
        ret_type = piece.ctype
        body += _return_lanes(spell, sig.ret, wbits, piece.ctype)
    return _definition([], _head(sig, v, ret_type, params), body)


def _acle(spell: dict[str, str], t: Type, lanes: int) -> tuple[str, str, int]:
    """The suffix, C element type and bits of the intrinsics moving ``t``
    at ``lanes`` lanes (the ISA's ``sfx`` spelling)."""
    bits = element_bits(t)
    if isinstance(t, FloatType):
        kind, elem = "f", {32: "float", 64: "double"}[bits]
    elif isinstance(t, IntType) and t.signed:
        kind, elem = spell["signed"], f"int{bits}_t"
    else:
        kind, elem = "u", f"uint{bits}_t"
    return spell["sfx"].format(kind=kind, ebits=bits, lmul=lmul(lanes, bits)), elem, bits


def _respaced(spell: dict[str, str], kind: str, sfx: str, x: str, times: int) -> str:
    for _ in range(times):
        x = spell[kind].format(sfx=sfx, x=x)
    return x


def _store_lanes(spell: dict[str, str], t: Type, wbits: int, dst: str, src: str) -> list[str]:
    """Register ``src`` (unpacked when narrower than ``wbits``) into the
    lane array ``dst``: through an array of the intrinsic's element type and
    a memcpy, so that no lane array is written as another type."""
    sfx, elem, bits = _acle(spell, t, 128 // wbits)
    packed = _respaced(spell, "pack", sfx, src, (wbits // bits).bit_length() - 1)
    store = spell["store"].format(sfx=sfx, n=LANES, elem=elem, ebits=bits, dst="s2s_t", src=packed)
    return [
        "{",
        f"{INDENT}{elem} s2s_t[sizeof {dst} / sizeof {dst}[0]];",
        INDENT + store,
        f"{INDENT}__builtin_memcpy({dst}, s2s_t, sizeof s2s_t);",
        "}",
    ]


def _return_lanes(spell: dict[str, str], t: Type, wbits: int, ctype: str) -> list[str]:
    """Return the lane array s2s_ret as the ABI's register."""
    sfx, elem, bits = _acle(spell, t, 128 // wbits)
    load = spell["load"].format(sfx=sfx, n=LANES, elem=elem, ebits=bits, src="s2s_t")
    unpacked = _respaced(spell, "unpack", sfx, "s2s_r", (wbits // bits).bit_length() - 1)
    return [
        f"{elem} s2s_t[sizeof s2s_ret / sizeof s2s_ret[0]];",
        "__builtin_memcpy(s2s_t, s2s_ret, sizeof s2s_t);",
        f"{ctype} s2s_r = {load};",
        f"return {unpacked};",
    ]


def _head(sig: Signature, v: Variant, ret_type: str, params: list[str]) -> str:
    attr = f'__attribute__((target("{v.isa.attribute}"))) ' if v.isa.attribute else ""
    # unused where the build compiles another branch, or nothing calls it
    linkage = "static __attribute__((__unused__)) " if sig.static else ""
    return f"{linkage}{attr}{ret_type} {v.mangled}({', '.join(params)})"


def prototype(sig: Signature, v: Variant) -> str | None:
    """The declaration a vector loop calls the variant through (the
    definition's exact types and linkage: ``extern``, or ``static`` for a
    static function's variants, which its block defines further down); a
    parameter of several registers is as many parameters (the ABI passes
    them in consecutive registers); None when the mask or the result takes
    several.  A register smaller than the ISA's is written out
    (Piece.written): the declaration needs no typedef."""
    params: list[str] = []
    for _, t, ct, k in zip(sig.names, sig.params, sig.params_c, v.params):
        if k.kind == "v":
            params += [r.written for r in pieces(v.isa, t, v.vlen, v.mangled)]
        else:
            params.append(f"__typeof__({ct})")
    if v.masked:
        regs = mask_pieces(v)
        if len(regs) != 1:
            return None
        params.append(regs[0].written)
    ret = "void"
    if sig.ret is not None:
        regs = pieces(v.isa, sig.ret, v.vlen, v.mangled + "_r")
        if len(regs) != 1:
            return None
        ret = regs[0].written
    return ("" if sig.static else "extern ") + _head(sig, v, ret, params) + ";"


def _unpack_mask(v: Variant, p: Piece, i: int) -> list[str]:
    """Lane j of piece i is active: a nonzero CDT lane, or bit j."""
    first = i * p.lanes
    if v.isa.mask == "bits":
        return [
            f"for (int s2s_j = 0; s2s_j < {p.lanes}; s2s_j++) "
            f"s2s_mask[{first} + s2s_j] = (s2s_m_{i} >> s2s_j) & 1;"
        ]
    utype = MASK_C[v.cdt_bits]
    return [
        "{",
        f"{INDENT}{utype} s2s_b[{p.lanes}];",
        f"{INDENT}__builtin_memcpy(s2s_b, &s2s_m_{i}, sizeof s2s_b);",
        f"{INDENT}for (int s2s_j = 0; s2s_j < {p.lanes}; s2s_j++) "
        f"s2s_mask[{first} + s2s_j] = s2s_b[s2s_j] != 0;",
        "}",
    ]


def _return(sig: Signature, v: Variant, typedefs: list[str]) -> tuple[str, list[str]]:
    """The return type and the lines returning s2s_ret: one register, or a
    struct of several (returned in memory, as gcc returns its array)."""
    if sig.ret is None:
        return "void", []
    regs = pieces(v.isa, sig.ret, v.vlen, v.mangled + "_r")
    typedefs.append(regs[0].typedef)
    if len(regs) == 1:
        ctype = regs[0].ctype
        return ctype, [
            f"{ctype} s2s_r;",
            "__builtin_memcpy(&s2s_r, s2s_ret, sizeof s2s_r);",
            "return s2s_r;",
        ]
    name = f"s2s_{v.mangled}_rs"
    typedefs.append(f"typedef struct {{ {regs[0].ctype} v[{len(regs)}]; }} {name};")
    return name, [
        f"{name} s2s_r;",
        "__builtin_memcpy(s2s_r.v, s2s_ret, sizeof s2s_r.v);",
        "return s2s_r;",
    ]


def family_block(arch: str, header: str, texts: list[str], before: str = "") -> str:
    """The variants of one architecture behind its macro (``before`` them:
    no_gcc_clones for a declare simd function's)."""
    if not texts:
        return ""
    return f"#if defined({arch})\n#include <{header}>\n" + before + "\n".join(texts) + "#endif\n"


def no_gcc_clones(sig: Signature) -> str:
    """gcc gives a definition that a ``declare simd`` pragma (on it or on an
    earlier declaration) covers simd clones of its own when the file is
    built with -fopenmp or -fopenmp-simd, under the names of the variants
    that follow; it makes none of a function declared ``__noclone__``.  The
    redeclaration is ``extern`` whatever the definition says: for a static
    function it keeps the internal linkage (C11 6.2.2p4).  clang makes no
    clones, and warns about attributes it does not know."""
    return (
        "#if defined(__GNUC__) && !defined(__clang__)\n"
        f"extern __typeof__({sig.name}) {sig.name} __attribute__((__noclone__));\n"
        "#endif\n"
    )
