"""Fitted token tiles (160 / 192 / 224 tokens, ``fitted_tiles``): which widths the model weighs
and picks, compile-only on CPU; on a GPU, ``nvfp4_gemm`` on their plans against the fp64
product (NVFP4 activations on permuted words and packed bytes; W4A16)."""

import pytest
import torch

from cute_kernels import reference
from cute_kernels.fitted_tiles import FITTED_MAX_M, fitted_launch, token_tile_widths
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm_large_m import (H200_SMS, compile_nvfp4_gemm_large_m, launch_large_m,
                                             token_tile_ok)
from cute_kernels.testing import compile_only
from tests.conftest import poisoned
from tests.test_nvfp4_gemm_large_m import (_assert_nvfp4_words_and_bytes_match_fp64, _inputs,
                                           _rel_err)


def test_token_tiles_the_kernel_takes():
    assert all(token_tile_ok(t) for t in (16, 32, 64, 128, 144, 160, 192, 208, 224, 240, 256))
    assert token_tile_ok(8)  # probe-only (``tools/tile8_probe.py``): no plan takes it
    assert not any(token_tile_ok(t) for t in (4, 24, 96, 136, 248, 272, 288, 320))


def test_staged_epilogue_parts_divide_the_fitted_tiles():
    """32-token parts of 16-bit outputs where they divide the tile, else 16; fp32 16."""
    import cutlass

    from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM

    for tile_m, tokens in ((160, 32), (192, 32), (224, 32), (144, 16), (208, 16), (240, 16)):
        kernel = NVFP4GemmLargeM(7168, 2048, cutlass.BFloat16, tile_m)
        assert kernel._epilogue_tokens() == tokens and tile_m % tokens == 0, tile_m
        assert NVFP4GemmLargeM(7168, 2048, cutlass.Float32, tile_m)._epilogue_tokens() == 16


@pytest.mark.parametrize("tile_m,stream_k,hybrid,quantizers", [
    (144, True, False, 0), (208, False, False, 3), (240, True, True, 0)])
def test_fused_kernel_on_steps_of_16_compiles_for_sm90a(tile_m, stream_k, hybrid, quantizers):
    """The fused kernel on fitted tiles in steps of 16 (``FUSED_FITTED_STEP``), stream-K,
    whole tiles with the quantizer warps, and the hybrid (``FUSED_FITTED_HYBRID``)."""
    from cute_kernels.k_order import KOrder
    from cute_kernels.swiglu_quant_large_m import (NVFP4GemmSwigluQuantLargeM,
                                                   compile_nvfp4_gemm_swiglu_quant_large_m)

    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 2048, 7168, tile_m, 0,
                        H200_SMS, stream_k, hybrid, int(KOrder.PERMUTED), 1, 1, quantizers)
    with pytest.raises(AssertionError):
        NVFP4GemmSwigluQuantLargeM(2048, 7168, 200)


