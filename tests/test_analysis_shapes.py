"""The stride-alignment lattice (seed 001 Chapter 10) and its transformers."""

from __future__ import annotations

import pytest

from s2s.analysis import transfer as T
from s2s.analysis.shapes import VectorShape as S


@pytest.mark.parametrize(
    "text",
    [
        "uni",
        "uni(a16)",
        "stride(4)",
        "stride(-8,a16)",
        "var",
        "var(a8)",
        "bot",
        "stride(1,a0)",
        "uni(a0)",
    ],
)
def test_text_round_trip(text):
    assert str(S.parse(text)) == text


def test_parse_rejects_garbage():
    for bad in ("uniform", "stride", "var(3)", "stride(a4)"):
        with pytest.raises(ValueError):
            S.parse(bad)


def test_named_constructors():
    assert S.uniform().is_uniform and not S.uniform().is_varying
    assert S.strided(4, 16).stride == 4 and S.strided(4, 16).alignment == 16
    assert S.varying().is_varying and S.varying().stride is None
    assert S.bottom().is_bottom and not S.bottom().is_uniform
    assert S.strided(8).is_contiguous(8) and not S.strided(8).is_contiguous(4)
    assert S.strided(1).is_contiguous()


def test_join_follows_figure_10_6():
    assert S.strided(4, 16).join(S.strided(4, 8)) == S.strided(4, 8)
    assert S.uniform(0).join(S.uniform(12)) == S.uniform(12)
    assert S.strided(2, 16).join(S.strided(4, 16)) == S.varying(2)
    assert S.varying(8).join(S.strided(16, 32)) == S.varying(8)
    assert S.bottom().join(S.uniform(4)) == S.uniform(4)
    assert S.uniform(4).join(S.bottom()) == S.uniform(4)
    assert S.uniform(0).join(S.strided(1, 0)) == S.varying(1)


def test_order():
    assert S.bottom() <= S.uniform()
    assert S.strided(4, 16) <= S.strided(4, 8)
    assert not S.strided(4, 8) <= S.strided(4, 16)
    assert S.strided(4, 16) <= S.varying(4)
    assert not S.strided(4, 16) <= S.varying(8)
    assert S.varying(16) <= S.varying(8)
    assert not S.varying(1) <= S.uniform()
    assert S.uniform(0) <= S.uniform(5)
    assert not S.uniform(5) <= S.uniform(0)


def test_join_is_an_upper_bound():
    shapes = [
        S.bottom(),
        S.uniform(0),
        S.uniform(3),
        S.uniform(8),
        S.strided(4, 16),
        S.strided(4, 6),
        S.strided(-2, 0),
        S.varying(4),
        S.varying(1),
    ]
    for a in shapes:
        for b in shapes:
            j = a.join(b)
            assert a <= j and b <= j, (a, b, j)
            assert j == b.join(a)


def test_arithmetic_transformers_of_figure_10_9():
    i = S.strided(1, 8)
    x = T.mul_shapes(i, S.uniform(2), None, 2)
    assert x == S.strided(2, 16)
    assert T.add_shapes(x, S.uniform(1)) == S.strided(2, 1)
    assert T.add_shapes(S.strided(1, 4), S.varying(8)) == S.varying(1)
    assert T.add_shapes(S.strided(4, 8), S.varying(8)) == S.varying(4)
    assert T.scale_shape(S.strided(1, 4), -2) == S.strided(-2, 8)
    assert T.neg_shape(S.strided(3, 4)) == S.strided(-3, 4)


def test_lane_alignment():
    assert S.strided(4, 6).lane_alignment() == 2
    assert S.varying(8).lane_alignment() == 8
    assert S.strided(3, 0).lane_alignment() == 3
