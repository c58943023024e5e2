"""SSA construction and repair (Braun et al. 2013, "Simple and Efficient
Construction of SSA Form", Algorithms 1-3): the one SSA builder of s2svec.

A *variable* is an opaque hashable key with an IR type.  ``write(var, block,
value)`` says "at the end of ``block`` the variable holds ``value``";
``read(var, block)`` returns the value at the end of ``block`` and places the
phis that merging paths need.  A path with no definition reads ``undef``.

Two ways to use it:

* while lowering, blocks and edges appear as code is emitted: the caller
  adds edges (``add_edge``) and *seals* a block once all its predecessors are
  known; reading in an unsealed block places an incomplete phi, completed at
  sealing;
* on a finished CFG (transforms: loop-closed SSA, linearization),
  ``SSABuilder.for_function(fn)`` takes the predecessors from ``fn`` with
  every block sealed.

Phis whose operands are all one value (or the phi itself) are trivial and
removed, recursively through their phi users (Algorithm 3).  Chains of
single-predecessor blocks are walked iteratively, so long straight-line
regions do not recurse deeply.

    entry ---> header <--- latch        header is sealed after the latch
                  |                     edge exists; reads in the body
                 body ----> latch       before that create incomplete phis
"""

from __future__ import annotations

from collections.abc import Hashable

from .types import Type
from .values import Block, Function, Phi, Undef, Value


class SSABuilder:
    def __init__(self) -> None:
        self.defs: dict[Hashable, dict[Block, Value]] = {}
        self.types: dict[Hashable, Type] = {}
        self.names: dict[Hashable, str] = {}
        self.preds: dict[Block, list[Block]] = {}
        self.sealed: set[Block] = set()
        self.incomplete: dict[Block, dict[Hashable, Phi]] = {}
        self.replaced: dict[Value, Value] = {}
        """Removed trivial phis -> their replacement (follow chains)."""
        self.filling: set[Phi] = set()
        """Phis whose operands are being added: not yet candidates for removal."""

    @classmethod
    def for_function(cls, fn: Function) -> SSABuilder:
        """A builder over the finished CFG of ``fn``: every block sealed."""
        builder = cls()
        builder.preds = {b: list(ps) for b, ps in fn.predecessors().items()}
        for block in fn.blocks:
            builder.preds.setdefault(block, [])
        builder.sealed = set(fn.blocks)
        return builder

    def declare(self, var: Hashable, type: Type, name: str) -> None:
        self.types[var] = type
        self.names[var] = name
        self.defs.setdefault(var, {})

    def add_block(self, block: Block) -> None:
        self.preds.setdefault(block, [])

    def add_edge(self, src: Block, dst: Block) -> None:
        assert dst not in self.sealed, f"edge into sealed block {dst}"
        preds = self.preds.setdefault(dst, [])
        if src not in preds:
            preds.append(src)

    # -- Algorithm 1 -------------------------------------------------------------
    def write(self, var: Hashable, block: Block, value: Value) -> None:
        self.defs[var][block] = value

    def read(self, var: Hashable, block: Block) -> Value:
        """The value of ``var`` at the end of ``block``."""
        defs = self.defs[var]
        chain: list[Block] = []
        while block not in defs and block in self.sealed and len(self.preds.get(block, ())) == 1:
            chain.append(block)
            block = self.preds[block][0]
        value = self.resolve(defs[block]) if block in defs else self._read_merge(var, block)
        for b in chain:
            self.write(var, b, value)
        return value

    def read_at_start(self, var: Hashable, block: Block) -> Value:
        """The value of ``var`` where ``block`` begins (its own definition,
        which holds at its end, does not count)."""
        preds = self.preds.get(block, [])
        if len(preds) == 1:
            return self.read(var, preds[0])
        if block not in self.defs[var]:
            return self.read(var, block)
        if not preds:
            return Undef(self.types[var])
        phi = self._new_phi(var, block)
        return self._add_operands(var, phi)

    def resolve(self, value: Value) -> Value:
        """The live value a (possibly removed) phi stands for.  The chains
        of replacements are shortened as they are followed (the definition
        maps keep removed phis: every read resolves them)."""
        chain: list[Value] = []
        while value in self.replaced:
            chain.append(value)
            value = self.replaced[value]
        for removed in chain[:-1]:
            self.replaced[removed] = value
        return value

    def _read_merge(self, var: Hashable, block: Block) -> Value:
        preds = self.preds.get(block, [])
        if block not in self.sealed:
            value: Value = self._new_phi(var, block)
            self.incomplete.setdefault(block, {})[var] = value
        elif not preds:
            value = Undef(self.types[var])
        elif len(preds) == 1:
            value = self.read(var, preds[0])
        else:
            phi = self._new_phi(var, block)
            # Break cycles: the phi is the definition while its operands are read.
            self.write(var, block, phi)
            value = self._add_operands(var, phi)
        # The value may have been a phi removed while reading the operands
        # of another one (a cascade of trivial phis): use its replacement.
        value = self.resolve(value)
        self.write(var, block, value)
        return value

    def _new_phi(self, var: Hashable, block: Block) -> Phi:
        phi = Phi(self.types[var], self.names[var])
        block.insert(len(block.phis), phi)
        return phi

    def _add_operands(self, var: Hashable, phi: Phi) -> Value:
        assert phi.block is not None
        self.filling.add(phi)
        for pred in self.preds[phi.block]:
            phi.add_incoming(self.read(var, pred), pred)
        self.filling.discard(phi)
        return self.try_remove_trivial(phi)

    # -- Algorithm 2 -------------------------------------------------------------
    def seal(self, block: Block) -> None:
        if block in self.sealed:
            return
        self.sealed.add(block)
        for var, phi in self.incomplete.pop(block, {}).items():
            self._add_operands(var, phi)

    # -- Algorithm 3 -------------------------------------------------------------
    def try_remove_trivial(self, phi: Phi) -> Value:
        same: Value | None = None
        for op in phi.operands:
            if op is same or op is phi:
                continue
            if same is not None:
                return phi  # merges at least two values: not trivial
            same = op
        if same is None:
            same = Undef(phi.type)  # unreachable or only self-references
        users = [u for u in phi.users if u is not phi]
        phi.replace_all_uses_with(same)
        self.replaced[phi] = same
        if phi.block is not None:
            phi.drop_operands()
            phi.block.instructions.remove(phi)
            phi.block = None
        for user in users:
            if isinstance(user, Phi) and user.block is not None and user not in self.filling:
                self.try_remove_trivial(user)
        return self.resolve(same)
