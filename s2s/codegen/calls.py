"""What code generation knows of the functions a loop calls: the declare
simd variants it may call (the file's own and the internal variants of
s2s.internal_variants), in the order a target prefers them, and why a call
that runs lane by lane does (the report's reason).  The vector IR emitter
reads it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..ir.atomic_calls import ORDERED_PREFIX, SCAN_PREFIX, atomic_call_named
from ..ir.complex_calls import complex_call_named
from ..ir.values import Call
from ..vfabi import ISAS, Variant, pieces
from .target import Target


@dataclass
class Callees:
    simd_functions: dict[str, Any] = field(default_factory=dict)
    """declare simd functions and internal variants: name -> (Signature,
    variants) (codegen.variant)."""
    no_variant: dict[str, str] = field(default_factory=dict)
    """Callees whose internal variant could not be made: why."""

    def candidates(
        self, callee: str, target: Target, masked: bool, lanes: int
    ) -> Iterator[tuple[Any, Variant]]:
        """(signature, variant) of ``callee`` a call of ``lanes`` lanes may
        go to, best ISA first: the target's ``vfabi_calls`` order, the call's
        lane count, masked under a mask (in the target's own mask form); an
        unmasked call may take a masked variant last (every lane set)."""
        entry = self.simd_functions.get(callee)
        if entry is None or not target.vfabi_isa:
            return
        sig, variants = entry
        rank = {letter: n for n, letter in enumerate(target.vfabi_calls)}
        own_mask = ISAS[target.vfabi_isa].mask

        def order(v: Variant) -> tuple[bool, int]:
            # a scalable variant is always masked: an unmasked call passes every lane
            return (v.masked != masked and not v.isa.scalable, rank[v.isa.letter])

        for v in sorted((v for v in variants if v.isa.letter in rank), key=order):
            if v.vlen == lanes and _mask_fits(v, masked, own_mask):
                yield sig, v

    def variant_lanes(self, callee: str, target: Target, lanes: int, masked: bool) -> str:
        """Why no variant of ``callee`` fits a call of ``lanes`` lanes, as
        far as the lanes tell (a loop takes the lanes of narrower variants:
        s2s.codegen.generate; wider ones would take several registers per
        argument)."""
        sig, variants = self.simd_functions[callee]
        ours = [v for v in variants if v.isa.letter in target.vfabi_calls]
        name = target.name
        if target.scalable and not any(v.isa.scalable for v in ours):
            return f"no {name} variant: a simdlen fixes the lanes, {name}'s are the hardware's"
        if not ours:
            return f"no variant in {name}'s vector function ABI"
        if not target.scalable and all(v.vlen > lanes for v in ours):
            widths = " or ".join(map(str, sorted({v.vlen for v in ours})))
            return f"its variants take {widths} lanes, more than the loop's {lanes}"
        same = [v for v in ours if v.vlen == lanes]
        fits = [v for v in same if _mask_fits(v, masked, ISAS[target.vfabi_isa].mask)]
        if same and not fits and masked and not any(v.masked for v in same):
            return f"its {lanes}-lane variants are notinbranch, and the call runs under a condition"
        if same and not fits:
            names = " and ".join(v.mangled for v in same if v.masked)
            return f"its {lanes}-lane masked variants ({names}) take another form of mask"
        split = _split_parameter(sig, fits)
        if split is not None:
            return split
        return "its parameters' kinds or masking do not fit the call's values"

    def why_serialized(self, inst: Call, target: Target, vector_math: bool, lanes: int) -> str:
        """The report's reason for a call run lane by lane."""
        helper = complex_call_named(inst.callee)
        if helper is not None:
            return helper.why
        atomic = atomic_call_named(inst.callee)
        if atomic is not None:
            return atomic.why
        if inst.callee.startswith(SCAN_PREFIX):
            return "the '#pragma omp scan' running total is made lane by lane, in iteration order"
        if inst.callee.startswith(ORDERED_PREFIX):
            return "the '#pragma omp ordered simd' block runs lane by lane, in iteration order"
        if inst.wants_variant and not target.vfabi_isa:
            return f"{inst.not_inlined}; {target.name} has no vector function ABI here yet"
        if inst.wants_variant and inst.callee in self.no_variant:
            return f"{inst.not_inlined}; {self.no_variant[inst.callee]}"
        if inst.callee in self.simd_functions:
            return (
                f"{inst.not_inlined or 'no vector variant'}; none of its vector variants "
                f"fits this call "
                f"({self.variant_lanes(inst.callee, target, lanes, inst.mask is not None)})"
            )
        if inst.not_inlined:
            return inst.not_inlined
        if inst.pure:
            return "--math exact" if not vector_math else f"no vector version on {target.name}"
        return "no vector variant"


def _mask_fits(v: Variant, masked: bool, own_mask: str) -> bool:
    """A call (masked or not) may take variant ``v``: a masked call only a
    masked variant, which takes the mask in the target's own form; an
    unmasked one either (a masked variant with every lane set)."""
    return (v.masked or not masked) and not (v.masked and v.isa.mask != own_mask)


def _split_parameter(sig: Any, variants: list[Variant]) -> str | None:
    """Why variants with the loop's lanes do not fit, when each passes a
    value in several registers that the loop does not hold as they are
    (emit_vector_ir.split_argument passes the halves of a register)."""
    split: dict[tuple[str, int], list[str]] = {}
    for v in variants:
        first = next(
            (
                (name, len(regs))
                for t, name, kind in zip(sig.params, sig.names, v.params, strict=True)
                if kind.kind == "v" and len(regs := pieces(v.isa, t, v.vlen, "")) > 1
            ),
            None,
        )
        if first is None:
            return None
        split.setdefault(first, []).append(v.mangled)
    if not split:
        return None
    parts = [
        f"{' and '.join(names)} pass{'es' if len(names) == 1 else ''} '{param}' in {count} "
        "registers"
        for (param, count), names in split.items()
    ]
    plural = "s" if len(variants) > 1 else ""
    return (
        f"its {variants[0].vlen}-lane variant{plural} {'; '.join(parts)}, which the loop's "
        "registers do not split into"
    )


__all__ = ["Callees"]
