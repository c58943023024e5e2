"""Merging the arms of divergent cascades (s2s.transform.merge_arms), checked
by the IR interpreter.

Random else-if cascades whose arms evaluate a few formulas (with math calls
and divisions) on their own inputs, some with an extra term, some doing
nothing, run once per lane as written (``run_lanes``) and, after the
pipeline up to linearization, in lock step (``run_predicated``); results
must be equal bit for bit.  The pass alone must keep per-lane results too.
Breaking the identity rule (``x + 0.0`` instead of ``x + -0.0``) must make
the check fail.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from s2s.analysis.shapes import VectorShape
from s2s.ir.interpreter import Memory, Scalar, defined, run_lanes, run_predicated
from s2s.ir.parser import parse_function
from s2s.ir.printer import print_function
from s2s.ir.values import Function
from s2s.pipeline import PIPELINE, PassState, run_passes
from s2s.transform import merge_arms

FORMULAS = [
    # (text with {a} {b} {o}: inputs and output prefix, result name)
    "  {o}q = div {a}, {b}\n  {o}l = call f64 @log({o}q) pure\n  {o}v = mul f64 0.5, {o}l\n",
    "  {o}p = mul {a}, {a}\n  {o}q = add {o}p, {b}\n  {o}r = call f64 @sqrt({o}q) pure\n"
    "  {o}v = div f64 1.0, {o}r\n",
    "  {o}p = sub {a}, {b}\n  {o}e = call f64 @exp({o}p) pure\n  {o}v = mul {o}e, {a}\n",
]
INPUTS = ["%x", "%y", "%u", "f64 2.5", "f64 -0.0"]


def cascade(seed: int) -> str:
    """An else-if cascade of 2-5 arms on ``%x`` (divergent) and ``%u`` (uniform)."""
    r = random.Random(seed)
    depth = r.randint(2, 5)
    blocks = ["entry:\n  br c0\n"]
    incoming = []
    for k in range(depth):
        on = r.choice(["%x", "%x", "%u"])
        blocks.append(
            f"c{k}:\n  %t{k} = cmp gt {on}, f64 {r.uniform(-2, 3):.3f}\n"
            f"  condbr %t{k}, arm{k}, {'c' + str(k + 1) if k + 1 < depth else 'last'}\n"
        )
        body, value = arm(r, f"%a{k}.")
        blocks.append(f"arm{k}:\n{body}  br join\n")
        incoming.append((value, f"arm{k}"))
    body, value = arm(r, "%z.")
    blocks.append(f"last:\n{body}  br join\n")
    incoming.append((value, "last"))
    phi = ", ".join(f"[{v}, {b}]" for v, b in incoming)
    blocks.append(f"join:\n  %s = phi f64 {phi}\n  ret %s\n")
    return "func @f(f64 %x, f64 %y, f64 %u, f64 %acc) -> (f64) {\n" + "".join(blocks) + "}\n"


def arm(r: random.Random, o: str) -> tuple[str, str]:
    if r.random() < 0.2:
        return "", "%acc"
    text = r.choice(FORMULAS).format(a=r.choice(INPUTS), b=r.choice(INPUTS), o=o)
    value = f"{o}v"
    if r.random() < 0.4:
        text += f"  {o}w = add {value}, {r.choice(['%y', 'f64 0.25'])}\n"
        value = f"{o}w"
    text += f"  {o}s = add %acc, {value}\n"
    return text, f"{o}s"


def shapes(fn) -> dict:
    return {a: (VectorShape.uniform() if a.name == "u" else VectorShape.varying()) for a in fn.args}


def run_pipeline(text: str, until: str) -> Function:
    fn = parse_function(text)
    passes = []
    for p in PIPELINE:
        passes.append(p)
        if p.name == until:
            break
    run_passes(PassState(fn, shapes(fn)), tuple(passes))
    return fn


def bits(results: Sequence[Sequence[Scalar]]) -> list[bytes]:
    return [struct.pack("<d", float(defined(r[0], "the result"))) for r in results]


def lanes(seed: int) -> list[list[float]]:
    r = random.Random(seed * 7 + 1)
    values = [-1.5, -0.0, 0.0, 0.5, 1.0, 2.0, 3.5, 7.0]
    u = r.choice(values)
    return [
        [r.choice(values), r.choice(values), u, r.choice([0.0, -0.0, 1.25])]
        for _ in range(r.choice([2, 4, 8]))
    ]


def check(seed: int) -> None:
    text = cascade(seed)
    args = lanes(seed)
    expected = bits(run_lanes(parse_function(text), args, Memory()))
    alone = run_pipeline(text, "merge-arms")
    assert bits(run_lanes(alone, args, Memory())) == expected, text
    linear = run_pipeline(text, "linearize")
    assert bits(run_predicated(linear, args, Memory())) == expected, text


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_merged_cascades_compute_what_the_arms_did(seed: int) -> None:
    check(seed)


def test_the_generator_makes_cascades_that_merge() -> None:
    merged = 0
    for seed in range(60):
        before = cascade(seed).count("@")
        after = print_function(run_pipeline(cascade(seed), "merge-arms")).count("@")
        merged += after < before
    assert merged >= 10


def test_a_wrong_identity_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """``x + 0.0`` is not ``x`` for x = -0.0 (-0.0 + 0.0 is +0.0): the
    property must see the difference."""
    wrong = {kind: dict(ops) for kind, ops in merge_arms._IDENTITIES.items()}
    wrong["float"]["add"] = {0: 0.0, 1: 0.0}
    monkeypatch.setattr(merge_arms, "_IDENTITIES", wrong)
    failures = 0
    for seed in range(300):
        try:
            check(seed)
        except AssertionError:
            failures += 1
    assert failures > 0
