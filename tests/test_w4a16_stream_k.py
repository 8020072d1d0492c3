"""bf16 activations (W4A16) in place (``KOrder.PERMUTED_IDENTITY``) on 256-token tiles where
the route has 128-token ones (``w4a16_in_place_route``): stream-K, and four or three K pieces
(``W4A16_PIECES``) for two pieces or stream-K where those fit one wave; the rules on CPU, and
the public fused op against the fp64 reference on those launches (forced as
``tools/bf16_weights_probe.py``'s "_sk256" form and ``tools/stream_k_stretch_probe.py``'s
"_pieces256x4" / "_pieces256x3", then as the rules give them)."""

import importlib

import pytest

from cute_kernels import prepare_gate_up_weight, restore_gate_up_weight

fused_module = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")


@pytest.mark.parametrize("m,two_i,want", [
    (2304, 1024, 256), (3072, 1024, 256), (4608, 1024, 256), (1792, 4096, 256),
    (1280, 4096, 256),  # 160 tiles of 256 tokens: no K pieces in one wave
    (2100, 1024, 128),  # padded to 256-token tiles (52 rows in the last): not in place
    (1100, 1024, 128),
    (2500, 1024, 256),  # the last 256-token tile 77% full: read in place (W4A16_256_ON_TAILS)
])
def test_rule(m, two_i, want):
    route, plan = fused_module.large_m_route(m, two_i // 2, 7168)
    assert (route, plan) == ("stream_k", 128)
    rule = fused_module.w4a16_in_place_route
    assert rule(m, two_i, False, True, route, plan) == ("stream_k", want)
    assert rule(m, two_i, True, True, route, plan) == (route, 128)  # W4A4
    assert rule(m, two_i, False, False, route, plan) == (route, 128)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [2304, 3072, 100, 300])
def test_public_fused_on_256_token_stream_k_matches_reference(monkeypatch, m):
    """The forced 256-token stream-K (in lanes, ``STREAM_K_LANES``); at 100 / 300 tokens one
    or two token tiles a lane: 112 or 224 units on 16 groups, every tile cut in many pieces."""
    from tests.test_nvfp4_gemm_swiglu_quant import _check_public_into_poisoned, _inputs

    monkeypatch.setattr(fused_module, "large_m_route", lambda m, i, k: ("stream_k", 256))
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, 512, 7168, False)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    for _ in range(2):
        _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)


def test_pieces_rule(monkeypatch):
    """Two pieces of 128-token tiles become four of 256 in place where those fit one wave
    (1024x7168 M = 768 / 1024: 96 / 128 CTAs), the 128-token stream-K three (M = 1280: 120
    CTAs)."""
    route, plan = fused_module.large_m_route(1024, 512, 7168)
    assert (route, plan) == ("pieces", (128, 2))
    rule = fused_module.w4a16_in_place_route
    assert rule(1024, 1024, False, True, route, plan) == ("pieces", (256, 4))
    assert rule(1280, 1024, False, True, "stream_k", 128) == ("pieces", (256, 3))
    assert fused_module.large_m_route(1280, 512, 7168) == ("stream_k", 128)
    assert rule(1024, 1024, True, True, route, plan) == (route, plan)   # W4A4 loses on it
    assert rule(1024, 1024, False, False, route, plan) == (route, plan)  # bytes: not in place
    assert rule(768, 1024, False, True, route, plan) == ("pieces", (256, 4))
    assert rule(641, 1024, False, True, route, plan) == ("pieces", (256, 4))  # 3 tiles, tail
    assert rule(512, 1024, False, True, route, plan) == (route, plan)   # under the tokens
    assert rule(1024, 2048, False, True, route, plan) == (route, plan)  # 256 CTAs: two waves
    assert rule(1024, 1024, False, True, route, (128, 4)) == (route, (128, 4))
    # token tails whose last 256-token tile is read in place (W4A16_256_ON_TAILS)
    assert rule(1000, 1024, False, True, route, plan) == ("pieces", (256, 4))
    assert rule(1200, 1024, False, True, "stream_k", 128) == ("pieces", (256, 3))
    assert rule(1100, 1024, False, True, "stream_k", 128) == ("stream_k", 128)  # 76 rows
    assert rule(1000, 4096, False, True, route, plan) == (route, plan)  # under MIN_M there
    with monkeypatch.context() as off:
        off.setattr(fused_module, "W4A16_256_ON_TAILS", False)
        assert rule(1000, 1024, False, True, route, plan) == (route, plan)
        assert rule(2500, 1024, False, True, "stream_k", 128) == ("stream_k", 128)
    monkeypatch.setattr(fused_module, "W4A16_PIECES", False)
    assert rule(1024, 1024, False, True, route, plan) == (route, plan)
    assert rule(1280, 1024, False, True, "stream_k", 128) == ("stream_k", 256)


