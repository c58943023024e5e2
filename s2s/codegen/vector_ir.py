"""Vector IR: the widened loop body as small dataclasses, ready for emission.

The widener (widen.py) produces it from the scalar region IR; the emitter
(emit.py) turns it into C through the target templates.  A body is a list of
blocks; a block holds plain C statements (uniform scalar code, copies, gotos)
and vector operations.  Every vector operation names a macro of the
vocabulary in templates/README.md and carries, for the case that the target
has no template for its types, the scalar C code of one lane (the generic
per-lane fallback).  Any operation may carry a lane mask; a masked operation
must not touch memory for inactive lanes, so its per-lane fallback is guarded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..ir.types import Type
from .target import TypeInfo


@dataclass(frozen=True)
class Operand:
    """An input of an operation: a C name or literal and its vector type."""

    text: str
    type: TypeInfo | None
    """None: a scalar, the same in every lane."""
    ir_type: Type | None = None
    """The scalar IR type of one lane (pointers are spilled as integers)."""


@dataclass
class LaneCode:
    """Scalar C for one lane: ``{0}``, ``{1}`` ... stand for the inputs' lane values."""

    code: str
    """An expression when the operation has a result, else a statement."""
    inputs: list[Operand]
    result_ir_type: Type | None = None


@dataclass
class VOp:
    """One vector operation: ``dst = <name>(args)`` through the target's macro."""

    name: str
    """Vocabulary name (``add``, ``load``, ``cmp_lt`` ...); "" = per-lane only."""
    dst: str | None
    """Result variable (declared by the widener) or None for statements."""
    result: TypeInfo | None
    """Vector type of the result (or of the stored value for stores)."""
    args: dict[str, Any] = field(default_factory=dict)
    """Keyword arguments of the macro (``t``, ``a``, ``b``, ``mt`` ...)."""
    fallback: LaneCode | None = None
    """Per-lane scalar code used when the macro renders to nothing."""
    mask: Operand | None = None
    """Lane predicate (canonical mask type); None = all lanes."""
    stat: str = ""
    """Statistic to count once emitted: ``math`` (vector math when a template
    exists, serialized otherwise)."""


@dataclass
class CStmt:
    """A ready C statement (or label) emitted verbatim."""

    text: str


Item = VOp | CStmt


@dataclass
class VBlock:
    """The code of one IR block."""

    label: str | None
    """C label when some goto targets it."""
    items: list[Item] = field(default_factory=list)


@dataclass
class VectorBody:
    """The widened loop body plus what the skeleton needs around it."""

    width: int
    decls: list[str] = field(default_factory=list)
    """Declarations placed at the top of the vector loop body."""
    blocks: list[VBlock] = field(default_factory=list)
    invariant_decls: list[str] = field(default_factory=list)
    invariants: list[Item] = field(default_factory=list)
    """Vector constants and broadcasts of values set before the loop,
    declared and computed once, before it (not in every block that uses them)."""
    end_label: str | None = None
    """Label after the last block (target of region returns), if used."""
