"""The optimization report: one entry per annotated region and target.

The JSON form follows the schema of docs/user/report.rst exactly (the
statistics of seed 001 Figure 13.1); the text form is compiler-style
remarks, one per entry.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field


def _counts(*names: str) -> dict[str, int]:
    return {n: 0 for n in names}


@dataclass
class RegionReport:
    file: str
    line: int
    kind: str
    """``loop`` or ``function``."""
    name: str
    target: str
    vectorized: bool = False
    reason: str | None = None
    width: int = 0
    scalable: bool = False
    """The target's vectors are scalable (SVE): ``width`` lanes per 128 bits,
    the lanes of a vector ``vscale * width`` at run time."""
    branches: dict[str, int] = field(default_factory=lambda: _counts("uniform", "divergent"))
    loops: dict[str, int] = field(default_factory=lambda: _counts("uniform", "divergent"))
    memory: dict[str, int] = field(
        default_factory=lambda: _counts(
            "contiguous", "strided", "gather", "scatter", "masked", "uniform"
        )
    )
    calls: dict[str, int] = field(
        default_factory=lambda: _counts("vector_variant", "vector_math", "serialized", "inlined")
    )
    boscc: int = 0
    allocas: dict[str, int] = field(default_factory=lambda: _counts("uniform", "varying"))
    call_sites: list[dict[str, object]] = field(default_factory=list)
    """Each call of the source: ``callee``, ``line``, ``column``, ``how``
    (``inlined``, ``variant``, ``vector math``, ``serialized``) and
    ``detail`` (the variant or vector function called, or why the call runs
    lane by lane)."""
    column: int = field(default=0, repr=False)
    """Kept for the text form; not part of the JSON schema."""
    refill: bool = field(default=False, repr=False)
    """Lane refill (transform.refill); the text form says so, the JSON
    schema has no key for it."""
    notes: list[str] = field(default_factory=list, repr=False)
    """``file:line:col: note: ...`` lines after the remark (where the BOSCC
    gadgets and all-true paths went); text form only."""

    def to_json(self) -> dict[str, object]:
        d = asdict(self)
        del d["column"], d["refill"], d["notes"]
        return d

    def to_text(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}"
        what = "loop" if self.kind == "loop" else f"function '{self.name}'"
        if not self.vectorized:
            return f"{where}: remark: {what} not vectorized for {self.target}: {self.reason}"
        parts = [f"{k} {v}" for k, v in self.memory.items() if v]
        parts += [f"{k} {v}" for k, v in self.calls.items() if v]
        detail = f" ({', '.join(parts)})" if parts else ""
        branches = self.branches["uniform"] + self.branches["divergent"]
        if branches:
            detail += (
                f"; branches: {self.branches['uniform']} uniform, "
                f"{self.branches['divergent']} divergent"
            )
        if self.refill:
            detail += "; lane refill"
        return "\n".join(
            [
                f"{where}: remark: {what} vectorized for {self.target} "
                f"with {'vscale x ' if self.scalable else ''}{self.width} lanes{detail}",
                *self.notes,
                *self.call_notes(),
            ]
        )

    def call_notes(self) -> list[str]:
        """A note per call that is not a vector math function: inlined,
        a vector variant, or lane by lane and why."""
        notes = []
        for site in self.call_sites:
            where = f"{site['file']}:{site['line']}:{site['column']}"
            callee, how, detail = site["callee"], site["how"], site["detail"]
            if how == "inlined":
                notes.append(f"{where}: note: call to '{callee}' inlined")
            elif how == "variant":
                notes.append(
                    f"{where}: note: call to '{callee}' calls its vector variant '{detail}'"
                )
            elif how == "serialized":
                notes.append(f"{where}: note: call to '{callee}' runs lane by lane: {detail}")
        return notes

    def add_call_site(self, how: str, callee: str, loc: object, detail: str = "") -> None:
        """Record one call (once, however many copies of it the code has)."""
        site: dict[str, object] = {
            "callee": callee,
            "file": getattr(loc, "file", self.file),
            "line": getattr(loc, "line", 0),
            "column": getattr(loc, "column", 0),
            "how": how,
            "detail": detail,
        }
        for known in self.call_sites:
            if all(known[k] == site[k] for k in ("callee", "file", "line", "column", "how")):
                if detail and detail not in str(known["detail"]).split(" / "):
                    known["detail"] = f"{known['detail']} / {detail}"  # copies of the call
                return
        self.call_sites.append(site)


def render_json(entries: list[RegionReport]) -> str:
    return json.dumps([e.to_json() for e in entries], indent=2) + "\n"


def render_text(entries: list[RegionReport]) -> str:
    return "".join(e.to_text() + "\n" for e in entries)
