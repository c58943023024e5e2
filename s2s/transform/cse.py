"""The pass ``cse``: common-subexpression elimination after linearization.

The elimination itself is IR-level (s2s.ir.value_numbering), because the
front end runs it too, on the region it has just lowered.
"""

from __future__ import annotations

from ..ir.value_numbering import eliminate_common_subexpressions
from .passes import Pass, PassState, did_any


def _run(state: PassState) -> int:
    return eliminate_common_subexpressions(state.fn)


PASS = Pass("cse", _run, changed=did_any)
