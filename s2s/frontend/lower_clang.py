"""libclang helpers the lowering needs that clang.cindex does not wrap.

The Python bindings of libclang 18 do not expose operator kinds, constant
evaluation or variable initializers, but the native library does; these
wrappers call it through ctypes.  Everything else here is small cursor
plumbing shared by the lowering modules: locations, source text, stripping
parentheses and implicit casts.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from dataclasses import dataclass

import clang.cindex as ci

from ..diagnostics import Location, Unsupported, internal_error
from .parse import original_location

_lib = ci.conf.lib
_SETUP_DONE = False

# Type kinds libclang 18 reports that its Python bindings do not list
# (clang-c/Index.h CXTypeKind): without them ``Type.kind`` raises ValueError.
_MISSING_TYPE_KINDS = {
    32: "FLOAT16",
    33: "SHORTACCUM",
    34: "ACCUM",
    35: "LONGACCUM",
    36: "USHORTACCUM",
    37: "UACCUM",
    38: "ULONGACCUM",
    39: "BFLOAT16",
    161: "OBJCOBJECT",
    162: "OBJCTYPEPARAM",
    163: "ATTRIBUTED",
    178: "BTFTAGATTRIBUTED",
    **{k: f"OCLEXTENSION{k}" for k in range(164, 176)},
}


def _register_missing_type_kinds() -> None:
    known = ci.TypeKind._kinds
    for value, name in _MISSING_TYPE_KINDS.items():
        if value >= len(known) or known[value] is None:
            setattr(ci.TypeKind, name, ci.TypeKind(value))


_register_missing_type_kinds()


def _setup() -> None:
    """Declare the ctypes signatures once (libclang is loaded lazily)."""
    global _SETUP_DONE
    if _SETUP_DONE:
        return
    _lib.clang_getCursorBinaryOperatorKind.argtypes = [ci.Cursor]
    _lib.clang_getCursorBinaryOperatorKind.restype = ctypes.c_int
    _lib.clang_getBinaryOperatorKindSpelling.argtypes = [ctypes.c_int]
    _lib.clang_getBinaryOperatorKindSpelling.restype = ci._CXString
    _lib.clang_getCursorUnaryOperatorKind.argtypes = [ci.Cursor]
    _lib.clang_getCursorUnaryOperatorKind.restype = ctypes.c_int
    _lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
    _lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
    _lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
    _lib.clang_EvalResult_getKind.restype = ctypes.c_int
    _lib.clang_EvalResult_isUnsignedInt.argtypes = [ctypes.c_void_p]
    _lib.clang_EvalResult_isUnsignedInt.restype = ctypes.c_uint
    _lib.clang_EvalResult_getAsUnsigned.argtypes = [ctypes.c_void_p]
    _lib.clang_EvalResult_getAsUnsigned.restype = ctypes.c_ulonglong
    _lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
    _lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
    _lib.clang_EvalResult_getAsDouble.argtypes = [ctypes.c_void_p]
    _lib.clang_EvalResult_getAsDouble.restype = ctypes.c_double
    _lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
    _lib.clang_EvalResult_dispose.restype = None
    _lib.clang_Cursor_getVarDeclInitializer.argtypes = [ci.Cursor]
    initializer = _lib.clang_Cursor_getVarDeclInitializer
    initializer.restype = ci.Cursor
    # ctypes' stubs want an errcheck to give C data back; this one gives None for the null cursor
    initializer.errcheck = ci.Cursor.from_result  # pyright: ignore[reportAttributeAccessIssue]
    _lib.clang_Cursor_isAnonymousRecordDecl.argtypes = [ci.Cursor]
    _lib.clang_Cursor_isAnonymousRecordDecl.restype = ctypes.c_uint
    _SETUP_DONE = True


def binary_op(c: ci.Cursor) -> str:
    """The spelling of a binary or compound assignment operator (``+``, ``<<=``, ``,``)."""
    _setup()
    kind = _lib.clang_getCursorBinaryOperatorKind(c)
    return ci._CXString.from_result(_lib.clang_getBinaryOperatorKindSpelling(kind))


# CXUnaryOperatorKind values (clang-c/Index.h).
UNARY_OPS = {
    1: "post++",
    2: "post--",
    3: "pre++",
    4: "pre--",
    5: "&",
    6: "*",
    7: "+",
    8: "-",
    9: "~",
    10: "!",
    11: "__real",
    12: "__imag",
    13: "__extension__",
    14: "co_await",
}


def unary_op(c: ci.Cursor) -> str:
    """``post++ post-- pre++ pre-- & * + - ~ !`` (or the exotic GNU ones)."""
    _setup()
    return UNARY_OPS.get(_lib.clang_getCursorUnaryOperatorKind(c), "?")


def evaluate(c: ci.Cursor) -> int | float | None:
    """The value of a constant expression (literal, sizeof, enum, macro
    arithmetic), or None when clang cannot fold it."""
    _setup()
    res = _lib.clang_Cursor_Evaluate(c)
    if not res:
        return None
    try:
        kind = _lib.clang_EvalResult_getKind(res)
        if kind == 1:  # CXEval_Int
            if _lib.clang_EvalResult_isUnsignedInt(res):
                return int(_lib.clang_EvalResult_getAsUnsigned(res))
            return int(_lib.clang_EvalResult_getAsLongLong(res))
        if kind == 2:  # CXEval_Float
            return float(_lib.clang_EvalResult_getAsDouble(res))
        return None
    finally:
        _lib.clang_EvalResult_dispose(res)


def var_initializer(c: ci.Cursor) -> ci.Cursor | None:
    """The initializer expression of a VAR_DECL, None without one."""
    _setup()
    init = _lib.clang_Cursor_getVarDeclInitializer(c)
    if init is None or init.kind.is_invalid():
        return None
    return init


def is_anonymous_record(c: ci.Cursor) -> bool:
    """Whether a struct/union declaration is a C11 anonymous member
    (``struct S { int tag; union { int i; float f; }; }``)."""
    _setup()
    return bool(_lib.clang_Cursor_isAnonymousRecordDecl(c))


def location(c: ci.Cursor) -> Location:
    loc = c.location
    line, column = original_location(c.translation_unit, loc)
    return Location(loc.file.name if loc.file else "<unknown>", line, column)


def unsupported(message: str, c: ci.Cursor) -> Unsupported:
    return Unsupported(message, location(c))


def declaration(t: ci.Type) -> ci.Cursor:
    """The declaration of a record, enum or typedef type (which has one)."""
    decl = t.get_declaration()
    if decl is None:
        raise internal_error(f"the type '{t.spelling}' has no declaration")
    return decl


def omp_directive(c: ci.Cursor) -> tuple[str, ci.SourceLocation] | None:
    """The name and place of the first ``#pragma omp`` (or ``_Pragma("omp
    ...")``) in the text of ``c`` (lexed, so also in ``#if``-skipped code)."""
    toks = list(c.get_tokens())
    for k, tok in enumerate(toks):
        words = [t.spelling for t in toks[k + 1 : k + 4]]
        if tok.spelling == "#" and words[:2] == ["pragma", "omp"]:
            return (words[2] if len(words) > 2 else ""), tok.location
        if tok.spelling == "_Pragma" and len(words) > 1 and words[0] == "(":
            text = words[1].strip("LuU8").strip('"').split()
            if text[:1] == ["omp"]:
                return (text[1] if len(text) > 1 else ""), tok.location
    return None


