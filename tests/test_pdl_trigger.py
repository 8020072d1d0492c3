"""The wgmma kernels' PDL trigger after the first main loop (``NVFP4GemmLargeM``'s
``pdl_trigger``) and the activation pass spread over the SMs (``bf16_activations(spread=)``),
routed by ``large_m_plans.pdl_trigger_plan``: where ``nvfp4_gemm`` and the fused op's
half-group launches take them, that they compile, and on a GPU that chains of dependent calls
on those launches, replayed from a graph with no gaps between kernels, match the eager run bit
for bit."""

import pytest
import torch

from cute_kernels import (nvfp4_gemm, nvfp4_gemm_swiglu_quant, nvfp4_quantize,
                          prepare_gate_up_weight, prepare_nvfp4_weight, reference,
                          restore_gate_up_weight)
from cute_kernels.k_order import KOrder
from cute_kernels.large_m_plans import (PDL_SPREAD_TRIGGER_MAX_M, PDL_TRIGGER_MAX_M,
                                        plain_launch_options, plain_plan)
from cute_kernels.nvfp4_gemm import planned_launch
from cute_kernels.nvfp4_gemm_large_m import H200_SMS, compile_nvfp4_gemm_large_m, compile_tail
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.testing import compile_only
from tests.conftest import check_graph_replays_chain, w4a16_chain


def _triggers(m, n, k):
    """(trigger, spread) of ``nvfp4_gemm``'s wgmma launch."""
    options = planned_launch(m, n, k, plain_plan(m, n, k), wg_k_split=True)[2]
    return options["pdl_trigger"], options["spread_pass"]


@pytest.mark.parametrize("m,n,k,want", [
    (32, 7168, 2048, (True, True)), (64, 7168, 2048, (True, True)),  # one tile a CTA
    (256, 7168, 2048, (True, True)), (512, 4096, 7168, (True, True)),
    (256, 4096, 2048, (True, True)),   # 64-row tiles (wg_k_split), one a CTA
    (64, 4096, 7168, (True, True)),    # two K pieces in a cluster pair
    (96, 4096, 2048, (True, True)),    # two K pieces through global memory
    (128, 4096, 7168, (True, True)),   # four scattered K pieces of 128-token tiles
    (256, 4096, 7168, (True, True)),   # their two K halves in a cluster pair
    (64, 9216, 7168, (True, False)), (128, 9216, 7168, (True, False)),  # stream-K
    # spread: 16- and 32-token tiles, not 64
    (16, 7168, 18432, (True, True)), (64, 7168, 18432, (True, False)),
    (16, 9216, 7168, (True, True)), (32, 7168, 18432, (True, True)),
    (32, 9216, 7168, (True, True)), (32, 5120, 17408, (True, True)),
    (256, 5120, 17408, (False, False)),  # stream-K over two token tiles
    (1024, 4096, 7168, (False, False)), (1024, 7168, 2048, (False, False)),  # past 512
    (128, 36864, 7168, (False, False)),  # several tiles a CTA
    # more tiles than CTAs at two CTAs an SM, 16 / 32 tokens: the trigger alone (session 38)
    (16, 36864, 7168, (True, False)), (32, 36864, 7168, (True, False)),
    (12, 34816, 5120, (True, False)), (32, 34816, 5120, (True, False)),
    (64, 36864, 7168, (False, False)),  # 64-token tiles, one CTA an SM: the trigger lost
])
def test_trigger_where_measured_faster(m, n, k, want):
    assert _triggers(m, n, k) == want


def test_no_trigger_past_max_m():
    for n, k in ((7168, 2048), (4096, 7168), (9216, 7168), (7168, 18432), (2048, 2048)):
        for m in (PDL_SPREAD_TRIGGER_MAX_M + 1, 1024, 4096):
            assert _triggers(m, n, k) == (False, False), (m, n, k)
        if plain_plan(PDL_TRIGGER_MAX_M + 1, n, k)[2]:  # stream-K
            assert _triggers(PDL_TRIGGER_MAX_M + 1, n, k) == (False, False), (n, k)


