"""Target descriptions: templates/<name>/target.toml plus a Jinja environment.

A target is data (register width, native vector types, mask representation,
vector-math naming) and templates (one macro per vector operation in
``ops.j2``); the code generator asks this module, never the target name.
The schema is documented in templates/README.md.

What a target can do -- which macro renders something for which argument
types -- is data too: ``templates/<name>/capabilities.toml``, generated from
the templates by scripts/capabilities.py (s2s/codegen/capabilities.py) and
read with target.toml.  ``Target.has`` answers from it; nothing renders a
template to find out.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jinja2

from ..analysis.records import MAX_SLOTS
from ..cache import cache_folder, write_atomically
from ..compiler_flags import Selection
from ..diagnostics import internal_error
from ..ir.types import SCALAR_TYPES, FloatType, IntType, Type


def _template_root() -> Path:
    """templates/ of the source tree, or where ``pip install .`` put it."""
    source_tree = Path(__file__).resolve().parents[2] / "templates"
    if source_tree.is_dir():
        return source_tree
    return Path(sys.prefix) / "share" / "s2svec" / "templates"


TEMPLATE_ROOT = _template_root()

CAPABILITIES = "capabilities.toml"
"""The capability table of a target folder (generated: scripts/capabilities.py)."""

TYPE_PARAMS = ("f", "t", "it", "at", "mt")
"""Macro parameters that take type infos, in the order they appear in a
capability key.  Every type of one question has the same lane count; ``mt``
is a mask of ``t``'s element bits, ``at`` the ``u64`` vector (addresses),
``it`` an integer vector (indices); macros named ``mask_*`` take masks
everywhere."""

COUNT_PARAMS = {"k": range(2, MAX_SLOTS + 1)}
"""Integer parameters a capability may depend on, with the values the code
generator passes (``k``: the elements of a record, s2s.analysis.records)."""

LIST_PARAMS = ("xs", "outs", "vs")
"""List parameters: ``k`` entries in a macro that takes ``k``, else ``t.lanes``."""

LANE_PARAMS = ("j",)
"""Integer operands (a lane index) whose value must not change the answer."""

C_SCALAR = {
    "i8": "int8_t",
    "i16": "int16_t",
    "i32": "int32_t",
    "i64": "int64_t",
    "u8": "uint8_t",
    "u16": "uint16_t",
    "u32": "uint32_t",
    "u64": "uint64_t",
    "f32": "float",
    "f64": "double",
}


@dataclass(frozen=True)
class TypeInfo:
    """What templates know about one vector type (see templates/README.md)."""

    key: str
    """``f64x4``; masks ``m64x4``."""
    elem: str
    """IR element type name (``f64``, ``u32``) or ``m<bits>`` for masks."""
    bits: int
    lanes: int
    ctype: str
    scalar: str
    """C scalar type of one lane (for masks the signed integer of that width)."""
    fill: int
    """Lanes the C type physically holds: more than ``lanes`` for a partial
    type keeping its lanes in the low part of a register (``fill`` of the
    [[vector]] entry, else ``lanes``)."""
    is_float: bool = False
    is_mask: bool = False
    signed: bool = True
    spellings: dict[str, str] = field(default_factory=dict[str, str], hash=False, compare=False)
    """The other keys of the [[vector]] entry (``prefix``, ``suffix``, ``sfx``
    ...): names the target's templates build intrinsics from."""

    @property
    def is_int(self) -> bool:
        return not self.is_float and not self.is_mask

    @property
    def reg_bits(self) -> int:
        return self.bits * self.lanes

    def __getitem__(self, name: str) -> str:
        """A spelling (``spellings``): Jinja looks ``t.prefix`` up here once
        ``t`` has no attribute of that name; a missing one is undefined."""
        return self.spellings[name]