def test_256_token_pieces_in_place_compile_for_sm90a():
    """The launch the pieces rule gives 1024x7168 at M = 1024: 128 CTAs, four K pieces of
    256-token tiles, the weights decoded in place."""
    from cute_kernels.k_order import KOrder
    from cute_kernels.swiglu_quant_large_m import (compile_nvfp4_gemm_swiglu_quant_large_m,
                                                   one_tile_a_cta, quantizer_warps)
    from cute_kernels.testing import compile_only

    tile_m, splits = 256, fused_module.W4A16_PIECES_SPLITS[0]
    ctas = splits * (1024 // tile_m) * (1024 // fused_module.TILE_N)
    order = KOrder.PERMUTED_IDENTITY
    quantizers = quantizer_warps(tile_m, 1, order,
                                 one_tile_a_cta(1024, 1024, tile_m, ctas, True, splits))
    compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 512, 7168, tile_m, 0, ctas, True,
                 False, order, 1, 1, quantizers, splits)


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,plan", [
    (1024, 512, (256, 4)),  # 1024x7168 as measured: 128 CTAs
    (1280, 192, (256, 4)),  # 384 rows, five token tiles
    (1280, 512, (256, 3)),  # 112 k-tiles in three uneven pieces (the probe's "_pieces256x3")
    (768, 512, (256, 4)),  # three token tiles, 96 CTAs
])
def test_public_fused_on_256_token_pieces_matches_reference(monkeypatch, m, i, plan):
    """The forced launch, then (1024x7168) the public route, which takes it."""
    from tests.test_nvfp4_gemm_swiglu_quant import _check_public_into_poisoned, _inputs

    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, 7168, False)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    with monkeypatch.context() as forced:
        forced.setattr(fused_module, "large_m_route", lambda m, i, k: ("pieces", plan))
        for _ in range(2):
            _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)
    if i == 512:
        calls = []
        launch = fused_module.launch_large_m
        monkeypatch.setattr(fused_module, "launch_large_m",
                            lambda *args, **kw: calls.append((args[7], kw)) or launch(*args, **kw))
        _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)
        assert calls and all(c[0][0] == plan[0] and c[1]["splits"] == plan[1] for c in calls)


@pytest.mark.gpu
@pytest.mark.parametrize("m", [512, 896, 700, 1030, 1100, 2500, 1000, 1200, 580, 660])
def test_public_fused_in_place_on_narrow_weights_matches_reference(monkeypatch, m):
    """1024x7168 from ``W4A16_IN_PLACE_NARROW_MIN_M`` tokens: four and two K pieces of
    128-token tiles read the bf16 activations as they are; so do token tails, the TMA filling
    the last tile past M (1030 / 1100: the 128-token stream-K, whatever the fill; on 256-token
    tiles from 45% full, ``W4A16_256_ON_TAILS``: 660 / 700 / 1000 / 1200 four / three K
    pieces, 2500 stream-K). Three K pieces of 128-token tiles (580) take the copy."""
    from cute_kernels import nvfp4_dequant
    from tests.test_nvfp4_gemm_swiglu_quant import _check_public_into_poisoned, _inputs

    copies = []
    reorder = nvfp4_dequant.reorder_k
    monkeypatch.setattr(nvfp4_dequant, "reorder_k",
                        lambda *args: copies.append(1) or reorder(*args))
    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, 512, 7168, False)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    for _ in range(2):
        _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)
    assert bool(copies) == (m == 580), copies