def test_stream_k_spreads_only_16_and_32_token_tiles():
    """Stream-K spreads the pass on 16- and 32-token tiles, where each CTA holds one tile or
    fewer (64-token tiles measured mixed, session 50)."""
    for n, k in ((9216, 7168), (7168, 18432), (5120, 17408), (36864, 7168)):
        for m in (16, 32, 64, 128, 256):
            plan = plain_plan(m, n, k)
            if plan[2]:
                trigger, spread = _triggers(m, n, k)
                fits = -(-n // 128) <= plain_launch_options(m, n, k, plan[0], True)[
                    "ctas_per_sm"] * H200_SMS  # one tile a CTA or fewer
                assert spread == (trigger and plan[0] <= 32 and fits), (m, n, k)


@pytest.mark.parametrize("stream_k,tail", [
    (False, compile_tail(KOrder.PERMUTED, 1, 2, True, pdl_trigger=True)),
    (True, compile_tail(KOrder.PERMUTED, 1, 1, pdl_trigger=True)),
])
def test_trigger_compiles_for_sm90a(stream_k, tail):
    assert tail[-1] is True
    assert compile_only(compile_nvfp4_gemm_large_m, 7168, 2048, "torch.bfloat16", 64, 0,
                        H200_SMS, 1, stream_k, False, *tail)


@pytest.mark.parametrize("pairs,tile_m", [(False, 64), (True, 64), (True, 16)])
def test_fused_half_group_trigger_compiles_for_sm90a(pairs, tile_m):
    """The fused op's half-group launches with the trigger (16-token pairs: its 9..16-token
    route): (k_order, ctas_per_sm, k_groups, quantizers, splits, wg_k_split, pair_pieces,
    pdl_trigger)."""
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 2048, 7168, tile_m, 0,
                        H200_SMS, not pairs, False, int(KOrder.PERMUTED), 1, 2, 0,
                        1 if pairs else 2, True, pairs, True)


@pytest.mark.gpu
@pytest.mark.parametrize("m,k", [(256, 2048), (256, 4096), (64, 7168)])
def test_triggered_chain_in_a_graph_matches_eager(m, k):
    """W4A16 chains, each GEMM's output the next one's input, on launches that trigger:
    whole 64-token tiles (2048), 64-row tiles with the warpgroups on K (4096), stream-K
    (7168). A kernel that read its activations before the one before it had finished would
    differ from the eager run."""
    assert _triggers(m, k, k)
    quantized = [reference.nvfp4_quantize(torch.randn(k, k, device="cuda"), 100.0)
                 for _ in range(3)]
    weights = [(prepare_nvfp4_weight(b), b_sf) for b, b_sf in quantized]
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    check_graph_replays_chain(w4a16_chain(weights, x, 1e-3), len(weights), (m, k))


def _permuted_weights(n, k, count=3):
    """``count`` random [N, K] NVFP4 weights (global scale 100) as (permuted words, scales)."""
    quantized = [reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                          100.0) for _ in range(count)]
    return [(prepare_nvfp4_weight(b), b_sf) for b, b_sf in quantized]


@pytest.mark.gpu
@pytest.mark.parametrize("m,i", [(12, 2048), (64, 2048), (256, 2048), (512, 2048),
                                 (12, 4608), (32, 4608)])
