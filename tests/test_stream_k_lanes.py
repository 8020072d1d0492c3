"""The fused kernel's stream-K in lanes of row tiles (``NVFP4GemmLargeM``'s ``lanes``,
``large_m_plans.stream_k_lanes``): the rule on CPU, compile-only launches for sm_90a, and the
public fused op against the fp64 reference where its routes take lanes (1024 and 384 rows,
256-token tiles, and 128-token ones with the rule widened; NVFP4 and bf16 activations), then
with the lanes switched off (few tokens a lane: ``test_w4a16_stream_k.py``'s forced 256-token
stream-K); the plain ``nvfp4_gemm`` in lanes."""

import importlib

import pytest

from cute_kernels import prepare_gate_up_weight, restore_gate_up_weight
from cute_kernels.large_m_plans import stream_k_lanes

fused_module = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
plans = importlib.import_module("cute_kernels.large_m_plans")


def test_lanes_rule(monkeypatch):
    assert stream_k_lanes(1024, 256) == 8
    assert stream_k_lanes(384, 256) == 3
    assert stream_k_lanes(2048, 256) == 16
    assert stream_k_lanes(4096, 256) == 32  # 4 groups of 32 CTAs
    assert stream_k_lanes(5120, 256) == 1  # 40 row tiles: over the bar
    assert stream_k_lanes(1024, 128) == 1  # 128-token tiles keep plain ranges on 8 row tiles
    assert stream_k_lanes(2048, 128) == 1
    assert stream_k_lanes(4096, 128) == 32  # and take lanes on 32
    assert stream_k_lanes(256, 256) == 2
    assert stream_k_lanes(128, 256) == 1   # one row tile: nothing to share
    # the plain GEMM's wide weights: 8 lanes of 256-token stream-K on big activations
    assert plans.wide_stream_k_lanes(1024, 5120, 17408, 256) == 8      # 40 row tiles, 34 MiB
    assert plans.wide_stream_k_lanes(1024, 7168, 18432, 256) == 8      # 56
    assert plans.wide_stream_k_lanes(256, 5120, 17408, 256) == 1       # 8.5 MiB of tokens
    assert plans.wide_stream_k_lanes(1024, 5120, 17408, 128) == 1      # 128-token tiles
    assert plans.wide_stream_k_lanes(4096, 4096, 7168, 256) == 1       # 32: ``stream_k_lanes``
    assert plans.wide_stream_k_lanes(4096, 4224, 7168, 256) == 1       # 33 row tiles
    assert plans.wide_stream_k_lanes(4096, 36864, 7168, 256) == 8      # 288
    gemm_module = importlib.import_module("cute_kernels.nvfp4_gemm")
    for m, n, k, lanes in ((1024, 5120, 17408, 8), (1024, 7168, 18432, 8),
                           (1024, 9216, 7168, None)):
        plan = plans.plain_plan(m, n, k)
        assert gemm_module.planned_launch(m, n, k, plan, True)[2].get("lanes") == lanes
    # the public route's launch options (W4A16 on permuted words: 256-token tiles)
    for m, two_i, lanes in ((5000, 1024, 8), (2200, 1024, 8), (6656, 384, 3)):
        route, plan = fused_module.large_m_route(m, two_i // 2, 7168)
        route, plan = fused_module.w4a16_in_place_route(m, two_i, False, True, route, plan)
        assert (route, plan) == ("stream_k", 256)
        assert fused_module.route_launch(route, plan, m, two_i, 7168)[2] == {"lanes": lanes}
    assert fused_module.route_launch("stream_k", 128, 1100, 1024, 7168)[2] == {}
    monkeypatch.setattr(plans, "STREAM_K_LANES_TILE_M", (128, 256))
    assert stream_k_lanes(1024, 128) == 8
    assert stream_k_lanes(27 * 128, 256) == 1  # 108 of 132 SMs: under the grid fill
    monkeypatch.setattr(plans, "STREAM_K_LANES", False)
    assert stream_k_lanes(1024, 256) == 1
    assert fused_module.route_launch("stream_k", 256, 5000, 1024, 7168)[2] == {}


@pytest.mark.parametrize("tile_m,i,order,quantizers", [(256, 512, "PERMUTED_IDENTITY", 0),
                                                       (128, 192, "PERMUTED", 3)])
def test_lanes_compile_for_sm90a(tile_m, i, order, quantizers):
    """W4A16 in place on 256-token tiles in 8 lanes (1024x7168); NVFP4 activations' pass
    order on 128-token tiles in 3 lanes with the quantizer warps (384x7168)."""
    from cute_kernels.k_order import KOrder
    from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m
    from cute_kernels.testing import compile_only

    compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, i, 7168, tile_m, 0, 132, True, False,
                 int(KOrder[order]), 1, 1, quantizers, 1, False, False, False,
                 -(-2 * i // fused_module.TILE_N))


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,fp4_a", [
    (5000, 512, False),  # 256-token tiles, 8 lanes of 16 CTAs, a token tail read in place
    (4608, 512, False),
    (10000, 512, False),  # a tail 6% full, read in place (any fill on 256-token tiles)
    (4700, 512, False),  # 36% full: 256-token tiles all the same (``w4a16_256_on_tail``)
    (1100, 512, True),   # 128-token tiles (the activations' pass), lanes switched on
    (1100, 512, False),
    (3000, 192, True),   # 384 rows: 3 lanes of 44 CTAs, quantizer warps
    (6656, 192, False),  # 3 lanes of 256-token tiles
    (2100, 2048, False),  # 4096x7168: 4 groups of 32 CTAs
    (3500, 2048, True),
    (1100, 2048, True),  # 4096x7168 on 128-token tiles: 4 groups of 32 CTAs
    (600, 2048, False),
])
def test_public_fused_in_lanes_matches_reference(monkeypatch, m, i, fp4_a):
    """The public route (which takes lanes: checked on its launches; on 128-token tiles
    with ``STREAM_K_LANES_TILE_M`` widened), then plain ranges. Without the fitted token
    tiles, which take 4096x7168 at 600 bf16 tokens to whole 160-token tiles since session 66
    (``FUSED_FITTED_W4A16``; tested in ``tests/test_fitted_tiles.py``)."""
    from cute_kernels import fitted_tiles

    monkeypatch.setattr(fitted_tiles, "FUSED_FITTED_TILES", False)
    monkeypatch.setattr(plans, "STREAM_K_LANES_TILE_M", (128, 256))
    check, calls = _fused_in_lanes(monkeypatch, m, i, fp4_a, 2 * i // fused_module.TILE_N)
    monkeypatch.setattr(plans, "STREAM_K_LANES", False)
    check()
    assert "lanes" not in calls[-1]


def _fused_in_lanes(monkeypatch, m, i, fp4_a, lanes):
    """The public fused op (its launches watched) on fresh [2I, 7168] permuted words into
    poisoned outputs, twice, against the reference; every launch in ``lanes`` lanes. Returns
    the check (to run again) and the launches' options."""
    from tests.test_nvfp4_gemm_swiglu_quant import _check_public_into_poisoned, _inputs

    a, a_sf, w, w_sf, alpha, g_out = _inputs(m, i, 7168, fp4_a)
    w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
    calls = []
    launch = fused_module.launch_large_m
    monkeypatch.setattr(fused_module, "launch_large_m",
                        lambda *args, **kw: calls.append(kw) or launch(*args, **kw))

    def check():
        _check_public_into_poisoned(a, a_sf, w, w_sf, alpha, g_out)
    for _ in range(2):
        check()
    assert calls and all(c.get("lanes") == lanes for c in calls), calls
    return check, calls


def test_plain_lanes_rule(monkeypatch, without_fitted_tiles):
    """``nvfp4_gemm``'s stream-K (not the hybrid, not a K split) in lanes where
    ``PLAIN_STREAM_K_LANES``, and stream-K in lanes in place of the 256-token hybrid
    (``lanes_over_hybrid``); before the fitted token tiles (which take 513..800 tokens on
    4096x7168)."""
    from cute_kernels.nvfp4_gemm import planned_launch

    assert planned_launch(1100, 1024, 7168, (256, 1, True, False))[2]["lanes"] == 8
    assert planned_launch(1100, 4096, 7168, (256, 1, True, False))[2]["lanes"] == 32
    assert "lanes" not in planned_launch(1100, 1024, 7168, (256, 1, True, True))[2]  # hybrid
    assert "lanes" not in planned_launch(1100, 5120, 7168, (256, 1, True, False))[2]  # 40 rows
    for m in (2500, 3500, 4500):  # the probe's points: hybrid from 2100 before
        assert plans.plain_plan(m, 4096, 7168) == (256, 1, True, False)
    # 128-token tiles in lanes for 256-token plans that fill their waves under 90%, up to 2400
    for m in (513, 600, 1100, 1200, 1500, 1700, 2100, 2400):
        assert plans.plain_plan(m, 4096, 7168) == (128, 1, True, False), m
        assert planned_launch(m, 4096, 7168, (128, 1, True, False))[2]["lanes"] == 32
    for m in (512, 900, 1024, 2048, 2401):  # whole tiles at 512 / one wave / two full waves
        assert plans.plain_plan(m, 4096, 7168)[:3] != (128, 1, True), m
    assert plans.plain_plan(1100, 1024, 7168) == (128, 1, False, False)  # 8 row tiles: no
    for m in (1100, 2100, 2300):  # the fused op keeps its own kernel (not the fp32 split route)
        assert fused_module.large_m_route(m, 2048, 7168)[0] == "stream_k", m
    assert "lanes" not in planned_launch(1100, 1024, 7168, (128, 1, True, False))[2]
    assert plans.stream_k_plan(2500, 4096, 7168) == (256, True)
    assert plans.plain_plan(897, 9216, 7168) == (256, 1, True, True)  # 72 row tiles: hybrid
    plans.plain_plan.cache_clear()
    monkeypatch.setattr(plans, "PLAIN_LANES_128", False)
    assert plans.plain_plan(1100, 4096, 7168) == (256, 1, True, False)
    plans.plain_plan.cache_clear()
    monkeypatch.setattr(plans, "PLAIN_STREAM_K_LANES", False)
    assert plans.plain_plan(2500, 4096, 7168) == (256, 1, True, True)
    assert "lanes" not in planned_launch(1100, 1024, 7168, (256, 1, True, False))[2]
    plans.plain_plan.cache_clear()


def test_plain_lanes_compile_for_sm90a():
    """The plain kernel (bf16 out) in 32 lanes of 256-token tiles: 4096x7168, in place."""
    from cute_kernels.k_order import KOrder
    from cute_kernels.nvfp4_gemm_large_m import compile_nvfp4_gemm_large_m
    from cute_kernels.testing import compile_only

    compile_only(compile_nvfp4_gemm_large_m, 4096, 7168, "torch.bfloat16", 256, 0, 132, 1, True,
                 False, int(KOrder.PERMUTED_IDENTITY), 1, 1, False, False, False, 32)


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,fp4_a,permute", [
    (1100, 4096, True, True), (1100, 4096, False, True), (300, 1024, False, False),
    (2100, 1024, True, False)])
