"""Calls that make one ``#pragma omp atomic`` access of memory.

The IR has no atomic instructions.  The front end lowers the statement a
``#pragma omp atomic`` annotates in a simd loop (s2s/frontend/lower_omp.py)
to one call of a small C helper that the code generator defines
(templates/common/atomic.j2) and, like every call with effects, runs lane
by lane in lane order under the mask::

    #pragma omp atomic                 %p = gep ptr<i32> %hist, i64 %k
    hist[idx[i]] += w[i];              call void @s2s_atomic_update_add_i32_i32_relaxed(
                                                    ptr<i32> %p, i32 %w)

    #pragma omp atomic capture         %old = call i32 @s2s_atomic_old_add_i32_i32_relaxed(
    v = n++;                                          ptr<i32> %n, i32 1)

So every active lane's access happens, each a whole atomic access, in
iteration order; the address and the operand are computed for all lanes
at once beforehand (OpenMP evaluates them apart from the atomic access).
A helper uses the GNU ``__atomic`` builtins: gcc and clang both have them,
with or without ``-fopenmp``, and for the lock-free sizes they are the
instructions both compilers make of ``#pragma omp atomic``, so the access
stays atomic with respect to other threads (``parallel for simd``).

A helper's name says everything about it:
``s2s_atomic_<form>[_<op>]_<T>[_<U>]_<order>``

``form``
    ``update`` (no result), ``old`` or ``new`` (an update returning the
    value of x before or after it: ``capture``), ``read``, ``write``,
    ``swap`` (``{v = x; x = e;}``: a write returning the old value).
``op``
    Of the updates: ``add sub mul div and or xor shl shr``; with an ``r``
    in front (``rsub``) the operands are swapped: ``x = e - x``.
``T``, ``U``
    The type of x and the type the operation computes in (C's conversions:
    ``x op= e`` is ``x = (T)((U)x op e)``); ``i32``, ``u8``, ``f64`` ...
``order``
    The memory order: ``relaxed``, ``acquire``, ``release``, ``acq_rel``,
    ``seq_cst``.

The arguments are the address of x and, but for ``read``, the operand (of
type U; T for ``write`` and ``swap``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .types import F32, F64, FloatType, IntType, Type

FORMS = ("update", "old", "new", "read", "write", "swap")
"""What the helper does and returns (module docstring)."""
OPERATORS = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "div": "/",
    "and": "&",
    "or": "|",
    "xor": "^",
    "shl": "<<",
    "shr": ">>",
}
"""The operations of an atomic update and their C operators."""
COMMUTATIVE = frozenset({"add", "mul", "and", "or", "xor"})
ORDERS = ("relaxed", "acquire", "release", "acq_rel", "seq_cst")
ORDERED_PREFIX = "s2s_ordered_"
"""The functions an ``ordered simd`` block is outlined to (s2s/frontend/lower_omp.py)."""
SCAN_PREFIX = ORDERED_PREFIX + "scan_"
"""The helpers of ``#pragma omp scan`` (s2s/ir/region.py ``ScanHelper``): like
an ordered block, they run lane by lane in iteration order.  Their names,
``s2s_ordered_scan_<incl|excl>_<op>_<line>_<column>_<variable>``, say what
they compute (``scan_call_named``)."""
SCAN_OPS = {
    "+": "add",
    "-": "add",
    "*": "mul",
    "min": "min",
    "max": "max",
    "&": "and",
    "|": "or",
    "^": "xor",
    "&&": "land",
    "||": "lor",
}
"""The name part of each reduction operator (a ``declare reduction``: ``udr``)."""
_SCAN_NAME = re.compile(rf"{SCAN_PREFIX}(incl|excl)_([a-z]+)_\d+_\d+_\w+")


def scan_call_named(name: str) -> tuple[bool, str] | None:
    """(inclusive, operator) of a scan helper's call (the operator one of
    ``SCAN_OPS``' symbols, "" for a ``declare reduction``), None for other calls."""
    m = _SCAN_NAME.fullmatch(name)
    if m is None:
        return None
    ops = {v: k for k, v in reversed(SCAN_OPS.items())}  # add: '+'
    return m.group(1) == "incl", ops.get(m.group(2), "")


_FETCH = frozenset({"add", "sub", "and", "or", "xor"})
"""Operations with a ``__atomic_fetch_<op>`` builtin (integers only)."""
_FAIL = {
    "relaxed": "relaxed",
    "release": "relaxed",
    "acquire": "acquire",
    "acq_rel": "acquire",
    "seq_cst": "seq_cst",
}
"""The order of a failed compare-and-exchange (never stronger than the
success order, never a release)."""