def test_tail_in_place_rule():
    """Narrow weights read a partial last token tile of up to 128 tokens in place whatever its
    fill (1024x7168 M = 1030: 6 rows); 256-token tiles whatever their fill too, on weights up
    to ``W4A16_IN_PLACE_MAX_N`` rows (4096x7168 M = 2200 / 2500 / 3500 / 2100 / 10000); wider
    weights' 128-token tails keep the copy (4096x7168 M = 1100 lost 20% in place)."""
    from cute_kernels.k_order import (W4A16_IN_PLACE_MAX_N, W4A16_IN_PLACE_NARROW_N,
                                      w4a16_tail_in_place)

    n = W4A16_IN_PLACE_NARROW_N
    assert all(w4a16_tail_in_place(m, n, 128) for m in (700, 1000, 1030, 1100, 1300, 2500))
    assert w4a16_tail_in_place(300, n, 64)
    assert not w4a16_tail_in_place(1100, 4096, 128)
    assert w4a16_tail_in_place(700, n, 256)  # 188 of 256 rows
    assert w4a16_tail_in_place(300, n, 256)  # 44 of 256: any fill since session 61
    assert all(w4a16_tail_in_place(m, 4096, 256) for m in (2200, 2500, 3500, 2100, 10000))
    assert not w4a16_tail_in_place(2500, W4A16_IN_PLACE_MAX_N + 1024, 256)


def test_256_token_plans_on_tails():
    """The 256-token plans take a partial last 256-token tile from 45% full, or where its
    padding is at most 5% of M (``w4a16_256_on_tail``): 1024x7168 M = 4700 / 7000 (36% / 34%
    full) on the 256-token stream-K, not M = 1300 / 2100 (18% / 7% padding)."""
    rule = fused_module.w4a16_in_place_route
    for m, want in ((4700, 256), (7000, 256), (1300, 128), (2100, 128), (2200, 256)):
        route, plan = fused_module.large_m_route(m, 512, 7168)
        assert (route, plan) == ("stream_k", 128), m
        assert rule(m, 1024, False, True, route, plan) == ("stream_k", want), m
    assert fused_module.w4a16_256_on_tail(10000) and not fused_module.w4a16_256_on_tail(1300)


def test_three_pieces_keep_the_copy():
    """W4A16 on three K pieces of 128-token tiles (1024x7168 at 513..640 tokens) keeps the
    reordering copy, tail or not; 256-token tiles in three pieces (1200) read in place."""
    from cute_kernels.k_order import KOrder

    assert fused_module.W4A16_COPY_ON_PIECES == ((128, 3),)
    for m, want in ((580, KOrder.PERMUTED), (640, KOrder.PERMUTED),
                    (700, KOrder.PERMUTED_IDENTITY), (1200, KOrder.PERMUTED_IDENTITY)):
        assert _order(m, 1024) == want, m


def _order(m, two_i, k=7168):
    """The K order ``_large_m`` gives W4A16 on permuted words, from its launch on the CPU."""
    import torch

    from cute_kernels.k_order import KOrder, wgmma_k_order

    launch = fused_module.large_m_launch(m, two_i, k, False, torch.int32)
    if launch.bf16_weights:
        return KOrder.BF16
    return wgmma_k_order(torch.empty(two_i, 1, dtype=torch.int32), m, launch.copied)