@pytest.mark.parametrize("step", [16, 32])
def test_token_tile_widths_hold_m_in_each_count(step):
    """For each tile count from M / 256 to M / 128, the narrowest multiple of ``step``
    holding M (at least 128)."""
    assert token_tile_widths(300, 32) == [160, 128]
    assert token_tile_widths(513, 32) == [192, 160, 128]
    assert token_tile_widths(600, 32) == [224, 160, 128]
    assert token_tile_widths(1024, 32) == [256, 224, 192, 160, 128]
    assert token_tile_widths(513) == [176, 144, 128]  # steps of 16 (``FITTED_STEP``)
    assert token_tile_widths(600) == [208, 160, 128]
    assert token_tile_widths(200) == [208, 128]
    for m in range(129, FITTED_MAX_M + 1):
        for width in token_tile_widths(m, step):
            assert token_tile_ok(width) and 128 <= width <= 256 and width % step == 0
            per_tile = -(-m // -(-m // width))  # tokens a tile at that count
            assert per_tile <= width and (width == 128 or width - step < per_tile), (m, width)


# Session 65 call 3 (``tools/fitted_tiles_probe.py``, H200 2026-12-04, graph us, permuted
# words, NVFP4 activations): the fastest launch measured among the plan of session 64 and
# whole / stream-K tiles of the widths in steps of 32, where ``fitted_launch`` in those steps
# takes it or one within 3%
FITTED_FASTEST = {
    (36864, 7168, 300): (160, 1, True, False),    # 217.9 (whole 225.5; plan 260.7; cuBLAS 228.2)
    (34816, 5120, 300): (160, 1, True, False),    # 151.2 (165.4; 178.9; 161.1)
    (7168, 2048, 300): (160, 1, False, False),    # 16.6 (stream-K 22.8; 23.8; 15.6)
    (9216, 7168, 300): (160, 1, True, False),     # 59.3 (91.0; 69.7; 63.6)
    (5120, 17408, 300): (160, 1, True, False),    # 81.1 (106.5; 88.2; 81.1)
    (4096, 7168, 600): (160, 1, False, False),    # 48.1 (54.4; 52.7; 47.4)
    (7168, 2048, 600): (160, 1, False, False),    # 30.1 (34.2; 33.5; 27.4)
    (7168, 18432, 600): (160, 1, True, False),    # 218.7 (230.7; 235.1; 213.8)
    (7168, 18432, 513): (192, 1, True, False),    # 196.1 (275.2; 228.5; 193.4)
    (5120, 17408, 513): (192, 1, False, False),   # 129.0 (133.9; 154.8; 125.2)
}


def test_fitted_launch_in_steps_of_32_takes_the_fastest_measured():
    for (n, k, m), plan in FITTED_FASTEST.items():
        assert fitted_launch(m, n, k, step=32) == plan, (n, k, m)
    # within 3% of the fastest: 7168x18432 M = 300 stream-K 113.4 (whole 112.6); 5120x17408
    # M = 600 stream-K 160 156.2 (whole 224 150.5)
    assert fitted_launch(300, 7168, 18432, step=32) == (160, 1, True, False)
    assert fitted_launch(600, 5120, 17408, step=32) == (160, 1, True, False)
    # the 256-token plan where it measured fastest: 7168x2048 M = 450 24.1 (whole 160 29.9,
    # stream-K 160 28.5)
    assert fitted_launch(450, 7168, 2048, step=32) is None


# Session 66 call 3 (``tools/fitted_tiles_probe.py``, H200 2026-12-04, graph us, permuted
# words, NVFP4 activations): steps of 16 and from 129 tokens, the fastest launch measured
# among the plan (before session 66) and whole / stream-K tiles of the widths tried
FITTED_16_FASTEST = {
    (36864, 7168, 160): (160, 1, True, False),    # 112.2 (whole 137.6; plan 158.6; cuBLAS 157.1)
    (7168, 18432, 180): (192, 1, True, False),    # 74.6 (130.3; 89.6; 86.2)
    (9216, 7168, 160): (160, 1, True, False),     # 38.2 (45.7; 47.0; 52.8)
    (5120, 17408, 160): (160, 1, True, False),    # 50.1 (102.5; 65.6; 58.3)
    # 140.3 (stream-K 143.4; 224 whole / stream-K 149.3 / 151.7; plan 152.9; 138.4)
    (5120, 17408, 600): (208, 1, False, False),
    (7168, 2048, 450): (240, 1, False, False),    # 23.1 (stream-K 30.4; plan 24.2; 21.5)
    (36864, 7168, 450): (240, 1, True, False),    # 303.8 (whole 334.9; plan 317.0; 325.3)
    (7168, 18432, 450): (240, 1, True, False),    # 158.7 (169.3; 165.5; 164.2)
}


def test_fitted_launch_takes_the_fastest_measured():
    for (n, k, m), plan in FITTED_16_FASTEST.items():
        assert fitted_launch(m, n, k) == plan, (n, k, m)
        assert plain_plan(m, n, k) == plan, (n, k, m)


def test_fitted_launch_range():
    assert fitted_launch(128, 36864, 7168) is None
    assert fitted_launch(129, 36864, 7168) == (144, 1, True, False)
    assert fitted_launch(FITTED_MAX_M + 1, 36864, 7168) is None


# Session 67 calls 3 and 4 (``tools/fitted_past_1024_probe.py``, H200 2026-12-04, graph us,
# permuted words, NVFP4 activations): past 1024 tokens the plan takes whole fitted tiles, each
# measured faster than session 66's plan (its time -> the pick's; cuBLAS bf16). Some of them
# take the hybrid since session 68 (``FITTED_HYBRID_FASTER``); here it is off.
FITTED_PAST_1024 = {
    (5120, 17408, 1030): (176, 1, False, False),   # 264.9 -> 238.8 (320.3)
    (5120, 17408, 1295): (224, 1, False, False),   # 342.1 -> 300.0 (287.5)
    (36864, 7168, 1030): (208, 1, False, False),   # 811.1 -> 666.2 (731.9)
    (36864, 7168, 1295): (144, 1, False, False),   # 934.2 -> 885.5 (896.1)
    (36864, 7168, 1560): (160, 1, False, False),   # 1199.5 -> 1094.1 (1112.5)
    (34816, 5120, 1100): (160, 1, False, False),   # 561.3 -> 491.1 (508.2)
    (34816, 5120, 1825): (240, 1, False, False),   # 860.7 -> 845.6 (887.1)
    (7168, 18432, 1295): (192, 1, False, False),   # 506.3 -> 418.8 (427.5)
    (7168, 18432, 1560): (224, 1, False, False),   # 553.5 -> 490.2 (510.3)
    (9216, 7168, 1613): (240, 1, False, False),    # 284.8 -> 267.7 (269.9)
    (4096, 7168, 1560): (208, 1, False, False),    # 126.6 -> 120.8 (117.0)
    (7168, 2048, 1828): (208, 1, False, False),    # 84.2 -> 72.8 (71.7)
    # session 68 call 2, past 2048 tokens (``FITTED_MAX_M`` 2048 -> 4096)
    (7168, 18432, 3633): (240, 1, False, False),   # 1370.1 -> 1298.2 (1289.4)
    (5120, 17408, 2406): (192, 1, False, False),   # 565.8 -> 543.5 (566.0)
    (5120, 17408, 3810): (240, 1, False, False),   # 916.8 -> 873.6 (895.5)
    (36864, 7168, 3339): (240, 1, False, False),   # 2428.5 -> 2309.3 (2413.9)
    (36864, 7168, 3852): (176, 1, False, False),   # 2772.7 -> 2705.1 (2836.1)
    (34816, 5120, 3222): (240, 1, False, False),   # 1536.0 -> 1525.2 (1577.3)
    (34816, 5120, 3555): (240, 1, False, False),   # 1655.0 -> 1638.8 (1758.8)
    (9216, 7168, 2448): (224, 1, False, False),    # 435.5 -> 383.7 (398.0)
    (9216, 7168, 3378): (160, 1, False, False),    # 591.1 -> 579.3 (567.6)
    (4096, 7168, 2427): (208, 1, False, False),    # 188.9 -> 181.7 (175.0)
    (4096, 7168, 3720): (240, 1, False, False),    # 294.0 -> 277.7 (273.7)
    (7168, 2048, 2211): (160, 1, False, False),    # 89.1 -> 85.9 (85.3)
    (7168, 2048, 2640): (240, 1, False, False),    # 110.2 -> 103.6 (103.4)
    (7168, 2048, 3828): (240, 1, False, False),    # 153.7 -> 144.0 (149.7)
}


def test_fitted_launch_past_1024_takes_the_measured_whole_tiles(monkeypatch):
    """(Whole tiles: the hybrid off, and no memoized launch taken or left behind.)"""
    from cute_kernels import fitted_tiles, large_m_plans

    monkeypatch.setattr(fitted_tiles, "FITTED_HYBRID", False)
    monkeypatch.setattr(large_m_plans, "fitted_launch", fitted_launch.__wrapped__)
    for (n, k, m), plan in FITTED_PAST_1024.items():
        assert fitted_launch.__wrapped__(m, n, k) == plan, (n, k, m)
        assert plain_plan.__wrapped__(m, n, k) == plan, (n, k, m)


# Session 68 calls 3..5 (``tools/fitted_hybrid_probe.py``, ``tools/fitted_past_1024_probe.py``,
# H200 2026-12-04, graph us): the hybrid on the whole pick's width, each measured faster than
# its whole tiles (whole -> hybrid, cuBLAS bf16)
FITTED_HYBRID_FASTER = {
    (5120, 17408, 1906): (160, 1, True, True),     # 453.5 -> 440.3 (426.1)
    (34816, 5120, 1100): (160, 1, True, True),     # 498.8 -> 488.4 (520.1)
    (34816, 5120, 1825): (240, 1, True, True),     # 863.1 -> 846.9 (907.4)
    (34816, 5120, 1900): (240, 1, True, True),     # 863.5 -> 847.0 (907.5)
    (36864, 7168, 1614): (240, 1, True, True),     # 1134.0 -> 1107.9 (1173.1)
    (7168, 18432, 2988): (240, 1, True, True),     # 1087.6 -> 1051.6 (1054.8)
    (7168, 18432, 3080): (240, 1, True, True),     # 1096.1 -> 1069.1 (1102.9)
    (9216, 7168, 3226): (240, 1, True, True),      # 548.3 -> 537.8 (537.1)
    (9216, 7168, 3345): (240, 1, True, True),      # 556.3 -> 545.7 (561.2)
    (4096, 7168, 3337): (176, 1, True, True),      # 261.8 -> 253.2 (253.3)
    (4096, 7168, 3564): (240, 1, True, True),      # 279.2 -> 268.2 (261.0)
}


def test_fitted_hybrid_takes_the_measured_hybrids():
    for (n, k, m), plan in FITTED_HYBRID_FASTER.items():
        assert fitted_launch(m, n, k) == plan, (n, k, m)
        assert plain_plan(m, n, k) == plan, (n, k, m)


def test_fitted_hybrid_scope(monkeypatch):
    """The hybrid on the model's whole fitted pick (``FITTED_HYBRID``): past
    ``FITTED_STREAM_K_MAX_M`` tokens, three waves or more, the last at most
    ``FITTED_HYBRID_MAX_FILL`` full, 64 k-tiles or more; the fused op's too
    (``FUSED_FITTED_HYBRID``), whole tiles without it."""
    from cute_kernels import fitted_tiles
    from cute_kernels.fitted_tiles import fitted_hybrid_fits, fused_fitted_route

    # 5120x17408 M = 1560: 360 tiles of 176 (2.7 waves; the hybrid lost 368.2 -> 401.7 us)
    assert not fitted_hybrid_fits(1560, 5120, 17408, 176)
    assert fitted_hybrid_fits(1931, 5120, 17408, 176)  # 440 tiles: 3.3 waves, the last 33%
    assert not fitted_hybrid_fits(1931, 5120, 17408, 160)  # 520: the last wave 94% full
    assert not fitted_hybrid_fits(3852, 36864, 7168, 176)  # 6336: 48 whole waves
    assert not fitted_hybrid_fits(3828, 7168, 2048, 240)  # 32 k-tiles
    assert not fitted_hybrid_fits(1024, 36864, 7168, 160)  # (``FITTED_STREAM_K_MAX_M``)
    # the width stays the whole pick's (call 4: whole 176 2706.8 us, hybrid 240 2773.7)
    assert fitted_launch(3852, 36864, 7168) == (176, 1, False, False)
    assert fitted_launch.__wrapped__(1906, 5120, 17408, hybrid=False) == (160, 1, False, False)
    assert fused_fitted_route(1906, 5120, 17408, True, "stream_k", 256) == ("hybrid", 160)
    monkeypatch.setattr(fitted_tiles, "FUSED_FITTED_HYBRID", False)
    assert fused_fitted_route(1906, 5120, 17408, True, "stream_k", 256) == ("whole", (160, 0))
    monkeypatch.setattr(fitted_tiles, "FITTED_HYBRID", False)
    assert fitted_launch.__wrapped__(1906, 5120, 17408) == (160, 1, False, False)


def test_fused_fitted_hybrid_route(monkeypatch):
    """``FUSED_FITTED_HYBRID`` (on since session 69): the route "hybrid" on the fitted tile
    where ``fitted_launch`` takes the hybrid, launched as the fused kernel's hybrid; whole
    tiles without it."""
    import importlib

    from cute_kernels import fitted_tiles
    from cute_kernels.fitted_tiles import fused_fitted_route

    swiglu = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
    assert fused_fitted_route(3564, 4096, 7168, True, "whole", (256, 0)) == ("hybrid", 240)
    assert fused_fitted_route(3720, 4096, 7168, True, "whole", (256, 0)) == ("whole", (240, 0))
    launch = swiglu.large_m_launch(3564, 4096, 7168, True, torch.int32)
    assert (launch.route, launch.config, launch.stream_k) == ("hybrid", (240, 0), True)
    assert launch.options == {"hybrid": True}
    monkeypatch.setattr(fitted_tiles, "FUSED_FITTED_HYBRID", False)
    assert fused_fitted_route(3564, 4096, 7168, True, "whole", (256, 0)) == ("whole", (240, 0))


def test_fitted_stream_k_stops_at_its_max_m(monkeypatch):
    """Past ``FITTED_STREAM_K_MAX_M`` tokens whole tiles alone: stream-K 240 lost at 7168x18432
    M = 1136 (386 -> 459 us, call 3), where whole 128-token tiles fill their waves and stay."""
    from cute_kernels import fitted_tiles
    from cute_kernels.fitted_tiles import FITTED_STREAM_K_MAX_M, fitted_estimates

    for m in (FITTED_STREAM_K_MAX_M + 1, 1136, 1560, FITTED_MAX_M):
        for n, k in ((7168, 18432), (5120, 17408), (36864, 7168)):
            assert all(kind == "whole" for kind, _ in fitted_estimates(m, n, k)), (m, n, k)
    assert any(kind == "stream_k" for kind, _ in fitted_estimates(FITTED_STREAM_K_MAX_M, 5120,
                                                                 17408))
    assert fitted_launch(1136, 7168, 18432) is None
    monkeypatch.setattr(fitted_tiles, "FITTED_STREAM_K_MAX_M", FITTED_MAX_M)
    assert fitted_launch.__wrapped__(1136, 7168, 18432) == (240, 1, True, False)


@pytest.mark.parametrize("tile_m,stream_k,out_dtype", [
    (160, False, "torch.bfloat16"), (192, True, "torch.bfloat16"), (224, False, "torch.float32"),
    (208, False, "torch.bfloat16"), (240, True, "torch.float16")])
def test_fitted_tiles_compile_for_sm90a(tile_m, stream_k, out_dtype):
    """Steps of 32, and of 16 (the staged epilogue's 16-token parts at 16-bit outputs)."""
    assert compile_only(compile_nvfp4_gemm_large_m, 7168, 2048, out_dtype, tile_m, 0, H200_SMS,
                        1, stream_k)


@pytest.mark.parametrize("tile_m,hybrid,lanes", [(176, True, 1), (240, True, 1), (240, False, 14)])
def test_fitted_hybrid_and_lanes_compile_for_sm90a(tile_m, hybrid, lanes):
    """The data-parallel + stream-K hybrid, and stream-K in lanes (14 lanes of 56 row tiles: a
    band of 4), on fitted tiles (``tools/fitted_hybrid_probe.py``)."""
    from cute_kernels.k_order import KOrder

    assert compile_only(compile_nvfp4_gemm_large_m, 7168, 18432, "torch.bfloat16", tile_m, 0,
                        H200_SMS, 1, True, hybrid, KOrder.IDENTITY, 1, 1, False, False, False,
                        lanes)


@pytest.mark.gpu
@pytest.mark.parametrize("config,stream_k,hybrid,lanes", [
    ((160, 0), False, False, 1), ((192, 2, 7), False, False, 1), ((224, 3, 5), False, False, 1),
    ((208, 0), False, False, 1), ((240, 0, 9), False, False, 1), ((144, 0), False, False, 1),
    ((160, 0), True, False, 1), ((208, 0, 7), True, False, 1), ((240, 0), True, False, 1),
    ((176, 3, 6), True, False, 1), ((176, 0, 6), True, True, 1), ((240, 0, 4), True, True, 1),
    ((176, 0), True, False, 5), ((240, 0, 10), True, False, 10)])
def test_fitted_tile_configs_agree(config, stream_k, hybrid, lanes):
    """The kernel itself on every fitted width, whole tiles, stream-K, the hybrid and stream-K
    in lanes, fixed stages and shrunk grids (each CTA walks many tiles, pipeline phases carry
    across them; the hybrid's whole tiles then stream-K: 42 + 8 tiles on 6 CTAs, 36 + 4 on 4;
    5 lanes of the 10 row tiles, bands of 2): 13 k-tiles, N and M tails, bf16 activations,
    against the fp64 product; bf16 / fp16 out one rounding of the fp32 result (the staged
    epilogue's 16-token parts at 144, 176, 208, 240 tokens)."""
    m, n, k = 777, 1160, 832
    a, b, b_sf, alpha = _inputs(m, n, k)
    alpha_t = torch.full((1,), alpha, device="cuda")
    want = reference.nvfp4_gemm_fp64(a, None, b, b_sf, alpha)
    outs = {}
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        outs[dtype] = poisoned(m, n, dtype=dtype)
        launch_large_m(a, b, b_sf, alpha_t, outs[dtype], config, stream_k=stream_k,
                       hybrid=hybrid, lanes=lanes)
    torch.cuda.synchronize()
    got = outs[torch.float32]
    assert not got.isnan().any()
    assert _rel_err(got, want) <= 1e-3, config
    for dtype, rtol, atol in ((torch.bfloat16, 2**-8, 1e-30), (torch.float16, 2**-10, 2**-24)):
        torch.testing.assert_close(outs[dtype].float(), got.to(dtype).float(), rtol=rtol,
                                   atol=atol)


# Plans ``plain_plan`` gives: last tiles of 140 (300 in 160s), 164 (340 in 176s), 196 (420 in
# 224s), 163 (515 in 176s), 113 (641 in 176s), 113 (257 in 144s), 177 (897 in 240s); the
# hybrid on 240-token tiles (2289 tokens: 10 tiles of 240 on 48 row tiles, 3.6 waves), 129
FITTED_POINTS = [(6144, 2048, 300, (160, 1, False, False)),
                 (6144, 2048, 340, (176, 1, False, False)),
                 (6144, 2048, 420, (224, 1, False, False)),
                 (3072, 7168, 300, (160, 1, True, False)),
                 (7168, 7168, 515, (176, 1, True, False)),
                 (7168, 7168, 641, (176, 1, False, False)),
                 (3072, 7168, 257, (144, 1, True, False)),
                 (4096, 2048, 897, (240, 1, False, False)),
                 (6144, 4096, 2289, (240, 1, True, True))]


@pytest.mark.gpu
@pytest.mark.parametrize("n, k, m, plan", FITTED_POINTS)
def test_fitted_plans_match_fp64_reference(n, k, m, plan):
    assert plain_plan(m, n, k) == plan
    _assert_nvfp4_words_and_bytes_match_fp64(m, n, k)


@pytest.mark.gpu
@pytest.mark.parametrize("n, k, m, plan", [
    (6144, 2048, 300, (160, 1, False, False)), (3072, 7168, 300, (160, 1, True, False)),
    (3072, 7168, 320, (160, 1, True, False)), (6144, 4096, 2289, (240, 1, True, True))])
def test_fitted_plans_w4a16_match_fp64_reference(n, k, m, plan):
    """bf16 activations on fitted plans: whole and stream-K 160 (320 tokens: no partial tile,
    read in place where the order allows), the hybrid on 240 (2289 tokens)."""
    assert plain_plan(m, n, k) == plan
    _assert_nvfp4_words_and_bytes_match_fp64(m, n, k, fp4_a=False)


@pytest.mark.gpu
@pytest.mark.parametrize("config,stream_k,hybrid,quantizers", [
    ((160, 0), False, False, 3), ((192, 0), True, False, 0), ((224, 0), False, False, 0),
    ((144, 0), True, False, 0), ((208, 0), False, False, 3), ((240, 0), True, False, 0),
    ((176, 0), False, False, 0), ((176, 0, 5), True, True, 0), ((240, 0, 6), True, True, 3)])
def test_fused_kernel_on_fitted_tiles_matches_reference(config, stream_k, hybrid, quantizers):
    """The fused kernel (``NVFP4GemmSwigluQuantLargeM``) on the fitted widths
    (``fused_fitted_route``'s launches; steps of 16 since session 66): 4096x7168 gate_up at 300
    tokens (last tiles of 140, 108, 76, 12, 92, 60 and 124 tokens), packed bytes, codes and
    scales against the reference; the hybrid (the route "hybrid", ``FUSED_FITTED_HYBRID``) on
    shrunk grids: 32 tiles of 176 on 5 CTAs (25 whole, 7 in stream-K), 32 of 240 on 6 (24
    whole, 8 in stream-K)."""
    from tests import test_nvfp4_gemm_swiglu_quant as fused_tests

    a, a_sf, w, w_sf, alpha, g_out = fused_tests._inputs(300, 2048, 7168, True)
    out, out_sf = fused_tests._run_large_m(a, a_sf, w, w_sf, alpha, g_out, config, stream_k,
                                           hybrid, quantizers=quantizers)
    fused_tests._check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)