_TYPES = r"(?:[iu](?:8|16|32|64)|f32|f64)"
_NAME = re.compile(
    rf"s2s_atomic_(?P<form>{'|'.join(FORMS)})(?:_(?P<op>r?(?:{'|'.join(OPERATORS)})))?"
    rf"_(?P<t>{_TYPES})(?:_(?P<u>{_TYPES}))?_(?P<order>{'|'.join(ORDERS)})"
)


def _type(key: str) -> Type:
    if key == "f32":
        return F32
    if key == "f64":
        return F64
    return IntType(int(key[1:]), key[0] == "i")


def c_type(t: Type) -> str:
    """The C spelling of an atomic operand type."""
    if isinstance(t, FloatType):
        return "float" if t.bits == 32 else "double"
    assert isinstance(t, IntType)
    return f"{'' if t.signed else 'u'}int{t.bits}_t"


def is_atomic_type(t: Type) -> bool:
    """Whether x of this type can be accessed atomically by a helper."""
    return (isinstance(t, IntType) and t.bits in (8, 16, 32, 64)) or t in (F32, F64)


@dataclass(frozen=True)
class AtomicCall:
    """One helper: an atomic access of one form, operation, types and order."""

    form: str
    t: Type
    """The type of x."""
    op: str = ""
    """The operation of an update (``add``, ``rsub`` ...); "" otherwise."""
    u: Type | None = None
    """The type the update computes in (None but for updates)."""
    order: str = "relaxed"

    def __post_init__(self) -> None:
        updates = self.form in ("update", "old", "new")
        if not (
            self.form in FORMS
            and self.order in ORDERS
            and is_atomic_type(self.t)
            and updates == bool(self.op) == (self.u is not None)
            and (self.u is None or is_atomic_type(self.u))
            and (not self.op or self.op.removeprefix("r") in OPERATORS)
        ):
            raise ValueError(f"not an atomic helper: {self}")

    @property
    def name(self) -> str:
        parts = [self.form, self.op, str(self.t), str(self.u) if self.u is not None else ""]
        return "s2s_atomic_" + "_".join(p for p in parts if p) + "_" + self.order

    @property
    def ctype(self) -> str:
        return c_type(self.t)

    @property
    def utype(self) -> str:
        """The C type of the operand (x's type but for updates)."""
        return c_type(self.u) if self.u is not None else self.ctype

    @property
    def returns(self) -> bool:
        return self.form not in ("update", "write")

    @property
    def reversed(self) -> bool:
        return self.op.startswith("r")

    @property
    def operator(self) -> str:
        return OPERATORS[self.op.removeprefix("r")] if self.op else ""

    @property
    def fetch(self) -> str:
        """The ``__atomic`` builtin that makes the whole update (integers
        whose wrapped result in T is the result of the operation: ``+ - & |
        ^`` commute with truncation), else "" (a compare-and-exchange loop)."""
        if (
            self.reversed
            or self.op not in _FETCH
            or not isinstance(self.t, IntType)
            or not isinstance(self.u, IntType)
        ):
            return ""
        if self.form == "new":
            return f"__atomic_{self.op}_fetch"
        return f"__atomic_fetch_{self.op}"

    @property
    def order_macro(self) -> str:
        return f"__ATOMIC_{self.order.upper()}"

    @property
    def fail_macro(self) -> str:
        return f"__ATOMIC_{_FAIL[self.order].upper()}"

    @property
    def why(self) -> str:
        """The report's reason for running it lane by lane."""
        return f"'#pragma omp atomic' {self.describe} runs lane by lane, in iteration order"

    @property
    def describe(self) -> str:
        if self.form == "read":
            return "read"
        if self.form in ("write", "swap"):
            return "write"
        return f"'{self.operator}' update"


def atomic_call_named(name: str) -> AtomicCall | None:
    """The helper a call names, if it is one."""
    m = _NAME.fullmatch(name)
    if m is None:
        return None
    u = m.group("u")
    try:
        return AtomicCall(
            m.group("form"),
            _type(m.group("t")),
            m.group("op") or "",
            _type(u) if u else None,
            m.group("order"),
        )
    except ValueError:
        return None


__all__ = [
    "COMMUTATIVE",
    "FORMS",
    "OPERATORS",
    "ORDERED_PREFIX",
    "ORDERS",
    "SCAN_OPS",
    "SCAN_PREFIX",
    "AtomicCall",
    "atomic_call_named",
    "c_type",
    "is_atomic_type",
    "scan_call_named",
]
