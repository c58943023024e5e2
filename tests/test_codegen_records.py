"""Record groups (s2s.analysis.records) and the load_records/store_records templates.

* Analysis: which accesses form a group, on small IR functions.
* Templates, bit-exact: for every target, vector type and record size the
  macros render for, a C program loads W records of k elements with
  ``load_records``, checks every field lane against the scalar element (exact
  bits: NaN payloads included), stores the fields back with
  ``store_records`` and checks the bytes and that nothing past the W records
  was written (where the target has no store of such records, that nothing
  was written).  Which (type, k) render is pinned, so a lost macro fails.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from test_codegen_targets import HAVE_AVX512, HAVE_NEON

from s2s.analysis.divergence import compute_divergence
from s2s.analysis.memory import memory_shapes
from s2s.analysis.records import compute_record_groups, print_record_groups
from s2s.analysis.shapes import VectorShape as S
from s2s.codegen.target import TypeInfo, load_target
from s2s.ir.parser import parse_function

KS = range(2, 9)


# -- analysis -------------------------------------------------------------------------------
def groups(text: str) -> str:
    fn = parse_function(text)
    shapes = [S.strided(1, 8)] + [S.uniform(64)] * (len(fn.args) - 1)
    div = compute_divergence(fn, dict(zip(fn.args, shapes)))
    return print_record_groups(compute_record_groups(fn, div, memory_shapes(fn, div)))


REC = "struct.r = { f64 x @0, f64 y @8, f64 z @16 } size 24\n"


def test_group_reads_and_writes_of_one_record():
    out = groups(
        REC
        + """func @k(i64 %i, ptr<struct.r> %p) -> () {
entry:
  %rec = gep %p, %i
  %px = fieldaddr %rec, x
  %py = fieldaddr %rec, y
  %x = load %px
  %y = load %py
  %s = add %x, %y
  store %s, %px
  %x2 = load %px
  store %x2, %py
  ret
}"""
    )
    assert out == "records %rec f64 x3 load [0:ld 1:ld 0:st 0:ld 1:st]"


def test_foreign_store_ends_the_group_and_few_fields_stay_gathers():
    out = groups(
        REC
        + """func @k(i64 %i, ptr<struct.r> %p, ptr<f64> %q) -> () {
entry:
  %rec = gep %p, %i
  %px = fieldaddr %rec, x
  %py = fieldaddr %rec, y
  %pz = fieldaddr %rec, z
  %x = load %px
  %y = load %py
  %pq = gep %q, %i
  store %x, %pq
  %z = load %pz
  ret
}"""
    )
    # the store may alias: x, y before it; z alone after it is 1 of 3 fields
    assert out == "records %rec f64 x3 load [0:ld 1:ld]"


def test_foreign_load_after_a_member_store_ends_the_group():
    out = groups(
        REC
        + """func @k(i64 %i, ptr<struct.r> %p, ptr<f64> %q) -> () {
entry:
  %rec = gep %p, %i
  %px = fieldaddr %rec, x
  %py = fieldaddr %rec, y
  %pz = fieldaddr %rec, z
  %pq = gep %q, %i
  %v = load %pq
  store %v, %px
  store %v, %py
  %w = load %pq
  store %w, %pz
  ret
}"""
    )
    assert out == "records %rec f64 x3 load [0:st 1:st]"


def test_mixed_field_types_and_masked_accesses_are_not_grouped():
    mixed = """struct.m = { f64 a @0, i64 b @8 } size 16