# Session 65 call 7 (``tools/fused_fitted_probe.py``): the fused op's fastest launch measured
# among its route and the fitted tiles (whole / stream-K), graph us (route; the pair)
FUSED_FITTED_FASTEST = {
    (36864, 7168, 300): ("stream_k", 160),     # 226.7 (267.3; pair 230.0)
    (34816, 5120, 300): ("stream_k", 160),     # 158.4 (220.8; 162.2)
    (9216, 7168, 300): ("stream_k", 160),      # 61.8 (73.1; 63.0)
    (4096, 7168, 600): ("whole", (160, 0)),    # 50.6 (54.8; 51.9)
    # session 66 call 4, from 129 tokens (``FUSED_FITTED_MIN_M``)
    (36864, 7168, 160): ("stream_k", 160),     # 118.4 (164.2; 120.3)
    (9216, 7168, 160): ("stream_k", 160),      # 37.8 (48.7; 41.0)
    # session 67 call 1 (``tools/fused_steps_probe.py``), tiles in steps of 16 (steps of 32; the
    # pair)
    (36864, 7168, 200): ("stream_k", 208),     # 141.8 (stream-K 224 151.1; 146.5)
    (34816, 5120, 200): ("stream_k", 208),     # 104.6 (stream-K 224 109.4; 107.1)
    (9216, 7168, 200): ("stream_k", 208),      # 46.8 (stream-K 128 49.3; 51.0)
    (4096, 7168, 260): ("stream_k", 144),      # 33.2 (stream-K 128 in lanes 36.9; 33.6)
    (36864, 7168, 337): ("stream_k", 176),     # 236.1 (stream-K 192 250.9; 241.5)
    (36864, 7168, 450): ("stream_k", 240),     # 309.4 (stream-K 160 324.5; 316.2)
    (34816, 5120, 700): ("stream_k", 240),     # 319.4 (whole 256 361.3; 331.4)
    (34816, 5120, 801): ("stream_k", 208),     # 370.4 (whole 256 457.8; 384.4)
    (4096, 7168, 800): ("whole", (208, 0)),    # 64.6 (whole 224 68.6; 66.3)
    # session 67 call 3, past 1024 tokens (the route; the pair)
    (36864, 7168, 1136): ("whole", (240, 0)),  # 772.7 (whole 256 818.2; 848.0)
    (9216, 7168, 1295): ("whole", (144, 0)),   # 221.0 (stream-K 256 253.4; 231.8)
    (4096, 7168, 1560): ("whole", (208, 0)),   # 124.8 (stream-K 128 133.5; 134.0)
    (36864, 7168, 1560): ("whole", (160, 0)),  # 1096.5 (whole 256 1195.9; 1231.6)
    # session 68 call 4, past 2048 tokens
    (9216, 7168, 2448): ("whole", (224, 0)),   # 386.2 (whole 256 435.7; 396.5)
    (4096, 7168, 3720): ("whole", (240, 0)),   # 282.3 (whole 256 299.0; 289.8)
    # session 69 calls 2 and 3 (``tools/fused_gaps_probe.py``), the hybrid (whole fitted; the
    # pair, whose GEMM takes the hybrid)
    (4096, 7168, 3564): ("hybrid", 240),       # 272.0 (280.3; 277.7)
    (9216, 7168, 3226): ("hybrid", 240),       # 544.0 (556.1; 552.6)
    (36864, 7168, 1614): ("hybrid", 240),      # 1098.1 (1124.3; 1135.4)
    (36864, 7168, 3339): ("hybrid", 240),      # 2267.6 (2273.4, session 68 2302.2; 2336.1)
    (34816, 5120, 1900): ("hybrid", 240),      # 844.2 (859.4; 885.8)
    (34816, 5120, 1100): ("hybrid", 160),      # 496.4 (509.7, session 68 whole 224 502.1; 506.8)
    (34816, 5120, 2330): ("hybrid", 240),      # 1065.1 (1068.4; 1115.3)
}
# within 2% of the fastest: 9216x7168 M = 545 stream-K 144 104.4 (steps of 32: stream-K 192
# 102.9; the pair 106.3). Slower than the route but ahead of the pair (session 68 call 4):
# 34816x5120 M = 3222 whole 240 1512.8 (the route whole 256 1495.1; the pair 1585.2)
FUSED_FITTED_NEAR = {(9216, 7168, 545): ("stream_k", 144), (34816, 5120, 3222): ("whole", (240, 0))}
# ``FUSED_WHOLE_128_MIN_WAVES`` (session 69 calls 2 and 3): the model's best fitted launch in
# place of whole 128-token tiles, faster than them and than the pair, not always the fastest
# (whole 128; the fastest; the pair)
FUSED_WHOLE_128_BEATEN = {
    (9216, 7168, 600): ("stream_k", 160),      # 112.4 (116.7; stream-K 208 109.6; 115.4)
    (9216, 7168, 640): ("stream_k", 160),      # 114.6 (117.7; same; 116.4)
    (9216, 7168, 820): ("whole", (176, 0)),    # 151.0 (154.0; stream-K 208 142.5; 152.2)
    (9216, 7168, 880): ("whole", (176, 0)),    # 152.8 (155.9; same; 153.9)
    # call 4 (the route before; the pair)
    (9216, 7168, 890): ("stream_k", 224),      # 152.8 (156.6; 154.5)
}
# ``FUSED_WHOLE_128_PAST_STREAM_K`` (session 69 call 5): whole 128-token tiles for a 256-token
# route past 1024 tokens where the model's least is whole 128 (the route; the rule's launch
# before, call 4; the pair)
FUSED_WHOLE_128_PAST = {
    (9216, 7168, 1130): 195.6,   # (whole 256 216.1; whole 240 204.2; 195.2)
    (9216, 7168, 1380): 236.3,   # (stream-K 256 253.7; whole 160 237.1; 235.3)
    (7168, 18432, 2930): 1099.5,  # (stream-K 256 1400.7; -; 1042.8; the hybrid 256 1033.5)
    (7168, 2048, 2930): 122.9,   # (stream-K 256 125.2, call 6; -; 136.9)
}
# outside ``FUSED_WHOLE_128_K_TILES`` whole 128-token tiles stay: the rule's launch lost there
# (calls 4 and 6; whole 128, the rule's launch)
FUSED_WHOLE_128_KEPT = {(5120, 17408, 1600): (379.7, ("whole", (192, 0)), 399.9),
                        (7168, 18432, 850): (297.7, ("stream_k", 176), 321.8),
                        (7168, 2048, 800): (40.2, ("whole", (208, 0)), 41.5),
                        (6144, 4096, 1000): (71.0, ("whole", (208, 0)), 72.2)}


