"""What a generated function has in scope: values, arrays (pointer
parameters by role), reductions, uniform parameters and printed results."""

from __future__ import annotations

from dataclasses import dataclass, field

from c_types import CType


@dataclass
class Value:
    name: str
    type: CType
    uniform: bool
    steps: bool = False
    """Its value may step from lane to lane (derived from the loop variable)."""


@dataclass
class Array:
    """A pointer parameter; `role` says how it is filled, accessed and passed."""

    name: str
    type: CType
    role: str  # in | table | out | mask | gidx | perm | lim
    reads: list[tuple[int, int]] = field(default_factory=list)
    """(stride, offset) of unguarded reads at stride * k + offset (role in)."""
    guarded: bool = False
    index: str = ""  # role out: the element this iteration writes
    mask: Array | None = None  # role gidx: wild indices where mask is 0
    limit: str = ""  # role lim: the uniform parameter bounding its extent
    fill: str = "any"
    fields: int = 0  # role rec: elements per record (struct fz_r<fields>_<tag>)

    @property
    def struct(self) -> str:
        return f"struct fz_r{self.fields}_{self.type.tag}"


@dataclass
class Reduction:
    var: Value
    op: str
    updated: bool = False
    declared: str = ""
    """The name of a ``declare reduction`` that does what ``op`` does (the
    clause names it; the updates are ``op``'s)."""


@dataclass
class Scalar:
    """A uniform parameter: its C type and how main picks it per size."""

    value: Value
    init: str


@dataclass
class Result:
    """A scalar the function hands back through a pointer, printed by main."""

    value: Value
    kind: str  # exact | red | minmax
    only_if_trip: bool