@dataclass
class Target:
    """One code-generation target."""

    name: str
    guards: list[str]
    """Predefined macros that must all be defined to compile this target's code."""
    register_bits: int
    headers: list[str]
    cflags: list[str]
    mask_kind: str
    """``lanes`` (all-ones integer lanes), ``bits`` (scalar bit masks) or
    ``predicate`` (a predicate register of one C type, ``[mask] ctype``)."""
    mask_ctypes: dict[int, str]
    """The C type per lane count (kind ``bits``, and ``predicate`` with
    ``ctypes``); kind ``predicate`` with one ``ctype``: it under the key 0."""
    vector_abi: bool
    math_isa: dict[int, str]
    math_functions: set[str]
    types: dict[str, TypeInfo]
    env: jinja2.Environment
    plain_char_signed: bool = True
    """Whether plain ``char`` is signed in this target's C ABI (AArch64: no)."""
    triple: str = ""
    """The target triple its compilers use (``x86_64-linux-gnu``)."""
    vfabi_family: tuple[str, ...] = ()
    """Vector Function ABI ISA letters whose variants objects of this
    architecture define (s2s.vfabi.FAMILIES)."""
    vfabi_isa: str = ""
    """The ISA letter of the variants this target's function bodies become."""
    vfabi_calls: tuple[str, ...] = ()
    """ISA letters of the variants this target's loops may call, best first
    (the build has their ISAs too: AVX2 code may call SSE variants)."""

    masked_tail: bool = False
    """The iterations left after the last full vector run as one more vector
    iteration with the first lanes active (cheap masked memory), not as
    the scalar loop body (s2s.transform.masked_tail)."""
    masked_tail_stores: bool = False
    """The masked last iteration also for loops that store to memory (the
    store forwarding stall it risks costs less than a scalar remainder of
    up to 255 iterations on a scalable target)."""
    all_true_paths: bool = True
    """Divergent arms with contiguous memory accesses get an unmasked copy
    taken when every lane is in them (transform.all_true): where masked
    loads and stores cost more than plain ones."""
    uniform_arm_limit: int = 4
    """Instructions an arm of a uniform branch choosing between vectors may
    hold to become a select (transform.speculate; 0: none)."""
    shadow_counters: bool = True
    """A uniform counter live out of a divergent loop gets a per-lane copy
    (transform.divergent_loops)."""
    record_register_bits: int = 0
    """Register width of loops that move whole records (s2s.analysis.records;
    0: ``register_bits``): the de-interleaving shuffles of narrower registers
    may be cheaper than the lane-crossing ones of the widest."""
    refill_min_ratio: float = 2.0
    """Lane refill (s2s.transform.refill) only where a trip of the divergent
    loop weighs this many times what refill adds (``--refill-ratio``
    overrides it)."""
    refill_gather_weight: int = 8
    """What lane refill (s2s.transform.refill) charges per trip for each
    access of the divergent loop that is contiguous in the plain vector loop
    and a gather once lanes are at different iterations."""

    scalable: bool = False
    """A vector-length agnostic target (SVE): a vector type of ``lanes``
    holds ``vscale * lanes`` elements, ``vscale`` known only at run time
    (``register_bits`` is the bits of one ``vscale`` unit)."""
    vscale: str = "1"
    """C expression of ``vscale`` (a scalable target's ``target.toml``)."""
    max_vscale: int = 1
    """The largest ``vscale`` the architecture allows (arrays of lanes are
    sized for it)."""

    assumed: tuple[str, ...] = ()
    """More conditions the code was generated under (the reading of the
    file, s2s.frontend.views.FileView.assumed; set per file by the driver)."""

    capabilities: dict[str, frozenset[str]] | None = None
    """capabilities.toml: macro name -> the capability keys (``question_key``)
    it renders something for; None when the file is missing."""
    _answers: dict[tuple[Any, ...], bool] = field(default_factory=dict, repr=False)
    _mask_types: dict[tuple[int, int], TypeInfo | None] = field(
        default_factory=dict, repr=False, compare=False
    )
    """``mask_type`` by (bits, lanes), made once (it is asked per instruction)."""
    _ops: Any = field(default=None, init=False, repr=False, compare=False)
    """ops.j2's module, made once (``call``)."""
    _need: Callable[[str], object] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    """Where ``need`` in ops.j2 records during a ``call``."""

    @property
    def condition(self) -> str:
        """The preprocessor condition selecting this target's code."""
        return " && ".join(self._isa_terms() + list(self.assumed))

    @property
    def isa_condition(self) -> str:
        """The condition without ``assumed``: a build whose flags and compiler
        give this target's code (s2s.branch_check asks the build about it)."""
        return " && ".join(self._isa_terms())

    def _isa_terms(self) -> list[str]:
        return [f"defined({g})" for g in self.guards]

    @property
    def guard(self) -> str:
        """The main ISA macro (the first guard)."""
        return self.guards[0]

    @property
    def parse_args(self) -> tuple[str, ...]:
        """Compiler arguments that make the parser see the file as this
        target's compiler does: its predefined macros, type sizes, char."""
        triple = (f"--target={self.triple}",) if self.triple else ()
        return triple + tuple(self.cflags)

    # -- types -----------------------------------------------------------------
    def vtype(self, elem: Type | str, lanes: int) -> TypeInfo | None:
        """The native vector type of ``lanes`` elements of ``elem``, if any."""
        return self.types.get(f"{type_key(elem)}x{lanes}")

    def mask_type(self, bits: int, lanes: int) -> TypeInfo | None:
        """The mask type for lanes of ``bits`` bits (None when not native)."""
        key = (bits, lanes)
        if key not in self._mask_types:
            self._mask_types[key] = self._make_mask_type(bits, lanes)
        return self._mask_types[key]

    def _make_mask_type(self, bits: int, lanes: int) -> TypeInfo | None:
        if self.mask_kind == "bits":
            ctype = self.mask_ctypes.get(lanes)
            if ctype is None:
                return None
            return TypeInfo(
                f"m{bits}x{lanes}",
                f"m{bits}",
                bits,
                lanes,
                ctype,
                C_SCALAR[f"i{bits}"],
                lanes,
                is_mask=True,
            )
        base = self.types.get(f"i{bits}x{lanes}")
        if base is None:
            return None
        return TypeInfo(
            f"m{bits}x{lanes}",
            f"m{bits}",
            bits,
            lanes,
            self.mask_ctypes.get(0, self.mask_ctypes.get(lanes, ""))
            if self.mask_kind == "predicate"
            else base.ctype,
            base.scalar,
            base.fill,
            is_mask=True,
            spellings=base.spellings,
        )

    def mask_types(self) -> list[TypeInfo]:
        """Every mask type the target has (``mask_type`` of each element
        width and lane count)."""
        counts = {t.lanes for t in self.types.values()} | set(self.mask_ctypes)
        found = (
            self.mask_type(bits, lanes) for bits in (8, 16, 32, 64) for lanes in sorted(counts)
        )
        return [m for m in found if m is not None]

    def lanes_c(self, lanes: int) -> str:
        """C expression of the elements in a vector of ``lanes`` lanes."""
        return f"({self.vscale} * {lanes})" if self.scalable else str(lanes)

    def max_lanes(self, lanes: int) -> int:
        """The most elements a vector of ``lanes`` lanes holds (array sizes)."""
        return lanes * self.max_vscale

    # -- capabilities ---------------------------------------------------------------
    def has(self, op: str, **args: Any) -> bool:
        """Whether the target's macro ``op`` renders something for these
        arguments: type infos by parameter name (``t=``, ``mt=`` ...), ``k``,
        lists (their length); operand texts and other values are ignored.
        Answered from capabilities.toml (no template is rendered).  A
        question outside what the table covers (types of different lane
        counts, a mask where a vector belongs ...) is an internal error."""
        sig = tuple(
            sorted(
                (name, v.key if isinstance(v, TypeInfo) else len(v) if isinstance(v, list) else v)
                for name, v in args.items()
                if isinstance(v, (TypeInfo, list)) or name in COUNT_PARAMS
            )
        )
        memo = (op, sig)
        answer = self._answers.get(memo)
        if answer is None:
            if self.capabilities is None:
                raise FileNotFoundError(
                    f"{TEMPLATE_ROOT / self.name / CAPABILITIES} is missing: "
                    "run scripts/capabilities.py"
                )
            keys = self.capabilities.get(op)
            answer = keys is not None and question_key(self, op, args) in keys
            self._answers[memo] = answer
        return answer

    # -- vector math -------------------------------------------------------------
    def vector_math_name(self, fn: str, nargs: int, t: TypeInfo) -> str | None:
        """The libmvec (x86 vector function ABI) name of ``fn`` on type t, or None."""
        if not self.vector_abi:
            return None
        base = fn[:-1] if t.elem == "f32" else fn
        if not t.is_float or base not in self.math_functions:
            return None
        if t.elem == "f32" and not fn.endswith("f"):
            return None
        isa = self.math_isa.get(t.reg_bits)
        if isa is None:
            return None
        return f"_ZGV{isa}N{t.lanes}{'v' * nargs}_{fn}"

    # -- templates -----------------------------------------------------------------
    def ops(self, need: Callable[[str], str]) -> Any:
        """The module of ops.j2 with ``need`` bound to the caller's recorder."""
        tmpl = self.env.get_template("ops.j2")
        return tmpl.make_module({"need": need})

    def call(self, name: str, need: Callable[[str], object], **args: Any) -> str:
        """The text of ops.j2's macro ``name`` for ``args``; the helpers it
        names with ``need`` are passed to ``need``.  The module of ops.j2 is
        made once (its top level defines macros only), not per caller."""
        if self._ops is None:
            self._ops = self.ops(self._needed)
        self._need = need
        try:
            return str(getattr(self._ops, name)(**args))
        finally:
            self._need = None

    def _needed(self, name: str) -> str:
        assert self._need is not None, "need() outside Target.call"
        self._need(name)
        return ""

    def render(self, template: str, **ctx: Any) -> str:
        return self.env.get_template(template).render(**ctx)


