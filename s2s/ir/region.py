"""A region: the IR of one annotated loop body (or declare-simd function) plus
how its parameters and results connect to the surrounding C code.

The front end builds it, analyses and transforms work on ``region.fn``, and
the code generator reads the bindings to emit the vector loop around the
widened body.

Loop regions (seed 001 Section 3.1, 3.3): ``fn`` computes ONE iteration of
the annotated loop.  Its parameters, in order:

  * the induction variable (role ``iv``): the value of the loop variable in
    this iteration (lanes are consecutive iterations, shape stride = step);
  * carried values: ``reduction`` accumulators (each lane keeps a partial
    result, combined after the loop) and ``linear`` variables (value at the
    start of the iteration = initial + k*step);
  * live-ins (role ``uniform``): values read but never written in the loop,
    identical for every iteration.  Arrays, structs and address-taken
    scalars are passed by address (``c_expr`` is ``a`` or ``&s``).

``ret`` returns, in order of ``results``: the new value of each reduction
accumulator and the final value of each lastprivate variable.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .clauses import ClauseSet, UserReduction
from .types import Type
from .values import Argument, Function


@dataclass
class ArgBinding:
    """How the code generator obtains the value of one region parameter."""

    arg: Argument
    role: str
    """``iv``, ``uniform``, ``linear`` or ``reduction``."""
    c_expr: str
    """C expression giving the value before the loop (``n``, ``a``, ``&s``)."""
    c_type: str
    """The C type of ``c_expr`` as declared in the source (for temporaries)."""
    step: int | str = 0
    """For ``iv`` and ``linear``: the step per iteration, a constant or the C
    text of a run-time step (then the parameter is the value of lane 0 and
    the body computes the lanes' values: s2s.frontend.lower)."""
    reduction_op: str = ""
    """For ``reduction``: one of + * - min max & | ^ && ||, or the name of
    a ``declare reduction``."""
    user_reduction: UserReduction | None = None
    """For a ``declare reduction``: its declaration for this variable's type."""
    aggregate: str = ""
    """For one scalar field of a struct reduced by a ``declare reduction``:
    the struct variable (``c_expr`` is the field, ``acc.n``); the fields
    of one variable are combined together, lane by lane."""
    aggregate_c_type: str = ""
    """The struct variable's C type, as declared."""


@dataclass
class CalleeBody:
    """A function whose definition the translation unit holds, lowered for
    inlining into regions that call it (s2s.frontend.lower_callee,
    s2s.transform.inline)."""

    name: str
    fn: Function
    """Its body.  Arguments: the C parameters, then one per global object
    the body (or a function it calls in turn) reads, by address."""
    params: int
    """How many of ``fn.args`` are the C parameters (a struct parameter is
    the address of the caller's object, or of a copy when the callee
    writes it; a complex parameter is two arguments, its parts)."""
    result_slot: bool = False
    """Whether a struct result (or the two parts of a complex one) is
    stored through an argument after the C parameters (the caller's object)."""
    globals: list[ArgBinding] = field(default_factory=list[ArgBinding])
    """How a caller obtains each argument after the parameters (``&g``, ``t``)."""
    calls: set[str] = field(default_factory=set[str])
    """Functions its body calls that stay calls wherever it is inlined
    (recursion, no body here): their names must be visible there."""
    inlinable_calls: set[str] = field(default_factory=set[str])
    """Functions its body calls whose calls may be inlined in turn."""

    by_address: bool = False
    """Structs go to it by address (parameters, result): its calls must be
    inlined, since a plain C call would pass the values."""

    @property
    def arity(self) -> int:
        """Operands of a call that may be inlined: parameters, the result's
        slot, the globals."""
        return self.params + self.result_slot + len(self.globals)


@dataclass
class ResultBinding:
    """Where one value returned by the region goes after the loop."""

    index: int
    """Position in the region's ``ret``."""
    role: str
    """``reduction`` (combine lanes with ``reduction_op`` into the variable)
    or ``lastprivate`` (the value of the sequentially last iteration)."""
    c_var: str
    """The C variable (an lvalue) that receives the result."""
    type: Type
    reduction_op: str = ""
    arg: Argument | None = None
    """For reductions: the accumulator parameter this result feeds back into."""
    assigned_index: int | None = None
    """For lastprivate: position in ``ret`` of an ``i1`` telling whether the
    iteration assigned the variable; the variable ends with the value of the
    last iteration that did (the scalar loop's behaviour), and keeps its
    value when none did."""


@dataclass
class LoopBounds:
    """The canonical loop form ``for (var = lower; var CMP upper; var += step)``."""

    var: str
    """Name of the loop variable."""
    var_c_type: str
    """Its C type."""
    var_declared_in_loop: bool
    """True for ``for (int i = ...)``; else the variable outlives the loop
    and gets its sequential final value after the vector loop."""
    lower: str
    """C expression of the initial value (evaluated once)."""
    upper: str
    """C expression of the bound (loop-invariant, evaluated once)."""
    cmp: str
    """One of < <= > >= !=."""
    step: int | str
    """The increment (negative for decreasing loops): a constant, or the C
    text of a run-time step, whose sign is tested at run time."""
    cmp_c_type: str = ""
    """The type ``var CMP upper`` is evaluated in (the usual arithmetic
    conversions: ``int`` for an ``unsigned char`` var and an ``int`` bound);
    empty: the type of var."""
    cmp_type: Type | None = None
    """The IR type of ``cmp_c_type`` (None: the type of var)."""
    var_type: Type | None = None
    """The IR type of var (None: the type of the region's iv argument)."""
    folded_step_names: tuple[str, ...] = ()
    """The variables a constant step was folded from (the loop reads them;
    the vector code, which has the constant, does not)."""
    var_read_after: bool = True
    """Whether the function may read var after the loop (False only where
    that is known not to happen: its final value then needs no clause)."""


@dataclass
class SourceRange:
    """Byte offsets into the original file text, end exclusive."""

    start: int
    end: int


@dataclass
class ScanHelper:
    """The helper one ``reduction(inscan, op: var)`` variable's
    ``#pragma omp scan`` is lowered to (s2s/frontend/scan.py): a call
    ``name(&var, v)`` per iteration, run lane by lane in iteration order,
    combines the iteration's contribution v into var (the running total)
    and returns var's value in the scan phase: the total after v
    (``inclusive``) or before it."""

    name: str
    var: str
    """The C variable (the running total; after the loop, the reduction)."""
    type: Type
    op: str
    """One of ``REDUCTION_OPS``, or the name of a ``declare reduction``."""
    inclusive: bool
    user_reduction: UserReduction | None = None


@dataclass
class Region:
    """One annotated loop or declare-simd function, ready to vectorize."""

    kind: str
    """``loop`` or ``function``."""
    name: str
    """For loops ``<function>:<line>``; for functions the C name."""
    file: str
    line: int
    column: int
    fn: Function
    """The scalar IR of one iteration (loop) or of the function body."""
    tag: str = ""
    """``line_column`` in the text parsed, for the names of the region's
    code (``parse.name_position``; empty: the region's line and column)."""
    args: list[ArgBinding] = field(default_factory=list[ArgBinding])
    results: list[ResultBinding] = field(default_factory=list[ResultBinding])
    bounds: LoopBounds | None = None
    """Loop regions only."""
    clauses: ClauseSet | None = None
    """The parsed clause set of the pragma (None: a region made without
    one, as in the IR tests)."""
    replace: SourceRange | None = None
    """Text the vector code replaces: the pragma line through the loop's end."""
    loop_text: str = ""
    """Original text of the loop statement (without the pragma), used verbatim
    for the scalar epilogue and for the ``#else`` branch of target dispatch."""
    body_text: str = ""
    """Original text of the loop body statement."""
    pragma_text: str = ""
    """The original pragma line(s), e.g. ``#pragma omp parallel for simd ...``."""
    outer_bounds: list[LoopBounds] = field(default_factory=list[LoopBounds])
    """For ``collapse(n)``: the canonical forms of the n-1 outer loops, in the
    order of ``outer_loops``."""
    outer_loops: list[str] = field(default_factory=list[str])
    """For ``collapse(n)``: the headers (``for (...)``) of the n-1 outer loops,
    outermost first, kept as scalar C loops around the vectorized innermost
    loop (all iterations of a simd nest are independent, so grouping lanes
    within the innermost loop is a valid schedule)."""
    worksharing: str = ""
    """The constructs before ``simd`` when they split the loop's iterations
    (``for``, ``parallel for``, ``target teams distribute parallel for``,
    ``taskloop``...: ``ClauseSet.worksharing``); the loop over vector blocks
    keeps them (without ``simd``)."""
    source_checks: list[str] = field(default_factory=list[str])
    """C lines the vector code starts with: checks that the build sees the
    loop's macros and preprocessor branches as s2svec did
    (s2s.frontend.macro_checks)."""
    outlined: list[str] = field(default_factory=list[str])
    """C definitions of the functions the region calls for its ``ordered
    simd`` blocks (s2s/frontend/lower_omp.py), which the output defines
    before the function holding the loop."""
    notes: list[str] = field(default_factory=list[str])
    """``file:line:col: note: ...`` of lowering for the report (what a
    construct without a clause was taken to mean)."""
    scans: list[ScanHelper] = field(default_factory=list["ScanHelper"])
    """The helpers of the loop's ``#pragma omp scan`` (one per variable),
    which the output defines before the function holding the loop."""
    callees: dict[str, CalleeBody] = field(default_factory=dict[str, CalleeBody])
    """The bodies of the functions whose calls in ``fn`` may be inlined
    (with those they call in turn), by name (s2s.transform.inline)."""
    plain_char: bool = False
    """True when the IR depends on the signedness of plain ``char`` (signed
    on x86, unsigned on AArch64): lower again with
    ``lower_loop(..., plain_char_signed=False)`` for targets where it is
    unsigned."""