def test_triggered_w4a4_mlp_chain_in_a_graph_matches_eager(m, i):
    """NVFP4 MLP steps on launches that trigger, each behind a spread activation pass: the
    quantization, the fused gate_up op (4096x7168: half-group tiles, a cluster pair at 12
    tokens on permuted words and at 64, whole tiles at 256; its 128-row route at 512;
    9216x7168 at 12 / 32 tokens: the "narrow" 16- / 32-token stream-K route at one CTA an SM,
    ``narrow_pdl_plan``) and the down ``nvfp4_gemm`` (7168x2048: whole tiles; at 12 tokens
    its small kernel), whose bf16 output feeds the next step. Replayed from a graph with no
    gaps between kernels, bit for bit the eager run."""
    from cute_kernels.nvfp4_gemm_swiglu_quant import (half_group_route, large_m_route,
                                                      narrow_pdl_plan)
    from tests.test_nvfp4_gemm_swiglu_quant import _weights

    k = 7168
    w, w_sf, g_w = _weights(i, k, "cuda")
    down = _permuted_weights(k, i)
    x = (torch.randn(m, k, device="cuda") * 2).to(torch.bfloat16)
    if m <= 16 or i == 4608:  # the half-group and narrow routes: on permuted words
        w, w_sf = prepare_gate_up_weight(*restore_gate_up_weight(w, w_sf), permute=True)
        tile = 16 if m <= 16 else 32
        narrow = large_m_route(m, i, k) == ("narrow", tile)
        assert half_group_route(m, i, k, True, True) or (
            narrow and narrow_pdl_plan(tile, 1) == (True, True))
    else:
        assert _triggers(m, 7168, 2048) == (True, True)
    # the scales from one eager step (then fixed): x's 4x headroom, h's amax, y of a few units
    g_a = 448 * 6 / (4 * x.abs().amax().item())
    alpha_w = 1 / (g_a * g_w.item())
    q, q_sf = nvfp4_quantize(x, g_a)
    g_h = 448 * 6 / (2 * reference.swiglu_fp64(q, q_sf, w, w_sf, alpha_w).abs().amax().item())
    h, h_sf = nvfp4_gemm_swiglu_quant(q, q_sf, w, w_sf, alpha_w, g_h)
    alpha_d = 2 / nvfp4_gemm(h, h_sf, *down[0], 1.0).float().std().item()

    def chain(outs):
        y = x
        for (d, d_sf), out in zip(down, outs):
            q, q_sf = nvfp4_quantize(y, g_a)
            h, h_sf = nvfp4_gemm_swiglu_quant(q, q_sf, w, w_sf, alpha_w, g_h)
            y = nvfp4_gemm(h, h_sf, d, d_sf, alpha_d, out=out)

    check_graph_replays_chain(chain, len(down), (m, k))


@pytest.mark.gpu
@pytest.mark.parametrize("m,k", [(12, 4096), (16, 9216)])
def test_triggered_w4a4_chain_at_9_to_16_tokens_matches_eager(m, k):
    """W4A4 chains on permuted words at 9..16 tokens, each GEMM's output quantized for the
    next: cluster pairs (4096) and 16-token stream-K tiles (9216), both triggered with the
    spread activation pass. Replayed from a graph, bit for bit the eager run."""
    from cute_kernels.nvfp4_gemm import small_m_regime

    assert _triggers(m, k, k) == (True, True) and not small_m_regime(m, k, k, True, True)
    weights = _permuted_weights(k, k)
    x = (torch.randn(m, k, device="cuda") * 2).to(torch.bfloat16)
    g = 448 * 6 / (4 * x.abs().amax().item())  # fixed: 4x headroom
    alpha = 1 / (g * 100.0 * k ** 0.5)  # each output of about the input's size

    def chain(outs):
        y = x
        for (b, b_sf), out in zip(weights, outs):
            q, q_sf = nvfp4_quantize(y, g)
            y = nvfp4_gemm(q, q_sf, b, b_sf, alpha, out=out)

    check_graph_replays_chain(chain, len(weights), (m, k))


@pytest.mark.gpu
@pytest.mark.parametrize("m", [16, 32])
def test_triggered_chain_with_more_tiles_than_ctas_matches_eager(m):
    """NVFP4 up / down steps on permuted words: 34816x5120 (272 stream-K tiles on 264 CTAs at
    16 / 32 tokens, the trigger alone since session 38) and a [5120, 34816] weight after it,
    each GEMM's output quantized for the next. The trigger comes after each CTA's first main
    loop, before its other tiles: replayed from a graph, bit for bit the eager run."""
    n, k = 34816, 5120
    assert _triggers(m, n, k) == (True, False)
    up, down = _permuted_weights(n, k, 2), _permuted_weights(k, n, 2)
    x = (torch.randn(m, k, device="cuda") * 2).to(torch.bfloat16)
    g = 448 * 6 / (4 * x.abs().amax().item())  # fixed: 4x headroom
    alpha_up, alpha_down = 1 / (g * 100.0 * k ** 0.5), 1 / (g * 100.0 * n ** 0.5)

    def chain(outs):
        y = x
        for (u, u_sf), (d, d_sf), out in zip(up, down, outs):
            q, q_sf = nvfp4_quantize(y, g)
            h = nvfp4_gemm(q, q_sf, u, u_sf, alpha_up)
            q, q_sf = nvfp4_quantize(h, g)
            y = nvfp4_gemm(q, q_sf, d, d_sf, alpha_down, out=out)

    check_graph_replays_chain(chain, len(up), (m, k))