def type_key(t: Type | str) -> str:
    """``f64``, ``i32``, ``u64`` for an IR scalar type (pointers are ``u64``)."""
    if isinstance(t, str):
        return t
    if isinstance(t, (IntType, FloatType)):
        return str(t)
    if t.is_ptr():
        return "u64"
    raise KeyError(f"no vector element type for {t}")


def question_key(target: Target, op: str, args: dict[str, Any]) -> str:
    """The key of a capability question in capabilities.toml: the type of
    each ``TYPE_PARAMS`` argument and the value of each ``COUNT_PARAMS`` one,
    ``f=f32x8,t=f64x8`` (a single one bare: ``f64x8``, ``m64x8``).  Checks
    the question is one the table answers (see ``TYPE_PARAMS``)."""

    def outside(why: str) -> Exception:
        shown = ", ".join(
            f"{n}={v.key if isinstance(v, TypeInfo) else v!r}" for n, v in args.items()
        )
        return internal_error(
            f"the capability table of {target.name} has no answer for {op}({shown}): {why}"
        )

    types = {n: v for n, v in args.items() if isinstance(v, TypeInfo)}
    mask_op = op.startswith("mask_")
    for name, v in types.items():
        if name not in TYPE_PARAMS:
            raise outside(f"'{name}' is not a type parameter")
        if v.is_mask != (mask_op or name == "mt"):
            raise outside(f"'{name}' {'is' if v.is_mask else 'is not'} a mask")
        known = target.mask_type(v.bits, v.lanes) if v.is_mask else target.types.get(v.key)
        if known != v:
            raise outside(f"{v.key} is not a type of the target")
    if len({v.lanes for v in types.values()}) > 1:
        raise outside("types of different lane counts")
    t, mt = types.get("t"), types.get("mt")
    if not mask_op and t is not None and mt is not None and mt.bits != t.bits:
        raise outside("a mask of other bits than t")
    if "at" in types and types["at"].elem != "u64":
        raise outside("addresses are u64 vectors")
    if "it" in types and not types["it"].is_int:
        raise outside("indices are integer vectors")
    counts = {n: args[n] for n in COUNT_PARAMS if n in args}
    for name, value in counts.items():
        if value not in COUNT_PARAMS[name]:
            raise outside(f"{name}={value} is not one of the values the table covers")
    for name in LIST_PARAMS:
        if name in args:
            want = counts.get("k", t.lanes if t is not None else None)
            if len(args[name]) != want:
                raise outside(f"'{name}' has {len(args[name])} entries, not {want}")
    parts = [(n, types[n].key) for n in TYPE_PARAMS if n in types]
    parts += [(n, str(v)) for n, v in counts.items()]
    if len(parts) == 1:
        return parts[0][1]
    return ",".join(f"{n}={v}" for n, v in parts)


