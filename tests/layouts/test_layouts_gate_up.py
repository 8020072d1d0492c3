"""Gate/up row interleave, and its composition with the swizzled scale layout."""

import cutlass.cute as cute
import pytest
import torch
from hypothesis import assume, given, settings, strategies as st

from layouts import (
    composes_with_sf_layout,
    deinterleave_gate_up,
    gate_up_row_layout,
    interleave_gate_up,
    interleaved_sf_layout,
    interleaved_sf_permutation,
    layout_offsets,
    sf_padded_shape,
    sf_tiled_layout,
    static_layout,
    swizzle_sf,
    torch_geometry,
)

FAST = settings(max_examples=25, deadline=None)


def source_row(r, half, group):
    """Interleaved row r -> row of [gate; up]: even groups up, odd groups gate."""
    g, h, j = r // (2 * group), (r // group) % 2, r % group
    return torch.where(h == 0, half, 0) + g * group + j


@st.composite
def gate_up_tensors(draw, dtypes=(torch.uint8, torch.float8_e4m3fn, torch.bfloat16)):
    group = draw(st.sampled_from([16, 32, 64]))
    half = group * draw(st.integers(1, 8))
    cols = draw(st.integers(1, 9))
    lead = draw(st.sampled_from([(), (2,)]))
    dtype = draw(st.sampled_from(dtypes))
    raw = torch.randint(0, 256, (*lead, 2 * half, cols * 2), dtype=torch.uint8)
    return raw.view(dtype), group  # bf16 halves the column count


@FAST
@given(gate_up_tensors())
def test_interleave_matches_definition_and_round_trips(case):
    t, group = case
    rows = t.shape[-2]
    out = interleave_gate_up(t, group)
    assert out.shape == t.shape and out.dtype == t.dtype and out.is_contiguous()
    src = source_row(torch.arange(rows), rows // 2, group)

    def as_u8(x):  # compare bits: random bf16 bytes include NaNs
        return x.contiguous().view(torch.uint8)

    assert torch.equal(as_u8(out), as_u8(t)[..., src, :])
    assert torch.equal(as_u8(deinterleave_gate_up(out, group)), as_u8(t))
    assert torch.equal(as_u8(interleave_gate_up(deinterleave_gate_up(t, group), group)), as_u8(t))


def test_default_group_is_64_up_first():
    t = torch.arange(256).view(256, 1)  # rows [gate 0..127; up 128..255]
    out = interleave_gate_up(t).flatten()
    assert out[:64].tolist() == list(range(128, 192))
    assert out[64:128].tolist() == list(range(0, 64))
    assert out[128:192].tolist() == list(range(192, 256))


@FAST
@given(st.sampled_from([16, 32, 64, 128]), st.integers(1, 8))
def test_row_layout_is_the_documented_bijection(group, groups):
    half = group * groups
    shape, stride = static_layout(gate_up_row_layout, 2 * half, group)
    assert (shape, stride) == ((group, 2, groups), (1, half, group))
    rows = layout_offsets((shape,), (stride,)).flatten()  # the whole layout as one index
    r = torch.arange(2 * half)
    # Over [up; gate] (gate rolled behind up) it is the interleave.
    assert torch.equal((rows + half) % (2 * half), source_row(r, half, group))
    assert torch.equal(rows.sort().values, r)


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match=r"t.shape\[-2\].*2\*group = 128"):
        interleave_gate_up(torch.zeros(192, 4, dtype=torch.uint8))
    with pytest.raises(ValueError, match="group"):
        deinterleave_gate_up(torch.zeros(128, 4, dtype=torch.uint8), group=0)
    with pytest.raises(ValueError, match="t must be"):
        interleave_gate_up(torch.zeros(128, dtype=torch.uint8))


# ---- composition with the swizzled scale layout -----------------------------

@st.composite
def interleaved_scales(draw):
    group = draw(st.sampled_from([16, 24, 32, 64, 64, 96, 128]))
    half = group * draw(st.integers(1, 12))
    assume(2 * half <= 2304)
    kb = draw(st.integers(1, 10))
    sf = torch.randint(1, 256, (2 * half, kb), dtype=torch.uint8)
    return sf, group


