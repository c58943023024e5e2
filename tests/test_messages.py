"""Warnings speak of the user's C, never of s2svec's internals (issue 10, item 13).

A loop left scalar gets ``file:line:col: warning: ...`` naming the construct
where it is; internal errors say so and ask for a report.  Before, messages
showed Python reprs (``value <Cmp 139840159868880 : i1> used before its
definition``), libclang cursor kinds (``'GOTO_STMT'``) and IR types
(``i1``, ``ptr<f64>``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from s2s.driver import Options, run

INTERNALS = [
    re.compile(r"<\w+ [0-9a-z_.]+ : [^>]+>"),  # Value.__repr__
    re.compile(r"\b0x[0-9a-f]{6,}\b|\b\d{9,}\b"),  # object ids
    re.compile(r"'(?:if|for|while|do|sw|land|lor|cond)\.[a-z]+'"),  # block names
    re.compile(r"\b[A-Z]+_(?:STMT|EXPR|DECL|OPERATOR)\b"),  # libclang kinds
    re.compile(r"\b(?:[iuf](?:1|8|16|32|64)|ptr<[^>]*>|struct\.\w+)\b"),  # IR types
]

# (body of a simd loop over i, the line and column the warning must point at,
#  words the message must contain)
CASES = [
    ("if (x[i] > 0) goto out;\n  }\n  out: ;\n  {", (8, 19), "'goto' in simd loop"),
    ("lab: y[i] = 1;", (8, 5), "label in simd loop"),
]

PRELUDE = """\
struct P { double a; int b; };
void f(int n, double *x, double *y, int *k, struct P *s, const struct P *t)
{
  #pragma omp simd
  for (int i = 0; i < n; i++) {
    /* line 6 */
    /* line 7 */
"""


@pytest.mark.parametrize("body, where, words", CASES, ids=[c[2][:30] for c in CASES])
def test_warning_names_the_construct(
    tmp_path: Path, body: str, where: tuple[int, int], words: str
) -> None:
    src = tmp_path / "k.c"
    src.write_text(PRELUDE + "    " + body + "\n  }\n}\n")
    result = run(str(src), Options(targets=["avx2"]))
    assert len(result.warnings) == 1, result.warnings
    warning = result.warnings[0]
    assert warning.startswith(f"{src}:{where[0]}:{where[1]}: warning: "), warning
    assert words in warning
    for pattern in INTERNALS:
        assert not pattern.search(warning), (pattern.pattern, warning)


def test_internal_errors_ask_for_a_report() -> None:
    from s2s.diagnostics import internal_error

    e = internal_error("a value is used before its definition")
    assert e.message.startswith("internal error: a value is used before its definition")
    assert "please report" in e.message


def test_no_repr_in_messages_of_the_pipeline() -> None:
    """No message raised by the front end, the transforms, the analyses or the
    code generator formats a Python object with !r or a bare IR object."""
    root = Path(__file__).resolve().parents[1] / "s2s"
    raising = re.compile(
        r"(?:Unsupported|unsupported|internal_error|UserError|fail|internal)"
        r"\(\s*f\"([^\"]*)\""
    )
    for path in root.rglob("*.py"):
        if path.parent.name == "ir":
            continue  # developer tools: IR parser, verifier, interpreter
        for message in raising.findall(path.read_text()):
            assert "!r}" not in message, (path, message)
            for bare in re.findall(r"\{(\w+)\}", message):
                assert bare not in ("v", "inst", "value", "block", "phi", "term", "fn"), (
                    path,
                    message,
                )
