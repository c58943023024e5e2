"""Functions of the translation unit lowered for inlining into the regions that call them.

A call in a simd loop or declare simd body to a function whose definition
the translation unit holds (static, inline or extern; in the file or an
included header) is lowered as a call of that function's own IR
(``CalleeBody``), which ``transform.inline`` may clone into the region
before the other passes run, as RV gets its callees from LLVM's inliner
(seed 001 Section 13.3: the XSBench lookup):

    double xs(const double *g, double e)       func @xs(ptr<f64> %g, f64 %e,
    { return g[lookup(e)] * scale; }                    ptr<f64> %scale) -> (f64)

The body's parameters come first; after them one argument per global
object the body reads (or a function it calls in turn reads), by address,
so that the caller passes its own binding of that global (a region
argument ``&scale``) and the inlined code reads it as the loop body would.
``return e`` stores the result variable and jumps to the ``ret`` block.
A struct parameter comes by address, a complex one as two arguments (its
parts, lower_complex.py); a struct or complex result goes through a slot
argument after the parameters: calls of such functions must be inlined.

A function is not inlinable (its calls stay calls, serialized lane by lane
unless a vector variant exists; the reason goes to the report) when it
takes variable arguments, its address is taken, its body holds a
``#pragma omp`` directive (an ``atomic`` access inlined as plain code
would lose updates of colliding lanes), it calls ``setjmp``, it
writes a global variable (a store every lane would make to one object), or
its body does not lower (``goto``, static locals, ...).  A call back into a
function being lowered (recursion) stays a call.  Where a region calls the
function, ``RegionCalls`` also checks that every global it reads and every
function it keeps calling is visible at the region under the same name,
since the inlined code is spliced there.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import clang.cindex as ci

from ..diagnostics import Unsupported
from ..ir.region import ArgBinding, CalleeBody
from ..ir.types import ArrayType, FloatType, IntType, PtrType, StructType, complex_part
from ..ir.values import Argument, Function, Undef, Value
from .lower_clang import (
    binary_op,
    children,
    decl_key,
    location,
    omp_directive,
    unary_op,
    unsupported,
    walk_preorder,
)
from .lower_types import TypeMapper
from .parse import main_file_bytes
from .scope import Scopes

if TYPE_CHECKING:
    from .lower_stmt import BodyLowerer

CK = ci.CursorKind
RESULT = ("return value",)
"""The SSA variable holding a callee's result."""
SETJMP = {"setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp", "savectx", "vfork", "getcontext"}


@dataclass
class CalleeInfo:
    """A function with a body in the translation unit: its IR, or why there is none."""

    body: CalleeBody | None
    reason: str = ""
    """Why calls of it are not inlined (when ``body`` is None)."""
    plain_char: bool = False
    """Whether its IR depends on the signedness of plain ``char``."""
    definition: ci.Cursor | None = None


class CalleeTable:
    """The callees of one translation unit for one plain-char signedness,
    each lowered once (``callee_table`` shares it between regions)."""

    def __init__(self, tu: ci.TranslationUnit, plain_char_signed: bool) -> None:
        self.tu = tu
        self.plain_char_signed = plain_char_signed
        self.known: dict[str, CalleeInfo] = {}
        self.lowering: list[str] = []
        """The functions being lowered (a call back into one is recursion)."""
        self._scopes: Scopes | None = None
        self._text: str | None = None

    @property
    def scopes(self) -> Scopes:
        if self._scopes is None:
            self._scopes = Scopes(self.tu)
        return self._scopes

    def info(self, decl: ci.Cursor) -> CalleeInfo | None:
        """The callee ``decl`` (a FUNCTION_DECL) names; None when the
        translation unit has no body for it or it is being lowered."""
        name = decl.spelling
        if name in self.lowering:
            return None
        if name not in self.known:
            definition = decl.get_definition()
            if definition is None or definition.kind != CK.FUNCTION_DECL:
                return None
            self.lowering.append(name)
            try:
                self.known[name] = self._lower(definition)
            finally:
                self.lowering.pop()
            self.known[name].definition = definition
        return self.known[name]

    def definition(self, name: str) -> ci.Cursor | None:
        """The definition of a callee lowered before (an internal vector
        variant is made from it)."""
        info = self.known.get(name)
        return info.definition if info is not None else None

    def is_recursive_call(self, decl: ci.Cursor) -> bool:
        return decl.spelling in self.lowering

    def _lower(self, definition: ci.Cursor) -> CalleeInfo:
        name = definition.spelling
        problem = self._not_inlinable(definition)
        if problem:
            return CalleeInfo(None, problem)
        types = TypeMapper(self.plain_char_signed, scope=definition)
        try:
            body, plain_char = _lower_definition(self, definition, types)
        except Unsupported as e:
            where = f" at line {e.location.line}" if e.location is not None else ""
            return CalleeInfo(None, f"'{name}' has {_what(e.message)}{where}")
        except RecursionError:
            return CalleeInfo(None, f"'{name}' is nested too deeply")
        jumps = body.calls & SETJMP
        if jumps:
            return CalleeInfo(None, f"'{name}' calls '{sorted(jumps)[0]}'")
        return CalleeInfo(body, plain_char=plain_char)

    def _not_inlinable(self, definition: ci.Cursor) -> str:
        name = definition.spelling
        if (
            definition.type.kind == ci.TypeKind.FUNCTIONPROTO
            and definition.type.is_function_variadic()
        ):
            return f"'{name}' takes variable arguments"
        if self._address_taken(name):
            return f"the address of '{name}' is taken"
        directive = omp_directive(definition)
        if directive is not None:  # an atomic access, an ordered block ...
            word, where = directive
            return f"'{name}' has '#pragma omp {word}' at line {where.line}"
        return ""

    def _address_taken(self, name: str) -> bool:
        """Whether the file names the function other than to call or declare
        it (``fp = f``, ``&f``): any use not followed by ``(`` counts."""
        if self._text is None:
            self._text = _code_only(self.tu)
        for m in re.finditer(rf"\b{re.escape(name)}\b\s*(.)", self._text):
            if m.group(1) != "(":
                return True
        return False