def strip_parens(c: ci.Cursor) -> ci.Cursor:
    while c.kind == ci.CursorKind.PAREN_EXPR:
        c = _only_child(c)
    return c


def strip_implicit(c: ci.Cursor) -> ci.Cursor:
    """Skip parentheses and implicit casts (UNEXPOSED_EXPR with one child)."""
    while c.kind in (ci.CursorKind.PAREN_EXPR, ci.CursorKind.UNEXPOSED_EXPR):
        kids = children(c)
        if len(kids) != 1:
            break
        c = kids[0]
    return c


def _only_child(c: ci.Cursor) -> ci.Cursor:
    kids = children(c)
    if len(kids) != 1:
        raise unsupported(f"{construct_name(c)} in simd loop", c)
    return kids[0]


_CONSTRUCTS = {
    "LABEL_STMT": "label",
    "GOTO_STMT": "'goto'",
    "INDIRECT_GOTO_STMT": "computed 'goto'",
    "ADDR_LABEL_EXPR": "address of a label",
    "GCC_ASM_STMT": "inline assembly",
    "ASM_STMT": "inline assembly",
    "MS_ASM_STMT": "inline assembly",
    "STMTEXPR": "statement expression",
    "GENERIC_SELECTION_EXPR": "'_Generic'",
    "UNARY_EXPR": "'sizeof' or '_Alignof' of a run-time size",
    "INIT_LIST_EXPR": "initializer list",
    "STRING_LITERAL": "string literal",
    "CHARACTER_LITERAL": "character literal",
    "COMPOUND_LITERAL_EXPR": "compound literal",
    "CALL_EXPR": "call",
    "ARRAY_SUBSCRIPT_EXPR": "array subscript",
    "MEMBER_REF_EXPR": "member access",
    "CSTYLE_CAST_EXPR": "cast",
    "CONDITIONAL_OPERATOR": "'?:'",
    "BINARY_OPERATOR": "binary operator",
    "COMPOUND_ASSIGNMENT_OPERATOR": "compound assignment",
    "UNARY_OPERATOR": "unary operator",
    "DECL_REF_EXPR": "reference",
    "UNEXPOSED_EXPR": "expression clang does not describe",
    "UNEXPOSED_STMT": "statement clang does not describe",
    "UNEXPOSED_DECL": "declaration clang does not describe",
    "STATIC_ASSERT": "'_Static_assert'",
    "FUNCTION_DECL": "function declaration",
    "TYPEDEF_DECL": "typedef",
    "STRUCT_DECL": "struct definition",
    "UNION_DECL": "union definition",
    "ENUM_DECL": "enum definition",
    "VAR_DECL": "variable declaration",
    "NULL_STMT": "empty statement",
    "DECL_STMT": "declaration",
    "CASE_STMT": "'case' label",
    "DEFAULT_STMT": "'default' label",
    "SEH_TRY_STMT": "'__try'",
    "SEH_LEAVE_STMT": "'__leave'",
}