func @k(i64 %i, ptr<struct.m> %p) -> () {
entry:
  %rec = gep %p, %i
  %pa = fieldaddr %rec, a
  %pb = fieldaddr %rec, b
  %a = load %pa
  %b = load %pb
  ret
}"""
    assert groups(mixed) == ""
    masked = (
        REC
        + """func @k(i64 %i, ptr<struct.r> %p) -> () {
entry:
  %rec = gep %p, %i
  %px = fieldaddr %rec, x
  %py = fieldaddr %rec, y
  %x = load %px
  %c = cmp lt %x, f64 0.0
  condbr %c, then, done
then:
  %y = load %py
  %z = load %px
  br done
done:
  ret
}"""
    )
    assert groups(masked) == ""


# -- templates ------------------------------------------------------------------------------
def _bits_type(t: TypeInfo) -> str:
    return f"uint{t.bits}_t"


def _case(ops, t: TypeInfo, k: int) -> str:
    """One C function checking load_records/store_records for (t, k)."""
    L, u = t.lanes, _bits_type(t)
    outs = [f"f{s}" for s in range(k)]
    ld = str(ops.load_records(t=t, k=k, p="src", outs=outs)).strip()
    st = str(ops.store_records(t=t, k=k, p="dst", vs=outs)).strip()
    if not ld:
        return ""  # (a load without a store: AVX2's narrow records, stores checked alone)
    name = f"case_{t.key}_{k}"
    lines = [
        f"static int {name}(void)",
        "{",
        f"    {u} src[{k * L}], dst[{k * L + 8}], lane[{L}];",
        "    int bad = 0;",
        f"    for (int e = 0; e < {k * L}; e++) src[e] = ({u})(0x9e3779b97f4a7c15ull * (e + 1) "
        f"^ (e % 3 ? 0 : 0x7ff4000000000001ull));",
        f"    for (int e = 0; e < {k * L + 8}; e++) dst[e] = ({u})0x5a5a5a5a5a5a5a5aull;",
        f"    {t.ctype} {', '.join(outs)};",
        f"    {ld}",
    ]
    for s in range(k):
        lines.append(f"    {ops.store(t=t, p='lane', v=outs[s])}")
        lines.append(f"    for (int j = 0; j < {L}; j++) bad += lane[j] != src[j * {k} + {s}];")
    if st:
        lines += [
            f"    {st}",
            f"    for (int e = 0; e < {k * L}; e++) bad += dst[e] != src[e];",
        ]
    lines += [
        f"    for (int e = {k * L if st else 0}; e < {k * L + 8}; "
        f"e++) bad += dst[e] != ({u})0x5a5a5a5a5a5a5a5aull;",
        f'    if (bad) printf("FAIL {t.key} k={k}: %d\\n", bad);',
        "    return bad;",
        "}",
    ]
    return "\n".join(lines)


def record_program(target: str) -> tuple[str, set[tuple[str, int]]]:
    tg = load_target(target)
    ops = tg.ops(lambda n: "")
    cases, done = [], set()
    for t in tg.types.values():
        for k in KS:
            text = _case(ops, t, k)
            if text:
                cases.append(text)
                done.add((t.key, k))
    headers = "".join(f"#include <{h}>\n" for h in tg.headers)
    calls = "\n".join(f"    fails += case_{key}_{k}();" for key, k in sorted(done))
    src = (
        f"#include <stdint.h>\n#include <stdio.h>\n{headers}\n"
        + "\n\n".join(cases)
        + f"\n\nint main(void)\n{{\n    int fails = 0;\n{calls}\n"
        + '    printf("FAILS %d\\n", fails);\n    return fails != 0;\n}\n'
    )
    return src, done


def run(src: str, cc: list[str], runner: list[str]) -> str:
    wd = Path(tempfile.mkdtemp(prefix="s2s_records_"))
    (wd / "prog.c").write_text(src)
    out = subprocess.run(
        [*cc, str(wd / "prog.c"), "-o", str(wd / "prog")], capture_output=True, text=True
    )
    assert out.returncode == 0 and "warning" not in out.stderr, f"{wd}\n{out.stderr[:4000]}"
    res = subprocess.run([*runner, str(wd / "prog")], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0 and "FAILS 0" in res.stdout, f"{wd}\n{res.stdout[-4000:]}"
    return res.stdout


def _full(tg, bits: tuple[int, ...], widths: tuple[int, ...]) -> set[str]:
    return {
        t.key
        for t in tg.types.values()
        if t.fill == t.lanes and t.bits in bits and t.reg_bits in widths and not t.is_mask
    }


def test_macros_render_where_documented():
    avx512, avx2, neon = (load_target(n) for n in ("avx512", "avx2", "neon"))

    def narrow_loads(tg) -> set[str]:  # 8/16-bit records in 128-bit registers: loads (pshufb)
        return {
            t.key for t in tg.types.values() if t.bits in (8, 16) and t.spellings["prefix"] == "_mm"
        }

    assert {key for key, _ in record_program("avx512")[1]} == _full(
        avx512, (32, 64), (128, 256, 512)
    ) | narrow_loads(avx512)
    assert {key for key, _ in record_program("avx2")[1]} == _full(
        avx2, (32, 64), (128, 256)
    ) | narrow_loads(avx2)
    _, done = record_program("neon")
    assert {k for _, k in done} == {2, 3, 4}
    assert {key for key, _ in done} == _full(neon, (8, 16, 32, 64), (64, 128))


@pytest.mark.parametrize("target", ["avx512", "avx2"])
def test_even_records_of_64_bit_fields_move_in_128_bit_chunks(target):
    """256-bit registers: 2k shuffles for k fields (x86_records.j2), not a
    permute per field and register."""
    tg = load_target(target)
    ops = tg.ops(lambda n: "")
    for key, k in (("f64x4", 6), ("i64x4", 4), ("f64x4", 2)):
        t = tg.types[key]
        text = str(ops.load_records(t=t, k=k, p="p", outs=[f"f{s}" for s in range(k)])) + str(
            ops.store_records(t=t, k=k, p="p", vs=[f"f{s}" for s in range(k)])
        )
        assert text.count("_mm256_permute2") == 2 * k and text.count("_mm256_unpack") == 2 * k
        assert "permutevar" not in text and "permutex2var" not in text
    odd = str(ops.load_records(t=tg.types["f64x4"], k=3, p="p", outs=["a", "b", "c"]))
    assert "_mm256_permute2" not in odd and odd.strip()


@pytest.mark.skipif(not HAVE_AVX512, reason="needs gcc and an AVX-512 CPU")
@pytest.mark.parametrize("target", ["avx512", "avx2"])
def test_records_bit_exact_x86(target):
    src, _ = record_program(target)
    run(src, ["gcc", "-O2", "-Wall", *load_target(target).cflags], [])


@pytest.mark.skipif(shutil.which("clang") is None or not HAVE_AVX512, reason="needs clang, AVX-512")
def test_records_bit_exact_clang():
    src, _ = record_program("avx512")
    run(src, ["clang", "-O2", "-Wall", *load_target("avx512").cflags], [])


@pytest.mark.skipif(not HAVE_NEON, reason="needs aarch64-linux-gnu-gcc and qemu-aarch64")
def test_records_bit_exact_neon():
    src, _ = record_program("neon")
    run(src, ["aarch64-linux-gnu-gcc", "-O2", "-Wall", "-static"], ["qemu-aarch64"])


# -- arrays read with a stride: p[k*i + c] ----------------------------------------------------
def test_array_elements_at_a_stride_form_records():
    out = groups("""func @k(i64 %i, ptr<i16> %p, ptr<i16> %q) -> () {
entry:
  %k = mul i64 4, %i
  %p0 = gep %p, %k
  %a = load %p0
  %k1 = add %k, i64 1
  %p1 = gep %p, %k1
  %b = load %p1
  %k3 = add %k, i64 3
  %p3 = gep %p, %k3
  %c = load %p3
  %k2 = mul i64 2, %i
  %q0 = gep %q, %k2
  store %a, %q0
  %j = add %k2, i64 1
  %q1 = gep %q, %j
  store %c, %q1
  ret
}""")
    # p: slots 0, 1, 3 of 4 (2 is read too: it lies between 0 and 3); q: both slots stored
    assert out == "records %p0 i16 x4 load [0:ld 1:ld 3:ld]\nrecords %q0 i16 x2 [0:st 1:st]"


def test_a_sign_extended_index_forms_records():
    out = groups("""func @k(i32 %i, ptr<f32> %p) -> () {
entry:
  %k = mul i32 2, %i
  %w0 = cast %k to i64
  %p0 = gep %p, %w0
  %a = load %p0
  %k1 = add %k, i32 1
  %w1 = cast %k1 to i64
  %p1 = gep %p, %w1
  %b = load %p1
  ret
}""")
    assert out == "records %p0 f32 x2 load [0:ld 1:ld]"


@pytest.mark.parametrize(
    "body",
    [
        # slot 3 is not read: the last lane's record may end past the array
        "%k = mul i64 4, %i\n  %p0 = gep %p, %k\n  %a = load %p0\n"
        "  %k1 = add %k, i64 1\n  %p1 = gep %p, %k1\n  %b = load %p1",
        # slot 0 is not read: the first record may start before it
        "%k = mul i64 4, %i\n  %k1 = add %k, i64 1\n  %p1 = gep %p, %k1\n  %b = load %p1\n"
        "  %k2 = add %k, i64 2\n  %p2 = gep %p, %k2\n  %c = load %p2\n"
        "  %k3 = add %k, i64 3\n  %p3 = gep %p, %k3\n  %d = load %p3",
        # zext(k + 1) is not zext(k) + 1 where k + 1 wraps
        "%n = cast %i to u32\n  %k = mul u32 2, %n\n  %w0 = cast %k to i64\n"
        "  %p0 = gep %p, %w0\n  %a = load %p0\n  %k1 = add %k, u32 1\n"
        "  %w1 = cast %k1 to i64\n  %p1 = gep %p, %w1\n  %b = load %p1",
    ],
)
def test_array_records_the_loop_does_not_bound_are_not_grouped(body: str):
    assert groups(f"func @k(i64 %i, ptr<i16> %p) -> () {{\nentry:\n  {body}\n  ret\n}}") == ""


def test_array_records_read_later_slot_first_are_based_where_they_are_loaded():
    """The records are loaded at the group's first member: where that is
    slot 1 and slot 0's address comes after it, the base is the first
    member's address, slot 1 of the record (once "internal error: no
    scalar form of %" in the widening); where slot 0's address comes
    before, it is the base."""
    out = groups("""func @k(i64 %i, ptr<f32> %p, ptr<f32> %q) -> () {
entry:
  %k = mul i64 2, %i
  %k1 = add %k, i64 1
  %p1 = gep %p, %k1
  %b = load %p1
  %p0 = gep %p, %k
  %a = load %p0
  %q0 = gep %q, %k
  %q1 = gep %q, %k1
  %c = load %q1
  %d = load %q0
  ret
}""")
    assert out == (
        "records %p1 at slot 1 f32 x2 load [1:ld 0:ld]\nrecords %q0 f32 x2 load [1:ld 0:ld]"
    )
