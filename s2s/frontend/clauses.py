"""The parser of one ``#pragma omp`` line (the clause model is s2s.ir.clauses).

``parse_pragma(tokens, location, lookup)`` turns the tokens that follow
``#pragma omp`` (``parse_pragma_line`` the text of the whole line) into a
``ClauseSet``, or ``None`` when the directive is not
one of the four SIMD directives this tool handles::

    simd | for simd | parallel for simd | declare simd

Constant arguments (simdlen, safelen, collapse, alignments, linear steps) are
integer constant expressions over literals and object-like macros; ``lookup``
maps a macro name to its replacement text. Every problem is a ``UserError``
located at the clause keyword.

For ``for simd`` / ``parallel for simd`` the clauses that also belong to the
worksharing construct are kept verbatim in ``ClauseSet.other`` so that the
driver can re-emit ``#pragma omp [parallel] for <other>`` on the vector loop.

Three kinds of problems:

- malformed or contradictory clauses (a missing parenthesis, ``simdlen(n)``,
  ``simdlen`` > ``safelen``, one variable in two data-sharing clauses, a
  clause name OpenMP does not have): ``UserError``, the file is rejected;
- valid OpenMP that s2svec does not implement, or a clause the directive does
  not take (``reduction(task, +: x)``, a user-defined reduction,
  ``allocate``, ``if(target: c)``, ``linear(ref(x))`` on a loop):
  ``ClauseSet.unsupported``, the loop stays scalar with a warning;
- remarks that change nothing (``simdlen`` beyond any vector):
  ``ClauseSet.notes``, printed as warnings.

The variables each clause names (``ClauseSet.variables``) and the tokens of
clause expressions (``ClauseSet.expressions``) are kept with their locations:
``pragmas`` checks that they are declared where the pragma is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from s2s.diagnostics import Location, Unsupported, UserError

from ..ir.clauses import (
    DIRECTIVES,
    REDUCTION_OPS,
    Aligned,
    ClauseSet,
    Linear,
    Reduction,
    Token,
    VarRef,
)

Lookup = Callable[[str], str | None]
"""Macro name -> replacement text (None when not an object-like macro)."""

# Clauses of the simd part of a loop directive / of declare simd.
_LOOP_SIMD = {
    "simdlen",
    "safelen",
    "linear",
    "aligned",
    "reduction",
    "private",
    "lastprivate",
    "collapse",
    "if",
    "nontemporal",
    "order",
}
_DECLARE_SIMD = {"simdlen", "linear", "aligned", "uniform", "inbranch", "notinbranch"}
# The clauses each construct that may come before ``simd`` in a combined
# construct takes (OpenMP 5.2 for C; ``if`` on teams is left out, as gcc 12
# and clang do).  A clause the kept constructs take is kept verbatim for
# them (``ClauseSet.other``), also when simd takes it too (``private``,
# ``reduction``, ...: s2svec reads those as well); simd's own clauses
# (``safelen``, ``aligned``, ...) are s2svec's only.
LEAF_CLAUSES: dict[str, frozenset[str]] = {
    name: frozenset(clauses.split())
    for name, clauses in {
        "for": "private firstprivate lastprivate linear reduction schedule collapse ordered "
        "nowait allocate order",
        "parallel": "if num_threads default private firstprivate shared copyin reduction "
        "proc_bind allocate",
        "distribute": "private firstprivate lastprivate collapse dist_schedule allocate order",
        "teams": "num_teams thread_limit default private firstprivate shared reduction allocate",
        "target": "if device map private firstprivate in_reduction defaultmap nowait depend "
        "allocate uses_allocators is_device_ptr has_device_addr thread_limit",
        "taskloop": "if shared private firstprivate lastprivate reduction in_reduction default "
        "grainsize num_tasks collapse final priority untied mergeable nogroup allocate",
        "master": "",
        "masked": "filter",
    }.items()
}
_KNOWN = _LOOP_SIMD | _DECLARE_SIMD | set().union(*LEAF_CLAUSES.values())


def _behaviour(clause: _Clause) -> str:
    """The first word of a ``default``/``defaultmap`` clause."""
    args = [t.text for t in clause.args or []]
    return args[0] if args else ""


def kept_clauses(kept: str) -> frozenset[str]:
    """The clauses the constructs of ``kept`` (``target teams distribute``)
    take together."""
    return frozenset().union(*(LEAF_CLAUSES.get(word, frozenset()) for word in kept.split()))


_DATA_SHARING = ("private", "lastprivate", "linear", "reduction", "uniform")
_LINEAR_MODIFIERS = ("ref", "val", "uval")
_LIST_CLAUSES = {
    "private",
    "lastprivate",
    "linear",
    "aligned",
    "reduction",
    "nontemporal",
    "uniform",
}
# Every clause name of OpenMP 4.5 to 5.2: one s2svec does not take on a
# directive leaves the loop scalar; any other name is a syntax error.
OPENMP_CLAUSES = frozenset(
    """
    absent acq_rel acquire adjust_args affinity align aligned allocate allocator append_args
    at atomic_default_mem_order bind capture collapse compare contains copyin copyprivate
    default defaultmap depend destroy detach device device_type dist_schedule doacross
    dynamic_allocators enter exclusive fail filter final firstprivate from full grainsize
    has_device_addr hint holds if in_reduction inbranch inclusive indirect init
    is_device_ptr lastprivate linear link map match memory_order mergeable message nocontext
    nogroup nontemporal notinbranch novariants nowait num_tasks num_teams num_threads order
    ordered partial priority private proc_bind read reduction relaxed release
    reverse_offload safelen schedule seq_cst severity shared simd simdlen sizes
    task_reduction thread_limit threads to unified_address unified_shared_memory uniform
    untied update use use_device_addr use_device_ptr uses_allocators weak when write
    """.split()
)
MAX_LANES = 64
"""The most lanes any target's widest vector has (512 bits of 8-bit elements)."""


