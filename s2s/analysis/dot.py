"""Graphviz output of a region's CFG with the divergence analysis result.

``cfg_dot(fn, info)`` returns the text, ``write_dot(fn, info, path)`` writes
it (``--emit-cfg DIR``).  Conventions:

  * a block whose branch is divergent: red, bold outline, label suffix
    ``[divergent]``; its outgoing edges are red;
  * join points of divergent branches: filled orange, ``[join]``;
  * blocks of divergent loops: dashed blue cluster ``loop H (divergent)``;
    uniform loops: grey cluster; divergent loop exits: edge labelled ``exit``;
  * back edges are drawn dotted;
  * with ``info`` None the plain CFG is drawn (e.g. after linearization).
"""

from __future__ import annotations

from pathlib import Path

from ..ir.values import Block, Function
from .cfg import Graph, Loop, cfg_of
from .divergence import DivergenceInfo


def cfg_dot(fn: Function, info: DivergenceInfo | None = None, title: str = "") -> str:
    """The CFG of ``fn`` as a Graphviz digraph."""
    g = info.cfg if info is not None else cfg_of(fn)
    names = _unique_names(fn)
    lines = [f'digraph "{_esc(title or fn.name)}" {{', '  node [shape=box, fontname="monospace"];']
    for lp in g.loops.top_level:
        lines.extend(_cluster(lp, info, names, "  "))
    in_loop = set(g.loops.innermost)
    for b in fn.blocks:
        if b not in in_loop:
            lines.append("  " + _node(b, info, names))
    back = set(g.back_edges)
    for b in fn.blocks:
        for s in b.successors:
            lines.append("  " + _edge(b, s, info, names, (b, s) in back, g))
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_dot(fn: Function, info: DivergenceInfo | None, path: str | Path, title: str = "") -> None:
    """Write ``cfg_dot`` to ``path`` (parent directories are created)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(cfg_dot(fn, info, title))


def _unique_names(fn: Function) -> dict[Block, str]:
    out: dict[Block, str] = {}
    used: dict[str, int] = {}
    for k, b in enumerate(fn.blocks):
        base = b.name or f"bb{k}"
        n = used.get(base, 0)
        used[base] = n + 1
        out[b] = base if n == 0 else f"{base}.{n}"
    return out


def _esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def _node(b: Block, info: DivergenceInfo | None, names: dict[Block, str]) -> str:
    label = names[b]
    attrs: list[str] = []
    if info is not None and info.is_divergent_branch(b):
        label += " [divergent]"
        attrs += ['color="red"', "penwidth=2"]
    if info is not None and info.is_join_point(b):
        label += " [join]"
        attrs += ['style="filled"', 'fillcolor="orange"']
    attrs.insert(0, f'label="{_esc(label)}"')
    return f'"{_esc(names[b])}" [{", ".join(attrs)}];'


def _cluster(
    lp: Loop[Block], info: DivergenceInfo | None, names: dict[Block, str], indent: str
) -> list[str]:
    divergent = info is not None and info.loop_is_divergent(lp.header)
    kind = "divergent" if divergent else ("uniform" if info is not None else "")
    label = f"loop {names[lp.header]}" + (f" ({kind})" if kind else "")
    style = 'style="dashed"; color="blue"' if divergent else 'color="grey"'
    out = [
        f'{indent}subgraph "cluster_{_esc(names[lp.header])}" {{',
        f'{indent}  label="{_esc(label)}"; {style};',
    ]
    inner: set[Block] = set()
    for child in lp.children:
        out.extend(_cluster(child, info, names, indent + "  "))
        inner.update(child.blocks)
    for b in lp.blocks:
        if b not in inner:
            out.append(indent + "  " + _node(b, info, names))
    out.append(indent + "}")
    return out


def _edge(
    src: Block,
    dst: Block,
    info: DivergenceInfo | None,
    names: dict[Block, str],
    back: bool,
    g: Graph[Block],
) -> str:
    attrs: list[str] = []
    if info is not None and info.is_divergent_branch(src):
        attrs.append('color="red"')
    if back:
        attrs.append('style="dotted"')
    if info is not None:
        lp = g.loops.loop_of(src)
        while lp is not None:
            if dst not in lp and info.loop_exit_is_divergent(lp.header, dst):
                attrs.append('label="exit"')
                break
            lp = lp.parent
    suffix = f" [{', '.join(attrs)}]" if attrs else ""
    return f'"{_esc(names[src])}" -> "{_esc(names[dst])}"{suffix};'
