"""The in-flight main loop (``NVFP4GemmLargeM.INFLIGHT_MAX_TILE_M``, off: these GPU tests passed
with 32 in session 84, where the loop measured even with the default on the H100): on token
tiles of up to that many tokens a k-tile's wgmmas stay in flight while the next k-tile is
decoded. Only the order of the decode and the wait moves, so every launch gives the same bits
as ``_mma_tile``'s loop."""

import cutlass
import pytest

from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m
from cute_kernels.nvfp4_gemm_swiglu_quant import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.testing import compile_only, kernel_frame_bytes


def test_narrow_tiles_take_it(monkeypatch):
    monkeypatch.setattr(NVFP4GemmLargeM, "INFLIGHT_MAX_TILE_M", 32)
    for tile_m, k_order, want in ((8, KOrder.PERMUTED, True), (16, KOrder.PAIRS, True),
                                  (32, KOrder.IDENTITY, True), (64, KOrder.PERMUTED, False),
                                  (16, KOrder.BF16, False)):
        kernel = NVFP4GemmLargeM(9216, 7168, cutlass.BFloat16, tile_m, stream_k=True,
                                 k_order=k_order)
        assert kernel.inflight_mainloop() == want, (tile_m, k_order)
    # where ptxas would serialize the in-flight loop's wgmmas (``test_wgmma_pipelines``):
    # whole tiles alone, four K groups a stage (probe-only), two CTAs an SM; stream-K on
    # warpgroups split over the K groups keeps it
    for options, want in (({"stream_k": False}, False), ({"k_groups": 4}, False),
                          ({"k_groups": 2, "ctas_per_sm": 2}, False),
                          ({"k_groups": 2, "wg_k_split": True}, True),
                          ({"stream_k": True, "hybrid": True}, True)):
        kernel = NVFP4GemmLargeM(9216, 7168, cutlass.BFloat16, 16, k_order=KOrder.PERMUTED,
                                 **{"stream_k": True, **options})
        assert kernel.inflight_mainloop() == want, options


def _plain(tile_m: int, k_order: KOrder, k_groups: int) -> tuple:
    """``compile_nvfp4_gemm_large_m``'s arguments of a 9216x7168 stream-K launch as the public
    op compiles it (the PDL trigger on), and no keyword arguments."""
    return (compile_nvfp4_gemm_large_m, (9216, 7168, "torch.bfloat16", tile_m, 0, 132, 1, True,
                                         False, k_order, 1, k_groups, False, False, True), {})


_FUSED = compile_nvfp4_gemm_swiglu_quant_large_m


# the public ops' narrow launches, then the other kernel forms on narrow tiles that
# ``tools/sanitize_probe.py`` launches (whole tiles alone and two CTAs an SM keep
# ``_mma_tile``'s loop: ``inflight_mainloop``)
@pytest.mark.parametrize("compile_fn,args,options", [
    _plain(16, KOrder.PERMUTED, 2),
    _plain(8, KOrder.PAIRS, 2),
    _plain(32, KOrder.IDENTITY, 1),
    (_FUSED, (4608, 7168, 16, 0, 132, True, False, 1, 1, 1, 2), {}),
    (compile_nvfp4_gemm_large_m, (200, 640, "torch.float32", 16, 0, 7, 1, True),
     {"k_groups": 2, "wg_k_split": True}),
    (compile_nvfp4_gemm_large_m, (200, 512, "torch.float32", 16, 0, 132),
     {"k_groups": 2, "wg_k_split": True, "pair_pieces": True}),
    (compile_nvfp4_gemm_large_m, (200, 576, "torch.float32", 32, 0, 2, 1, True, True), {}),
    (_FUSED, (128, 640, 32, 0, 2), {"quantizers": 1}),
    (_FUSED, (128, 512, 16, 0, 132), {"k_groups": 2, "wg_k_split": True, "pair_pieces": True}),
])
def test_compiles_for_sm90a(monkeypatch, compile_fn, args, options):
    monkeypatch.setattr(NVFP4GemmLargeM, "INFLIGHT_MAX_TILE_M", 32)
    assert kernel_frame_bytes(compile_only(compile_fn, *args, **options)) == 0


@pytest.mark.gpu
@pytest.mark.parametrize("m,config,options,k_order", [
    (13, (16, 0, 6), {"stream_k": True, "k_groups": 2}, KOrder.PERMUTED),  # pieces, 2 groups
    (5, (8, 0, 7), {"stream_k": True, "k_groups": 2}, KOrder.PERMUTED),     # 8-token tiles
    (29, (32, 0, 5), {"stream_k": True}, KOrder.IDENTITY),               # packed in place
    (40, (16, 0, 2), {"stream_k": True, "hybrid": True}, KOrder.PERMUTED),  # whole tiles too
    (20, (32, 0, 9), {"stream_k": True}, KOrder.PAIRS),                     # packed, pieces
    (45, (16, 0), {"stream_k": True, "k_groups": 2, "hybrid": True}, KOrder.PERMUTED),
])
def test_the_same_bits_as_the_default_loop(monkeypatch, m, config, options, k_order):
    """Against ``_mma_tile``'s loop bit for bit (fp32 and bf16 out) and the fp64 reference,
    twice in a row; the K range 1664 cuts stream-K pieces of odd and even k-tile counts."""
    from tests.test_nvfp4_gemm_large_m import switch_keeps_bits

    switch_keeps_bits(monkeypatch, "INFLIGHT_MAX_TILE_M", (0, 32, 32), m, config, options,
                      k_order)