def test_plain_lanes_match_fp64_reference(monkeypatch, m, n, fp4_a, permute):
    """``nvfp4_gemm`` on the 256-token stream-K forced, in lanes, against the fp64 product;
    packed bytes and permuted words."""
    gemm_module = importlib.import_module("cute_kernels.nvfp4_gemm")
    for name in ("plain_plan", "packed_plan"):
        monkeypatch.setattr(gemm_module, name, lambda m, n, k: (256, 1, True, False))
    _check_plain_in_lanes(monkeypatch, m, n, fp4_a, permute, n // 128)


@pytest.mark.gpu
@pytest.mark.parametrize("m,fp4_a,permute", [(1100, False, True), (777, True, True),
                                             (600, False, False)])
def test_plain_wide_lanes_match_fp64_reference(monkeypatch, m, fp4_a, permute):
    """``nvfp4_gemm`` on 5120 rows (40 row tiles) on the 256-token stream-K forced, in
    ``wide_stream_k_lanes``' 8 lanes (bands of 5 row tiles, 128 CTAs), its activation bar
    lowered to these small K, against the fp64 product; token tails, packed bytes and
    permuted words, W4A16 in place."""
    gemm_module = importlib.import_module("cute_kernels.nvfp4_gemm")
    for name in ("plain_plan", "packed_plan"):
        monkeypatch.setattr(gemm_module, name, lambda m, n, k: (256, 1, True, False))
    monkeypatch.setattr(plans, "WIDE_LANES_MIN_ACTIVATION_BYTES", 0)
    _check_plain_in_lanes(monkeypatch, m, 5120, fp4_a, permute, 8)


def _check_plain_in_lanes(monkeypatch, m, n, fp4_a, permute, lanes):
    """``nvfp4_gemm`` (its launches watched) on a fresh [N, 7168] weight, packed bytes or
    permuted words, into a poisoned fp32 output, twice, against the fp64 product; every
    launch in ``lanes`` lanes."""
    import torch

    from cute_kernels import nvfp4_gemm, prepare_nvfp4_weight, reference
    from tests.conftest import poisoned
    from tests.test_nvfp4_gemm import _inputs, _rel_err

    gemm_module = importlib.import_module("cute_kernels.nvfp4_gemm")
    calls = []
    launch = gemm_module.launch_large_m
    monkeypatch.setattr(gemm_module, "launch_large_m",
                        lambda *args, **kw: calls.append(kw) or launch(*args, **kw))
    a, a_sf, b, b_sf, alpha = _inputs(m, n, 7168, fp4_a)
    want = reference.nvfp4_gemm_fp64(a, a_sf, b, b_sf, alpha)
    if permute:
        b = prepare_nvfp4_weight(b)  # (the scales stay as they are)
    for _ in range(2):
        got = nvfp4_gemm(a, a_sf, b, b_sf, alpha, out_dtype=torch.float32,
                         out=poisoned(m, n, dtype=torch.float32))
        assert not got.isnan().any()
        assert _rel_err(got, want) <= 1e-3
    assert calls and all(c.get("lanes") == lanes for c in calls), calls


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,fp4_a", [(1100, 4096, True), (1700, 4096, False),
                                       (600, 4096, True), (1100, 4032, True)])
