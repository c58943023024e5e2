"""Region formation for a declare simd function (seed 001 Section 3.1, 3.3).

A variant of ``vlen`` lanes runs the whole body once per lane, all lanes
at once.  The region is the body of lane ``s2s_l`` (0 <= s2s_l < vlen), so
the loop pipeline (divergence, divergent loops, linearization, widening)
treats the function exactly like a simd loop over the lanes of one call:

    parameter kind   region argument                          shape
    uniform          the parameter itself (role uniform)      uniform
    linear(x:s)      the parameter, role linear, step s       strided(s)
    linear(x:u)      uniform x, then x + s2s_l * u             varying
    varying          s2s_a_<x>[s2s_l] (an array the ABI       contiguous load
                     wrapper fills from the vector registers)
    mask (M)         s2s_mask[s2s_l] != 0 guards the body     divergent branch
    return e         s2s_ret[s2s_l] = e; then leave            live-out

An early ``return`` is a jump to the region's exit like ``break`` is in a
loop body (divergent when lanes disagree); loops in the body are the
region's inner loops.  A uniform struct (or complex) parameter is read
through the address of the variant's own parameter.  Parameters whose
address is taken, other struct and array parameters, writes to globals and
``#pragma omp`` directives in the body (``atomic``, ``ordered simd`` ...)
keep the function scalar (Unsupported).
"""

from __future__ import annotations

from collections.abc import Hashable

import clang.cindex as ci

from ..diagnostics import Location, Unsupported
from ..ir.clauses import ClauseSet
from ..ir.region import ArgBinding, LoopBounds, Region
from ..ir.types import I32, FloatType, IntType, PtrType, StructType, Type
from ..ir.values import Constant, Function, Value
from ..vfabi import MASK_C, ParamKind
from .lower import _address_taken, _finish_region, _scan_uses, _uniform, region_calls
from .lower_clang import decl_key, location, omp_directive, unsupported
from .lower_stmt import BodyLowerer
from .lower_types import TypeMapper

CK = ci.CursorKind
LANE = "s2s_l"
MASK = "s2s_mask"
RET = "s2s_ret"


def lane_array(name: str) -> str:
    return f"s2s_a_{name}"


class _FunctionBody(BodyLowerer):
    """A function body whose ``return e`` stores lane results."""

    ret_ptr: Value | None = None
    """The lanes' result slots (None: a void function)."""
    lane: Value
    """The lane number (``s2s_lane``), set before the body is lowered."""
    fn_result_ctype: ci.Type
    """The function's C result type, set before the body is lowered."""

    def visit_RETURN_STMT(self, c: ci.Cursor) -> None:
        kids = list(c.get_children())
        if kids and self.ret_ptr is not None:
            value = self.convert(self.rvalue(kids[0]), self.fn_result_ctype, kids[0])
            addr = self.bld().gep(self.ret_ptr, _index(self, self.lane))
            self.bld().store(value, addr)
        elif kids:
            self.effect(kids[0])
        self.jump(self.ret_block)


def lower_function(
    cursor: ci.Cursor,
    vlen: int | str,
    masked: bool,
    kinds: tuple[ParamKind, ...],
    clauses: ClauseSet,
    mask_bits: int = 32,
    plain_char_signed: bool = True,
    site: int | None = None,
) -> Region:
    """The region of one variant shape of the function defined at ``cursor``
    (``vlen``: its lanes, or the C variable holding them at run time);
    ``site``: where in the main file the variant goes (default: right
    after the definition)."""
    types = TypeMapper(plain_char_signed, scope=cursor)
    loc = location(cursor)
    body = next(c for c in cursor.get_children() if c.kind == CK.COMPOUND_STMT)
    # The body's tokens, not the definition's: a return type that is a macro
    # stretches the definition's extent back over its own pragma.
    directive = omp_directive(body)
    if directive is not None:  # an atomic access, an ordered block ...
        word, where = directive
        raise Unsupported(
            f"'#pragma omp {word}' in the body of a declare simd function is not supported",
            Location(where.file.name if where.file else loc.file, where.line, where.column),
        )
    fn = Function(f"{cursor.spelling}.simd")
    taken = _address_taken(cursor)
    low = _FunctionBody(fn, types, taken)
    lane = fn.add_arg(I32, LANE)
    args = [ArgBinding(lane, "iv", LANE, "int", step=1)]
    low.lane = lane
    params = [p for p in cursor.get_children() if p.kind == CK.PARM_DECL]
    for p, kind in zip(params, kinds):
        args.append(_bind_param(low, p, kind, lane))
    for p, kind in zip(params, kinds):
        if kind.kind == "ls":  # every parameter is bound: the step can be read
            low.ssa.write(
                decl_key(p),
                low.entry,
                _linear_by(low, low.ssa.read(decl_key(p), low.entry), params[kind.step], lane),
            )
    if masked:
        mask = fn.add_arg(PtrType(IntType(mask_bits, False)), MASK)
        args.append(ArgBinding(mask, "uniform", MASK, f"{MASK_C[mask_bits]} *"))
        m = low.bld().load(low.bld().gep(mask, _index(low, lane)))
        on = low.new_block("active")
        low.branch(low.bld().cmp("ne", m, Constant(m.type, 0)), on, low.ret_block)
        low.ssa.seal(on)
        low.set_block(on)
    rt = cursor.type.get_result()
    if rt.get_canonical().kind != ci.TypeKind.VOID:
        ret_ir = types.map(rt, loc)
        low.ret_ptr = fn.add_arg(PtrType(ret_ir), RET)
        args.append(ArgBinding(low.ret_ptr, "uniform", RET, f"__typeof__({rt.spelling}) *"))
    low.fn_result_ctype = rt
    uses = _scan_uses(body, None, taken)  # a function has no loop variable
    param_keys = {decl_key(p) for p in params}
    for key, use in uses.outside.items():
        if key not in param_keys:
            args.append(_uniform(low, key, use))
    calls = region_calls(
        low,
        cursor.translation_unit,
        plain_char_signed,
        args,
        cursor.extent.end.offset if site is None else site,
    )
    low.stmt(body)
    low.jump(low.ret_block)
    _finish_region(low, cursor, "the function never returns")
    args += calls.globals.added
    bounds = LoopBounds(LANE, "int", True, "0", str(vlen), "<", 1, var_type=I32)
    # column 1: the core is spliced into the wrapper at the left margin
    return Region(
        kind="function",
        name=cursor.spelling,
        file=loc.file,
        line=loc.line,
        column=1,
        fn=fn,
        args=args,
        bounds=bounds,
        clauses=clauses,
        callees=calls.callees,
        plain_char=types.saw_plain_char or calls.saw_plain_char,
    )