# --------------------------------------------------------------------------
# Tokens

_PUNCT2 = {"&&", "||", "<<", ">>", "<=", ">=", "==", "!=", "->", "++", "--"}


def tokenize(text: str, start: Location) -> list[Token]:
    """Split pragma text into C tokens; ``start`` is where ``text[0]`` is.

    Backslash-newlines are spliced and comments count as whitespace, as in
    translation phases 2-3. Columns are byte columns, like clang's.
    """
    chars = _logical_chars(text, start)
    tokens: list[Token] = []
    i, space = 0, False
    while i < len(chars):
        ch = chars[i][0]
        nxt = chars[i + 1][0] if i + 1 < len(chars) else ""
        if ch.isspace():
            i, space = i + 1, True
            continue
        if ch == "/" and nxt in "*/" and nxt:
            i, space = _skip_comment(chars, i), True
            continue
        end = _token_end(chars, i)
        word = "".join(c for c, _, _ in chars[i:end])
        line, col = chars[i][1], chars[i][2]
        tokens.append(Token(word, Location(start.file, line, col), space))
        i, space = end, False
    return tokens


def _logical_chars(text: str, start: Location) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    line, col, i = start.line, start.column, 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and text[i + 1 : i + 2] == "\n":
            i, line, col = i + 2, line + 1, 1
            continue
        if ch == "\\" and text[i + 1 : i + 3] == "\r\n":
            i, line, col = i + 3, line + 1, 1
            continue
        out.append((ch, line, col))
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += len(ch.encode("utf-8", errors="surrogateescape"))
        i += 1
    return out


def _skip_comment(chars: list[tuple[str, int, int]], i: int) -> int:
    if chars[i + 1][0] == "/":
        while i < len(chars) and chars[i][0] != "\n":
            i += 1
        return i
    i += 2
    while i + 1 < len(chars) and not (chars[i][0] == "*" and chars[i + 1][0] == "/"):
        i += 1
    return min(i + 2, len(chars))


def _token_end(chars: list[tuple[str, int, int]], i: int) -> int:
    ch = chars[i][0]
    nxt = chars[i + 1][0] if i + 1 < len(chars) else ""
    if ch.isalpha() or ch == "_":
        j = i + 1
        while j < len(chars) and (chars[j][0].isalnum() or chars[j][0] == "_"):
            j += 1
        return j
    if ch.isdigit() or (ch == "." and nxt.isdigit()):
        return _number_end(chars, i)
    if ch in "\"'":
        j = i + 1
        while j < len(chars) and chars[j][0] not in (ch, "\n"):
            j += 2 if chars[j][0] == "\\" else 1
        return min(j + 1, len(chars))
    if ch + nxt in _PUNCT2:
        return i + 2
    return i + 1


def _number_end(chars: list[tuple[str, int, int]], i: int) -> int:
    # A preprocessing number: digits, letters, '.', and signs after e/E/p/P.
    j = i + 1
    while j < len(chars):
        c = chars[j][0]
        if c.isalnum() or c in "._" or (c in "+-" and chars[j - 1][0] in "eEpP"):
            j += 1
        else:
            break
    return j


def join_tokens(tokens: list[Token]) -> str:
    """Rebuild source text, one space where the source had any whitespace."""
    return "".join((" " if t.space_before and k else "") + t.text for k, t in enumerate(tokens))


# --------------------------------------------------------------------------
# Integer constant expressions


class _NotConstant(Exception):
    pass