def test_fused_fitted_route_takes_the_fastest_measured():
    from cute_kernels.nvfp4_gemm_swiglu_quant import large_m_launch

    measured = {**FUSED_FITTED_FASTEST, **FUSED_FITTED_NEAR, **FUSED_WHOLE_128_BEATEN,
                **{point: ("whole", (128, 0)) for point in FUSED_WHOLE_128_PAST}}
    for (two_i, k, m), (route, plan) in measured.items():
        for w_dtype in (torch.int32, torch.uint8):
            launch = large_m_launch(m, two_i, k, True, w_dtype)
            assert (launch.route, launch.plan) == (route, plan), (two_i, k, m, w_dtype)
            tile_m = plan if route in ("stream_k", "hybrid") else plan[0]
            assert launch.config[0] == tile_m
            assert launch.options == ({"hybrid": True} if route == "hybrid" else {})


def test_fused_whole_128_scope(monkeypatch):
    """``FUSED_WHOLE_128_MIN_WAVES``: where the model's least estimate is whole 128-token tiles
    filling two waves or more on K of ``FUSED_WHOLE_128_K_TILES`` k-tiles, the fused op takes
    its least fitted launch; the plain GEMM keeps whole 128-token tiles; under two waves,
    outside that K (where it lost), past ``FITTED_STREAM_K_MAX_M`` tokens (whole 128 was
    faster), or with the switch at 0, the route stays; past it a 256-token route becomes whole
    128-token tiles where the model's least is those (``FUSED_WHOLE_128_PAST_STREAM_K``)."""
    from cute_kernels import fitted_tiles
    from cute_kernels.fitted_tiles import fused_fitted_route

    assert plain_plan(600, 9216, 7168) == (128, 1, False, False)  # 360 tiles: 2.7 waves
    assert fused_fitted_route(600, 9216, 7168, True, "whole", (128, 0)) == ("stream_k", 160)
    # 4096x7168 M = 400: the model's whole 128 fills 128 CTAs, under one wave
    assert fitted_launch(400, 4096, 7168) is None
    assert fused_fitted_route(400, 4096, 7168, True, "whole", (128, 0)) == ("whole", (128, 0))
    monkeypatch.setattr(fitted_tiles, "FUSED_WHOLE_128_MIN_WAVES", 0)
    assert fused_fitted_route(600, 9216, 7168, True, "whole", (128, 0)) == ("whole", (128, 0))
    monkeypatch.setattr(fitted_tiles, "FUSED_WHOLE_128_MIN_WAVES", 3)  # 2.7 waves: not enough
    assert fused_fitted_route(600, 9216, 7168, True, "whole", (128, 0)) == ("whole", (128, 0))
    assert fused_fitted_route(820, 9216, 7168, True, "whole", (128, 0)) == ("whole", (176, 0))
    monkeypatch.undo()
    # call 4: whole 176 91.9 us against whole 128 94.1 at 6144x4096 M = 1300; past 1024 tokens
    # whole 128 itself was faster at 9216x7168 (call 5)
    assert fused_fitted_route(1300, 6144, 4096, True, "whole", (128, 0)) == ("whole", (128, 0))
    assert fused_fitted_route(1130, 9216, 7168, True, "whole", (256, 0)) == ("whole", (128, 0))
    assert fused_fitted_route(1130, 9216, 7168, True, "whole", (240, 0)) == ("whole", (240, 0))
    # the model's least at 9216x7168 M = 1240 is on 256-token tiles: the route stays
    assert fused_fitted_route(1240, 9216, 7168, True, "whole", (256, 0)) == ("whole", (256, 0))
    monkeypatch.setattr(fitted_tiles, "FUSED_WHOLE_128_PAST_STREAM_K", False)
    assert fused_fitted_route(1130, 9216, 7168, True, "whole", (256, 0)) == ("whole", (256, 0))
    monkeypatch.undo()
    for (two_i, k, m), (_, launch, _) in FUSED_WHOLE_128_KEPT.items():
        assert fused_fitted_route(m, two_i, k, True, "whole", (128, 0)) == ("whole", (128, 0))
        monkeypatch.setattr(fitted_tiles, "FUSED_WHOLE_128_K_TILES", (32, 288))
        if m <= fitted_tiles.FITTED_STREAM_K_MAX_M:  # (5120x17408 M = 1600 is past it)
            assert fused_fitted_route(m, two_i, k, True, "whole", (128, 0)) == launch
        monkeypatch.undo()