def read_capabilities(path: Path) -> dict[str, frozenset[str]] | None:
    """capabilities.toml as macro name -> keys; None when there is none.
    Parsed tables are kept in the cache folder under the hash of the file
    (tomllib takes about 20 ms for the three tables, the cached copy well
    under 1 ms)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    folder = cache_folder("capabilities")
    entry = (
        os.path.join(folder, hashlib.sha256(raw).hexdigest()[:32]) if folder is not None else None
    )
    data: Any = None
    if entry is not None:
        try:
            with open(entry, "rb") as handle:
                data = marshal.loads(handle.read())
        except (OSError, EOFError, ValueError, TypeError):
            data = None
    if not isinstance(data, dict):
        data = tomllib.loads(raw.decode("utf-8"))
        if entry is not None:
            write_atomically(entry, marshal.dumps(data))
    return {op: frozenset(keys) for op, keys in data.items()}


def _type_infos(entries: list[dict[str, Any]]) -> dict[str, TypeInfo]:
    types: dict[str, TypeInfo] = {}
    for entry in entries:
        spellings = {
            k: str(v) for k, v in entry.items() if k not in ("elems", "lanes", "ctype", "fill")
        }
        for elem in entry["elems"]:
            ir = SCALAR_TYPES[elem]
            assert isinstance(ir, (IntType, FloatType)), elem
            info = TypeInfo(
                f"{elem}x{entry['lanes']}",
                elem,
                ir.bits,
                entry["lanes"],
                entry["ctype"],
                C_SCALAR[elem],
                entry.get("fill", entry["lanes"]),
                is_float=ir.is_float(),
                signed=not elem.startswith("u"),
                spellings=spellings,
            )
            types[info.key] = info
    return types


@lru_cache(maxsize=1)
def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled templates kept between runs (compiling them is most of the
    start-up time) in the cache folder of ``s2s.cache``; none when that
    folder cannot be made.  Jinja checks each entry against its template's
    source, so an edited template is compiled again."""
    folder = cache_folder(f"jinja-{jinja2.__version__}")
    return jinja2.FileSystemBytecodeCache(folder) if folder is not None else None