def evaluate_constant(tokens: list[Token], lookup: Lookup) -> int | None:
    """The value of an integer constant expression, None if it is not one."""
    try:
        expanded = _expand(tokens, lookup, frozenset())
        value, pos = _expr(expanded, 0, 0)
        if pos != len(expanded):
            return None
        return value
    except (_NotConstant, RecursionError):  # also hundreds of thousands of '('
        return None


def _expand(tokens: list[Token], lookup: Lookup, active: frozenset[str]) -> list[str]:
    out: list[str] = []
    for token in tokens:
        body = lookup(token.text) if _is_ident(token.text) and token.text not in active else None
        if body is None:
            out.append(token.text)
            continue
        inner = tokenize(body, token.location)
        out.extend(_expand(inner, lookup, active | {token.text}))
    return out


_BINARY = {
    "*": 10,
    "/": 10,
    "%": 10,
    "+": 9,
    "-": 9,
    "<<": 8,
    ">>": 8,
    "&": 5,
    "^": 4,
    "|": 3,
}


def _expr(toks: list[str], pos: int, min_prec: int) -> tuple[int, int]:
    """Precedence climbing over ``_BINARY``; returns (value, next position)."""
    left, pos = _unary(toks, pos)
    while pos < len(toks) and _BINARY.get(toks[pos], -1) > min_prec:
        op = toks[pos]
        right, pos = _expr(toks, pos + 1, _BINARY[op])
        left = _apply(op, left, right)
    return left, pos


def _unary(toks: list[str], pos: int) -> tuple[int, int]:
    if pos >= len(toks):
        raise _NotConstant()
    tok = toks[pos]
    if tok in ("+", "-", "~", "!"):
        value, pos = _unary(toks, pos + 1)
        return {"+": value, "-": -value, "~": ~value, "!": int(not value)}[tok], pos
    if tok == "(":
        value, pos = _expr(toks, pos + 1, 0)
        if pos >= len(toks) or toks[pos] != ")":
            raise _NotConstant()
        return value, pos + 1
    return _integer_literal(tok), pos + 1


def _apply(op: str, a: int, b: int) -> int:
    if op in ("/", "%"):
        if b == 0:
            raise _NotConstant()
        quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)  # C truncates
        return quotient if op == "/" else a - quotient * b
    if op in ("<<", ">>") and (b < 0 or b > 64):
        raise _NotConstant()
    funcs: dict[str, Callable[[int, int], int]] = {
        "*": lambda x, y: x * y,
        "+": lambda x, y: x + y,
        "-": lambda x, y: x - y,
        "<<": lambda x, y: x << y,
        ">>": lambda x, y: x >> y,
        "&": lambda x, y: x & y,
        "^": lambda x, y: x ^ y,
        "|": lambda x, y: x | y,
    }
    return funcs[op](a, b)


def _integer_literal(tok: str) -> int:
    body = tok.rstrip("uUlL")
    if not body or not body[0].isdigit():
        raise _NotConstant()
    try:
        if body[:2] in ("0x", "0X"):
            return int(body[2:], 16)
        if body[:2] in ("0b", "0B"):
            return int(body[2:], 2)
        if len(body) > 1 and body[0] == "0":
            return int(body[1:], 8)
        return int(body, 10)
    except ValueError as exc:
        raise _NotConstant() from exc


def _is_ident(text: str) -> bool:
    return bool(text) and (text[0].isalpha() or text[0] == "_") and text.replace("_", "a").isalnum()


def _is_step_call(texts: list[str]) -> bool:
    """``step ( expr )`` (OpenMP 5.2 linear step)."""
    return len(texts) > 3 and texts[:2] == ["step", "("] and texts[-1] == ")"


def _bad_step(step: str) -> str:
    return f"linear step '{step}' must be a constant or a 'uniform' parameter"


def _is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


# --------------------------------------------------------------------------
# The pragma parser


def parse_pragma(tokens: list[Token], location: Location, lookup: Lookup) -> ClauseSet | None:
    """Parse the tokens after ``#pragma omp``; None for non-SIMD directives."""
    directive, count = _match_directive(tokens)
    if directive is None:
        return None
    parser = _ClauseParser(ClauseSet(directive, location), lookup)
    parser.parse(tokens[count:])
    return parser.finish()


# Words of OpenMP directive names (4.5 to 5.2), for naming the directives
# s2svec does not handle (``target teams distribute parallel for simd``).
_DIRECTIVE_WORDS = frozenset(
    """
    allocate allocators assume assumes atomic barrier begin cancel cancellation critical
    data declare depobj dispatch distribute do end enter error exit flush for interop loop
    masked master metadirective nothing ordered parallel point requires scan scope section
    sections simd single target task taskgroup taskloop taskwait taskyield teams
    threadprivate tile unroll update variant workshare
    """.split()
)


