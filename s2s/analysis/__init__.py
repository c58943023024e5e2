"""s2svec analyses: CFG utilities, vector shapes, divergence, memory access shapes.

Entry points (the code generator and the driver use these):

    from s2s.analysis.shapes import VectorShape
    from s2s.analysis.divergence import compute_divergence, DivergenceInfo
    from s2s.analysis.annotate import print_divergence        # the printer pass
    from s2s.analysis.memory import memory_shapes, memory_counts, MemoryAccess
    from s2s.analysis.cfg import Graph, cfg_of
    from s2s.analysis.dot import write_dot, cfg_dot
    from s2s.transform.canonicalize import canonicalize   # run first: preheaders, LCSSA

    canonicalize(region.fn)             # raises Unsupported on irreducible control
    info = compute_divergence(region.fn, {iv_arg: VectorShape.strided(step), ...},
                              width=W, call_shape=None)  # width, call_shape optional
    info.shape_of(value); info.is_divergent_branch(block); info.join_points(block)
    info.loop_is_divergent(header); info.divergent_exits(header); info.alloca_is_uniform(a)
    info.has_varying_activation(block); info.join_points()  # all join blocks
    accesses = memory_shapes(region.fn, info)   # {Load/Store: MemoryAccess(kind, stride, ...)}
    print_divergence(fn, info) -> str; write_dot(fn, info_or_None, path)
    from s2s.analysis.naive import naive_divergence   # precision baseline (tests)
"""