def test_plain_128_lanes_route_matches_fp64_reference(monkeypatch, without_fitted_tiles, m, n,
                                                      fp4_a):
    """``nvfp4_gemm``'s own plan on 4096x7168 where it is the 128-token stream-K in 32 lanes
    (``plain_lanes_128``; 1700: whole 256-token tiles before; 600: before the fitted token
    tiles), and on 4032 rows (the last row tile half full), permuted words, against the fp64
    product."""
    assert plans.plain_plan(m, n, 7168) == (128, 1, True, False)
    _check_plain_in_lanes(monkeypatch, m, n, fp4_a, True, 32)


def test_lane_bands_compile_for_sm90a():
    """Lanes of bands of row tiles (``NVFP4GemmLargeM``: lanes dividing the row tiles): the
    plain kernel on 2560 rows in 10 lanes of two row tiles, the fused one on 2I = 2048 in 8
    lanes of two."""
    from cute_kernels.k_order import KOrder
    from cute_kernels.nvfp4_gemm_large_m import compile_nvfp4_gemm_large_m
    from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m
    from cute_kernels.testing import compile_only

    compile_only(compile_nvfp4_gemm_large_m, 2560, 7168, "torch.bfloat16", 256, 0, 132, 1, True,
                 False, int(KOrder.PERMUTED_IDENTITY), 1, 1, False, False, False, 10)
    compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 1024, 7168, 256, 0, 132, True, False,
                 int(KOrder.PERMUTED_IDENTITY), 1, 1, 0, 1, False, False, False, 8)


