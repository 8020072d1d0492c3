"""Four consumer warpgroups on 128-row tiles (``NVFP4GemmLargeM.FOUR_CONSUMERS_MAX_TILE_M``, a
probe switch, off): warpgroups 0 and 1 take K group 0 of every stage, 2 and 3 K group 1, and
hand their sums to 0 and 1 through shared memory at the tile's end. Compile-only on CPU (the
640-thread launch, no stack frame, only where it applies); on a GPU against the fp64
reference with M, N and K tails, in every kernel form it runs in, deterministic."""

import cutlass
import pytest
import torch

from cute_kernels import reference
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m)
from cute_kernels.permuted_fp4 import prepare_nvfp4_weight
from cute_kernels.swiglu_quant_large_m import NVFP4GemmSwigluQuantLargeM
from cute_kernels.testing import compile_only, kernel_frame_bytes, kernel_registers
from tests.conftest import poisoned
from tests.test_nvfp4_gemm_large_m import _inputs, _rel_err


def test_it_takes_narrow_tiles_with_two_k_groups(monkeypatch):
    monkeypatch.setattr(NVFP4GemmLargeM, "FOUR_CONSUMERS_MAX_TILE_M", 16)
    for tile_m, options, want in ((16, {"k_groups": 2}, True), (8, {"k_groups": 2}, True),
                                  (32, {"k_groups": 2}, False), (16, {}, False),
                                  (16, {"k_groups": 2, "ctas_per_sm": 2}, False),
                                  (16, {"k_groups": 2, "wg_k_split": True}, False)):
        kernel = NVFP4GemmLargeM(9216, 7168, cutlass.BFloat16, tile_m, stream_k=True,
                                 k_order=KOrder.PERMUTED, **options)
        assert kernel.four_consumers == want, (tile_m, options)
        assert kernel.consumers == (4 if want else 2)
    fused = NVFP4GemmSwigluQuantLargeM(4608, 7168, 16, stream_k=True, k_groups=2)
    assert not fused.four_consumers


@pytest.mark.parametrize("tile_m,k_order,inflight", [
    (16, KOrder.PERMUTED, 0), (16, KOrder.PERMUTED, 32), (8, KOrder.PAIRS, 32),
    (16, KOrder.IDENTITY, 0)])
def test_compiles_for_sm90a(monkeypatch, tile_m, k_order, inflight):
    monkeypatch.setattr(NVFP4GemmLargeM, "FOUR_CONSUMERS_MAX_TILE_M", 16)
    monkeypatch.setattr(NVFP4GemmLargeM, "INFLIGHT_MAX_TILE_M", inflight)
    compiled = compile_only(compile_nvfp4_gemm_large_m, 9216, 7168, "torch.bfloat16", tile_m, 0,
                            132, 1, True, False, k_order, k_groups=2, pdl_trigger=True)
    assert kernel_registers(compiled) == [96]  # 640 threads, one CTA an SM
    assert kernel_frame_bytes(compiled) == 0


def _launch(a, b, b_sf, alpha, out, k_order, config, **options):
    words = prepare_nvfp4_weight(b) if k_order == KOrder.PERMUTED else b
    x = bf16_activations(a, None, k_order, -(-a.shape[0] // config[0]) * config[0])
    launch_large_m(x, words, b_sf, torch.full((1,), alpha, device="cuda"), out, config,
                   k_order=k_order, k_groups=2, compile_fn=compile_nvfp4_gemm_large_m.uncached,
                   **options)
    torch.cuda.synchronize()


@pytest.mark.gpu
@pytest.mark.parametrize("inflight", [0, 32])
@pytest.mark.parametrize("m,n,k,config,options,k_order", [
    (13, 1160, 1664, (16, 0, 6), {"stream_k": True}, KOrder.PERMUTED),  # pieces cross tiles
    (5, 1100, 1664, (8, 0, 7), {"stream_k": True}, KOrder.PAIRS),       # 8-token tiles, N tail
    (40, 1160, 1920, (16, 0, 7), {}, KOrder.PERMUTED),                  # whole tiles, 3 of M
    (16, 1160, 1664, (16, 0), {"stream_k": True, "splits": 3}, KOrder.IDENTITY),  # K pieces
    (29, 1160, 1664, (16, 0, 4), {"stream_k": True, "hybrid": True}, KOrder.PERMUTED),
    (16, 9216, 7168, (16, 0), {"stream_k": True, "pdl_trigger": True}, KOrder.PERMUTED),
])
def test_agrees_with_fp64_reference(monkeypatch, inflight, m, n, k, config, options, k_order):
    """fp32 and bf16 outputs: the fp32 one within 1e-3 of the fp64 reference and again the
    same bits on a second launch, the bf16 one agreeing with it; K 1664 cuts stream-K pieces
    of odd and even k-tile counts."""
    monkeypatch.setattr(NVFP4GemmLargeM, "FOUR_CONSUMERS_MAX_TILE_M", 16)
    monkeypatch.setattr(NVFP4GemmLargeM, "INFLIGHT_MAX_TILE_M", inflight)
    a, b, b_sf, alpha = _inputs(m, n, k)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    outs = []
    for dtype in (torch.float32, torch.float32, torch.bfloat16):
        out = poisoned(m, n, dtype=dtype)
        _launch(a, b, b_sf, alpha, out, k_order, config, **options)
        assert not out.isnan().any()
        outs.append(out)
    assert _rel_err(outs[0], want) <= 1e-3
    assert torch.equal(outs[1], outs[0])
    torch.testing.assert_close(outs[2].float(), outs[0], rtol=1e-2, atol=1e-6)