def callee_table(tu: ci.TranslationUnit, plain_char_signed: bool) -> CalleeTable:
    """The translation unit's table for one plain-char signedness (made once)."""
    tables: dict[bool, CalleeTable] = tu.__dict__.setdefault("_s2s_callees", {})
    if plain_char_signed not in tables:
        tables[plain_char_signed] = CalleeTable(tu, plain_char_signed)
    return tables[plain_char_signed]


def set_declared_simd(tu: ci.TranslationUnit, names: set[str]) -> None:
    """Name the functions with ``declare simd`` variants: their calls go to
    the variants, not inlined (the driver knows them from the pragmas)."""
    tu.__dict__["_s2s_declared_simd"] = frozenset(names)


def declared_simd(tu: ci.TranslationUnit) -> frozenset[str]:
    return tu.__dict__.get("_s2s_declared_simd", frozenset())


_COMMENTS_AND_LITERALS = re.compile(
    r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S
)


def _code_only(tu: ci.TranslationUnit) -> str:
    """The main file and its non-system headers without comments and literals."""
    texts = []
    names = [tu.spelling]
    for inclusion in tu.get_includes():
        start = ci.SourceLocation.from_offset(tu, inclusion.include, 0)
        if not start.is_in_system_header:
            names.append(inclusion.include.name)
    main = main_file_bytes(tu)  # rewritten (macro_loops): the text parsed
    for name in dict.fromkeys(names):
        if name == tu.spelling and main is not None:
            texts.append(main.decode("latin-1"))
            continue
        try:
            with open(name, "rb") as handle:
                texts.append(handle.read().decode("latin-1"))
        except OSError:
            continue
    return _COMMENTS_AND_LITERALS.sub(" ", "\n".join(texts))


def _what(message: str) -> str:
    """An Unsupported message of the lowering ("goto in simd loop") as what
    the body has ("goto")."""
    for suffix in (" in simd loop", " in the simd loop"):
        if message.endswith(suffix):
            return message[: -len(suffix)]
    return message


# -- lowering a definition ------------------------------------------------------------------


@dataclass
class GlobalArgs:
    """The arguments of a function (region or callee) that bind globals
    by their C expression, so each global is bound once."""

    fn: Function
    bindings: list[ArgBinding]
    added: list[ArgBinding] = field(default_factory=list)
    """Bindings made for what callees read (the caller appends them)."""

    def argument_for(self, binding: ArgBinding) -> Argument:
        for b in [*self.bindings, *self.added]:
            if b.role == "uniform" and b.c_expr == binding.c_expr:
                return b.arg
        arg = self.fn.add_arg(binding.arg.type, binding.arg.name)
        self.added.append(ArgBinding(arg, "uniform", binding.c_expr, binding.c_type))
        return arg