def test_lane_bands_need_lanes_dividing_the_row_tiles():
    import cutlass

    from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM

    assert NVFP4GemmLargeM(2560, 7168, cutlass.BFloat16, 256, stream_k=True, lanes=10).band == 2
    with pytest.raises(AssertionError):
        NVFP4GemmLargeM(2560, 7168, cutlass.BFloat16, 256, stream_k=True, lanes=8)  # 20 rows


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,lanes,fp4_a", [
    (1100, 2560, 10, True),   # bands of two row tiles, 13 groups of 10 CTAs
    (700, 5120, 20, False),   # bands of two, 6 groups of 20
    (300, 1024, 4, True),     # bands of two, a token tail
    (2100, 9216, 12, True),   # bands of six, 11 groups of 12
    (700, 2496, 10, True),    # bands of two, the last row tile half full
])
def test_plain_lane_bands_match_fp64_reference(monkeypatch, m, n, lanes, fp4_a):
    """``nvfp4_gemm`` on the 256-token stream-K forced in lanes of bands of row tiles (no rule
    takes them yet), permuted words, against the fp64 product."""
    gemm_module = importlib.import_module("cute_kernels.nvfp4_gemm")
    monkeypatch.setattr(gemm_module, "plain_plan", lambda m, n, k: (256, 1, True, False))
    monkeypatch.setattr(gemm_module, "plain_stream_k_lanes",
                        lambda n, tile_m, stream_k, sms=132: lanes if stream_k else 1)
    _check_plain_in_lanes(monkeypatch, m, n, fp4_a, True, lanes)