def expand_object_macros(
    tokens: list[Token], lookup: Callable[[str], str | None], limit: int = 64
) -> list[Token]:
    """Compilers expand macros in OpenMP pragmas (``#pragma omp F S`` with
    ``#define F simd``): each object-like macro outside parentheses -- where
    directive and clause names stand -- is read as its body, each body token
    at the macro's place (``limit`` expansions at most: a macro that names
    itself stops there; OpenMP's own words are not asked about: a macro
    named ``simd`` would be odd, and asking walks every macro of the
    file once).  Clause arguments keep their macros: the output
    names them, so the build's definitions count (``parse_pragma`` reads
    their values where it needs them)."""
    out = list(tokens)
    k, depth = 0, 0
    while k < len(out):
        word = out[k].text
        depth += {"(": 1, ")": -1}.get(word, 0)
        known = word in _DIRECTIVE_WORDS or word in _KNOWN or word in OPENMP_CLAUSES
        asked = limit > 0 and depth == 0 and word.isidentifier() and not known
        body = lookup(word) if asked else None
        if body is None:
            k += 1
            continue
        where, space = out[k].location, out[k].space_before
        body_tokens = tokenize(body, where)
        out[k : k + 1] = [
            Token(t.text, where, t.space_before if n else space) for n, t in enumerate(body_tokens)
        ]
        limit -= 1
    return out


def directive_words(tokens: list[Token]) -> list[str]:
    """The directive name of the tokens after ``#pragma omp``, as words.

    A word followed by ``(`` ends the name unless it starts it or follows
    ``declare`` (``critical(name)``, ``declare variant(f)``), so that the
    clause of ``parallel for reduction(+: s)`` is not taken for a word."""
    words: list[str] = []
    for k, tok in enumerate(tokens):
        if tok.text not in _DIRECTIVE_WORDS:
            break
        if k + 1 < len(tokens) and tokens[k + 1].text == "(" and words and words[-1] != "declare":
            break
        words.append(tok.text)
    return words


def is_simd_loop_construct(words: list[str]) -> bool:
    """A loop construct that asks for SIMD execution (``taskloop simd``,
    ``target teams distribute parallel for simd``, ``loop``), other than the
    ones s2svec handles and than ``ordered simd`` (inside a loop)."""
    if not words or words[0] in ("declare", "begin", "end", "ordered"):
        return False
    return "simd" in words or "loop" in words


def _match_directive(tokens: list[Token]) -> tuple[str | None, int]:
    words = directive_words(tokens)
    for count in range(len(words), 0, -1):
        name = " ".join(words[:count])
        if name in DIRECTIVES:
            return name, count
    return None, 0


@dataclass
class _Clause:
    """One clause: its keyword token and the tokens between its parentheses."""

    name: str
    location: Location
    args: list[Token] | None
    """None when the clause has no parenthesised argument."""
    tokens: list[Token]
    """All of the clause's tokens, to keep it verbatim."""

    def error(self, message: str) -> UserError:
        return UserError(message, self.location)

    @property
    def text(self) -> str:
        return join_tokens(self.tokens)


def split_clauses(tokens: list[Token]) -> list[_Clause]:
    """Group clause tokens: ``name`` or ``name ( ... )``, optional commas between."""
    clauses: list[_Clause] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.text == "," and clauses:
            i += 1
            continue
        if not _is_ident(tok.text):
            raise UserError(f"expected an OpenMP clause, found '{tok.text}'", tok.location)
        if i + 1 < len(tokens) and tokens[i + 1].text == "(":
            close = _matching_paren(tokens, i + 1, tok)
            args, whole = tokens[i + 2 : close], tokens[i : close + 1]
            clauses.append(_Clause(tok.text, tok.location, args, whole))
            i = close + 1
        else:
            clauses.append(_Clause(tok.text, tok.location, None, [tok]))
            i += 1
    return clauses


def _matching_paren(tokens: list[Token], open_index: int, clause: Token) -> int:
    depth = 0
    for j in range(open_index, len(tokens)):
        if tokens[j].text == "(":
            depth += 1
        elif tokens[j].text == ")":
            depth -= 1
            if depth == 0:
                return j
    raise UserError(f"expected ')' in '{clause.text}' clause", clause.location)


