"""The fused kernel on 8-token tiles (``NVFP4GemmSwigluQuantLargeM.TILE_8``, on since session
82): its staged h and quantization items at 8 token lines, as the fused op's narrow route takes
them at W4A16 M = 4..8 on big weights (``large_m_route``)."""

import pytest

from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_swiglu_quant import large_m_route
from cute_kernels.swiglu_quant_large_m import (NVFP4GemmSwigluQuantLargeM,
                                               compile_nvfp4_gemm_swiglu_quant_large_m)
from cute_kernels.testing import compile_only, kernel_frame_bytes


def test_on_by_default_and_refused_without_the_switch(monkeypatch):
    assert NVFP4GemmSwigluQuantLargeM.TILE_8
    NVFP4GemmSwigluQuantLargeM(4608, 7168, 8, 0, 132, stream_k=True)
    monkeypatch.setattr(NVFP4GemmSwigluQuantLargeM, "TILE_8", False)
    with pytest.raises(AssertionError):
        NVFP4GemmSwigluQuantLargeM(4608, 7168, 8, 0, 132, stream_k=True)


@pytest.mark.parametrize("tile_8,tile", [(True, 8), (False, 16)])
def test_the_narrow_route_follows_the_switch(monkeypatch, tile_8, tile):
    monkeypatch.setattr(NVFP4GemmSwigluQuantLargeM, "TILE_8", tile_8)
    large_m_route.cache_clear()
    try:
        for m, i, k in ((4, 18432, 7168), (8, 17408, 5120)):
            assert large_m_route(m, i, k) == ("narrow", tile), (m, i, k)
        assert large_m_route(16, 18432, 7168) == ("narrow", 16)
    finally:
        large_m_route.cache_clear()


@pytest.mark.parametrize("k_order,k_groups,trigger", [(KOrder.PERMUTED, 2, True),
                                                       (KOrder.PAIRS, 1, False)])
def test_compiles_for_sm90a(monkeypatch, k_order, k_groups, trigger):
    monkeypatch.setattr(NVFP4GemmSwigluQuantLargeM, "TILE_8", True)
    compiled = compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 18432, 7168, 8, 0, 132,
                            True, False, k_order, 1, k_groups, 0, 1, False, False, trigger)
    assert kernel_frame_bytes(compiled) == 0


@pytest.mark.gpu
@pytest.mark.parametrize("m,config,stream_k,fp4_a,k_groups", [
    (5, (8, 0), True, False, 2),      # stream-K on the whole grid, a token tail, two K groups
    (8, (8, 0, 7), True, False, 1),   # shrunk: pieces across tiles
    (13, (8, 0, 3), False, True, 1),  # whole tiles walked by 3 CTAs, two token tiles
])
def test_matches_the_reference(monkeypatch, m, config, stream_k, fp4_a, k_groups):
    """Against the reference rule (codes, scales, the scale padding zero), poisoned outputs."""
    from tests.test_nvfp4_gemm_swiglu_quant import _check_against_reference, _inputs, _run_large_m

    monkeypatch.setattr(NVFP4GemmSwigluQuantLargeM, "TILE_8", True)
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, 320, 896, fp4_a)
    out, out_sf = _run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, stream_k,
                               k_groups=k_groups,
                               compile_fn=compile_nvfp4_gemm_swiglu_quant_large_m.uncached)
    _check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
