"""The comments that name each branch of the output's ``#if`` chains.

Why: which branch a build compiles depends on its compiler, its flags and
the file's own macros; the report alone cannot know.  Every branch s2svec
writes starts with a comment naming the target (or ``scalar``) and the
region (the loop's ``file:line:col``, or the vector variant's name), so a
preprocessor run that keeps comments (``CC -E -C``) shows which one the
build takes (``s2s.branch_check``), and so does a reader of the output.
"""

from __future__ import annotations

SCALAR = "scalar"
"""The branch that keeps the original code (``#else``)."""


def loop_region(file: str, line: int, column: int) -> str:
    """How a marker names a simd loop: ``the loop at k.c:3:1``."""
    return f"the loop at {file}:{line}:{column}"


def variant_region(mangled: str) -> str:
    """How a marker names a vector variant: ``_ZGVdN8v_f``."""
    return mangled


def branch_marker(branch: str, region: str) -> str:
    """``/* s2svec branch: avx2 code of the loop at k.c:3:1 */``."""
    return f"/* s2svec branch: {branch} code of {_commented(region)} */"


def isa_marker(target: str) -> str:
    """What the branch check's probe writes where ``target``'s ISA condition
    holds: ``/* s2svec probe: the build selects avx2 */``."""
    return f"/* s2svec probe: the build selects {target} */"


def _commented(text: str) -> str:
    """``text`` that cannot end the comment (a file named ``a*/b.c``)."""
    return text.replace("*/", "*\\/").replace("\n", " ")
