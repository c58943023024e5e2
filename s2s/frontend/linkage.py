"""Whether the compiler emits a function definition, as gcc 12 decides it.

gcc makes the simd clones of a ``declare simd`` function exactly where it
emits the function itself, so s2svec's variants go where the definition is
emitted and nowhere else (two objects defining one variant break the link):

    definition                              emitted   gcc 12's clones
    --------------------------------------  --------  ------------------------------
    static, static inline                   yes       local symbols
    plain, extern, extern inline (C99)      yes       global symbols
    C99 inline definition: every file-      no        none: callers in this file
      scope declaration says ``inline``,                call the global ones of the
      none ``extern`` (C11 6.7.4p7)                     object with the external
                                                        definition
    GNU inline semantics (-std=gnu89,       no        none (likewise)
      -fgnu89-inline, ``gnu_inline``):
      the definition says ``extern inline``

(measured with ``gcc -fopenmp-simd`` and ``nm``; tests/test_declare_simd_build.py.)
Whether a declaration says ``inline`` or ``extern`` is read from clang's
printing of that one declaration (macros such as ``#define INLINE inline``
are expanded there; the AST's inline flag sticks to later redeclarations).
"""

from __future__ import annotations

import ctypes
import functools
import re

import clang.cindex as ci

_TERSE_OUTPUT = 17
"""CXPrintingPolicy_TerseOutput: declarations without bodies."""


def is_emitted(definition: ci.Cursor) -> bool:
    """Whether the compiler emits the function ``definition`` defines
    (see the table in the module docstring)."""
    if definition.linkage != ci.LinkageKind.EXTERNAL or not _inline_flag(definition):
        return True
    specifiers = _specifiers(definition)
    declarations = _file_scope_declarations(definition)
    if _gnu_inline(definition.translation_unit) or any(
        "gnu_inline" in _specifiers(d) for d in declarations
    ):
        return not {"extern", "inline"} <= specifiers
    return not all("inline" in s and "extern" not in s for s in map(_specifiers, declarations))


def _file_scope_declarations(definition: ci.Cursor) -> list[ci.Cursor]:
    """Every declaration of the function at file scope in the translation
    unit (headers included; a block-scope declaration does not count)."""
    canonical = definition.canonical
    return [
        c
        for c in definition.translation_unit.cursor.get_children()
        if c.kind == ci.CursorKind.FUNCTION_DECL
        and c.spelling == definition.spelling
        and c.canonical == canonical
    ]


def _specifiers(declaration: ci.Cursor) -> set[str]:
    """The words before the function's name as clang prints this one
    declaration: its storage class, ``inline``, attributes, return type."""
    text = _printed(declaration)
    name = re.search(rf"\b{re.escape(declaration.spelling)}\b", text)
    return set(re.findall(r"\w+", text[: name.start()] if name else text))


def _printed(declaration: ci.Cursor) -> str:
    lib = _library()
    policy = lib.clang_getCursorPrintingPolicy(declaration)
    try:
        lib.clang_PrintingPolicy_setProperty(policy, _TERSE_OUTPUT, 1)
        return str(ci._CXString.from_result(lib.clang_getCursorPrettyPrinted(declaration, policy)))
    finally:
        lib.clang_PrintingPolicy_dispose(policy)


def _inline_flag(cursor: ci.Cursor) -> bool:
    """The AST's flag: this or an earlier declaration says ``inline``."""
    return bool(_library().clang_Cursor_isFunctionInlined(cursor))


def _gnu_inline(tu: ci.TranslationUnit) -> bool:
    """The translation unit has GNU inline semantics (gnu89, -fgnu89-inline)."""
    return any(
        c.kind == ci.CursorKind.MACRO_DEFINITION and c.spelling == "__GNUC_GNU_INLINE__"
        for c in tu.cursor.get_children()
    )


@functools.lru_cache(maxsize=1)
def _library() -> ctypes.CDLL:
    """libclang with the signatures of the calls above declared."""
    lib = ci.conf.lib
    lib.clang_getCursorPrintingPolicy.argtypes = [ci.Cursor]
    lib.clang_getCursorPrintingPolicy.restype = ctypes.c_void_p
    lib.clang_PrintingPolicy_setProperty.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint]
    lib.clang_PrintingPolicy_dispose.argtypes = [ctypes.c_void_p]
    lib.clang_getCursorPrettyPrinted.argtypes = [ci.Cursor, ctypes.c_void_p]
    lib.clang_getCursorPrettyPrinted.restype = ci._CXString
    lib.clang_Cursor_isFunctionInlined.argtypes = [ci.Cursor]
    lib.clang_Cursor_isFunctionInlined.restype = ctypes.c_uint
    return lib
