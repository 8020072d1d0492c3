"""The expert-grouped 6-D (32, 4, Mt, 4, KBt, E) scale view."""

import pytest
import torch
from hypothesis import given, settings, strategies as st

from layouts import (
    dense_to_experts_sf,
    experts_sf_layout,
    experts_sf_to_dense,
    experts_sf_view,
    layout_offsets,
    num_sf_bytes,
    sf_padded_shape,
    static_layout,
    swizzle_sf,
    unswizzle_sf,
)

FAST = settings(max_examples=25, deadline=None)
ms, kbs, es = st.integers(1, 400), st.integers(1, 20), st.integers(1, 4)


def design_offset(m, kb, e, mp, kbp):
    """DESIGN.md's per-expert offset (KB4 = pad4(KB)/4 tiles), experts stacked."""
    return e * mp * kbp + (m // 128) * (kbp // 4 * 512) + (kb // 4) * 512 + (m % 32) * 16 \
        + ((m % 128) // 32) * 4 + (kb % 4)


def random_experts(m, kb, e, dtype=torch.uint8):
    return torch.randint(1, 256, (e, m, kb), dtype=torch.uint8).view(dtype)


def test_layout_is_the_documented_expression():
    shape, stride = static_layout(experts_sf_layout, 384, 12, 5)
    assert shape == (((32, 4), 3), (4, 3), 5)
    assert stride == (((16, 4), 12 * 128), (1, 512), 384 * 12)


@FAST
@given(ms, kbs, es)
def test_layout_matches_formula_and_is_a_bijection(m, kb, e):
    mp, kbp = sf_padded_shape(m, kb)
    offsets = layout_offsets(*static_layout(experts_sf_layout, mp, kbp, e))
    assert offsets.shape == (mp, kbp, e)
    r = torch.arange(mp).view(-1, 1, 1)
    c = torch.arange(kbp).view(1, -1, 1)
    x = torch.arange(e).view(1, 1, -1)
    assert torch.equal(offsets, design_offset(r, c, x, mp, kbp))
    assert torch.equal(offsets.flatten().sort().values, torch.arange(num_sf_bytes(m, kb, e)))


@FAST
@given(ms, kbs, es, st.sampled_from([torch.uint8, torch.float8_e4m3fn]))
def test_view_indexes_scales_and_matches_flashinfer(m, kb, e, dtype):
    sf = random_experts(m, kb, e, dtype)
    dense = swizzle_sf(sf)  # [E, Mp, KBp]
    mp, kbp = dense.shape[1:]
    six = dense_to_experts_sf(dense)
    assert six.shape == (32, 4, mp // 128, 4, kbp // 4, e) and six.dtype == dtype
    assert six.data_ptr() == dense.data_ptr()  # a view, no copy
    r, c = torch.meshgrid(torch.arange(m), torch.arange(kb), indexing="ij")
    for i in range(e):
        got = six[r % 32, (r // 32) % 4, r // 128, c % 4, c // 4, i]
        assert torch.equal(got.view(torch.uint8), sf[i].view(torch.uint8))
    # FlashInfer: physical (l, Mt, KBt, 32, 4, 4) permuted (3, 4, 1, 5, 2, 0).
    flashinfer = dense.view(e, mp // 128, kbp // 4, 32, 4, 4).permute(3, 4, 1, 5, 2, 0)
    assert torch.equal(six.view(torch.uint8), flashinfer.view(torch.uint8))
    sized = [i for i, n in enumerate(six.shape) if n > 1]
    assert [six.stride(i) for i in sized] == [flashinfer.stride(i) for i in sized]
    assert torch.equal(experts_sf_view(dense.flatten(), m, kb, e).view(torch.uint8), six.view(torch.uint8))


@FAST
@given(ms, kbs, es)
def test_to_dense_round_trips_and_matches_permute_forms(m, kb, e):
    sf = random_experts(m, kb, e)
    dense = swizzle_sf(sf)
    mp, kbp = dense.shape[1:]
    six = dense_to_experts_sf(dense)
    # Canonical view: hands back the same memory.
    back = experts_sf_to_dense(six)
    assert torch.equal(back, dense) and back.data_ptr() == dense.data_ptr()
    # A 6-D tensor in some other memory order goes through a copy.
    other = six.contiguous()
    assert torch.equal(experts_sf_to_dense(other), dense)
    # The hand-written inverses engines use.
    assert torch.equal(other.permute(5, 2, 4, 0, 1, 3).reshape(e, mp, kbp), dense)
    per_expert = other.permute(2, 4, 0, 1, 3, 5).reshape(mp * kbp, e)  # (Mt, KBt, 32, 4, 4, E)
    for i in range(e):
        assert torch.equal(per_expert[:, i], dense[i].flatten())
        assert torch.equal(unswizzle_sf(experts_sf_to_dense(other)[i], m, kb), sf[i])


def test_flashinfer_int32_allocation():
    """FlashInfer allocates [l, padded_m, padded_k/4] int32 and views it as e4m3."""
    e, m, kb = 3, 200, 10
    mp, kbp = sf_padded_shape(m, kb)
    sf = random_experts(m, kb, e)
    storage = swizzle_sf(sf).view(torch.int32)  # [E, Mp, KBp/4]
    six = experts_sf_view(storage.view(torch.float8_e4m3fn), m, kb, e)
    expect = storage.view(torch.float8_e4m3fn).view(e, mp // 128, kbp // 4, 32, 4, 4).permute(3, 4, 1, 5, 2, 0)
    assert torch.equal(six.view(torch.uint8), expect.view(torch.uint8))


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="buf"):
        experts_sf_view(torch.zeros(100, dtype=torch.uint8), 3, 3, 2)
    with pytest.raises(ValueError, match="num_experts"):
        experts_sf_view(torch.zeros(512, dtype=torch.uint8), 3, 3, 0)
    with pytest.raises(ValueError, match="dense"):
        dense_to_experts_sf(torch.zeros(2, 100, 4, dtype=torch.uint8))
    with pytest.raises(ValueError, match="sf6d"):
        experts_sf_to_dense(torch.zeros(32, 4, 1, 4, 1, dtype=torch.uint8))