@pytest.mark.parametrize("m,i,k,want", [
    (12, 4608, 7168, (True, True)),     # 16-token tiles: trigger and spread
    (16, 18432, 7168, (True, True)),    # more tiles than CTAs: the fused kernel still gained
    (16, 17408, 5120, (True, True)),
    (32, 18432, 7168, (True, False)),   # 32-token tiles at two CTAs an SM: no spread
    (32, 4608, 7168, (True, True)),     # one CTA an SM: both (session 51)
])
def test_fused_narrow_route_triggers_where_measured_faster(monkeypatch, m, i, k, want):
    """The fused op's "narrow" route (``nvfp4_gemm``'s stream-K launch, session 38,
    ``tools/fused_narrow_pair_probe.py``): ``narrow_pdl_plan``'s trigger reaches the launch and
    its spread the activations' pass."""
    import importlib

    fused = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
    assert fused.large_m_route(m, i, k)[0] == "narrow"
    seen = {}
    monkeypatch.setattr(fused, "bf16_activations",
                        lambda *args: seen.setdefault("spread", args[4]) or args[0])
    monkeypatch.setattr(fused, "launch_large_m",
                        lambda *args, **kw: seen.setdefault("trigger", kw["pdl_trigger"]))
    w = torch.zeros(2 * i, k // 8, dtype=torch.int32)  # permuted words, never read
    fused._large_m(torch.zeros(m, k // 2, dtype=torch.uint8), None, w, None, None, None,
                   None, None)
    assert (seen["trigger"], seen["spread"]) == want


def test_fused_narrow_trigger_compiles_for_sm90a():
    """The fused kernel in stream-K on 16-token tiles with the trigger (9216x7168 at 9..16
    tokens: one CTA an SM, one K group)."""
    from cute_kernels.swiglu_quant_large_m import one_tile_a_cta, quantizer_warps

    quantizers = quantizer_warps(16, 1, KOrder.PERMUTED, one_tile_a_cta(12, 9216, 16, H200_SMS,
                                                                        True, 1))
    assert compile_only(compile_nvfp4_gemm_swiglu_quant_large_m, 4608, 7168, 16, 0, H200_SMS,
                        True, False, int(KOrder.PERMUTED), 1, 1, quantizers, 1, False, False,
                        True)


@pytest.mark.parametrize("m,n,k,forced,want", [
    (64, 4096, 7168, None, (True, True)),     # the rule: trigger and spread
    (64, 4096, 7168, False, (False, False)),  # untriggered (the fused split route): no spread
    (64, 9216, 7168, None, (True, False)),    # stream-K, 64-token tiles: no spread
])
def test_launch_planned_spreads_only_triggered_passes(monkeypatch, m, n, k, forced, want):
    """``launch_planned``'s pass spreads where its own launch triggers, not where a caller
    turned the trigger off (the pass then launches after the GEMM, on free SMs)."""
    import importlib

    gemm = importlib.import_module("cute_kernels.nvfp4_gemm")  # the module, not the function
    seen = {}
    monkeypatch.setattr(gemm, "bf16_activations",
                        lambda *args: seen.setdefault("spread", args[4]) or args[0])
    monkeypatch.setattr(gemm, "launch_large_m",
                        lambda *args, **kw: seen.setdefault("trigger", kw["pdl_trigger"]))
    b = torch.zeros(n, k // 8, dtype=torch.int32)  # permuted words, never read
    gemm.launch_planned(torch.zeros(m, k // 2, dtype=torch.uint8), None, b, None, None,
                        torch.empty(m, n), plain_plan(m, n, k), wg_k_split=True,
                        pdl_trigger=forced)
    assert (seen["trigger"], seen["spread"]) == want