def _index(low: BodyLowerer, lane: Value) -> Value:
    """The lane as an address index (64-bit, as the lowering makes ``a[i]``)."""
    return low.bld().cast(lane, IntType(64))


def _bind_param(low: _FunctionBody, p: ci.Cursor, kind: ParamKind, lane: Value) -> ArgBinding:
    key: Hashable = decl_key(p)
    name = p.spelling
    if not name:
        raise unsupported("a parameter without a name", p)
    if key in low.address_taken:
        raise unsupported(f"the address of parameter '{name}' is taken", p)
    ir = low.ir_type(p)
    ctype = f"__typeof__({p.type.spelling})"
    fn = low.fn
    if kind.kind == "u" and isinstance(ir, StructType):
        # a struct or complex value, the same in every lane: read through the
        # address of the variant's own parameter, as a loop reads one
        arg = fn.add_arg(PtrType(ir), name)
        low.declare_memory(key, name, ir, arg)
        return ArgBinding(arg, "uniform", f"&{name}", f"{ctype} *")
    if not isinstance(ir, (IntType, FloatType, PtrType)):
        raise unsupported(f"parameter '{name}' of type '{p.type.spelling}'", p)
    if kind.kind == "u":
        arg = fn.add_arg(ir, name)
        binding = ArgBinding(arg, "uniform", name, ctype)
        value: Value = arg
    elif kind.kind == "l":
        arg = fn.add_arg(ir, name)
        step = kind.step // ir.pointee.size if isinstance(ir, PtrType) else kind.step
        arg.may_wrap = isinstance(ir, IntType) and (not ir.signed or ir.bits < 32)
        binding = ArgBinding(arg, "linear", name, ctype, step=step)
        value = arg
    elif kind.kind == "ls":  # the lanes' values follow once the step is bound
        arg = fn.add_arg(ir, name)
        binding = ArgBinding(arg, "uniform", name, ctype)
        value = arg
    elif kind.kind == "v":
        arr = fn.add_arg(PtrType(ir), lane_array(name))
        binding = ArgBinding(arr, "uniform", lane_array(name), f"{ctype} *")
        value = low.bld().load(low.bld().gep(arr, _index(low, lane)), name)
    else:
        raise unsupported(f"linear parameter kind '{kind.kind}'", p)
    low.declare_ssa(key, name, ir)
    low.ssa.write(key, low.entry, value)
    return binding


def _linear_by(low: _FunctionBody, base: Value, step_param: ci.Cursor, lane: Value) -> Value:
    """x + s2s_l * step for a step held in a uniform parameter (read from the
    parameter's value at entry, as the ABI's caller computed the lanes)."""
    step = low.ssa.read(decl_key(step_param), low.entry)
    b = low.bld()
    if isinstance(base.type, PtrType):
        return b.gep(base, b.mul(b.cast(lane, IntType(64)), b.cast(step, IntType(64))))
    t: Type = base.type
    u = IntType(t.bits, False) if isinstance(t, IntType) else t
    off = b.mul(b.cast(lane, u), b.cast(step, u))
    return b.cast(b.add(b.cast(base, u), off), t)
