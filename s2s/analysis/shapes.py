"""Vector shapes: the stride-alignment lattice of seed 001 Chapter 10.

A vector shape describes the values one SSA value takes in the W lanes of a
vector iteration (lanes t = 0 .. W-1, only active lanes count):

  1. ``(s, a)`` strided, ``stride`` = s (an int): lane t holds ``a*k + s*t``
     for one integer k, i.e. lane 0 is a multiple of the alignment a and the
     lanes step by s.  ``s == 0`` is *uniform*.  ``a == 0`` means lane 0 is
     exactly 0 (the shape of the constant 0).
  2. ``a`` varying, ``stride`` = None: the lanes are unrelated, but each of
     them is a multiple of a (a >= 1).
  3. bottom: no value known yet (unreachable code, start of the fixed point).

Integers use the full lattice in value units; pointers use it in BYTES, so a
``ptr<f64>`` that walks an array has stride 8.  Floats and ``i1`` only use the
basic lattice of Section 6.1 (uniform / varying, alignment 1).

Order (Figure 10.6, with ``x | 0`` for every x): bottom is below everything;
``(s, a) <= (s, a')`` iff a' divides a; ``(s, a) <= a'`` iff a' divides
gcd(s, a); ``a <= a'`` iff a' divides a.  ``join`` is the least upper bound,
every ascending chain is finite (Theorem 6), so the fixed point terminates.

Text form (used verbatim in test expectations):
``uni``, ``uni(a16)``, ``stride(4)``, ``stride(4,a16)``, ``var``, ``var(a8)``, ``bot``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..ir.types import PtrType

if TYPE_CHECKING:
    from ..ir.region import Region
    from ..ir.values import Argument


@dataclass(frozen=True)
class VectorShape:
    """One element of the stride-alignment lattice (see the module docstring)."""

    stride: int | None
    """Difference between neighbouring lanes; None when the lanes are unrelated."""
    alignment: int = 1
    """Lane 0 (strided) or every lane (varying) is a multiple of this; 0 = exactly 0."""
    defined: bool = True
    """False only for bottom (no information yet)."""

    def __post_init__(self) -> None:
        if self.alignment < 0:
            raise ValueError(f"negative alignment {self.alignment}")
        if self.defined and self.stride is None and self.alignment == 0:
            # A varying shape whose lanes are all exactly 0 is uniform 0.
            object.__setattr__(self, "stride", 0)

    # -- named constructors -------------------------------------------------------
    @staticmethod
    def uniform(align: int = 1) -> VectorShape:
        """Same value in every lane, a multiple of ``align``."""
        return VectorShape(0, align)

    @staticmethod
    def strided(stride: int, align: int = 1) -> VectorShape:
        """Lane t holds ``base + stride*t`` with base a multiple of ``align``."""
        return VectorShape(stride, align)

    @staticmethod
    def varying(align: int = 1) -> VectorShape:
        """Unrelated lanes, each a multiple of ``align``."""
        return VectorShape(None, max(align, 1))

    @staticmethod
    def bottom() -> VectorShape:
        """No value yet (the start of the fixed-point iteration)."""
        return VectorShape(None, 1, defined=False)

    # -- queries -------------------------------------------------------------------------
    @property
    def is_bottom(self) -> bool:
        return not self.defined

    @property
    def is_uniform(self) -> bool:
        return self.defined and self.stride == 0

    @property
    def is_varying(self) -> bool:
        """True for the unrelated-lanes class (not for non-zero strides)."""
        return self.defined and self.stride is None

    @property
    def is_strided(self) -> bool:
        """A constant non-zero stride."""
        return self.defined and self.stride is not None and self.stride != 0

    def is_contiguous(self, elem_size: int = 1) -> bool:
        """Stride equals the element size (pointers, bytes) or 1 (integers: elem_size=1)."""
        return self.defined and self.stride == elem_size

    def lane_alignment(self) -> int:
        """``threadalign`` of Figure 10.8: what every lane is a multiple of (0 = all 0)."""
        if self.stride is None:
            return self.alignment
        return math.gcd(self.stride, self.alignment)

    # -- lattice -------------------------------------------------------------------------
    def join(self, other: VectorShape) -> VectorShape:
        """Least upper bound (each lane may come from either operand)."""
        if self.is_bottom:
            return other
        if other.is_bottom:
            return self
        if self.stride is not None and self.stride == other.stride:
            return VectorShape(self.stride, math.gcd(self.alignment, other.alignment))
        return VectorShape.varying(math.gcd(self.lane_alignment(), other.lane_alignment()))

    def __le__(self, other: VectorShape) -> bool:
        """The partial order of Figure 10.6 (``x | 0`` for every x)."""
        if self.is_bottom:
            return True
        if other.is_bottom:
            return False
        if other.stride is None:
            return _divides(other.alignment, self.lane_alignment())
        return self.stride == other.stride and _divides(other.alignment, self.alignment)

    def __lt__(self, other: VectorShape) -> bool:
        return self != other and self <= other

    # -- text -------------------------------------------------------------------------------
    def __str__(self) -> str:
        if self.is_bottom:
            return "bot"
        if self.stride is None:
            return "var" if self.alignment == 1 else f"var(a{self.alignment})"
        if self.stride == 0:
            return "uni" if self.alignment == 1 else f"uni(a{self.alignment})"
        if self.alignment == 1:
            return f"stride({self.stride})"
        return f"stride({self.stride},a{self.alignment})"

    @staticmethod
    def parse(text: str) -> VectorShape:
        """Inverse of ``str``."""
        text = text.strip()
        if text == "bot":
            return VectorShape.bottom()
        m = _SHAPE_RE.fullmatch(text)
        if m is None:
            raise ValueError(f"bad vector shape '{text}'")
        kind, stride, align = m.group("kind"), m.group("stride"), m.group("align")
        a = int(align) if align is not None else 1
        if kind == "var":
            if stride is not None:
                raise ValueError(f"bad vector shape '{text}'")
            return VectorShape.varying(a)
        if kind == "uni":
            if stride is not None:
                raise ValueError(f"bad vector shape '{text}'")
            return VectorShape.uniform(a)
        if stride is None:
            raise ValueError(f"bad vector shape '{text}'")
        return VectorShape.strided(int(stride), a)


_SHAPE_RE = re.compile(
    r"(?P<kind>uni|var|stride)"
    r"(?:\((?:(?P<stride>-?\d+))?(?:,?a(?P<align>\d+))?\))?"
)


def _divides(d: int, n: int) -> bool:
    """``d | n`` with the convention that 0 divides only 0."""
    if d == 0:
        return n == 0
    return n % d == 0


def region_arg_shapes(region: Region) -> dict[Argument, VectorShape]:
    """The shapes of a region's parameters: iv/linear -> strided(step)
    (pointers: bytes; uniform with a run-time step), the lane number of a
    masked last iteration or of lane refill -> strided(1), reduction ->
    varying, else uniform."""
    shapes: dict[Argument, VectorShape] = {}
    for b in region.args:
        if b.role == "lane":
            shapes[b.arg] = VectorShape.strided(1)
        elif b.role in ("iv", "linear") and isinstance(b.step, str):
            # a run-time step: the parameter is lane 0's value, the body adds
            # lane * step (frontend.lower)
            shapes[b.arg] = VectorShape.uniform()
        elif b.role in ("iv", "linear"):
            step = int(b.step)  # a constant step (run-time ones are above)
            if isinstance(b.arg.type, PtrType):
                step *= b.arg.type.pointee.size
            shapes[b.arg] = VectorShape.strided(step) if step else VectorShape.uniform()
        elif b.role == "reduction":
            shapes[b.arg] = VectorShape.varying()
        else:
            shapes[b.arg] = VectorShape.uniform()
    return shapes