@pytest.mark.gpu
@pytest.mark.parametrize("m,i,fp4_a", [(5000, 512, False), (2100, 2048, True)])
def test_public_fused_in_lane_bands_matches_reference(monkeypatch, m, i, fp4_a):
    """The fused op's public 256-token stream-K in lanes of two row tiles each (forced: half
    the row tiles as lanes; ``FUSED_LANES_128`` off, which would take 128-token tiles at
    2100 tokens; without the fitted token tiles, which take 2100 NVFP4 tokens on 4096x7168 to
    whole tiles since session 68), then the reference."""
    from cute_kernels import fitted_tiles

    monkeypatch.setattr(fitted_tiles, "FUSED_FITTED_TILES", False)
    lanes = 2 * i // fused_module.TILE_N // 2
    monkeypatch.setattr(plans, "stream_k_lanes",
                        lambda two_i, tile_m, sms=132: lanes if tile_m == 256 else 1)
    monkeypatch.setattr(plans, "FUSED_LANES_128", False)
    fused_module.large_m_route.cache_clear()  # (routes cached under the rule would stay)
    try:
        _fused_in_lanes(monkeypatch, m, i, fp4_a, lanes)
    finally:
        fused_module.large_m_route.cache_clear()


def test_fused_lanes_128_rule(monkeypatch):
    """The fused op's twin of ``plain_lanes_128`` (``FUSED_LANES_128``, on since session 64):
    on, its 256-token routes become the 128-token stream-K in 32 lanes; off, they stay (without
    the fitted token tiles, which take 600 tokens on 4096x7168 since session 65)."""
    import torch

    from cute_kernels import fitted_tiles

    monkeypatch.setattr(fitted_tiles, "FUSED_FITTED_TILES", False)
    assert plans.FUSED_LANES_128
    fused_module.large_m_route.cache_clear()
    try:
        for m in (600, 1100, 2100, 2400):
            assert fused_module.large_m_route(m, 2048, 7168) == ("stream_k", 128), m
            launch = fused_module.large_m_launch(m, 4096, 7168, True, torch.int32)
            assert (launch.route, launch.plan, launch.options) == (
                "stream_k", 128, {"lanes": 32}), m
        assert fused_module.large_m_route(2500, 2048, 7168) == ("stream_k", 256)
        assert fused_module.large_m_route(1100, 512, 7168) == ("stream_k", 128)  # as before
        monkeypatch.setattr(plans, "FUSED_LANES_128", False)
        fused_module.large_m_route.cache_clear()
        assert fused_module.large_m_route(2100, 2048, 7168) == ("stream_k", 256)
    finally:
        fused_module.large_m_route.cache_clear()


def test_fused_part_wave_lanes_rule(monkeypatch):
    """The fused op's twin of ``plain_part_wave_lanes`` (``FUSED_PART_WAVE_LANES``, session 66):
    on, whole 128-token tiles in part of one wave (4096x7168 at 260..384 tokens: 96 tiles) become
    the 128-token stream-K in 32 lanes, on NVFP4 and bf16 activations; at 450 tokens (128 tiles,
    97% of the SMs) and off, whole tiles stay. At 260 tokens the fitted tiles
    (``FUSED_FITTED_STEP`` 16) then take one 144-token stream-K tile instead."""
    import torch

    assert plans.FUSED_PART_WAVE_LANES
    fused_module.large_m_route.cache_clear()
    try:
        for m in (260, 300, 384):
            assert fused_module.large_m_route(m, 2048, 7168) == ("stream_k", 128), m
        launch = fused_module.large_m_launch(260, 4096, 7168, True, torch.int32)
        assert (launch.route, launch.plan, launch.options) == ("stream_k", 144, {})
        for m in (300, 384):
            for a_fp4 in (True, False):
                launch = fused_module.large_m_launch(m, 4096, 7168, a_fp4, torch.int32)
                assert (launch.route, launch.plan, launch.options) == (
                    "stream_k", 128, {"lanes": 32}), (m, a_fp4)
        assert fused_module.large_m_route(450, 2048, 7168) == ("whole", (128, 0))
        monkeypatch.setattr(plans, "FUSED_PART_WAVE_LANES", False)
        fused_module.large_m_route.cache_clear()
        assert fused_module.large_m_route(300, 2048, 7168) == ("whole", (128, 0))
    finally:
        fused_module.large_m_route.cache_clear()