@cache
@cache
def selections() -> tuple[Selection, ...]:
    """How compiler flags select each target: the ``[select]`` tables of
    every templates/*/target.toml (read without loading the templates)."""
    found = []
    for path in sorted(TEMPLATE_ROOT.glob("*/target.toml")):
        data = tomllib.loads(path.read_text())
        select: dict[str, Any] = data.get("select", {})
        if select:
            fields: dict[str, Any] = {
                k: tuple(v) if isinstance(v, list) else v for k, v in select.items()
            }
            found.append(Selection(name=data["name"], **fields))
    return tuple(found)


def load_target(name: str) -> Target:
    """Read templates/<name>/target.toml; raise KeyError for an unknown target."""
    folder = TEMPLATE_ROOT / name
    toml_path = folder / "target.toml"
    if not toml_path.is_file():
        raise KeyError(f"unknown target '{name}'")
    data = tomllib.loads(toml_path.read_text())
    mask = data.get("mask", {})
    math = data.get("math", {})
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(folder), str(TEMPLATE_ROOT / "common")]),
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=False,
        bytecode_cache=_bytecode_cache(),
    )
    return Target(
        name=data["name"],
        register_bits=data["register_bits"],
        guards=[data["guard"]] if isinstance(data["guard"], str) else list(data["guard"]),
        headers=list(data.get("headers", [])),
        cflags=list(data.get("cflags", [])),
        mask_kind=mask.get("kind", "lanes"),
        mask_ctypes=(
            {0: mask["ctype"]}
            if "ctype" in mask
            else {int(k): v for k, v in mask.get("ctypes", {}).items()}
        ),
        vector_abi=bool(math.get("vector_abi", False)),
        math_isa={int(k): v for k, v in math.get("isa", {}).items()},
        math_functions=set(math.get("functions", [])),
        types=_type_infos(data.get("vector", [])),
        env=env,
        plain_char_signed=bool(data.get("plain_char_signed", True)),
        triple=data.get("triple", ""),
        vfabi_family=tuple(data.get("vfabi_family", ())),
        vfabi_isa=data.get("vfabi_isa", ""),
        vfabi_calls=tuple(data.get("vfabi_calls", (data.get("vfabi_isa", ""),))),
        masked_tail=bool(data.get("masked_tail", False)),
        masked_tail_stores=bool(data.get("masked_tail_stores", False)),
        record_register_bits=int(data.get("record_register_bits", 0)),
        all_true_paths=bool(data.get("all_true_paths", True)),
        uniform_arm_limit=int(data.get("uniform_arm_limit", 4)),
        shadow_counters=bool(data.get("shadow_counters", True)),
        refill_gather_weight=int(data.get("refill_gather_weight", 8)),
        refill_min_ratio=float(data.get("refill_min_ratio", 2.0)),
        capabilities=read_capabilities(folder / CAPABILITIES),
        scalable=bool(data.get("scalable", False)),
        vscale=str(data.get("vscale", "1")),
        max_vscale=int(data.get("max_vscale", 1)),
    )