def _lower_definition(
    table: CalleeTable, definition: ci.Cursor, types: TypeMapper
) -> tuple[CalleeBody, bool]:
    """The body's IR, and whether it (or a callee) depends on plain char."""
    from .lower import _address_taken, _finish_region, _scan_uses, _uniform

    name = definition.spelling
    fn = Function(name)
    taken = _address_taken(definition)
    low = _callee_lowerer()(fn, types, taken)
    params = [p for p in children(definition) if p.kind == CK.PARM_DECL]
    body = next(k for k in children(definition) if k.kind == CK.COMPOUND_STMT)
    by_address = False
    for p in params:
        by_address = _bind_parameter(low, p, body) or by_address
    n_params = len(fn.args)  # a complex parameter is two arguments
    low.result_ctype = definition.type.get_result()
    low.result_slot = None
    result_kind = low.result_ctype.get_canonical().kind
    if result_kind == ci.TypeKind.RECORD:
        ir = types.map(low.result_ctype, location(definition))
        low.result_slot = fn.add_arg(PtrType(ir), "result")
        by_address = True
    elif result_kind == ci.TypeKind.COMPLEX:  # its two parts, through a slot
        ir = types.map(low.result_ctype, location(definition))
        low.result_slot = fn.add_arg(PtrType(complex_part(ir) or ir), "result")
        by_address = True
    elif result_kind != ci.TypeKind.VOID:
        ir = types.map(low.result_ctype, location(definition))
        if not isinstance(ir, (IntType, FloatType, PtrType)):
            raise unsupported(f"a result of type '{low.result_ctype.spelling}'", definition)
        low.declare_ssa(RESULT, "result", ir)
        low.ssa.write(RESULT, low.entry, Undef(ir))
        low.result_keys = [RESULT]
        fn.ret_types.append(ir)
    uses = _scan_uses(body, None, taken)  # a function has no loop variable
    param_keys = {decl_key(p) for p in params}
    bindings: list[ArgBinding] = []
    for key, use in uses.outside.items():
        if key in param_keys:
            continue
        if use.written is not None:
            raise Unsupported(
                f"a write to the global variable '{use.decl.spelling}'", location(use.written)
            )
        bindings.append(_uniform(low, key, use))
    low.calls = CalleeCalls(table, GlobalArgs(fn, bindings))
    low.stmt(body)
    low.jump(low.ret_block)
    _finish_region(low, definition, "a body that never returns")
    calls: CalleeCalls = low.calls
    body_ir = CalleeBody(
        name,
        fn,
        n_params,
        low.result_slot is not None,
        bindings + calls.globals.added,
        calls.plain_calls,
        calls.inlinable,
        by_address,
    )
    return body_ir, types.saw_plain_char or calls.saw_plain_char


def _bind_parameter(low: BodyLowerer, p: ci.Cursor, body: ci.Cursor) -> bool:
    """A C parameter: an argument, kept in memory when its address is
    taken; True for a struct, which comes by address (copied here when
    the body writes it or takes its address)."""
    key: Hashable = decl_key(p)
    ir = low.ir_type(p)
    if isinstance(ir, ArrayType):  # ``double a[]``: a pointer
        ir = PtrType(ir.elem)
    if complex_part(ir) is not None:
        low.bind_complex_parameter(key, p.spelling or "arg", ir)
        return True  # two arguments: only an inlined call can pass them
    if isinstance(ir, StructType):
        arg = low.fn.add_arg(PtrType(ir), p.spelling or "arg")
        ptr: Value = arg
        if key in low.address_taken or _modified(body, key):
            ptr = low.alloca(ir, p.spelling)
            low.copy_struct(ptr, arg, p)
        low.declare_memory(key, p.spelling, ir, ptr)
        return True
    arg = low.fn.add_arg(ir, p.spelling or "arg")
    if key in low.address_taken:
        slot = low.alloca(ir, p.spelling)
        low.declare_memory(key, p.spelling, ir, slot)
        low.bld().store(arg, slot)
        return False
    low.declare_ssa(key, p.spelling, ir)
    low.ssa.write(key, low.entry, arg)
    return False


def _modified(body: ci.Cursor, var: Hashable) -> bool:
    """Whether the body assigns to (a part of) variable ``var``."""
    from .lower_expr import base_variable

    for c in walk_preorder(body):
        target = None
        if (
            (c.kind == CK.BINARY_OPERATOR and binary_op(c) == "=")
            or c.kind == CK.COMPOUND_ASSIGNMENT_OPERATOR
        ) or (
            c.kind == CK.UNARY_OPERATOR and unary_op(c) in ("post++", "post--", "pre++", "pre--")
        ):
            target = children(c)[0]
        if target is not None and base_variable(target) == var:
            return True
    return False