def construct_name(c: ci.Cursor) -> str:
    """What the user wrote, in C words (``'goto'``, ``label``), for messages
    about a libclang cursor; never the cursor kind's internal name."""
    name = c.kind.name
    if name in _CONSTRUCTS:
        return _CONSTRUCTS[name]
    if name.startswith("OMP_"):
        return "OpenMP directive"
    words = name.lower().split("_")
    suffix = {
        "stmt": "statement",
        "expr": "expression",
        "decl": "declaration",
        "operator": "operator",
        "literal": "literal",
    }.get(words[-1])
    return " ".join(words[:-1] + [suffix]) if suffix and len(words) > 1 else " ".join(words)


_VISIT = ci.callbacks["cursor_visit"]


def children(c: ci.Cursor) -> list[ci.Cursor]:
    """The direct children of a cursor, all of them or an exception.

    ``Cursor.get_children`` silently returns a truncated list when its
    Python callback raises (ctypes reports the exception as "ignored" and
    the walk stops): at the recursion limit a statement would lose its
    children.  Here an early stop raises ``RecursionError`` instead."""
    kids: list[ci.Cursor] = []

    def visit(child: ci.Cursor, _parent: ci.Cursor, _data: object) -> int:
        child._tu = c._tu  # keep the translation unit alive
        kids.append(child)
        return 1  # CXChildVisit_Continue

    if ci.conf.lib.clang_visitChildren(c, _VISIT(visit), None):
        raise RecursionError("libclang walk interrupted: expression nested too deeply")
    return kids


def walk_preorder(c: ci.Cursor) -> Iterator[ci.Cursor]:
    """``c`` and its descendants in pre-order, like ``Cursor.walk_preorder``
    but with an explicit stack: libclang's recursive generator costs time
    proportional to the depth for every cursor (quadratic on a 10,000-term
    sum) and needs one C stack frame per level."""
    stack = [c]
    while stack:
        cur = stack.pop()
        yield cur
        kids = children(cur)
        kids.reverse()
        stack.extend(kids)


@dataclass
class SourceText:
    """The bytes of one source file, for slicing cursor extents."""

    path: str
    data: bytes

    @classmethod
    def load(cls, path: str, text: str | bytes | None = None) -> SourceText:
        if text is None:
            with open(path, "rb") as f:
                return cls(path, f.read())
        if isinstance(text, str):
            text = text.encode("utf-8", errors="surrogateescape")
        return cls(path, text)

    def slice(self, start: int, end: int) -> str:
        """The text between two byte offsets; bytes that are not UTF-8 become
        surrogate escapes, so encoding with ``surrogateescape`` restores them."""
        return self.data[start:end].decode("utf-8", errors="surrogateescape")

    def of(self, c: ci.Cursor) -> str:
        """The source spelling of a cursor (macros unexpanded)."""
        ext = c.extent
        if (
            ext.start.file is None
            or ext.start.file.name != self.path
            or ext.end.file is None
            or ext.end.file.name != self.path
        ):
            return " ".join(t.spelling for t in c.get_tokens())
        return self.slice(ext.start.offset, ext.end.offset)


def decl_key(decl: ci.Cursor) -> tuple[str, int, str]:
    """A stable identity for a declaration (cursors are re-created on each walk)."""
    loc = decl.location
    return (loc.file.name if loc.file else "", loc.offset, decl.spelling)


def is_lvalue_kind(c: ci.Cursor) -> bool:
    """Whether an expression is an lvalue in C (by its syntactic kind)."""
    c = strip_parens(c)
    k = c.kind
    if k == ci.CursorKind.DECL_REF_EXPR:
        ref = c.referenced
        return ref is not None and ref.kind in (ci.CursorKind.VAR_DECL, ci.CursorKind.PARM_DECL)
    if k in (
        ci.CursorKind.ARRAY_SUBSCRIPT_EXPR,
        ci.CursorKind.MEMBER_REF_EXPR,
        ci.CursorKind.STRING_LITERAL,
        ci.CursorKind.COMPOUND_LITERAL_EXPR,
    ):
        return True
    if k == ci.CursorKind.UNARY_OPERATOR:
        return unary_op(c) == "*"
    return False
