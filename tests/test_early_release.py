"""``NVFP4GemmLargeM.EARLY_RELEASE`` (probe switch): a consumer releases a k-tile's stage once
its wgmmas retire, before decoding the next k-tile. Only the release moves, so every launch
gives the same bits as without it."""

import pytest

from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m
from cute_kernels.nvfp4_gemm_swiglu_quant import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.testing import compile_only, kernel_frame_bytes


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
    from tests.test_nvfp4_gemm_large_m import switch_keeps_bits

    switch_keeps_bits(monkeypatch, "EARLY_RELEASE", (False, True, True), m, config, options,
                      k_order)
