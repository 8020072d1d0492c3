"""Properties of the swizzled 128x4 scale layout and swizzle_sf / unswizzle_sf."""

import cutlass
import cutlass.cute as cute
import pytest
import torch
from hypothesis import given, settings, strategies as st

from layouts import (
    layout_offsets,
    sf_atom_layout,
    sf_atom_layout_elementwise,
    sf_byte_offset,
    sf_padded_shape,
    sf_tiled_layout,
    sf_tiled_layout_elementwise,
    static_layout,
    swizzle_sf,
    unswizzle_sf,
)

FAST = settings(max_examples=25, deadline=None)
ms = st.integers(1, 520)
kbs = st.integers(1, 24)


def design_offset(m, kb, kbp):
    """DESIGN.md's byte offset, written out independently of the package.

    KB4 there is the number of 4-column tiles, pad4(KB) / 4 (one 128-row tile is
    KB4 * 512 bytes), as in FlashInfer's physical (l, Mt, KBt, 32, 4, 4).
    """
    kb4 = kbp // 4
    return (m // 128) * (kb4 * 512) + (kb // 4) * 512 + (m % 32) * 16 + ((m % 128) // 32) * 4 + (kb % 4)


def design_offsets(mp, kbp):
    m = torch.arange(mp).view(-1, 1)
    kb = torch.arange(kbp).view(1, -1)
    return design_offset(m, kb, kbp)


def random_sf(m, kb, dtype=torch.uint8, *lead):
    raw = torch.randint(1, 256, (*lead, m, kb), dtype=torch.uint8)  # nonzero: padding stays distinguishable
    return raw.view(dtype)


def test_atoms_are_the_documented_expressions():
    assert static_layout(sf_atom_layout) == (((32, 4), 4), ((16, 4), 1))
    assert static_layout(sf_atom_layout_elementwise) == (((32, 4), (16, 4)), ((16, 4), (0, 1)))


def test_tiled_layout_is_k_tiles_inner():
    assert static_layout(sf_tiled_layout, 256, 12) == ((((32, 4), 2), (4, 3)), (((16, 4), 1536), (1, 512)))


@FAST
@given(ms, kbs)
def test_layout_matches_design_formula_and_is_a_bijection(m, kb):
    mp, kbp = sf_padded_shape(m, kb)
    assert (mp, kbp) == (-(-m // 128) * 128, -(-kb // 4) * 4)
    offsets = layout_offsets(*static_layout(sf_tiled_layout, mp, kbp))
    assert offsets.shape == (mp, kbp)
    assert torch.equal(offsets, design_offsets(mp, kbp))
    assert torch.equal(offsets.flatten().sort().values, torch.arange(mp * kbp))
    host = torch.tensor([[sf_byte_offset(r, c, kbp) for c in range(kbp)] for r in range(mp)])
    assert torch.equal(host, offsets)


@FAST
@given(ms, kbs, st.sampled_from([torch.uint8, torch.float8_e4m3fn]))
def test_swizzle_bytes_match_formula_padding_zero(m, kb, dtype):
    sf = random_sf(m, kb, dtype)
    buf = swizzle_sf(sf)
    mp, kbp = sf_padded_shape(m, kb)
    assert buf.shape == (mp, kbp) and buf.dtype == dtype and buf.is_contiguous()
    flat = buf.view(torch.uint8).flatten()
    where = design_offsets(mp, kbp)[:m, :kb]
    assert torch.equal(flat[where], sf.view(torch.uint8))
    pad = torch.ones(mp * kbp, dtype=torch.bool)
    pad[where.flatten()] = False
    assert int(pad.sum()) == mp * kbp - m * kb
    assert not flat[pad].any()


@FAST
@given(ms, kbs, st.sampled_from([torch.uint8, torch.float8_e4m3fn]))
def test_round_trips(m, kb, dtype):
    sf = random_sf(m, kb, dtype)
    buf = swizzle_sf(sf)
    for view in (buf, buf.flatten()):
        back = unswizzle_sf(view, m, kb)
        assert back.dtype == dtype and back.shape == (m, kb)
        assert torch.equal(back.view(torch.uint8), sf.view(torch.uint8))
    # Any buffer with zero padding survives unswizzle -> swizzle.
    assert torch.equal(swizzle_sf(unswizzle_sf(buf, m, kb)).view(torch.uint8), buf.view(torch.uint8))


@FAST
@given(ms, kbs)
def test_agrees_with_reshape_permute_forms(m, kb):
    """The hand-written forms engines use (SGLang's recover_swizzled_scales)."""
    sf = random_sf(m, kb)
    mp, kbp = sf_padded_shape(m, kb)
    padded = torch.zeros(mp, kbp, dtype=torch.uint8)
    padded[:m, :kb] = sf
    by_hand = padded.view(mp // 128, 4, 32, kbp // 4, 4).permute(0, 3, 2, 1, 4).reshape(mp, kbp)
    buf = swizzle_sf(sf)
    assert torch.equal(buf, by_hand)
    undo = buf.view(mp // 128, kbp // 4, 32, 4, 4).permute(0, 3, 2, 1, 4).reshape(mp, kbp)[:m, :kb]
    assert torch.equal(unswizzle_sf(buf, m, kb), undo)


@FAST
@given(ms, kbs, st.integers(1, 3))
def test_batched_is_per_item(m, kb, e):
    sf = random_sf(m, kb, torch.uint8, e)
    buf = swizzle_sf(sf)
    assert buf.shape == (e, *sf_padded_shape(m, kb))
    for i in range(e):
        assert torch.equal(buf[i], swizzle_sf(sf[i]))
    assert torch.equal(unswizzle_sf(buf, m, kb), sf)


@FAST
@given(ms, kbs)
def test_elementwise_layout_broadcasts_one_scale_over_16(m, kb):
    mp, kbp = sf_padded_shape(m, kb)
    tiled = layout_offsets(*static_layout(sf_tiled_layout, mp, kbp))
    elem = layout_offsets(*static_layout(sf_tiled_layout_elementwise, mp, kbp * 16))
    assert torch.equal(elem, tiled.repeat_interleave(16, dim=1))


def test_cute_evaluation_matches_formula():
    """Evaluate the layout with CuTe itself (not through the torch geometry)."""
    gen = torch.Generator().manual_seed(0)
    for mp, kbp in ((128, 4), (384, 12)):
        coords = [(int(torch.randint(mp, (1,), generator=gen)), int(torch.randint(kbp, (1,), generator=gen)))
                  for _ in range(24)]
        got = []

        @cute.jit
        def evaluate():
            tiled = sf_tiled_layout(mp, kbp)
            elem = sf_tiled_layout_elementwise(mp, kbp * 16)
            for m, kb in coords:
                got.append((tiled((m, kb)), elem((m, kb * 16 + 7))))

        cute.compile(evaluate)
        for (m, kb), (a, b) in zip(coords, got):
            assert a == b == design_offset(m, kb, kbp)


def test_builders_accept_dynamic_m():
    """Kernels build the layout with a runtime M; that must trace and compile."""
    seen = []

    @cute.jit
    def build(m: cutlass.Int32):
        seen.append(str(sf_tiled_layout(m, 8)))

    cute.compile(build, cutlass.Int32(256))
    assert seen and "?" in seen[0] and "(4,2)" in seen[0].replace(" ", "")


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="sf"):
        swizzle_sf(torch.zeros(8, dtype=torch.uint8))
    with pytest.raises(ValueError, match="buf"):
        unswizzle_sf(torch.zeros(100, dtype=torch.uint8), 3, 3)
    with pytest.raises(ValueError, match="buf"):
        unswizzle_sf(torch.zeros(2, 128, 8, dtype=torch.uint8), 3, 3)


def test_empty():
    assert swizzle_sf(torch.zeros(0, 5, dtype=torch.uint8)).shape == (0, 8)
    assert unswizzle_sf(torch.zeros(0, dtype=torch.uint8), 0, 5).shape == (0, 5)
