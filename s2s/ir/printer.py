"""Print IR functions in the textual syntax that ``s2s.ir.parser`` reads back.

The syntax (docs/internals/ir.rst, "The textual form")::

    struct.vec3 = { f64 x @0, f64 y @8, f64 z @16 } size 24

    func @kernel(i64 %i, ptr<f64> %a) -> (f64) {
    entry:
      %p = gep %a, %i
      %x = load %p
      store %x, %p mask %c
      ret %x
    }

Names are stable and unique within a function: the value's name hint
(characters outside ``[A-Za-z0-9_.$]`` become ``_``), then ``hint.1``,
``hint.2`` ... for repeats, and ``0``, ``1`` ... for values without a hint.
Block labels follow the same rule with ``bb0``, ``bb1`` ... for unnamed
blocks.  Because every printed name is unique, printing a parsed function
gives the same names again, so ``print(parse(print(f))) == print(f)``.

``annotate(value) -> str | None`` lets analyses print their facts next to the
IR: the text goes after ``  ; `` on the line defining the value (for
arguments, on a comment line after the function header).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable

from .types import VOID, ArrayType, PtrType, StructType, Type
from .values import (
    Alloca,
    BinOp,
    Block,
    Br,
    Call,
    Cast,
    Cmp,
    CondBr,
    Constant,
    FieldAddr,
    Function,
    Gep,
    Instruction,
    Load,
    Phi,
    Ret,
    Select,
    Store,
    Switch,
    Undef,
    UnOp,
    Value,
)
from .vector import (
    VECTOR_INSTRUCTIONS,
    ExtractPart,
    RecordLoad,
    Reduce,
    RowLoad,
    Splat,
    StepVector,
    VLoad,
)

Annotator = Callable[[Value], str | None]

_BAD_NAME_CHARS = re.compile(r"[^A-Za-z0-9_.$]")
# A label must lex as one token: an identifier or a plain number.
_LABEL_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_.$]*|[0-9]+")


def print_function(fn: Function, annotate: Annotator | None = None) -> str:
    """The text of one function, preceded by the structs it uses."""
    return IRPrinter(annotate).print_module([fn])


def print_module(fns: Iterable[Function], annotate: Annotator | None = None) -> str:
    """The text of several functions; each struct is declared once."""
    return IRPrinter(annotate).print_module(list(fns))


def format_float(value: float) -> str:
    """Shortest decimal text that reads back to exactly ``value``."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(float(value))


class _Namer:
    """Hands out unique names: the hint, ``hint.N`` on repeats, numbers otherwise."""

    def __init__(self, number_prefix: str, label: bool = False) -> None:
        self.label = label
        self.used: set[str] = set()
        self.next_suffix: dict[str, int] = {}
        self.next_number = 0
        self.number_prefix = number_prefix

    def unique(self, hint: str) -> str:
        hint = _BAD_NAME_CHARS.sub("_", hint)
        if not hint:
            return self._numbered()
        if self.label and not _LABEL_RE.fullmatch(hint):
            hint = "_" + hint
        name = hint
        while name in self.used:
            k = self.next_suffix.get(hint, 1)
            self.next_suffix[hint] = k + 1
            name = f"{hint}.{k}"
        self.used.add(name)
        return name

    def _numbered(self) -> str:
        while True:
            name = f"{self.number_prefix}{self.next_number}"
            self.next_number += 1
            if name not in self.used:
                self.used.add(name)
                return name


