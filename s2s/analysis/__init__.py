"""s2svec analyses: CFG utilities, vector shapes, divergence, memory access shapes.

Entry points (the code generator and the driver use these):

    from s2s.analysis.shapes import VectorShape
    from s2s.analysis.divergence import compute_divergence, print_divergence, DivergenceInfo
    from s2s.analysis.memory import memory_shapes, memory_counts, MemoryAccess
    from s2s.analysis.cfg import Graph, cfg_of
    from s2s.analysis.dot import write_dot

    info = compute_divergence(region.fn, {iv_arg: VectorShape.strided(step), ...}, width=W)
    info.shape_of(value); info.is_divergent_branch(block); info.join_points(block)
    info.loop_is_divergent(header); info.divergent_exits(header); info.alloca_is_uniform(a)
    accesses = memory_shapes(region.fn, info)   # {Load/Store: MemoryAccess(kind, stride, ...)}
"""