@settings(max_examples=40, deadline=None)
@given(interleaved_scales())
def test_swizzle_of_interleave_is_a_permutation_of_the_swizzled_buffer(case):
    """new[L(r, kb)] == old[L(row(r), kb)]: always true (a gather), since swizzling
    keeps each row's 4 scales of a K tile in one 4-byte word."""
    sf, group = case
    rows, kb = sf.shape
    half = rows // 2
    mp, kbp = sf_padded_shape(rows, kb)
    tiled = layout_offsets(*static_layout(sf_tiled_layout, mp, kbp))[:rows]
    shape, stride = static_layout(gate_up_row_layout, rows, group)
    row_map = layout_offsets((shape,), (stride,)).flatten()  # the whole layout as one index
    old = swizzle_sf(torch.roll(sf, half, dims=0)).flatten()  # swizzled [up; gate]
    new = swizzle_sf(interleave_gate_up(sf, group)).flatten()
    assert torch.equal(new[tiled], old[tiled[row_map]])
    if rows % 128 == 0:
        perm = torch.empty(mp * kbp, dtype=torch.int64)
        perm[tiled.flatten()] = tiled[row_map].flatten()
        # Whole 32-row words (4 bytes) move; 64-row groups move 8-byte pieces.
        unit = 8 if group % 64 == 0 else 4
        pieces = perm.view(-1, unit)
        assert torch.equal(pieces - pieces[:, :1], torch.arange(unit).expand_as(pieces))
        assert not (pieces[:, 0] % unit).any()


@settings(max_examples=40, deadline=None)
@given(interleaved_scales())
def test_composed_layout_when_cute_can_compose(case):
    """sf_tiled_layout o (row map, kb) is one CuTe layout iff the row map's parts do
    not carry across the atom's row digits (group 64: I % 128 == 0 or I == 64); then
    reading the swizzled [up; gate] buffer through it gives the interleaved matrix,
    and the byte permutation between the swizzled buffers is a layout too."""
    sf, group = case
    rows, kb = sf.shape
    half = rows // 2
    mp, kbp = sf_padded_shape(rows, kb)
    predicted = rows % 128 == 0 and (half % 128 == 0 or half == 64) \
        and (32 % group == 0 or group == 64 or group % 128 == 0)
    assert composes_with_sf_layout(rows, group) == predicted
    if not predicted:
        with pytest.raises(ValueError, match="not a strided"):
            static_layout(interleaved_sf_layout, rows, kbp, group)
        return
    composed = static_layout(interleaved_sf_layout, rows, kbp, group)
    old = swizzle_sf(torch.roll(sf, half, dims=0)).flatten()
    sizes, strides, logical = torch_geometry(*composed)
    assert logical == [rows, kbp]
    read = old.as_strided(sizes, strides).reshape(logical)[:, :kb]
    assert torch.equal(read, interleave_gate_up(sf, group))
    shape, stride = static_layout(interleaved_sf_permutation, rows, kbp, group)
    sizes, strides, _ = torch_geometry((shape,), (stride,))  # one index: the new byte
    moved = old.as_strided(sizes, strides).reshape(-1)
    assert torch.equal(moved, swizzle_sf(interleave_gate_up(sf, group)).flatten())


def raw_composition(rows, kb_padded, group):
    """The composition without the package's guard: what CuTe itself returns."""
    tiled = sf_tiled_layout(-(-rows // 128) * 128, kb_padded)
    return cute.composition(tiled, (gate_up_row_layout(rows, group), cute.make_layout(kb_padded)))


@settings(max_examples=30, deadline=None)
@given(interleaved_scales())
def test_guard_matches_what_cute_gets_right(case):
    """Where the guard refuses (whole tiles), CuTe either rejects the composition or
    returns a layout with wrong values; where it accepts, CuTe's layout is right."""
    sf, group = case
    rows, kb = sf.shape
    assume(rows % 128 == 0)
    kbp = sf_padded_shape(rows, kb)[1]
    shape, stride = static_layout(gate_up_row_layout, rows, group)
    row_map = layout_offsets((shape,), (stride,)).flatten()
    truth = layout_offsets(*static_layout(sf_tiled_layout, rows, kbp))[row_map]
    try:
        got = layout_offsets(*static_layout(raw_composition, rows, kbp, group))
    except ValueError:
        assert not composes_with_sf_layout(rows, group)
        return
    assert torch.equal(got, truth) == composes_with_sf_layout(rows, group)