class IRPrinter:
    """One ``print_*`` method per construct; names are assigned per function."""

    def __init__(self, annotate: Annotator | None = None) -> None:
        self.annotate = annotate
        self.value_names: dict[Value, str] = {}
        self.block_names: dict[Block, str] = {}
        self.declared_structs: set[str] = set()

    # -- module level ------------------------------------------------------------
    def print_module(self, fns: list[Function]) -> str:
        parts = [self.print_function(fn) for fn in fns]
        return "\n".join(parts)

    def print_function(self, fn: Function) -> str:
        """Struct declarations not printed yet, then the function itself."""
        self.assign_names(fn)
        lines = [self.print_struct_decl(s) for s in self._new_structs(fn)]
        if lines:
            lines.append("")
        lines.append(self.print_header(fn))
        lines.extend(self._arg_annotations(fn))
        for block in fn.blocks:
            lines.extend(self.print_block(block))
        lines.append("}")
        return "\n".join(lines) + "\n"

    def print_struct_decl(self, st: StructType) -> str:
        fields = ", ".join(f"{self.print_type(f.type)} {f.name} @{f.offset}" for f in st.fields)
        body = f"{{ {fields} }}" if fields else "{ }"
        return f"{st} = {body} size {st.byte_size}"

    def print_header(self, fn: Function) -> str:
        args = ", ".join(f"{self.print_type(a.type)} {self.print_value_name(a)}" for a in fn.args)
        rets = ", ".join(self.print_type(t) for t in fn.ret_types)
        return f"func @{fn.name}({args}) -> ({rets}) {{"

    def _arg_annotations(self, fn: Function) -> list[str]:
        if self.annotate is None:
            return []
        lines: list[str] = []
        for a in fn.args:
            text = self.annotate(a)
            if text is not None:
                lines.append(f"  ; {self.print_value_name(a)}: {text}")
        return lines

    # -- blocks and instructions ---------------------------------------------------
    def print_block(self, block: Block) -> list[str]:
        lines = [f"{self.print_label(block)}:"]
        for inst in block.instructions:
            lines.append("  " + self.print_instruction(inst))
        return lines

    def print_instruction(self, inst: Instruction) -> str:
        """One line: ``%x = body`` (or just the body), mask, annotation."""
        text = self.print_body(inst)
        if _defines_value(inst):
            text = f"{self.print_value_name(inst)} = {text}"
        if inst.mask is not None:
            text += f" mask {self.print_operand(inst.mask)}"
        if self.annotate is not None:
            note = self.annotate(inst)
            if note is not None:
                text += f"  ; {note}"
        return text

    def print_body(self, inst: Instruction) -> str:
        """The instruction without result name, mask and annotation."""
        ops = [self.print_operand(o) for o in inst.operands]
        if isinstance(inst, (BinOp, UnOp)):
            return f"{inst.op} {', '.join(ops)}"
        if isinstance(inst, Cmp):
            return f"cmp {inst.pred} {', '.join(ops)}"
        if isinstance(inst, Cast):
            return f"cast {ops[0]} to {self.print_type(inst.type)}"
        if isinstance(inst, (Select, Gep, Load, Store)):
            return f"{inst.opcode} {', '.join(ops)}"
        if isinstance(inst, FieldAddr):
            return f"fieldaddr {ops[0]}, {inst.field}"
        if isinstance(inst, Alloca):
            suffix = " interleaved" if inst.interleaved else ""
            return f"alloca {self.print_type(inst.allocated)}{suffix}"
        if isinstance(inst, Call):
            return self.print_call(inst, ops)
        if isinstance(inst, VECTOR_INSTRUCTIONS):
            return self.print_vector(inst, ops)
        if isinstance(inst, Phi):
            return self.print_phi(inst)
        return self.print_terminator(inst, ops)

    def print_vector(self, inst: Instruction, ops: list[str]) -> str:
        """The vector IR's own instructions (s2s/ir/vector.py)."""
        if isinstance(inst, Splat):
            return f"splat {ops[0]} to {self.print_type(inst.type)}"
        if isinstance(inst, StepVector):
            return f"stepvector {self.print_type(inst.type)}"
        if isinstance(inst, Reduce):
            return f"reduce {inst.op} {ops[0]}"
        if isinstance(inst, VLoad):
            return f"vload {self.print_type(inst.type)}, {ops[0]}"
        if isinstance(inst, ExtractPart):
            return f"part {self.print_type(inst.type)}, {ops[0]}, {inst.part}"
        if isinstance(inst, (RecordLoad, RowLoad)):
            t = self.print_type(inst.type)
            return f"{inst.opcode} {t}, {ops[0]}, slot {inst.slot} of {inst.slots}"
        return f"{inst.opcode} {', '.join(ops)}"

    def print_call(self, inst: Call, ops: list[str]) -> str:
        text = f"call {self.print_type(inst.type)} @{inst.callee}({', '.join(ops)})"
        return text + " pure" if inst.pure else text

    def print_phi(self, inst: Phi) -> str:
        incoming = ", ".join(
            f"[{self.print_operand(v)}, {self.print_label(b)}]" for v, b in inst.incoming()
        )
        text = f"phi {self.print_type(inst.type)}"
        return f"{text} {incoming}" if incoming else text

    def print_terminator(self, inst: Instruction, ops: list[str]) -> str:
        if isinstance(inst, Br):
            return f"br {self.print_label(inst.target)}"
        if isinstance(inst, CondBr):
            return (
                f"condbr {ops[0]}, {self.print_label(inst.if_true)}, "
                f"{self.print_label(inst.if_false)}"
            )
        if isinstance(inst, Switch):
            cases = ", ".join(f"{k}: {self.print_label(b)}" for k, b in inst.cases)
            return f"switch {ops[0]}, {self.print_label(inst.default)} [{cases}]"
        if isinstance(inst, Ret):
            return f"ret {', '.join(ops)}" if ops else "ret"
        raise TypeError(f"cannot print an instruction of class {type(inst).__name__}")

    # -- operands, names, types -----------------------------------------------------
    def print_operand(self, v: Value) -> str:
        if isinstance(v, Constant):
            return self.print_constant(v)
        if isinstance(v, Undef):
            return f"undef {self.print_type(v.type)}"
        return self.print_value_name(v)

    def print_constant(self, c: Constant) -> str:
        t = self.print_type(c.type)
        if isinstance(c.type, PtrType):
            return f"null {t}" if c.value == 0 else f"{t} {int(c.value)}"
        if c.type.is_float():
            return f"{t} {format_float(float(c.value))}"
        return f"{t} {int(c.value)}"

    def print_value_name(self, v: Value) -> str:
        name = self.value_names.get(v)
        if name is None:
            # A value from outside the function (a bug the verifier reports);
            # still print something recognisable rather than crash.
            name = f"<foreign:{v.name or id(v)}>"
        return f"%{name}"

    def print_label(self, block: Block) -> str:
        name = self.block_names.get(block)
        return name if name is not None else f"<foreign:{block.name or id(block)}>"

    @staticmethod
    def print_type(t: Type) -> str:
        return str(t)

    # -- helpers ------------------------------------------------------------------
    def assign_names(self, fn: Function) -> None:
        """Name the values and blocks of ``fn`` (before ``print_instruction`` etc.)."""
        values = _Namer("")
        labels = _Namer("bb", label=True)
        self.value_names = {}
        self.block_names = {}
        for a in fn.args:
            self.value_names[a] = values.unique(a.name)
        for b in fn.blocks:
            self.block_names[b] = labels.unique(b.name)
            for inst in b.instructions:
                if _defines_value(inst):
                    self.value_names[inst] = values.unique(inst.name)

    def _new_structs(self, fn: Function) -> list[StructType]:
        """Structs used by ``fn`` and not yet declared, dependencies first."""
        found: list[StructType] = []
        for t in _types_used(fn):
            _collect_structs(t, found, self.declared_structs)
        return found


def _defines_value(inst: Instruction) -> bool:
    return inst.type != VOID and not inst.is_terminator and not isinstance(inst, Store)


def _types_used(fn: Function) -> list[Type]:
    types: list[Type] = [a.type for a in fn.args] + list(fn.ret_types)
    for inst in fn.instructions():
        types.append(inst.type)
        if isinstance(inst, Alloca):
            types.append(inst.allocated)
        types.extend(op.type for op in inst.operands)
    return types


def _collect_structs(t: Type, out: list[StructType], seen: set[str]) -> None:
    """Depth-first: fields' structs before the struct itself; cycles stop at ``seen``."""
    if isinstance(t, PtrType):
        _collect_structs(t.pointee, out, seen)
    elif isinstance(t, ArrayType):
        _collect_structs(t.elem, out, seen)
    elif isinstance(t, StructType) and t.name not in seen:
        seen.add(t.name)
        for f in t.fields:
            _collect_structs(f.type, out, seen)
        out.append(t)
