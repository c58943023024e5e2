"""The report's counts of one loop's code (docs/user/report.rst): memory
accesses by the shape of their address, calls by how they run (vector math,
a declare simd variant, lane by lane), stack objects by shape."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Location
from ..ir.complex_calls import complex_call_named
from ..ir.values import Call, Instruction


@dataclass
class CodeStats:
    """What the code made for a loop does, for the report: accesses by kind,
    calls by how they run, stack objects by shape."""

    memory: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(
            ("contiguous", "strided", "gather", "scatter", "masked", "uniform"), 0
        )
    )
    calls: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(("vector_variant", "vector_math", "serialized"), 0)
    )
    allocas: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(("uniform", "varying"), 0)
    )
    counted: set[tuple[object, ...]] = field(default_factory=set)
    """(load or store, kind, masked, source place) of the accesses counted:
    copies of one access of the source (unrolling, all-true paths) count once."""
    call_sites: list[tuple[str, str, Location | None, str]] = field(default_factory=list)
    """(how: ``vector math``, ``variant`` or ``serialized``; callee; where; a
    detail: the variant's name or why the call runs lane by lane)."""

    def access(self, inst: Instruction, kind: str, masked: bool) -> None:
        """Count a load or store of the source once, by the shape of its address."""
        if inst.loc is not None:
            key = (inst.opcode, kind, masked, inst.loc)
            if key in self.counted:
                return
            self.counted.add(key)
        self.memory[kind] += 1
        if masked:
            self.memory["masked"] += 1

    def call(self, how: str, inst: Call, detail: str = "") -> None:
        key = {"vector math": "vector_math", "variant": "vector_variant"}.get(how, how)
        self.calls[key] += 1
        helper = complex_call_named(inst.callee)  # a complex operation's: by the source's name
        callee = helper.source if helper is not None else inst.callee
        self.call_sites.append((how, callee, inst.loc, detail))