def test_fused_fitted_route_scope(monkeypatch):
    """NVFP4 and bf16 activations (``FUSED_FITTED_W4A16``), gate_up weights of 4096 rows or
    more, from ``FUSED_FITTED_MIN_M`` tokens, "whole" / "stream_k" routes only, tiles in steps
    of 16 (``FUSED_FITTED_STEP``); off with ``FUSED_FITTED_TILES``."""
    from cute_kernels import fitted_tiles
    from cute_kernels.fitted_tiles import FUSED_FITTED_MIN_M, fused_fitted_route

    assert fused_fitted_route(300, 9216, 7168, True, "stream_k", 128) == ("stream_k", 160)
    assert fused_fitted_route(300, 9216, 7168, False, "stream_k", 128) == ("stream_k", 160)
    # steps of 16, as the plain GEMM takes them: one 208-token tile at 5120x17408 M = 600, and
    # at 4096x7168 M = 260 (measured 33.2 us against 36.9 for steps of 32)
    assert fused_fitted_route(600, 5120, 17408, True, "stream_k", 128) == ("whole", (208, 0))
    assert fused_fitted_route(260, 4096, 7168, True, "stream_k", 128) == ("stream_k", 144)
    monkeypatch.setattr(fitted_tiles, "FUSED_FITTED_STEP", 32)
    assert fused_fitted_route(600, 5120, 17408, True, "stream_k", 128) == ("stream_k", 160)
    monkeypatch.undo()
    m = FUSED_FITTED_MIN_M - 1
    assert fused_fitted_route(m, 9216, 7168, True, "stream_k", 128) == ("stream_k", 128)
    monkeypatch.setattr(fitted_tiles, "FUSED_FITTED_W4A16", False)
    assert fused_fitted_route(300, 9216, 7168, False, "stream_k", 128) == ("stream_k", 128)
    assert fused_fitted_route(300, 9216, 7168, True, "pieces", (128, 2)) == ("pieces", (128, 2))
    assert fused_fitted_route(1100, 1024, 7168, True, "stream_k", 128) == ("stream_k", 128)
    # past 1024 tokens whole tiles (session 67 call 3, ``tools/fused_fitted_probe.py``: 9216x7168
    # M = 1295 route stream-K 256 253.4 -> whole 144 221.0, the pair 231.8), and past 2048
    # (session 68 call 4; the hybrid only with ``FUSED_FITTED_HYBRID``)
    assert fused_fitted_route(1295, 9216, 7168, True, "stream_k", 256) == ("whole", (144, 0))
    assert fused_fitted_route(2100, 9216, 7168, True, "whole", (256, 0)) == ("whole", (240, 0))
    assert fused_fitted_route(FITTED_MAX_M + 1, 9216, 7168, True, "whole", (256, 0)) == (
        "whole", (256, 0))
    monkeypatch.setattr(fitted_tiles, "FUSED_FITTED_TILES", False)
    assert fused_fitted_route(300, 9216, 7168, True, "stream_k", 128) == ("stream_k", 128)


