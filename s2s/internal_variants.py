"""Internal vector variants: a callee not inlined gets one of its own, made for its calls.

The inline pass (transform.inline) prefers, for a callee too large to
inline or called from several places of a loop, one vector body shared by
the calls (``Call.wants_variant``).  Before a loop's code is generated for
a target, ``InternalVariants.prepare`` looks at those calls in the
transformed region at the loop's width: each argument's shape gives the
parameter kind (uniform ``u``, linear ``l<step>`` for a strided value,
else varying ``v``), a mask on the call a masked variant.  Each (callee,
target, mask, width, kinds) becomes a variant as for a declare simd
function (s2s.declare: the callee's body as a region over the lanes,
through the loop pipeline, widened, wrapped in the Vector Function ABI of
the target's ISA) but ``static`` and under a name of s2svec's own,
``_ZGV<isa><mask><width><kinds>_s2s_<callee>``, so it never meets a
variant another object defines.  The loop then calls it like a declare
simd variant; a callee whose body the pipeline cannot take keeps its
calls lane by lane, with that reason in the report.

The definitions go at the end of the file, where the callee and every
global it reads are declared (from the file itself or a header); the
prelude declares them ``static`` before the first vectorized function.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .codegen.generate import CodegenOptions, choose_width
from .codegen.target import Target
from .codegen.variant import Signature, family_block, wrapper
from .diagnostics import Unsupported
from .frontend.declare_simd import SimdFunction, signature
from .frontend.lower_callee import callee_table
from .frontend.lower_clang import location
from .frontend.lower_types import TypeMapper
from .ir.types import I1, FloatType, IntType, Type
from .ir.values import Call, Constant, Undef, Value
from .pipeline import AnalyzedRegion
from .vfabi import (
    FAMILIES,
    ISAS,
    Isa,
    NoVariants,
    ParamKind,
    Variant,
    characteristic_type,
    element_bits,
)

PREFIX = "s2s_"
"""Internal variants are named after ``PREFIX + callee``."""

Key = tuple[str, str, bool, int, tuple[ParamKind, ...]]
"""(callee, target, masked, width, parameter kinds)."""


@dataclass
class InternalVariants:
    """The internal variants of one file, made when a loop first needs them."""

    options: Any
    """The driver's options (BOSCC, all-true, --print-after)."""
    codegen: CodegenOptions
    """Where loops find the variants they may call (``simd_functions``)."""
    data_end: int
    """The end of the main file: the variants' place."""
    made: dict[Key, Variant | None] = field(default_factory=dict)
    texts: dict[str, list[str]] = field(default_factory=dict)
    """Definitions by ISA family (its first letter)."""
    needs: dict[str, set[Any]] = field(default_factory=dict)
    """Prelude items of each target's variant bodies."""
    failed: dict[str, str] = field(default_factory=dict)
    """Callee -> why it has no internal variant (the report's reason)."""

    def prepare(self, regions: list[AnalyzedRegion | None], target: Target, tu: Any) -> None:
        """Make the variants the loop's calls want at the loop's width."""
        main = regions[0]
        assert main is not None
        if not target.vfabi_isa:
            return  # no vector function ABI: its calls say so (codegen.calls)
        scalable = ISAS[target.vfabi_isa].scalable
        width, _ = choose_width(main.region, main.div, target, self.codegen, main.records)
        for analyzed in regions:
            if analyzed is None:
                continue
            for call in _wanting(analyzed):
                kinds = tuple(_kind(analyzed, a) for a in call.operands)
                # a scalable variant is always masked (an unmasked call passes every lane)
                masked = scalable or (
                    call.mask is not None
                    and not (isinstance(call.mask, Constant) and int(call.mask.value) & 1)
                )
                key: Key = (call.callee, target.name, masked, width, kinds)
                if key not in self.made and call.callee not in self.failed:
                    self.made[key] = self._make(call.callee, target, tu, masked, width, kinds)

    def why_not(self, callee: str) -> str:
        return self.failed.get(callee, "")

    def text(self) -> str:
        """Every definition, behind its architecture's macro."""
        blocks = []
        for family in FAMILIES:
            texts = self.texts.get(family[0], [])
            isa = ISAS[family[0]]
            blocks.append(family_block(isa.arch, isa.header, texts))
        return "".join(blocks)

    def _make(
        self,
        callee: str,
        target: Target,
        tu: Any,
        masked: bool,
        width: int,
        kinds: tuple[ParamKind, ...],
    ) -> Variant | None:
        from .declare import _core

        definition = callee_table(tu, target.plain_char_signed).definition(callee)
        if definition is None:
            self.failed[callee] = f"'{callee}' has no body here for {target.name}"
            self.codegen.no_variant[callee] = self.failed[callee]
            return None
        loc = location(definition)
        try:
            ret, params, names = signature(
                definition, TypeMapper(target.plain_char_signed, scope=definition), loc
            )
            v = _variant(ISAS[target.vfabi_isa], callee, ret, params, kinds, masked, width)
            fn = SimdFunction(callee, loc, ret, params, names, [v], definition)
            sig = _signature(fn, definition)
            core, loop, _ = _core(
                fn, sig, definition, v.shape, target, self.options, self.codegen, site=self.data_end
            )
        except (Unsupported, NoVariants) as e:
            self.failed[callee] = f"its internal vector variant failed ({_message(e)})"
            self.codegen.no_variant[callee] = self.failed[callee]
            return None
        family = next(f for f in FAMILIES if v.isa.letter in f)
        self.texts.setdefault(family[0], []).append(wrapper(sig, v, [core]))
        self.needs.setdefault(target.name, set()).update(loop.needs)
        entry = self.codegen.simd_functions.setdefault(callee, (sig, []))
        entry[1].append(v)
        return v


