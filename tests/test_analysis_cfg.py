"""Graph utilities of s2s.analysis.cfg on adjacency dicts and on IR."""

from __future__ import annotations

from s2s.analysis.cfg import EXIT, Graph, cfg_of
from s2s.ir.parser import parse_function


def diamond() -> Graph[str]:
    return Graph({"a": ["b", "c"], "b": ["d"], "c": ["d"], "d": []}, "a")


def nested() -> Graph[str]:
    # entry -> h1 -> h2 -> b2 -> h2 (inner latch b2) ; b2 -> l1 -> h1 ; h1 -> x
    return Graph(
        {
            "entry": ["h1"],
            "h1": ["h2", "x"],
            "h2": ["b2"],
            "b2": ["h2", "l1"],
            "l1": ["h1"],
            "x": [],
        },
        "entry",
    )


def test_dominators_of_a_diamond():
    g = diamond()
    assert g.idom == {"a": None, "b": "a", "c": "a", "d": "a"}
    assert g.dominates("a", "d") and not g.dominates("b", "d")
    assert g.dominators("d") == ["d", "a"]
    assert set(g.dom_children["a"]) == {"b", "c", "d"}


def test_post_dominators_use_a_virtual_exit():
    g = diamond()
    assert g.ipdom["d"] is EXIT
    assert g.ipdom["b"] == "d" and g.ipdom["c"] == "d" and g.ipdom["a"] == "d"
    assert g.post_dominates("d", "a") and not g.post_dominates("b", "a")


def test_two_sinks_post_dominated_by_exit_only():
    g = Graph({"a": ["b", "c"], "b": [], "c": []}, "a")
    assert g.ipdom["a"] is EXIT
    assert set(g.control_dependents("a")) == {"b", "c"}


def test_endless_loop_gets_an_exit_edge():
    g = Graph({"a": ["b"], "b": ["c"], "c": ["b"]}, "a")
    assert "a" in g.ipdom and "b" in g.ipdom and "c" in g.ipdom


def test_control_dependence_of_a_loop():
    g = Graph({"e": ["h"], "h": ["b"], "b": ["l"], "l": ["h", "x"], "x": []}, "e")
    assert set(g.control_dependents("l")) == {"h", "b", "l"}
    assert g.control_dependents("e") == []


def test_loop_forest_of_nested_loops():
    g = nested()
    forest = g.loops
    assert [lp.header for lp in forest.loops] == ["h1", "h2"]
    outer, inner = forest.loops
    assert inner.parent is outer and outer.children == [inner]
    assert outer.depth == 1 and inner.depth == 2
    assert set(outer.blocks) == {"h1", "h2", "b2", "l1"}
    assert set(inner.blocks) == {"h2", "b2"}
    assert outer.latches == ["l1"] and inner.latches == ["b2"]
    assert outer.exiting == ["h1"] and outer.exits == ["x"]
    assert inner.exiting == ["b2"] and inner.exits == ["l1"]
    assert forest.loop_of("b2") is inner and forest.loop_of("l1") is outer
    assert forest.loop_of("x") is None
    assert set(g.back_edges) == {("b2", "h2"), ("l1", "h1")}


def test_self_loop():
    g = Graph({"e": ["h"], "h": ["h", "x"], "x": []}, "e")
    (lp,) = g.loops.loops
    assert lp.header == "h" and lp.latches == ["h"] and lp.blocks == ["h"]
    assert lp.exits == ["x"]


def test_two_latches_form_one_loop():
    g = Graph({"e": ["h"], "h": ["a", "b"], "a": ["h", "x"], "b": ["h"], "x": []}, "e")
    (lp,) = g.loops.loops
    assert set(lp.latches) == {"a", "b"} and lp.latch is None


def test_irreducible_graph_is_detected():
    g = Graph({"e": ["a", "b"], "a": ["b"], "b": ["a", "x"], "x": []}, "e")
    assert not g.is_reducible
    assert g.irreducible_edges
    assert nested().is_reducible and diamond().is_reducible


def test_block_index_is_topological_and_compact_for_loops():
    g = Graph(
        {
            "entry": ["h1", "y"],
            "h1": ["a", "x"],
            "a": ["h2"],
            "h2": ["b", "l1"],
            "b": ["h2"],
            "l1": ["h1"],
            "x": ["y"],
            "y": [],
        },
        "entry",
    )
    idx = g.block_index
    assert sorted(idx.values()) == list(range(len(idx)))
    # topological when back edges are ignored
    back = set(g.back_edges)
    for n, ss in g.succs.items():
        for s in ss:
            if (n, s) not in back:
                assert idx[n] < idx[s], (n, s)
    for lp in g.loops.loops:
        positions = sorted(idx[b] for b in lp.blocks)
        assert positions == list(range(positions[0], positions[-1] + 1))
        assert idx[lp.header] == positions[0]
        assert lp.latch is not None and idx[lp.latch] == positions[-1]


def test_rewired_order_is_topological_for_the_head_rewired_dag():
    g = nested()
    order = g.rewired_order
    pos = {n: i for i, n in enumerate(order)}
    for n in order:
        for s in g.rewired_succs(n):
            assert pos[n] < pos[s], (n, s)
    assert g.rewired_succs("h1") == ["x"] and g.rewired_succs("h2") == ["l1"]


def test_iterated_dominance_frontier():
    g = diamond()
    assert g.dominance_frontier["b"] == {"d"}
    assert g.iterated_frontier(["b"]) == {"d"}
    assert g.iterated_frontier(["a"]) == set()


def test_cfg_of_an_ir_function():
    fn = parse_function("""
func @f(i1 %c) -> () {
entry:
  br head
head:
  condbr %c, body, done
body:
  br head
done:
  ret
}
""")
    g = cfg_of(fn)
    names = {b.name: b for b in fn.blocks}
    (lp,) = g.loops.loops
    assert lp.header is names["head"] and lp.latch is names["body"]
    assert lp.exits == [names["done"]]
    assert g.idom[names["done"]] is names["head"]
