"""Source locations and the two kinds of problems s2svec reports.

``Unsupported``: s2svec cannot vectorize a region correctly; the region stays
scalar and a warning names the construct (exit status stays 0).
``UserError``: the input itself is wrong (bad clause, parse error); exit 1.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class _Problem(Exception):
    severity = "error"

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def format(self) -> str:
        """The compiler convention ``file:line:col: severity: text``."""
        where = f"{self.location}: " if self.location else "s2svec: "
        return f"{where}{self.severity}: {self.message}"


class Unsupported(_Problem):
    """A construct s2svec cannot vectorize; the region is left scalar."""

    severity = "warning"


class DeviceCode(Unsupported):
    """Code the build also compiles for an offload device (``declare
    target`` with ``-fopenmp-targets=``...): left to the compiler, which
    makes the vector variants of its declare simd functions itself."""


class UserError(_Problem):
    """The input is wrong; s2svec exits with status 1."""

    severity = "error"


def internal_error(what: str, location: Location | None = None) -> Unsupported:
    """A state s2svec should never reach.  The region stays scalar (correct,
    only slower) and the warning asks for a report instead of showing
    internals."""
    return Unsupported(
        f"internal error: {what}; please report this loop to the s2svec developers", location
    )
