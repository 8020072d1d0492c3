"""NVFP4 activations decoded inside the wgmma kernel (``act_decode``): compile-only on CPU; on a
GPU, the same output bits as the same launch on the activation pass's bf16."""

import cutlass
import pytest
import torch

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.act_decode import act_decode_fits
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import (H200_SMS, NVFP4GemmLargeM,
                                             compile_nvfp4_gemm_large_m, launch_large_m)
from cute_kernels.testing import compile_only
from tests.conftest import poisoned


@pytest.mark.parametrize("n,k,tile_m,stream_k,k_groups", [
    (9216, 7168, 16, True, 1),     # issue 5's M = 16 plan on the Kimi-K2.5 TP4 weights
    (5120, 17408, 32, True, 2),    # two K groups a stage
    (200, 576, 64, False, 1),      # whole tiles, N tail, odd k-tiles
])
def test_act_decode_compiles_for_sm90a(n, k, tile_m, stream_k, k_groups):
    assert compile_only(compile_nvfp4_gemm_large_m, n, k, "torch.bfloat16", tile_m, 0, H200_SMS,
                        1, stream_k, False, int(KOrder.PERMUTED), 1, k_groups, False, False,
                        True, True)


def test_act_decode_limits():
    assert act_decode_fits(64, 1, KOrder.PERMUTED) and act_decode_fits(16, 1, KOrder.PAIRS)
    assert not act_decode_fits(128, 1, KOrder.PERMUTED)      # the decode warps lag
    assert not act_decode_fits(16, 2, KOrder.PERMUTED)       # 24 registers a producer thread
    assert not act_decode_fits(16, 1, KOrder.IDENTITY)       # PERMUTED_K_ORDER activations
    assert not act_decode_fits(16, 1, KOrder.PERMUTED, wg_k_split=True)
    with pytest.raises(AssertionError):
        NVFP4GemmLargeM(1024, 512, cutlass.BFloat16, 128, k_order=KOrder.PERMUTED,
                        act_decode=True)


def _operands(m, n, k):
    """Packed NVFP4 weights with a realistic row spread and NVFP4 activations."""
    w = torch.randn(n, k, device="cuda") * torch.pow(10.0, torch.rand(n, 1, device="cuda") * 3 - 2)
    b, b_sf = reference.nvfp4_quantize(w.to(torch.bfloat16), 448 * 6 / w.abs().amax())
    a, a_sf = reference.nvfp4_quantize(
        (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16), 100.0)
    return a, a_sf, b, b_sf


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k,config,options", [
    (16, 1160, 1920, (16, 0, 11), {"stream_k": True}),                 # pieces cross tiles
    (13, 1160, 1920, (16, 0, 11), {"stream_k": True, "k_groups": 2}),  # codes past M
    (40, 1100, 1920, (32, 0, 9), {"stream_k": True, "k_groups": 2}),
    (64, 1098, 832, (64, 0, 7), {"stream_k": True}),                   # 13 k-tiles
    (200, 1160, 832, (16, 0, 9), {}),        # 13 token tiles: rows in the second scale block
    (129, 300, 1920, (64, 0), {"splits": 3}),
    (777, 1160, 832, (32, 0, 9), {"stream_k": True, "hybrid": True}),
    (1, 4096, 7168, (16, 0), {"stream_k": True, "pdl_trigger": True}),
])
@pytest.mark.parametrize("permuted", [True, False])
def test_act_decode_matches_the_pass(m, n, k, config, options, permuted):
    """The kernel's decode gives the pass's bf16 values, so the launch's output bits: M and N
    tails, shrunk grids (phases across tiles), stream-K, split-K, hybrid, two K groups a stage,
    permuted words (``KOrder.PERMUTED``) and packed bytes (``KOrder.PAIRS``); and the fp64
    reference."""
    a, a_sf, b, b_sf = _operands(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, 0.37)
    order = KOrder.PAIRS
    if permuted:
        b, order = prepare_nvfp4_weight(b), KOrder.PERMUTED
    alpha = torch.full((1,), 0.37, device="cuda")
    rows = -(-m // config[0]) * config[0]
    outs = []
    for decode in (False, True):
        out = poisoned(m, n, dtype=torch.float32)
        acts = a if decode else bf16_activations(a, a_sf, order, rows)
        launch_large_m(acts, b, b_sf, alpha, out, config, k_order=order,
                       a_sf=a_sf if decode else None, **options)
        torch.cuda.synchronize()
        assert not out.isnan().any()
        outs.append(out)
    torch.testing.assert_close(outs[1], outs[0], rtol=0, atol=0)
    assert ((outs[1].double() - want).norm() / want.norm()).item() <= 1e-3