@pytest.mark.gpu
@pytest.mark.parametrize("fp4_a", [True, False])
@pytest.mark.parametrize("permuted", [True, False])
def test_public_fused_hybrid_matches_reference(fp4_a, permuted):
    """``FUSED_FITTED_HYBRID``: the public fused op on its route "hybrid" (6144x4096 gate_up at
    2289 tokens: 10 tiles of 240 on 48 row tiles, 3.6 waves, the last 64% in stream-K), NVFP4
    and bf16 activations, packed bytes and permuted words, codes and scales against the
    reference, into NaN-poisoned outputs."""
    from cute_kernels import prepare_gate_up_weight, restore_gate_up_weight
    from cute_kernels.nvfp4_gemm_swiglu_quant import large_m_launch
    from tests import test_nvfp4_gemm_swiglu_quant as fused_tests

    a, a_sf, w, w_sf, alpha, g_out = fused_tests._inputs(2289, 3072, 4096, fp4_a)
    if permuted:
        w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    planned = large_m_launch(2289, 6144, 4096, fp4_a, w.dtype)
    assert (planned.route, planned.config[0], planned.options) == ("hybrid", 240, {"hybrid": True})
    fused_tests._check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)


@pytest.mark.gpu
@pytest.mark.parametrize("i,k,m,launch", [(3072, 2048, 300, ("whole", 160)),
                                          (4608, 7168, 300, ("stream_k", 160))])
def test_fused_w4a16_on_fitted_tiles_matches_reference(i, k, m, launch):
    """``FUSED_FITTED_W4A16``: the public fused op on bf16 activations (packed bytes) on the
    fitted launch, codes and scales against the reference."""
    from cute_kernels import nvfp4_gemm_swiglu_quant
    from cute_kernels.nvfp4_gemm_swiglu_quant import large_m_launch
    from tests import test_nvfp4_gemm_swiglu_quant as fused_tests

    a, a_sf, w, w_sf, alpha, g_out = fused_tests._inputs(m, i, k, False)
    planned = large_m_launch(m, 2 * i, k, False, w.dtype)
    assert (planned.route, planned.config[0]) == launch
    out, out_sf = nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, g_out)
    fused_tests._check_against_reference(out, out_sf, a, a_sf, w, w_sf, alpha, g_out)
