"""Grid decode (experimental): the wgmma kernels decoding their NVFP4 activations themselves,
loads through registers or the shared-memory ring (``decode_ring``). Compile-only on the CPU;
on a GPU, the same bits as the same launch on ``bf16_activations``' pass, launch after launch
(the flags reset)."""

import pytest
import torch

from cute_kernels import prepare_gate_up_weight, prepare_nvfp4_weight, reference
from cute_kernels.grid_decode import flag_words
from cute_kernels.grid_decode_launch import (
    compile_nvfp4_gemm_large_m_grid_decode, compile_nvfp4_gemm_swiglu_quant_large_m_grid_decode,
    launch_fused_grid_decode, launch_large_m_grid_decode)
from cute_kernels.k_order import KOrder, wgmma_k_order
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import H200_SMS, launch_large_m
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused
from cute_kernels.testing import compile_only
from layouts import sf_padded_shape
from tests.conftest import poisoned


@pytest.mark.parametrize("order,ring", [(KOrder.PERMUTED, 0), (KOrder.PAIRS, 3)])
def test_grid_decode_compiles_for_sm90a(order, ring):
    assert compile_only(compile_nvfp4_gemm_large_m_grid_decode, 4096, 7168, "torch.bfloat16",
                        256, 0, H200_SMS, order, ring)
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m_grid_decode, 512, 7168, 256, 0,
                        H200_SMS, order, ring)


def test_flag_words():
    assert flag_words(1024, 112, 256) == 4 * 112 + 1


def _activations(m, k):
    x = torch.randn(m, k, device="cuda") * 3
    return reference.nvfp4_quantize(x.to(torch.bfloat16), 448 * 6 / x.abs().amax())


def _weight(n, k, permute):
    w = torch.randn(n, k, device="cuda") * torch.pow(10.0, torch.rand(n, 1, device="cuda") * 2 - 1)
    packed, sf = reference.nvfp4_quantize(w.to(torch.bfloat16), 448 * 6 / w.abs().amax())
    return (prepare_nvfp4_weight(packed), sf) if permute else (packed, sf)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,tile_m", [(200, 384, 576, 128), (1000, 1024, 7168, 256),
                                          (77, 256, 1024, 64),
                                          (1250, 1024, 1024, 64)])  # 160 tiles: two waves
@pytest.mark.parametrize("permute,ring", [(True, 0), (False, 0), (True, 4)])
def test_plain_grid_decode_equals_the_pass(m, n, k, tile_m, permute, ring):
    a, a_sf = _activations(m, k)
    b, b_sf = _weight(n, k, permute)
    order = KOrder.PERMUTED if permute else KOrder.PAIRS
    alpha = torch.full((1,), 0.37, device="cuda")
    want = poisoned(m, n, dtype=torch.float32)
    rows = -(-m // tile_m) * tile_m
    launch_large_m(bf16_activations(a, a_sf, order, rows), b, b_sf, alpha, want, (tile_m, 0),
                   k_order=order)
    for _ in range(3):  # the flags are zero again after every launch
        got = poisoned(m, n, dtype=torch.float32)
        launch_large_m_grid_decode(a, a_sf, b, b_sf, alpha, got, tile_m, order, ring)
        torch.cuda.synchronize()
        assert not got.isnan().any()
        assert torch.equal(got, want)


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,k,tile_m", [(200, 192, 576, 128), (1000, 512, 7168, 256),
                                          (1250, 512, 1024, 64)])  # two waves
@pytest.mark.parametrize("permute,ring", [(True, 0), (False, 0), (True, 3)])
def test_fused_grid_decode_equals_the_pass(m, i, k, tile_m, permute, ring):
    a, a_sf = _activations(m, k)
    w = torch.randn(2 * i, k, device="cuda")
    packed, sf = reference.nvfp4_quantize(w.to(torch.bfloat16), 448 * 6 / w.abs().amax(),
                                          swizzle=False)
    w, w_sf = prepare_gate_up_weight(packed, sf, permute=permute)
    order = wgmma_k_order(w)
    alpha = torch.full((1,), 0.37, device="cuda")
    g = torch.full((1,), 3.0, device="cuda")
    mp, kbp = sf_padded_shape(m, i // 16)

    def outputs():
        return (poisoned(m, i // 2, dtype=torch.uint8),
                poisoned(mp, kbp, dtype=torch.float8_e4m3fn))

    want, want_sf = outputs()
    rows = -(-m // tile_m) * tile_m
    launch_fused(bf16_activations(a, a_sf, order, rows), w, w_sf, alpha, g, want, want_sf,
                 (tile_m, 0), k_order=order, quantizers=0)
    for _ in range(3):
        got, got_sf = outputs()
        launch_fused_grid_decode(a, a_sf, w, w_sf, alpha, g, got, got_sf, tile_m, order, ring)
        torch.cuda.synchronize()
        assert torch.equal(got, want)
        assert torch.equal(got_sf.view(torch.uint8), want_sf.view(torch.uint8))
