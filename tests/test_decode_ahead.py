"""The fused kernel decoding its own activations (``cute_kernels.decode_ahead``): it compiles
for sm_90a, and on a GPU it gives the same bits as the same launch on the activations' pass
(the same bf16 operand, the same tiles), launch after launch (the counters reset to zero);
rows past M, token tiles whose rows outnumber the row tiles and the other way round, and a
persistent grid (more tiles than CTAs)."""

import pytest
import torch

from cute_kernels import prepare_gate_up_weight, reference
from cute_kernels.arrival_counters import arrival_counters
from cute_kernels.decode_ahead import (compile_fused_decode_ahead, decode_chunks,
                                       launch_fused_decode_ahead)
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.swiglu_quant_large_m import launch_large_m
from cute_kernels.testing import compile_only
from layouts import sf_padded_shape
from tests.conftest import poisoned


@pytest.mark.parametrize("i,k,tile_m", [(512, 7168, 256), (2048, 5120, 128)])
def test_decode_ahead_compiles_for_sm90a(i, k, tile_m):
    assert compile_only(compile_fused_decode_ahead, i, k, tile_m, 0, 132)


def test_chunks_cover_k():
    """A counter a chunk of ``CHUNK_K`` (whole k-tiles), the last one partial."""
    assert decode_chunks(7168, 64) == 14 and decode_chunks(5120, 64) == 10
    assert decode_chunks(5184, 64) == 11 and decode_chunks(192, 64) == 1


def _operands(i, k, m):
    w = torch.randn(2 * i, k, device="cuda") * torch.pow(
        10.0, torch.rand(2 * i, 1, device="cuda") * 2 - 1)
    packed, sf = reference.nvfp4_quantize(w.to(torch.bfloat16), 448 * 6 / w.abs().amax(),
                                          swizzle=False)
    words, w_sf = prepare_gate_up_weight(packed, sf, permute=True)
    x = torch.randn(m, k, device="cuda") * 3
    a, a_sf = reference.nvfp4_quantize(x.to(torch.bfloat16), 448 * 6 / x.abs().amax())
    return a, a_sf, words, w_sf


@pytest.mark.gpu
@pytest.mark.parametrize("i,k,m,tile_m,sms", [
    (512, 7168, 4096, 256, 132),   # 16 x 8 tiles, one a CTA: 32 rows a row tile's slice
    (512, 7168, 1000, 128, 132),   # rows past M in the last token tile
    (2048, 5120, 300, 128, 132),   # 32 row tiles: 4 rows a slice
    (512, 7168, 2048, 128, 20),    # 128 tiles on 20 CTAs: the persistent loop
    (64, 192, 77, 256, 4),         # one row tile (the whole token tile a slice), one chunk
])
def test_decode_ahead_matches_the_pass(i, k, m, tile_m, sms):
    a, a_sf, w, w_sf = _operands(i, k, m)
    alpha = torch.full((1,), 0.25, device="cuda")
    gs = torch.full((1,), 40.0, device="cuda")
    sf_shape = sf_padded_shape(m, i // 16)
    want_q = poisoned(m, i // 2, dtype=torch.uint8)
    want_sf = poisoned(*sf_shape, dtype=torch.uint8).view(-1)
    rows = -(-m // tile_m) * tile_m
    launch_large_m(bf16_activations(a, a_sf, KOrder.PERMUTED, rows), w, w_sf, alpha, gs, want_q,
                   want_sf, (tile_m, 0, sms), k_order=KOrder.PERMUTED, quantizers=0)
    for _ in range(3):  # the counters left zero for the next launch
        q = poisoned(m, i // 2, dtype=torch.uint8)
        sf = poisoned(*sf_shape, dtype=torch.uint8).view(-1)
        launch_fused_decode_ahead(a, a_sf, w, w_sf, alpha, gs, q, sf, tile_m, sms)
        torch.cuda.synchronize()
        assert torch.equal(q, want_q) and torch.equal(sf, want_sf)
    counters = arrival_counters(-(-m // tile_m) * decode_chunks(k, 64), a.device)
    assert not counters.any()