def _variant(
    isa: Isa,
    callee: str,
    ret: Type | None,
    params: list[Type],
    kinds: tuple[ParamKind, ...],
    masked: bool,
    width: int,
) -> Variant:
    """The internal variant of ``width`` lanes: the ABI's rules with the
    loop's lanes.  A scalable one takes the widest data size of those
    lanes (128 / width bits per lane; a wider varying value cannot be
    passed) and names it, since the ``x`` of its name does not."""
    if not isa.scalable:
        cdt = characteristic_type(ret, params, kinds)
        assert isinstance(cdt, (IntType, FloatType)), cdt
        name = PREFIX + callee
        return Variant(isa, masked, width, kinds, name, cdt.bits, isinstance(cdt, FloatType))
    bits = 128 // width
    varying = [t for t, k in zip(params, kinds) if k.is_vector] + ([ret] if ret else [])
    if any(element_bits(t) > bits for t in varying):
        raise NoVariants(f"a value wider than the loop's lanes ({bits} bits)")
    return Variant(isa, True, width, kinds, f"{PREFIX}{callee}_{bits}", bits, False)


def _signature(fn: SimdFunction, definition: Any) -> Signature:
    from .declare import signature_of

    sig = signature_of(fn, definition)
    sig.static = True  # every object may have its own
    return sig


def _message(e: Exception) -> str:
    return e.message if isinstance(e, Unsupported) else str(e)


def _wanting(analyzed: AnalyzedRegion) -> list[Call]:
    return [i for i in analyzed.region.fn.instructions() if isinstance(i, Call) and i.wants_variant]


def _kind(analyzed: AnalyzedRegion, v: Value) -> ParamKind:
    """The parameter kind a value of this shape is passed as."""
    if isinstance(v, (Constant, Undef)):
        return ParamKind("u")
    shape = analyzed.div.shape_of(v)
    if shape.is_bottom or shape.is_uniform:
        return ParamKind("u")
    if shape.is_strided and v.type != I1 and not v.type.is_float() and shape.stride:
        return ParamKind("l", int(shape.stride))
    return ParamKind("v")


__all__ = ["PREFIX", "InternalVariants"]
