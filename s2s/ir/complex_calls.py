"""Calls that compute one part of a complex operation the IR cannot spell.

The IR is real: a complex value is two values, its real and imaginary
parts (s2s/frontend/lower_complex.py).  An operation on complex values
that C leaves to a library -- a <complex.h> function (``cexp``, ``cpow``,
...) or a division, which gcc and clang hand to libgcc's ``__divdc3`` --
becomes two pure calls, one per part of the result, of small C helpers
that the code generator defines (templates/common/complex.j2)::

    %r = call f64 @s2s_cexp_re(f64 %x, f64 %y) pure    ; creal(cexp(x + y*I))
    %i = call f64 @s2s_cexp_im(f64 %x, f64 %y) pure    ; cimag(cexp(x + y*I))

A helper builds the complex operands from their parts and applies the
operation in C, so the compiler that builds the output evaluates it as it
evaluates the source (the same libm function, the same libgcc routine,
under the same flags): bit for bit the scalar program's result.  The
product ``*`` of two complex values is computed inline by the lowering;
only its Annex G recovery (both parts NaN: ``__muldc3``) goes through
``s2s_cmul_re``/``_im``, which multiply in C.

The code generator evaluates the two calls of one value with one call of
the pair helper (``s2s_cexp_pair``) per lane.

Rules: a helper's name is ``s2s_<op>_<part>`` with ``op`` the C function
(``cexp``, ``cexpf``) or ``cmul``/``cdiv`` (``cmulf``/``cdivf`` for float);
its arguments are the parts of its complex operands in order (re, im,
re, im); it has no effect but its result (so the calls are ``pure``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .types import F32, F64, FloatType

LIBRARY_FUNCTIONS = """
    cexp clog csqrt csin ccos ctan csinh ccosh ctanh casin cacos catan casinh cacosh catanh
    cproj
""".split()
"""<complex.h> functions of one complex argument with a complex result."""
BINARY_LIBRARY_FUNCTIONS = ("cpow",)
"""<complex.h> functions of two complex arguments with a complex result."""


@dataclass(frozen=True)
class ComplexCall:
    """One helper: a part of the result of one complex operation."""

    base: str
    """``cexp``, ``cexpf``, ``cpow`` ...; ``cmul``/``cdiv`` (``cmulf``/``cdivf``)."""
    part: str
    """``re`` or ``im``: which part of the result the helper returns."""
    real: FloatType
    """The type of each part (f32 for ``_Complex float``)."""
    operands: int
    """How many complex operands (each passed as two parts)."""

    @property
    def name(self) -> str:
        return f"s2s_{self.base}_{self.part}"

    @property
    def pair_name(self) -> str:
        """The helper that stores both parts through two pointers."""
        return f"s2s_{self.base}_pair"

    @property
    def sibling(self) -> str:
        """The helper of the other part of the same value."""
        return f"s2s_{self.base}_{'im' if self.part == 're' else 're'}"

    @property
    def operator(self) -> str:
        """The C operator of ``cmul``/``cdiv`` (``*``, ``/``), else ""."""
        return {"cmul": "*", "cdiv": "/"}.get(self.base.rstrip("f"), "")

    @property
    def function(self) -> str:
        """The <complex.h> function the helper calls ("" for an operator)."""
        return "" if self.operator else self.base

    @property
    def source(self) -> str:
        """What the source calls, as the report names it."""
        letter = "s" if self.real == F32 else "d"
        if self.operator == "*":
            return f"__mul{letter}c3"
        if self.operator == "/":
            return f"__div{letter}c3"
        return self.base

    @property
    def why(self) -> str:
        """Why the operation runs lane by lane (the report's reason)."""
        if self.operator == "*":
            return (
                "Annex G recovery of a complex product whose parts are both NaN, "
                "only on those lanes"
            )
        if self.operator == "/":
            return "complex division (libgcc's routine, as gcc and clang call it)"
        return f"'{self.base}' has no vector version (libmvec has no complex functions)"


def _table() -> dict[str, ComplexCall]:
    table: dict[str, ComplexCall] = {}
    for real, suffix in ((F64, ""), (F32, "f")):
        bases = [(f + suffix, 1) for f in LIBRARY_FUNCTIONS]
        bases += [(f + suffix, 2) for f in BINARY_LIBRARY_FUNCTIONS]
        bases += [("cmul" + suffix, 2), ("cdiv" + suffix, 2)]
        for base, operands in bases:
            for part in ("re", "im"):
                call = ComplexCall(base, part, real, operands)
                table[call.name] = call
    return table


COMPLEX_CALLS: dict[str, ComplexCall] = _table()
"""Every helper by its C name."""


def complex_call(base: str, real: FloatType, part: str) -> ComplexCall:
    """The helper of one part of ``base`` (a double name: ``cexp``, ``cmul``)
    for parts of type ``real``."""
    suffix = "f" if real == F32 else ""
    return COMPLEX_CALLS[f"s2s_{base}{suffix}_{part}"]


def complex_call_named(name: str) -> ComplexCall | None:
    return COMPLEX_CALLS.get(name)


__all__ = [
    "BINARY_LIBRARY_FUNCTIONS",
    "COMPLEX_CALLS",
    "LIBRARY_FUNCTIONS",
    "ComplexCall",
    "complex_call",
    "complex_call_named",
]
