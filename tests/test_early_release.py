"""``NVFP4GemmLargeM.EARLY_RELEASE`` (probe switch): a consumer releases a k-tile's stage once
its wgmmas retire, before decoding the next k-tile. Only the release moves, so every launch
gives the same bits as without it."""

import pytest
import torch

from cute_kernels import reference
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m)
from cute_kernels.nvfp4_gemm_swiglu_quant import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.testing import compile_only, kernel_frame_bytes
from tests.conftest import poisoned


def _plain(tile_m: int, k_order: KOrder, k_groups: int) -> tuple:
    """``compile_nvfp4_gemm_large_m``'s arguments of a 9216x7168 stream-K launch as the public
    op compiles it (the PDL trigger on)."""
    return (compile_nvfp4_gemm_large_m, (9216, 7168, "torch.bfloat16", tile_m, 0, 132, 1, True,
                                         False, k_order, 1, k_groups, False, False, True))


@pytest.mark.parametrize("compile_fn,args", [
    _plain(16, KOrder.PERMUTED, 2),  # the split decode (words two at a time): reads before the wait
    _plain(64, KOrder.IDENTITY, 1),  # packed bytes in place: the whole decode after the release
    _plain(8, KOrder.PAIRS, 2),
    (compile_nvfp4_gemm_swiglu_quant_large_m, (4608, 7168, 64, 0, 132, True, False, 1, 1, 1, 2)),
])
def test_early_release_compiles_for_sm90a(monkeypatch, compile_fn, args):
    monkeypatch.setattr(NVFP4GemmLargeM, "EARLY_RELEASE", True)
    assert kernel_frame_bytes(compile_only(compile_fn, *args)) == 0


@pytest.mark.gpu
@pytest.mark.parametrize("m,config,options,k_order", [
    (13, (16, 0, 6), {"stream_k": True, "k_groups": 2}, KOrder.PERMUTED),  # pieces, 2 groups
    (5, (8, 0), {"stream_k": True, "k_groups": 2}, KOrder.PERMUTED),        # 8-token tiles
    (29, (32, 0, 5), {}, KOrder.IDENTITY),                                  # whole tiles
    (129, (64, 0, 11), {"stream_k": True}, KOrder.PAIRS),                   # M tail, pieces
    (45, (16, 0), {"stream_k": True, "k_groups": 2, "ctas_per_sm": 2}, KOrder.PERMUTED),
])
def test_early_release_gives_the_same_bits(monkeypatch, m, config, options, k_order):
    """Against the default release bit for bit (fp32 and bf16 out) and the fp64 reference,
    twice in a row."""
    from cute_kernels.nvfp4_dequant import bf16_activations
    from cute_kernels.permuted_fp4 import prepare_nvfp4_weight
    from tests.test_nvfp4_gemm_large_m import _inputs, _rel_err

    n, k = 1160, 1664
    a, b, b_sf, alpha = _inputs(m, n, k)
    x = bf16_activations(a, None, k_order, -(-m // config[0]) * config[0])
    words = prepare_nvfp4_weight(b) if k_order == KOrder.PERMUTED else b  # else packed bytes
    alpha_t = torch.full((1,), alpha, device="cuda")
    outs = {}
    for on in (False, True, True):
        monkeypatch.setattr(NVFP4GemmLargeM, "EARLY_RELEASE", on)
        for dtype in (torch.float32, torch.bfloat16):
            out = poisoned(m, n, dtype=dtype)
            launch_large_m(x, words, b_sf, alpha_t, out, config, k_order=k_order,
                           compile_fn=compile_nvfp4_gemm_large_m.uncached, **options)
            torch.cuda.synchronize()
            assert not out.isnan().any()
            outs.setdefault(dtype, []).append(out)
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    assert _rel_err(outs[torch.float32][1], want) <= 1e-3
    for got in outs.values():
        for out in got[1:]:
            assert torch.equal(out, got[0])
