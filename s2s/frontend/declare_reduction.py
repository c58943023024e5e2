"""``#pragma omp declare reduction``: user-defined reductions of the file.

    #pragma omp declare reduction(name : type, type... : combiner) \
        [initializer(omp_priv = expr) | initializer(f(&omp_priv, ...))]

The combiner is an expression of ``omp_out`` and ``omp_in`` that leaves their
combination in ``omp_out``; the initializer sets ``omp_priv`` (it may read
``omp_orig``, the original variable).  A loop's ``reduction(name : x)`` takes
the declaration of that name for x's type that comes before the loop
(s2s.frontend.lower); the code generator gives each lane a private copy set
by the initializer and combines the lanes with the combiner after the loop
(s2s.codegen.generate, ``udr_init``/``udr_combine``).
"""

from __future__ import annotations

from ..ir.clauses import Token, UserReduction
from .clauses import join_tokens


def parse_declare_reduction(tokens: list[Token]) -> UserReduction | None:
    """The declaration of the tokens after ``declare reduction``; None when
    they are not one s2svec reads (the loops that use it then stay scalar:
    no declaration of their reduction)."""
    inner, rest = _parenthesized(tokens)
    if inner is None:
        return None
    parts = _split_colons(inner, 2)
    if len(parts) != 3 or not parts[0] or not parts[1] or not parts[2]:
        return None
    types = tuple(join_tokens(t) for t in _split_commas(parts[1]))
    initializer = ""
    if rest:
        if rest[0].text != "initializer":
            return None
        init, after = _parenthesized(rest[1:])
        if init is None or after:
            return None
        initializer = join_tokens(init)
    return UserReduction(
        join_tokens(parts[0]).replace(" ", ""),
        types,
        join_tokens(parts[2]),
        initializer,
        tokens[0].location,
    )


def _parenthesized(tokens: list[Token]) -> tuple[list[Token] | None, list[Token]]:
    """The tokens inside a leading ``( ... )`` and those after it."""
    if not tokens or tokens[0].text != "(":
        return None, tokens
    depth = 0
    for k, tok in enumerate(tokens):
        depth += {"(": 1, ")": -1}.get(tok.text, 0)
        if depth == 0:
            return tokens[1:k], tokens[k + 1 :]
    return None, tokens


def _split_colons(tokens: list[Token], most: int) -> list[list[Token]]:
    """Split at the first ``most`` colons outside parentheses (the
    combiner after them may hold a ``?:``)."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for tok in tokens:
        depth += {"(": 1, ")": -1, "[": 1, "]": -1}.get(tok.text, 0)
        if tok.text == ":" and depth == 0 and len(parts) <= most:
            parts.append([])
        else:
            parts[-1].append(tok)
    return parts


def _split_commas(tokens: list[Token]) -> list[list[Token]]:
    parts: list[list[Token]] = [[]]
    for tok in tokens:
        if tok.text == ",":
            parts.append([])
        else:
            parts[-1].append(tok)
    return [p for p in parts if p]