def _callee_lowerer() -> type:
    from .lower_stmt import BodyLowerer

    class CalleeLowerer(BodyLowerer):
        """A function body: ``return e`` sets the result and leaves."""

        result_ctype: ci.Type
        result_slot: Value | None

        def visit_RETURN_STMT(self, c: ci.Cursor) -> None:
            kids = [k for k in children(c) if k.kind.is_expression()]
            if kids and self.result_slot is not None:
                self.store_result(self.result_slot, kids[0], c)
            elif kids and self.result_keys:
                self.write_var(
                    self.vars[RESULT],
                    self.convert(self.rvalue(kids[0]), self.result_ctype, kids[0]),
                )
            elif kids:
                self.effect(kids[0])
            self.jump(self.ret_block)

        def visit_BREAK_STMT(self, c: ci.Cursor) -> None:
            if self.targets[-1].brk is None:
                raise unsupported("'break' outside a loop or switch", c)
            super().visit_BREAK_STMT(c)

    return CalleeLowerer


# -- calls in the code being lowered ------------------------------------------------------


class CallLowering:
    """How the lowering of a body treats calls of functions with a body here:
    ``operands`` returns the extra operands of an inlinable call (the
    globals the callee reads) or a reason why the call is not inlinable."""

    def __init__(self, table: CalleeTable, globals_: GlobalArgs) -> None:
        self.table = table
        self.globals = globals_
        self.plain_calls: set[str] = set()
        self.inlinable: set[str] = set()
        self.saw_plain_char = False

    def operands(self, decl: ci.Cursor, name: str) -> tuple[list[Value], str]:
        """(extra operands, "") for an inlinable call, else ([], why not)."""
        if name in declared_simd(self.table.tu):
            self.plain_calls.add(name)
            return [], f"'{name}' has vector variants (declare simd)"
        if self.table.is_recursive_call(decl):
            self.plain_calls.add(name)
            return [], f"'{name}' is recursive"
        info = self.table.info(decl)
        if info is None:
            self.plain_calls.add(name)
            return [], f"'{name}' has no body in this translation unit"
        if info.body is None:
            self.plain_calls.add(name)
            return [], info.reason
        problem = self.check(info.body)
        if problem:
            self.plain_calls.add(name)
            return [], problem
        self.inlinable.add(name)
        self.saw_plain_char = self.saw_plain_char or info.plain_char
        return [self.globals.argument_for(b) for b in info.body.globals], ""

    def check(self, body: CalleeBody) -> str:
        return ""


class CalleeCalls(CallLowering):
    """Calls in a callee's body: every check is made where it is inlined."""


class RegionCalls(CallLowering):
    """Calls in a region: the callee's globals and the functions it keeps
    calling must be visible where the region's code goes (``offset`` of
    the main file), and each body it may inline is recorded."""

    def __init__(
        self, table: CalleeTable, globals_: GlobalArgs, offset: int, refuse: str = ""
    ) -> None:
        super().__init__(table, globals_)
        self.offset = offset
        self.refuse = refuse
        """Why no call is inlined this time (the region stayed scalar with
        its callees inlined); empty: calls are inlinable."""
        self.callees: dict[str, CalleeBody] = {}
        self._visible: set[str] | None = None

    def visible(self, name: str) -> bool:
        if self._visible is None:
            names = self.table.scopes.names_at(self.offset)
            local = self.table.scopes.local_names_at(self.offset)
            self._visible = (names.variables | names.others) - local
        return name in self._visible

    def check(self, body: CalleeBody) -> str:
        if self.refuse:
            return self.refuse
        for b in body.globals:
            var = b.c_expr.lstrip("&")
            if not self.visible(var):
                return (
                    f"'{body.name}' reads '{var}', which is not visible at the "
                    "vector code (declared later or hidden by a local)"
                )
        for callee in self._closure(body):
            for name in sorted(callee.calls - SETJMP):
                if not self.visible(name) and not name.startswith("__builtin_"):
                    return (
                        f"'{callee.name}' calls '{name}', which is not declared "
                        "before the vector code"
                    )
        for callee in self._closure(body):
            self.callees[callee.name] = callee
        return ""

    def _closure(self, body: CalleeBody) -> list[CalleeBody]:
        """``body`` and every body it may inline in turn."""
        found: dict[str, CalleeBody] = {body.name: body}
        work = [body]
        while work:
            for name in sorted(work.pop().inlinable_calls):
                info = self.table.known.get(name)
                if info is not None and info.body is not None and name not in found:
                    found[name] = info.body
                    work.append(info.body)
        return list(found.values())


__all__ = [
    "CallLowering",
    "CalleeInfo",
    "CalleeTable",
    "GlobalArgs",
    "RegionCalls",
    "callee_table",
    "declared_simd",
    "set_declared_simd",
]
