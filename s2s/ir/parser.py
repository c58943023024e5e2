"""Read the textual IR written by ``s2s.ir.printer`` back into IR objects.

A hand-written tokenizer and a recursive-descent parser, no dependencies.
Parsing a function is done in three steps so that forward references work
anywhere (phi operands defined later, uses in blocks laid out before their
definitions, branches to later blocks):

  1. every line is parsed into a syntactic statement (``_Stmt``); constants
     are built right away, value and label references stay names;
  2. the result type of every statement is inferred, repeating until nothing
     changes (a binop's type is its operand's, which may be defined later);
  3. instructions are built in layout order; a value used before its
     definition gets a typed placeholder that is replaced once it is defined.

Struct declarations are collected from the whole text first, so structs may
refer to each other (``struct.node`` with a ``ptr<struct.node>`` field).
Errors raise ``IRError("line N: message")``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from .types import (
    COMPLEX_SPELLINGS,
    I1,
    SCALAR_TYPES,
    VOID,
    ArrayType,
    PtrType,
    StructField,
    StructType,
    Type,
    VectorType,
    element_type,
    mask_type,
)
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
    IRError,
    Load,
    Phi,
    Ret,
    Select,
    Store,
    Switch,
    Undef,
    UnOp,
    Value,
    gep_type,
)
from .vector import (
    REDUCTIONS,
    Concat,
    ExtractLane,
    ExtractPart,
    Gather,
    InsertLane,
    RecordLoad,
    RecordStore,
    Reduce,
    Reverse,
    RowLoad,
    Scatter,
    Splat,
    StepVector,
    VLoad,
    VStore,
    gathered_type,
)


def parse_module(text: str) -> list[Function]:
    """All functions of ``text`` (struct declarations may appear anywhere)."""
    return _Parser(text).parse_module()


def parse_function(text: str) -> Function:
    """The single function of ``text``."""
    fns = parse_module(text)
    if len(fns) != 1:
        raise IRError(f"line 1: expected exactly one function, found {len(fns)}")
    return fns[0]


# ---------------------------------------------------------------------------
# Tokens

_TOKEN_RE = re.compile(
    r"""
    (?P<newline>\n)
  | (?P<space>[ \t\r\f\v]+)
  | (?P<comment>;[^\n]*)
  | (?P<local>%[A-Za-z0-9_.$]+)
  | (?P<global>@[A-Za-z0-9_.$]+)
  | (?P<arrow>->)
  | (?P<number>-?0[xX][0-9a-fA-F]*\.?[0-9a-fA-F]*(?:[pP][+-]?[0-9]+)?
              |-?[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?
              |-?\.[0-9]+(?:[eE][+-]?[0-9]+)?)
  | (?P<word>[A-Za-z_$][A-Za-z0-9_.$]*)
  | (?P<punct>[-=,(){}\[\]<>:])
""",
    re.VERBOSE,
)


@dataclass
class _Token:
    kind: str
    """newline, local (%x), global (@f), arrow, number, word, punct, eof."""
    text: str
    line: int


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    line = 1
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            raise IRError(f"line {line}: unexpected character {text[pos]!r}")
        kind = m.lastgroup or ""
        if kind not in ("space", "comment"):
            tokens.append(_Token(kind, m.group(), line))
        if kind == "newline":
            line += 1
        pos = m.end()
    tokens.append(_Token("newline", "\n", line))
    tokens.append(_Token("eof", "", line))
    return tokens


# ---------------------------------------------------------------------------
# Syntactic statements


@dataclass
class _Ref:
    """An operand as written: a ``%name`` or an already built constant."""

    line: int
    name: str = ""
    const: Value | None = None


@dataclass
class _Stmt:
    """One instruction line before its operands are resolved."""

    line: int
    opcode: str
    block: Block
    result: str = ""
    operands: list[_Ref] = field(default_factory=list[_Ref])
    type: Type | None = None
    """The explicit type: cast target, call return, alloca'd type, phi type."""
    op: str = ""
    """BinOp/UnOp operator, cmp predicate, fieldaddr field, call callee."""
    pure: bool = False
    interleaved: bool = False
    labels: list[tuple[int, str]] = field(default_factory=list[tuple[int, str]])
    """Branch targets: (line, label); phi incoming labels; switch default first."""
    case_values: list[int] = field(default_factory=list[int])
    mask: _Ref | None = None


_TERMINATORS = ("br", "condbr", "switch", "ret")
_NO_RESULT = ("store", "vstore", "scatter", "recordstore") + _TERMINATORS


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokenize(text)
        self.pos = 0
        self.structs: dict[str, StructType] = {}

    # -- token helpers ----------------------------------------------------------------
    @property
    def tok(self) -> _Token:
        return self.tokens[self.pos]

    def error(self, message: str, line: int | None = None) -> IRError:
        return IRError(f"line {self.tok.line if line is None else line}: {message}")

    def next(self) -> _Token:
        tok = self.tokens[self.pos]
        if tok.kind != "eof":
            self.pos += 1
        return tok

    def at(self, text: str) -> bool:
        return self.tok.text == text and self.tok.kind in ("word", "punct", "arrow")

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.next()
            return True
        return False

    def expect(self, text: str) -> _Token:
        if not self.at(text):
            raise self.error(f"expected '{text}', found {self._describe()}")
        return self.next()

    def expect_kind(self, kind: str, what: str) -> _Token:
        if self.tok.kind != kind:
            raise self.error(f"expected {what}, found {self._describe()}")
        return self.next()

    def _describe(self) -> str:
        tok = self.tok
        if tok.kind == "eof":
            return "end of input"
        if tok.kind == "newline":
            return "end of line"
        return f"'{tok.text}'"

    def skip_newlines(self) -> None:
        while self.tok.kind == "newline":
            self.next()

    def end_of_line(self) -> None:
        if self.tok.kind != "newline":
            raise self.error(f"unexpected {self._describe()} at end of instruction")
        self.skip_newlines()

    # -- module ---------------------------------------------------------------------
    def parse_module(self) -> list[Function]:
        self._declare_structs()
        fns: list[Function] = []
        self.skip_newlines()
        while self.tok.kind != "eof":
            if self.tok.kind == "word" and self.tok.text.startswith("struct."):
                self.parse_struct_decl()
            elif self.at("func"):
                fns.append(self.parse_function())
            else:
                raise self.error(
                    f"expected 'func' or a struct declaration, found {self._describe()}"
                )
            self.skip_newlines()
        return fns

    def _declare_structs(self) -> None:
        """Pre-pass: one StructType object per declared name, fields filled later."""
        toks = self.tokens
        for i, tok in enumerate(toks[:-2]):
            # "struct.X =" can only be a declaration: values are spelled %x.
            if tok.kind == "word" and tok.text.startswith("struct.") and toks[i + 1].text == "=":
                name = tok.text[len("struct.") :]
                if name in self.structs:
                    raise IRError(f"line {tok.line}: struct {tok.text} declared twice")
                spelling = COMPLEX_SPELLINGS.get(name, f"struct {name}")
                self.structs[name] = StructType(name, c_spelling=spelling)

    def parse_struct_decl(self) -> None:
        name = self.next().text[len("struct.") :]
        self.expect("=")
        st = self.structs[name]  # declared by the pre-pass (same pattern)
        self.expect("{")
        fields: list[StructField] = []
        while not self.at("}"):
            if fields:
                self.expect(",")
            ftype = self.parse_type()
            fname = self.expect_kind("word", "a field name").text
            self.expect_kind("global", "a field offset '@N'")
            offset = self._int_text(self.tokens[self.pos - 1].text[1:])
            fields.append(StructField(fname, ftype, offset))
        self.expect("}")
        self.expect("size")
        size = self._int_text(self.expect_kind("number", "the struct size").text)
        # The object was created in the pre-pass so that types parsed earlier
        # already point to it; fill it in place (it is still being built).
        object.__setattr__(st, "fields", tuple(fields))
        object.__setattr__(st, "byte_size", size)
        self.end_of_line()

    def _int_text(self, text: str) -> int:
        value = _parse_int(text)
        if value is None:
            raise self.error(f"expected an integer, found '{text}'")
        return value

    # -- types ------------------------------------------------------------------------
    def parse_type(self) -> Type:
        tok = self.tok
        if self.accept("<"):
            scalable = self.accept("vscale")
            if scalable:
                self.expect("x")
            lanes = self._int_text(self.expect_kind("number", "a lane count").text)
            self.expect("x")
            elem = self.parse_type()
            self.expect(">")
            if lanes < 1 or not (elem.is_int() or elem.is_float() or elem.is_ptr()):
                raise self.error(f"no vector of {lanes} lanes of {elem}", tok.line)
            return VectorType(elem, lanes, scalable)
        if self.accept("["):
            count = self._int_text(self.expect_kind("number", "an array length").text)
            self.expect("x")
            elem = self.parse_type()
            self.expect("]")
            return ArrayType(elem, count)
        if tok.kind != "word":
            raise self.error(f"expected a type, found {self._describe()}")
        self.next()
        if tok.text in SCALAR_TYPES:
            return SCALAR_TYPES[tok.text]
        if tok.text == "ptr":
            self.expect("<")
            pointee = self.parse_type()
            self.expect(">")
            return PtrType(pointee)
        if tok.text.startswith("struct."):
            name = tok.text[len("struct.") :]
            if name not in self.structs:
                raise self.error(f"undeclared struct {tok.text}", tok.line)
            return self.structs[name]
        raise self.error(f"unknown type '{tok.text}'", tok.line)

    def at_type(self) -> bool:
        tok = self.tok
        if tok.kind == "punct":
            return tok.text in ("[", "<")
        return tok.kind == "word" and (
            tok.text in SCALAR_TYPES or tok.text == "ptr" or tok.text.startswith("struct.")
        )

    # -- functions ---------------------------------------------------------------------
    def parse_function(self) -> Function:
        self.expect("func")
        name = self.expect_kind("global", "a function name '@name'").text[1:]
        fn = Function(name)
        self.expect("(")
        while not self.at(")"):
            if fn.args:
                self.expect(",")
            atype = self.parse_type()
            aname = self.expect_kind("local", "an argument name '%name'").text[1:]
            fn.add_arg(atype, aname)
        self.expect(")")
        if self.accept("->"):
            if not self.accept("("):
                fn.ret_types.append(self.parse_type())  # "-> T" for one result
            else:
                while not self.at(")"):
                    if fn.ret_types:
                        self.expect(",")
                    fn.ret_types.append(self.parse_type())
                self.expect(")")
        self.expect("{")
        self.skip_newlines()
        stmts = self.parse_body(fn)
        self.expect("}")
        _FunctionBuilder(fn, stmts).build()
        return fn

    def parse_body(self, fn: Function) -> list[_Stmt]:
        blocks: dict[str, Block] = {}
        stmts: list[_Stmt] = []
        current: Block | None = None
        while not self.at("}"):
            if self.tok.kind == "eof":
                raise self.error("missing '}' at end of function")
            label = self._label_definition()
            if label is not None:
                if label in blocks:
                    raise self.error(f"block label {label} defined twice")
                current = fn.add_block(Block(label))
                blocks[label] = current
                self.skip_newlines()
                continue
            if current is None:
                raise self.error("expected a block label before the first instruction")
            stmts.append(self.parse_statement(current))
            self.end_of_line()
        return stmts

    def _label_definition(self) -> str | None:
        tok = self.tok
        nxt = self.tokens[self.pos + 1]
        if tok.kind in ("word", "number") and nxt.text == ":":
            self.pos += 2
            return tok.text
        return None

    # -- statements --------------------------------------------------------------------
    def parse_statement(self, block: Block) -> _Stmt:
        line = self.tok.line
        result = ""
        if self.tok.kind == "local":
            result = self.next().text[1:]
            self.expect("=")
        opcode_tok = self.expect_kind("word", "an instruction")
        stmt = _Stmt(line, opcode_tok.text, block, result)
        parse = getattr(self, f"_parse_{stmt.opcode}", None)
        if stmt.opcode in BinOp.OPS or stmt.opcode in UnOp.OPS:
            stmt.op, stmt.opcode = stmt.opcode, "binop" if stmt.opcode in BinOp.OPS else "unop"
            parse = self._parse_operand_list
        if parse is None:
            raise self.error(f"unknown instruction '{opcode_tok.text}'", line)
        parse(stmt)
        if stmt.opcode in _NO_RESULT and result:
            raise self.error(f"'{stmt.opcode}' produces no value to name %{result}", line)
        if stmt.opcode == "call" and result and stmt.type == VOID:
            raise self.error(f"void call produces no value to name %{result}", line)
        if self.accept("mask"):
            stmt.mask = self.parse_operand()
        return stmt

    def _parse_operand_list(self, stmt: _Stmt) -> None:
        stmt.operands.append(self.parse_operand())
        while self.accept(","):
            stmt.operands.append(self.parse_operand())

    _parse_select = _parse_operand_list
    _parse_gep = _parse_operand_list
    _parse_load = _parse_operand_list
    _parse_store = _parse_operand_list
    _parse_extractlane = _parse_operand_list
    _parse_insertlane = _parse_operand_list
    _parse_vstore = _parse_operand_list
    _parse_gather = _parse_operand_list
    _parse_scatter = _parse_operand_list
    _parse_reverse = _parse_operand_list

    def _parse_stepvector(self, stmt: _Stmt) -> None:
        stmt.type = self.parse_type()

    def _parse_vload(self, stmt: _Stmt) -> None:
        stmt.type = self.parse_type()
        self.expect(",")
        stmt.operands.append(self.parse_operand())

    def _parse_recordload(self, stmt: _Stmt) -> None:
        """``<N x T>, %p, slot S of K``: S and K kept in ``case_values``."""
        self._parse_vload(stmt)
        self.expect(",")
        self.expect("slot")
        stmt.case_values.append(self._int_text(self.expect_kind("number", "a slot").text))
        self.expect("of")
        stmt.case_values.append(self._int_text(self.expect_kind("number", "a slot count").text))

    _parse_rowload = _parse_recordload
    _parse_concat = _parse_operand_list

    def _parse_part(self, stmt: _Stmt) -> None:
        """``<n x T>, %v, J``: J kept in ``case_values``."""
        self._parse_vload(stmt)
        self.expect(",")
        stmt.case_values.append(self._int_text(self.expect_kind("number", "a part").text))

    _parse_recordstore = _parse_operand_list

    def _parse_reduce(self, stmt: _Stmt) -> None:
        op = self.expect_kind("word", "a reduction").text
        if op not in REDUCTIONS:
            raise self.error(f"unknown reduction '{op}'")
        stmt.op = op
        stmt.operands.append(self.parse_operand())

    def _parse_cmp(self, stmt: _Stmt) -> None:
        pred = self.expect_kind("word", "a compare predicate").text
        if pred not in Cmp.PREDS:
            raise self.error(f"unknown compare predicate '{pred}'")
        stmt.op = pred
        self._parse_operand_list(stmt)

    def _parse_cast(self, stmt: _Stmt) -> None:
        stmt.operands.append(self.parse_operand())
        self.expect("to")
        stmt.type = self.parse_type()

    _parse_splat = _parse_cast

    def _parse_fieldaddr(self, stmt: _Stmt) -> None:
        stmt.operands.append(self.parse_operand())
        self.expect(",")
        stmt.op = self.expect_kind("word", "a field name").text

    def _parse_alloca(self, stmt: _Stmt) -> None:
        stmt.type = self.parse_type()
        stmt.interleaved = self.accept("interleaved")

    def _parse_call(self, stmt: _Stmt) -> None:
        stmt.type = self.parse_type()
        stmt.op = self.expect_kind("global", "a callee '@name'").text[1:]
        self.expect("(")
        while not self.at(")"):
            if stmt.operands:
                self.expect(",")
            stmt.operands.append(self.parse_operand())
        self.expect(")")
        stmt.pure = self.accept("pure")

    def _parse_phi(self, stmt: _Stmt) -> None:
        stmt.type = self.parse_type()
        while self.accept("["):
            stmt.operands.append(self.parse_operand())
            self.expect(",")
            stmt.labels.append(self.parse_label())
            self.expect("]")
            if not self.accept(","):
                break

    def _parse_br(self, stmt: _Stmt) -> None:
        stmt.labels.append(self.parse_label())

    def _parse_condbr(self, stmt: _Stmt) -> None:
        stmt.operands.append(self.parse_operand())
        self.expect(",")
        stmt.labels.append(self.parse_label())
        self.expect(",")
        stmt.labels.append(self.parse_label())

    def _parse_switch(self, stmt: _Stmt) -> None:
        stmt.operands.append(self.parse_operand())
        self.expect(",")
        stmt.labels.append(self.parse_label())
        self.expect("[")
        while not self.at("]"):
            if stmt.case_values:
                self.expect(",")
            stmt.case_values.append(self._int_text(self.expect_kind("number", "a case value").text))
            self.expect(":")
            stmt.labels.append(self.parse_label())
        self.expect("]")

    def _parse_ret(self, stmt: _Stmt) -> None:
        if self.tok.kind == "newline" or self.at("mask"):
            return
        self._parse_operand_list(stmt)

    def parse_label(self) -> tuple[int, str]:
        tok = self.tok
        if tok.kind not in ("word", "number"):
            raise self.error(f"expected a block label, found {self._describe()}")
        self.next()
        return tok.line, tok.text

    # -- operands ----------------------------------------------------------------------
    def parse_operand(self) -> _Ref:
        tok = self.tok
        if tok.kind == "local":
            self.next()
            return _Ref(tok.line, name=tok.text[1:])
        if self.accept("undef"):
            return _Ref(tok.line, const=Undef(self.parse_type()))
        if self.accept("null"):
            t = self.parse_type()
            if not isinstance(t, PtrType):
                raise self.error(f"null of non-pointer type {t}", tok.line)
            return _Ref(tok.line, const=Constant(t, 0))
        if self.at_type():
            t = self.parse_type()
            return _Ref(tok.line, const=Constant(t, self.parse_literal(t)))
        raise self.error(f"expected an operand, found {self._describe()}")

    def parse_literal(self, t: Type) -> int | float:
        tok = self.tok
        negative = False
        if tok.kind == "punct" and tok.text == "-":
            self.next()
            negative = True
            tok = self.tok
        if tok.kind not in ("number", "word"):
            raise self.error(f"expected a {t} literal, found {self._describe()}")
        self.next()
        if t.is_float():
            value = self._float_literal(tok.text, tok.line)
            return -value if negative else value
        if negative or not (t.is_int() or t.is_ptr()):
            raise self.error(f"bad {t} literal '{'-' if negative else ''}{tok.text}'", tok.line)
        if t == I1 and tok.text in ("true", "false"):
            return int(tok.text == "true")
        value = _parse_int(tok.text)
        if value is None:
            raise self.error(f"bad {t} literal '{tok.text}'", tok.line)
        return value

    def _float_literal(self, text: str, line: int) -> float:
        if text in ("nan", "inf"):
            return math.nan if text == "nan" else math.inf
        try:
            body = text.lstrip("-")
            if body[:2] in ("0x", "0X"):
                value = float.fromhex(body)
                return -value if text.startswith("-") else value
            return float(text)
        except ValueError:
            raise self.error(f"bad float literal '{text}'", line) from None


def _parse_int(text: str) -> int | None:
    """Decimal or ``0x`` hexadecimal, optionally negative; None if malformed."""
    body = text[1:] if text.startswith("-") else text
    try:
        value = int(body[2:], 16) if body[:2] in ("0x", "0X") else int(body, 10)
    except ValueError:
        return None
    return -value if text.startswith("-") else value


# ---------------------------------------------------------------------------
# Building instructions from statements


class _Placeholder(Value):
    """Stands for a value used before its definition; replaced afterwards."""


class _FunctionBuilder:
    """Steps 2 and 3 of the module docstring for one function."""

    def __init__(self, fn: Function, stmts: list[_Stmt]) -> None:
        self.fn = fn
        self.stmts = stmts
        self.blocks = {b.name: b for b in fn.blocks}
        self.values: dict[str, Value] = {}
        self.types: dict[str, Type] = {}
        self.placeholders: dict[str, _Placeholder] = {}

    def build(self) -> None:
        for arg in self.fn.args:
            if arg.name in self.types:
                raise IRError(f"line 1: argument %{arg.name} declared twice")
            self.values[arg.name] = arg
            self.types[arg.name] = arg.type
        self._check_definitions()
        self._infer_types()
        for stmt in self.stmts:
            inst = self._make(stmt)
            if stmt.mask is not None:
                inst.set_mask(self._value(stmt.mask))
            inst.name = stmt.result
            stmt.block.append(inst)
            if stmt.result:
                self.values[stmt.result] = inst
        for name, ph in self.placeholders.items():
            ph.replace_all_uses_with(self.values[name])

    def _check_definitions(self) -> None:
        defined = set(self.types)
        for stmt in self.stmts:
            if stmt.result in defined:
                raise IRError(f"line {stmt.line}: value %{stmt.result} defined twice")
            if stmt.result:
                defined.add(stmt.result)
        for stmt in self.stmts:
            refs = stmt.operands + ([stmt.mask] if stmt.mask else [])
            for ref in refs:
                if ref.const is None and ref.name not in defined:
                    raise IRError(f"line {ref.line}: undefined value %{ref.name}")
            for line, label in stmt.labels:
                if label not in self.blocks:
                    raise IRError(f"line {line}: undefined block label {label}")

    # -- step 2: result types ---------------------------------------------------------
    def _infer_types(self) -> None:
        pending = [s for s in self.stmts if s.result]
        while pending:
            left = [s for s in pending if not self._try_type(s)]
            if len(left) == len(pending):
                s = left[0]
                raise IRError(
                    f"line {s.line}: cannot determine the type of %{s.result} "
                    f"(its operands depend on it)"
                )
            pending = left

    def _operand_type(self, ref: _Ref) -> Type | None:
        if ref.const is not None:
            return ref.const.type
        return self.types.get(ref.name)

    def _try_type(self, stmt: _Stmt) -> bool:
        """Record the result type of ``stmt`` if its operands' types are known."""
        if stmt.type is not None and stmt.opcode in _EXPLICIT_TYPE:
            self.types[stmt.result] = stmt.type
            return True
        if stmt.opcode in ("cmp", "gep"):
            return self._try_lanewise_type(stmt)
        if stmt.opcode == "alloca":
            self.types[stmt.result] = PtrType(stmt.type or VOID)
            return True
        index = 1 if stmt.opcode == "select" else 0
        if len(stmt.operands) <= index:
            raise IRError(f"line {stmt.line}: '{stmt.opcode}' needs more operands")
        t = self._operand_type(stmt.operands[index])
        if t is None:
            return False
        self.types[stmt.result] = self._derived_type(stmt, t)
        return True

    def _try_lanewise_type(self, stmt: _Stmt) -> bool:
        """cmp: ``i1`` or the mask of its vector operands; gep: the base's
        type, or the vector of it when an operand is a vector."""
        if len(stmt.operands) < 2:
            raise IRError(f"line {stmt.line}: '{stmt.opcode}' needs more operands")
        a, b = (self._operand_type(r) for r in stmt.operands[:2])
        if stmt.opcode == "cmp":
            known = a if a is not None else b
            if known is None:
                return False
            self.types[stmt.result] = mask_type(known)
            return True
        if a is None or b is None:
            return False
        if not isinstance(element_type(a), PtrType):
            raise IRError(f"line {stmt.line}: gep of non-pointer type {a}")
        self.types[stmt.result] = gep_type(a, b)
        return True

    def _derived_type(self, stmt: _Stmt, t: Type) -> Type:
        if stmt.opcode in ("load", "fieldaddr") and not isinstance(t, PtrType):
            raise IRError(f"line {stmt.line}: {stmt.opcode} of non-pointer type {t}")
        if stmt.opcode == "load" and isinstance(t, PtrType):
            return t.pointee
        if stmt.opcode == "fieldaddr":
            return _field_address_type(stmt, t)
        if stmt.opcode in ("extractlane", "reduce"):
            return element_type(t)
        if stmt.opcode == "gather":
            return gathered_type(t)
        return t

    # -- step 3: instructions ---------------------------------------------------------
    def _value(self, ref: _Ref) -> Value:
        if ref.const is not None:
            return ref.const
        if ref.name in self.values:
            return self.values[ref.name]
        ph = self.placeholders.get(ref.name)
        if ph is None:
            ph = _Placeholder(self.types[ref.name], ref.name)
            self.placeholders[ref.name] = ph
        return ph

    def _block(self, label: tuple[int, str]) -> Block:
        return self.blocks[label[1]]

    def _make(self, stmt: _Stmt) -> Instruction:
        self._check_arity(stmt)
        ops = [self._value(r) for r in stmt.operands]
        kind = stmt.opcode
        if kind == "binop":
            self._same_type(stmt, ops[0], ops[1])
            return BinOp(stmt.op, ops[0], ops[1])
        if kind == "unop":
            return UnOp(stmt.op, ops[0])
        if kind == "cmp":
            self._same_type(stmt, ops[0], ops[1])
            return Cmp(stmt.op, ops[0], ops[1])
        if kind == "cast":
            return Cast(ops[0], stmt.type or VOID)
        if kind == "select":
            return Select(ops[0], ops[1], ops[2])
        if kind in ("gep", "load", "store"):
            return self._make_memory(stmt, ops)
        if kind == "fieldaddr":
            return FieldAddr(ops[0], stmt.op, _field_address_type(stmt, ops[0].type))
        if kind == "alloca":
            return Alloca(stmt.type or VOID, interleaved=stmt.interleaved)
        if kind == "call":
            return Call(stmt.op, ops, stmt.type or VOID, stmt.pure)
        if kind in _VECTOR_MAKERS:
            return _VECTOR_MAKERS[kind](stmt, ops)
        if kind == "phi":
            phi = Phi(stmt.type or VOID)
            for v, label in zip(ops, stmt.labels):
                phi.add_incoming(v, self._block(label))
            return phi
        return self._make_terminator(stmt, ops)

    def _make_memory(self, stmt: _Stmt, ops: list[Value]) -> Instruction:
        ptr_index = 1 if stmt.opcode == "store" else 0
        ptr_type = ops[ptr_index].type
        if not isinstance(element_type(ptr_type) if stmt.opcode == "gep" else ptr_type, PtrType):
            raise IRError(
                f"line {stmt.line}: {stmt.opcode} through non-pointer type {ops[ptr_index].type}"
            )
        if stmt.opcode == "gep":
            return Gep(ops[0], ops[1])
        if stmt.opcode == "load":
            return Load(ops[0])
        return Store(ops[0], ops[1])

    def _make_terminator(self, stmt: _Stmt, ops: list[Value]) -> Instruction:
        if stmt.opcode == "br":
            return Br(self._block(stmt.labels[0]))
        if stmt.opcode == "condbr":
            return CondBr(ops[0], self._block(stmt.labels[0]), self._block(stmt.labels[1]))
        if stmt.opcode == "switch":
            cases = [(k, self._block(lab)) for k, lab in zip(stmt.case_values, stmt.labels[1:])]
            return Switch(ops[0], self._block(stmt.labels[0]), cases)
        return Ret(ops)

    _ARITY: ClassVar[dict[str, int]] = {
        "binop": 2,
        "unop": 1,
        "cmp": 2,
        "cast": 1,
        "select": 3,
        "gep": 2,
        "load": 1,
        "store": 2,
        "fieldaddr": 1,
        "alloca": 0,
        "condbr": 1,
        "switch": 1,
        "br": 0,
        "splat": 1,
        "stepvector": 0,
        "extractlane": 2,
        "insertlane": 3,
        "reduce": 1,
        "reverse": 1,
        "vload": 1,
        "vstore": 2,
        "gather": 1,
        "scatter": 2,
        "recordload": 1,
        "rowload": 1,
        "part": 1,
    }

    def _check_arity(self, stmt: _Stmt) -> None:
        want = self._ARITY.get(stmt.opcode)
        if want is not None and len(stmt.operands) != want:
            name = stmt.op if stmt.opcode in ("binop", "unop") else stmt.opcode
            raise IRError(
                f"line {stmt.line}: '{name}' takes {want} operand(s), got {len(stmt.operands)}"
            )

    @staticmethod
    def _same_type(stmt: _Stmt, a: Value, b: Value) -> None:
        if a.type != b.type:
            raise IRError(f"line {stmt.line}: operand types differ: {a.type} and {b.type}")


_EXPLICIT_TYPE = (
    "cast",
    "call",
    "phi",
    "splat",
    "stepvector",
    "vload",
    "recordload",
    "rowload",
    "part",
)
"""Statements that spell their result type."""


def _vector_type(stmt: _Stmt) -> VectorType:
    if not isinstance(stmt.type, VectorType):
        raise IRError(f"line {stmt.line}: '{stmt.opcode}' of non-vector type {stmt.type}")
    return stmt.type


_VECTOR_MAKERS: dict[str, Callable[[_Stmt, list[Value]], Instruction]] = {
    "splat": lambda s, ops: Splat(ops[0], _vector_type(s)),
    "stepvector": lambda s, ops: StepVector(_vector_type(s)),
    "extractlane": lambda s, ops: ExtractLane(ops[0], ops[1]),
    "insertlane": lambda s, ops: InsertLane(ops[0], ops[1], ops[2]),
    "reduce": lambda s, ops: Reduce(s.op, ops[0]),
    "reverse": lambda s, ops: Reverse(ops[0]),
    "vload": lambda s, ops: VLoad(ops[0], _vector_type(s)),
    "vstore": lambda s, ops: VStore(ops[0], ops[1]),
    "gather": lambda s, ops: Gather(ops[0]),
    "scatter": lambda s, ops: Scatter(ops[0], ops[1]),
    "recordload": lambda s, ops: RecordLoad(
        ops[0], _vector_type(s), s.case_values[0], s.case_values[1]
    ),
    "rowload": lambda s, ops: RowLoad(ops[0], _vector_type(s), s.case_values[0], s.case_values[1]),
    "recordstore": lambda s, ops: RecordStore(ops[:-1], ops[-1]),
    "part": lambda s, ops: ExtractPart(ops[0], _vector_type(s), s.case_values[0]),
    "concat": lambda s, ops: Concat(ops),
}
"""The vector IR's own instructions (s2s/ir/vector.py) from their statements."""


def _field_address_type(stmt: _Stmt, t: Type) -> Type:
    """``ptr<field type>``, or ``ptr<elem>`` when the field is an array (decay)."""
    st = t.pointee if isinstance(t, PtrType) else t
    if not isinstance(st, StructType):
        raise IRError(f"line {stmt.line}: fieldaddr of non-struct pointer type {t}")
    try:
        ftype = st.field_named(stmt.op).type
    except KeyError:
        raise IRError(f"line {stmt.line}: {st} has no field {stmt.op}") from None
    if isinstance(ftype, ArrayType):
        return PtrType(ftype.elem)
    return PtrType(ftype)


def values_by_name(fn: Function) -> dict[str, Value]:
    """Arguments and instructions of ``fn`` by name hint (for tests on parsed IR,
    where the hints are the unique textual names)."""
    named: dict[str, Value] = {a.name: a for a in fn.args if a.name}
    named.update({i.name: i for i in fn.instructions() if i.name})
    return named
