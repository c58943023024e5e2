"""SSA construction while lowering (Braun et al. 2013, "Simple and Efficient
Construction of SSA Form", Algorithms 1-3).

The lowering calls ``write(var, block, value)`` at each assignment and
``read(var, block)`` at each use.  A block is *sealed* once all its
predecessors are known; reading a variable in an unsealed block places an
incomplete phi that is completed when the block is sealed.  Phis whose
operands are all one value (or the phi itself) are trivial and removed,
recursively through their phi users.

    entry ---> header <--- latch        header is sealed after the latch
                  |                     edge exists; reads in the body
                 body ----> latch       before that create incomplete phis

Variables are opaque hashable keys; each has an IR type (for phis and for
``undef`` when a path carries no definition: reading an uninitialized C
variable).  The caller keeps the predecessor lists (``add_edge``) because
blocks get their terminators only as lowering proceeds.
"""
from __future__ import annotations

from typing import Hashable

from ..ir.types import Type
from ..ir.values import Block, Phi, Undef, Value


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
        value = self.defs[var].get(block)
        if value is not None:
            return self.resolve(value)
        return self._read_recursive(var, block)

    def resolve(self, value: Value) -> Value:
        """The live value a (possibly removed) phi stands for."""
        while value in self.replaced:
            value = self.replaced[value]
        return value

    def _read_recursive(self, var: Hashable, block: Block) -> Value:
        preds = self.preds.get(block, [])
        if block not in self.sealed:
            value: Value = self._new_phi(var, block)
            self.incomplete.setdefault(block, {})[var] = value  # type: ignore[assignment]
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
        self._replace_defs(phi, same)
        self.replaced[phi] = same
        if phi.block is not None:
            phi.drop_operands()
            phi.block.instructions.remove(phi)
            phi.block = None
        for user in users:
            if isinstance(user, Phi) and user.block is not None and user not in self.filling:
                self.try_remove_trivial(user)
        return self.resolve(same)

    def _replace_defs(self, old: Value, new: Value) -> None:
        """The definition maps hold values directly: redirect them too."""
        for per_block in self.defs.values():
            for b, v in per_block.items():
                if v is old:
                    per_block[b] = new