def _split_top(tokens: list[Token], sep: str) -> list[list[Token]]:
    """Split at ``sep`` tokens outside parentheses."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for tok in tokens:
        if tok.text in ("(", "["):
            depth += 1
        elif tok.text in (")", "]"):
            depth -= 1
        if tok.text == sep and depth == 0:
            parts.append([])
        else:
            parts[-1].append(tok)
    return parts


def _map_variables(args: list[Token]) -> list[str]:
    """The variables a ``map`` clause names: the base name of each list
    item (``a`` of ``a[0:n]``, ``s`` of ``s.x``), after the map type."""
    head, rest = _split_colon(args)
    items = _split_top(rest if rest is not None else head, ",")
    return [item[0].text for item in items if item and _is_ident(item[0].text)]


def _split_colon(tokens: list[Token]) -> tuple[list[Token], list[Token] | None]:
    """``a : b`` -> (a, b) at the first top-level colon; (tokens, None) without one."""
    parts = _split_top(tokens, ":")
    if len(parts) == 1:
        return tokens, None
    rest: list[Token] = []
    for part in parts[1:-1]:
        rest += part + [Token(":", part[-1].location if part else tokens[0].location, True)]
    return parts[0], rest + parts[-1]


class _ClauseParser:
    """Fills a ClauseSet clause by clause, checking each against the directive."""

    def __init__(self, result: ClauseSet, lookup: Lookup) -> None:
        self.result = result
        self.lookup = lookup
        self.seen: dict[str, _Clause] = {}
        self.sharing: dict[str, str] = {}  # variable -> first data-sharing clause
        self.listed: set[tuple[str, str]] = set()  # (clause, var) for aligned/nontemporal
        self.verbatim: list[str] = []
        self.linear_clauses: list[tuple[Linear, _Clause]] = []
        self.if_modifiers: set[str] = set()
        self.kept = kept_clauses(result.kept)
        """The clauses the constructs kept with the loop take (none for
        ``simd`` and ``declare simd``)."""

    def parse(self, tokens: list[Token]) -> None:
        for clause in split_clauses(tokens):
            if not self._check_allowed(clause):
                continue
            handler = getattr(self, f"_clause_{clause.name}", None)
            if handler is None:  # a clause of the kept constructs only
                self._keep(clause)
                continue
            handler(clause)
            if clause.name in self.kept and clause.name != "if":
                self._keep(clause)  # simd's and the kept constructs' (if: _clause_if)

    def _keep(self, clause: _Clause) -> None:
        if clause.name == "default" and _behaviour(clause) == "none":
            # Only a check of the program's own clauses, which the original
            # passes: without it the vector code's own variables, set before
            # the kept constructs, are shared, as they must be.
            return
        self.verbatim.append(clause.text)
        self.result.other_clauses.append((clause.name, clause.text))
        if self.result.kept.startswith("teams "):
            self._split_teams(clause)
        if clause.name == "map" and clause.args:
            self.result.mapped += _map_variables(clause.args)
        elif clause.name == "firstprivate" and clause.args:
            items = _split_top(clause.args, ",")
            self.result.firstprivate += [i[0].text for i in items if len(i) == 1]
        elif clause.name in ("default", "defaultmap"):
            self._check_default(clause)
        elif clause.name == "grainsize" and clause.args:
            head, rest = _split_colon(clause.args)
            modifier = join_tokens(head) if rest is not None else ""
            self.result.grainsize = (modifier, join_tokens(rest if rest is not None else head))

    def _split_teams(self, clause: _Clause) -> None:
        """``teams distribute ...``: which clauses go on ``teams`` and which on
        ``distribute [parallel for]`` should the two be written apart
        (OpenMP 5.2, 17.2: private, firstprivate and lastprivate to the
        innermost construct that takes them, teams then shares the variable;
        reduction, shared and default to every construct that takes them)."""
        inner = kept_clauses(self.result.kept[len("teams ") :])
        name = clause.name
        if name in ("num_teams", "thread_limit", "shared", "default", "reduction"):
            self.result.teams_clauses.append(clause.text)
        if name in inner and name not in ("num_teams", "thread_limit"):
            self.result.inner_clauses.append((name, clause.text))

    def _check_default(self, clause: _Clause) -> None:
        """The vector code's own variables (trip count, pointers, constants)
        are set before the loop the kept constructs go on: ``default(private)``
        would leave them unset in the loop, ``default(firstprivate)`` and
        ``defaultmap(none)`` are not done either (``default(none)`` is
        dropped: ``_keep``)."""
        behaviour = _behaviour(clause)
        unset = (clause.name == "default" and behaviour != "shared") or (
            clause.name == "defaultmap" and behaviour == "none"
        )
        if unset and self.result.worksharing:
            self.unsupported(
                clause,
                f"'{clause.text}' on '#pragma omp {self.result.directive}' is not "
                "supported: the vector loop's own variables, set before it, have no "
                "data-sharing clause",
            )

    def finish(self) -> ClauseSet:
        result = self.result
        simdlen, safelen = result.simdlen, result.safelen
        if simdlen is not None and safelen is not None and simdlen > safelen:
            raise self.seen["simdlen"].error(
                f"'simdlen' ({simdlen}) must not be greater than 'safelen' ({safelen})"
            )
        if result.directive == "declare simd":
            # A variable step must name a uniform parameter (known only now).
            for lin, clause in self.linear_clauses:
                if isinstance(lin.step, str) and lin.step not in result.uniform:
                    raise clause.error(_bad_step(lin.step))
        result.other = " ".join(self.verbatim)
        return result

    # -- checks shared by all clauses ------------------------------------

    def _check_allowed(self, clause: _Clause) -> bool:
        """Whether the directive takes the clause (False: it is recorded as
        unsupported and skipped); an unknown name is an error."""
        directive = self.result.directive
        name = clause.name
        if name not in _KNOWN and name not in OPENMP_CLAUSES:
            raise clause.error(f"unknown clause '{name}' in '#pragma omp {directive}'")
        allowed = _DECLARE_SIMD if directive == "declare simd" else _LOOP_SIMD | self.kept
        if name not in allowed:
            self.unsupported(
                clause, f"'{name}' clause is not supported on '#pragma omp {directive}'"
            )
            return False
        if name in ("simdlen", "safelen", "collapse", "order") and name in self.seen:
            raise clause.error(f"'{name}' clause appears more than once")
        self.seen.setdefault(name, clause)
        return True

    def unsupported(self, clause: _Clause, message: str) -> None:
        self.result.unsupported.append(Unsupported(message, clause.location))

    def _args(self, clause: _Clause) -> list[Token]:
        if clause.args is None:
            raise clause.error(f"expected '(' after '{clause.name}'")
        if not clause.args:
            what = "list" if clause.name in _LIST_CLAUSES else "argument"
            raise clause.error(f"empty {what} in '{clause.name}' clause")
        return clause.args

    def _no_args(self, clause: _Clause) -> None:
        if clause.args is not None:
            raise clause.error(f"'{clause.name}' clause takes no argument")

    def _names(self, clause: _Clause, tokens: list[Token]) -> list[str]:
        if not tokens:
            raise clause.error(f"empty list in '{clause.name}' clause")
        names: list[str] = []
        for item in _split_top(tokens, ","):
            if len(item) != 1 or not _is_ident(item[0].text):
                found = join_tokens(item) or ","
                raise clause.error(
                    f"expected a variable name in '{clause.name}' clause, found '{found}'"
                )
            names.append(item[0].text)
            self.result.variables.append(VarRef(clause.name, item[0].text, item[0].location))
        return names

    def _share(self, clause: _Clause, var: str) -> None:
        # A variable may appear in at most one data-sharing clause.
        first = self.sharing.get(var)
        if first is not None:
            raise clause.error(f"variable '{var}' already appears in a '{first}' clause")
        self.sharing[var] = clause.name

    def _list_once(self, clause: _Clause, var: str) -> None:
        if (clause.name, var) in self.listed:
            raise clause.error(
                f"variable '{var}' appears more than once in '{clause.name}' clauses"
            )
        self.listed.add((clause.name, var))

    def _constant(self, clause: _Clause, tokens: list[Token], what: str) -> int:
        value = evaluate_constant(tokens, self.lookup)
        if value is None:
            raise clause.error(f"{what} must be a constant integer expression")
        if value <= 0:
            raise clause.error(f"{what} must be positive")
        return value

    # -- one method per clause -------------------------------------------

    def _clause_simdlen(self, clause: _Clause) -> None:
        lanes = self._constant(clause, self._args(clause), "'simdlen' argument")
        if not _is_power_of_two(lanes) and self.result.directive == "declare simd":
            # gcc makes no clones of it either ("unsupported simdlen")
            self.unsupported(
                clause, f"'simdlen({lanes})' is not a power of two: no vector length has it"
            )
        elif not _is_power_of_two(lanes):  # OpenMP takes any positive length: a hint
            lanes = 1 << (lanes.bit_length() - 1)
            self.result.notes.append(
                Unsupported(
                    f"'simdlen' is not a power of two: {lanes} lanes are preferred instead",
                    clause.location,
                )
            )
        if lanes > MAX_LANES:
            self.result.notes.append(
                Unsupported(
                    f"'simdlen({lanes})' is more lanes than any target's vectors hold (at most "
                    f"{MAX_LANES}); each target uses its widest vector instead",
                    clause.location,
                )
            )
        self.result.simdlen = lanes

    def _clause_safelen(self, clause: _Clause) -> None:
        self.result.safelen = self._constant(clause, self._args(clause), "'safelen' argument")

    def _clause_collapse(self, clause: _Clause) -> None:
        self.result.collapse = self._constant(clause, self._args(clause), "'collapse' argument")

    def _clause_private(self, clause: _Clause) -> None:
        for var in self._names(clause, self._args(clause)):
            self._share(clause, var)
            self.result.private.append(var)

    def _clause_lastprivate(self, clause: _Clause) -> None:
        head, rest = _split_colon(self._args(clause))
        conditional = rest is not None
        if conditional and [t.text for t in head] != ["conditional"]:
            raise clause.error(f"unknown 'lastprivate' modifier '{join_tokens(head)}'")
        for var in self._names(clause, rest if rest is not None else head):
            self._share(clause, var)
            self.result.lastprivate.append(var)
            if conditional:
                self.result.lastprivate_conditional.append(var)

    def _clause_reduction(self, clause: _Clause) -> None:
        head, rest = _split_colon(self._args(clause))
        if rest is None:
            raise clause.error("expected ':' after the reduction operator")
        parts = _split_top(head, ",")
        supported = True
        inscan = False
        if len(parts) == 2:
            modifier = join_tokens(parts[0])
            if modifier == "task":
                self.unsupported(clause, f"'reduction({modifier}, ...)' is not supported")
                supported = False
            elif modifier == "inscan":
                inscan = True
            elif modifier != "default":
                raise clause.error(f"unknown reduction modifier '{modifier}'")
        elif len(parts) != 1:
            raise clause.error("malformed 'reduction' clause")
        if any(r.inscan != inscan for r in self.result.reductions):
            # OpenMP 5.2 5.5.8: all or none of a construct's reductions are inscan
            raise clause.error("'inscan' and non-'inscan' 'reduction' clauses on one construct")
        op = join_tokens(parts[-1]).replace(" ", "")
        if op not in REDUCTION_OPS and not _is_ident(op):
            raise clause.error(f"unknown reduction operator '{op}'")
        # an identifier names a '#pragma omp declare reduction' (found with
        # the pragma, s2s.frontend.pragmas)
        for var in self._names(clause, rest):
            self._share(clause, var)
            if supported:
                self.result.reductions.append(Reduction(op, var, inscan))

    def _clause_in_reduction(self, clause: _Clause) -> None:
        """``taskloop simd in_reduction(op: x)`` (or ``target``): the task's
        copy of x, which the kept construct names, is the simd loop's
        reduction variable (lanes combined into it after the loop, as gcc
        vectorizes it); the clause stays on the kept construct verbatim."""
        head, rest = _split_colon(self._args(clause))
        if rest is None:
            raise clause.error("expected ':' after the reduction operator")
        op = join_tokens(head).replace(" ", "")
        if op not in REDUCTION_OPS and not _is_ident(op):
            raise clause.error(f"unknown reduction operator '{op}'")
        if any(r.inscan for r in self.result.reductions):
            raise clause.error("'in_reduction' with 'inscan' reductions on one construct")
        for var in self._names(clause, rest):
            self._share(clause, var)
            self.result.reductions.append(Reduction(op, var, False))
            self.result.mapped.append(var)

    def _clause_linear(self, clause: _Clause) -> None:
        head, rest = _split_colon(self._args(clause))
        modifier, names = self._linear_head(clause, head)
        step: int | str = 1
        if rest is not None:
            new_modifier, step = self._linear_tail(clause, rest)
            if new_modifier and modifier:
                raise clause.error("linear modifier given twice")
            modifier = modifier or new_modifier
        if modifier == "val" and self.result.directive != "declare simd":
            modifier = ""  # the default for loops (OpenMP 5.2)
        if modifier and self.result.directive != "declare simd":
            self.unsupported(
                clause,
                f"linear modifier '{modifier}' is only supported on '#pragma omp declare simd'",
            )
        for var in names:
            self._share(clause, var)
            lin = Linear(var, step, modifier)
            self.result.linear.append(lin)
            self.linear_clauses.append((lin, clause))

    def _linear_head(self, clause: _Clause, head: list[Token]) -> tuple[str, list[str]]:
        # OpenMP 4.5 form: ref(list) / val(list) / uval(list).
        if len(head) >= 2 and head[0].text in _LINEAR_MODIFIERS and head[1].text == "(":
            if head[-1].text != ")":
                raise clause.error("malformed 'linear' clause")
            return head[0].text, self._names(clause, head[2:-1])
        return "", self._names(clause, head)

    def _linear_tail(self, clause: _Clause, rest: list[Token]) -> tuple[str, int | str]:
        """After the colon: a step (4.5) or 5.2 modifiers ``val``, ``step(s)``."""
        items = _split_top(rest, ",")
        first = [t.text for t in items[0]]
        is_modifier_form = (
            len(items) > 1
            or first[:2] == ["step", "("]
            or (len(first) == 1 and first[0] in _LINEAR_MODIFIERS)
        )
        if not is_modifier_form:
            return "", self._linear_step(clause, rest)
        modifier, step = "", None
        for item in items:
            texts = [t.text for t in item]
            if len(texts) == 1 and texts[0] in _LINEAR_MODIFIERS and not modifier:
                modifier = texts[0]
            elif _is_step_call(texts) and step is None:
                step = self._linear_step(clause, item[2:-1])
            else:
                raise clause.error(f"malformed 'linear' clause near '{join_tokens(item)}'")
        return modifier, 1 if step is None else step

    def _linear_step(self, clause: _Clause, tokens: list[Token]) -> int | str:
        if not tokens:
            raise clause.error("empty linear step")
        value = evaluate_constant(tokens, self.lookup)
        if value is not None:
            return value
        is_name = len(tokens) == 1 and _is_ident(tokens[0].text)
        if self.result.directive == "declare simd" and not is_name:
            raise clause.error(_bad_step(join_tokens(tokens)))
        self.result.expressions.append((clause.name, tokens))
        return join_tokens(tokens)

    def _clause_aligned(self, clause: _Clause) -> None:
        head, rest = _split_colon(self._args(clause))
        alignment = None
        if rest is not None:
            alignment = self._constant(clause, rest, "alignment in 'aligned' clause")
            if not _is_power_of_two(alignment):
                raise clause.error(
                    f"alignment in 'aligned' clause must be a power of two, not {alignment}"
                )
        for var in self._names(clause, head):
            self._list_once(clause, var)
            self.result.aligned.append(Aligned(var, alignment))

    def _clause_nontemporal(self, clause: _Clause) -> None:
        for var in self._names(clause, self._args(clause)):
            self._list_once(clause, var)
            self.result.nontemporal.append(var)

    def _clause_uniform(self, clause: _Clause) -> None:
        for var in self._names(clause, self._args(clause)):
            self._share(clause, var)
            self.result.uniform.append(var)

    def _clause_if(self, clause: _Clause) -> None:
        args = self._args(clause)
        modifier = ""
        if len(args) >= 2 and args[1].text == ":" and _is_ident(args[0].text):
            modifier, args = args[0].text, args[2:]
        if not args:
            raise clause.error("empty expression in 'if' clause")
        kept = self.result.kept.split()
        if modifier not in ("", "simd") and not (
            modifier in kept and "if" in LEAF_CLAUSES.get(modifier, frozenset())
        ):
            # Another construct's condition (target, teams, task...).
            self.unsupported(
                clause,
                f"'if({modifier}: ...)' is not supported on '#pragma omp {self.result.directive}'",
            )
            return
        self.result.expressions.append(("if", args))
        # One 'if' per directive name; an unmodified 'if' covers all of them.
        seen = self.if_modifiers
        if modifier in seen or "" in seen or (modifier == "" and seen):
            raise clause.error("'if' clause appears more than once")
        self.if_modifiers.add(modifier)
        if modifier in ("", "simd"):
            self.result.if_simd = join_tokens(args)
        if modifier != "simd" and "if" in self.kept:
            self._keep(clause)  # also the condition of a kept construct

    def _clause_order(self, clause: _Clause) -> None:
        head, rest = _split_colon(self._args(clause))
        if rest is not None and [t.text for t in head] not in (["reproducible"], ["unconstrained"]):
            raise clause.error(f"unknown 'order' modifier '{join_tokens(head)}'")
        if [t.text for t in (rest if rest is not None else head)] != ["concurrent"]:
            raise clause.error("expected 'concurrent' in 'order' clause")
        self.result.order_concurrent = True

    def _clause_inbranch(self, clause: _Clause) -> None:
        self._branch(clause, True)

    def _clause_notinbranch(self, clause: _Clause) -> None:
        self._branch(clause, False)

    def _branch(self, clause: _Clause, value: bool) -> None:
        self._no_args(clause)
        if self.result.inbranch is not None and self.result.inbranch != value:
            raise clause.error("'inbranch' and 'notinbranch' cannot be used together")
        self.result.inbranch = value


def parse_pragma_line(
    text: str, location: Location, lookup: Lookup = lambda name: None
) -> ClauseSet | None:
    """Parse a whole ``#pragma omp ...`` line starting at ``location``.

    None when the line is not an OpenMP SIMD directive.
    """
    tokens = tokenize(text, location)
    if [t.text for t in tokens[:3]] != ["#", "pragma", "omp"]:
        return None
    return parse_pragma(tokens[3:], location, lookup)
