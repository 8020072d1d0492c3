"""``nvfp4_gemm_swiglu_quant``: the gate_up GEMM with SwiGLU and NVFP4 quantization of its output
fused in, for sm_90: ``h = (alpha * up) * silu(alpha * gate)`` in fp32, quantized directly (no
bf16 rounding) with ``G = out_global_scale`` (DESIGN.md "Numerics"); the result feeds a
``down_proj`` that takes pre-quantized input (``nvfp4_gemm(out, out_sf, ...)``).

The weights come from ``prepare_gate_up_weight``: rows ``interleave([up; gate], 64)``, 2I rows.

Small M (up to 16 tokens, up to 32 or 64 for smaller weights: ``swiglu_small_m_regime``):
``swiglu_quant_small_m``, ``NVFP4GemmSmallM``'s main loop with its row tiles and epilogue
changed; larger M: ``swiglu_quant_large_m`` (and ``swiglu_quant_swapped``), the wgmma kernel
with a SwiGLU + quantization epilogue.

CPU tensors: the reference (``reference.gemm_swiglu_quant``).
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import torch

from layouts import GATE_UP_GROUP, sf_padded_shape

from . import nvfp4_gemm_balanced, reference
from .fitted_tiles import fused_fitted_route
from .fused_scales import BLOCK
from .bf16_weights import bf16_weights
from .k_order import KOrder, w4a16_in_place, w4a16_tail_in_place, wgmma_k_order
from .large_m_plans import (fused_lanes_128, fused_part_wave_lanes, fused_stream_k_options,
                            large_m_config, mid_m_launch, packed_widens, pdl_trigger_plan,
                            pieces_pair, plain_launch_options, plain_plan,
                            plain_wgmma_from_9_tokens, stream_k_plan, wg_k_split_plan,
                            wgmma_from_9_tokens, wide_pieces)
from .nvfp4_dequant import bf16_activations
from .nvfp4_gemm import (SMALL_M_MAX, W4A16_BIG_WEIGHTS, check_operands, check_placement,
                         pdl_choices, planned_launch, small_m_config, small_m_regime,
                         staged_tokens)
from .nvfp4_gemm_large_m import H200_SMS, TILE_N
from .nvfp4_gemm_small_m import STEP, lane_columns_route
from .nvfp4_gemm_small_m_split import config_compile_tail, config_splits, split_buffers
from .permuted_fp4 import weight_dims
from .swiglu_quant_large_m import (NVFP4GemmSwigluQuantLargeM,
                                   compile_nvfp4_gemm_swiglu_quant_large_m, launch_large_m)
from .swiglu_quant_small_m import compile_nvfp4_gemm_swiglu_quant_small_m
from .swiglu_quant_swapped import (FEATURE_TILE, TOKEN_TILE, bf16_gate_up_weights,
                                   launch_swapped)
from .swiglu_split_route import fp32_route_plan, launch_split_route, split_route_plan
from .validate import as_scale_tensor, check_contiguous, check_dtype


# ---- public function ----------------------------------------------------------------------------
# W4A16 (bf16 activations) leaves the fused small-M kernel for the wgmma kernel on the plain
# launch's 16-token tiles from FUSED_W4A16_WGMMA_MIN_M tokens on weights over 32 Mi values, from
# FUSED_W4A16_WGMMA_MIN_M_BIG on weights over 64 Mi values (two more on permuted words with
# K <= FUSED_W4A16_SHORT_K): ``swiglu_small_m_regime``
FUSED_W4A16_WGMMA_MIN_M = 9
FUSED_W4A16_WGMMA_MIN_M_BIG = 4
FUSED_W4A16_SHORT_K = 5120


def swiglu_small_m_regime(m: int, i: int, k: int, a_fp4: bool = True,
                          permuted: bool = False) -> bool:
    """The fused kernel's regime: the small-M kernel up to 16 tokens (fp4 activations at
    9..16 take the wgmma route where ``wgmma_from_9_tokens`` says so for the [2I, K] GEMM:
    the fused kernel on the plain launch's 16-token tiles, ``large_m_route``'s "narrow";
    bf16 activations there from 9 tokens on weights over 32 Mi values and from 4 over 64 Mi,
    below);
    past that the wgmma kernel (in stream-K there) for
    weights over 32 Mi elements, from 33 tokens for weights over 8 Mi, from 65 below. H200
    2026-11-30, ``tools/fused_regime_probe.py``, W4A4 us, small-M / stream-K wgmma:
    36864x7168 M = 17..32 131.5 / 120.5, M = 64 246.0 / 122.2; 34816x5120 M = 32 92.0 /
    88.4; 9216x7168 M = 32 42.9 / 42.0; 4096x7168 M = 32 26.2 / 28.2, M = 48 30.6 / 28.3;
    1024x7168 M = 64 13.7 / 26.1.

    W4A16 (``a_fp4`` False) at 4..16 tokens: the fused small kernel against the fused wgmma
    kernel on "narrow" (H200 2026-12-01, session 30, ``tools/fused_w4a16_regime_probe.py``,
    us, small / wgmma, packed bytes; permuted words alike unless given): 36864x7168 M = 4
    56.0 / 53.5 (permuted 52.0 / 51.2), M = 5 55.9 / 52.8, M = 8 63.8 / 52.9, M = 16 97.9 /
    53.1; 34816x5120 M = 4 41.9 / 40.0 but permuted 37.1 / 38.5, M = 5 permuted 37.2 / 38.4,
    M = 8 48.2 / 39.9 (permuted 45.4 / 38.1), M = 16 72.5 / 40.0; 7168x18432 M = 4 35.3 / 33.8
    (permuted 42.2 / 32.3), M = 8 37.6 / 34.0; 9216x7168 (66 Mi values) M = 5 19.3 / 23.0, M = 8
    22.1 / 23.1, M = 9 28.6 / 23.0, M = 12 31.1 / 23.1, M = 16 34.2 / 23.2. Smaller weights keep
    the small kernel to 16 tokens (their "narrow" is the fp32 split route: 4096x7168 M = 9
    14.3 / 18.3, M = 16 15.8 / 18.5; 1024x7168 M = 16 8.1 / 15.4), but for
    ``half_group_route``'s.

    NVFP4 activations on ``permuted`` words at 9..16 tokens take the wgmma kernel where
    ``nvfp4_gemm`` does (``plain_wgmma_from_9_tokens``): on 9216x7168 the "narrow" route with
    the PDL trigger (``narrow_pdl_plan``) since session 38, which beat the small kernel by
    0.5 us at M = 9 / 12 / 16."""
    weights = 2 * i * k
    if not a_fp4 and weights > W4A16_BIG_WEIGHTS and m <= 16:
        first = FUSED_W4A16_WGMMA_MIN_M
        if weights > 2 * W4A16_BIG_WEIGHTS:
            first = FUSED_W4A16_WGMMA_MIN_M_BIG + 2 * (permuted and k <= FUSED_W4A16_SHORT_K)
        return m < first
    if m <= 16:
        return not (a_fp4 and m >= 9 and (plain_wgmma_from_9_tokens(2 * i, k) if permuted
                                          else wgmma_from_9_tokens(2 * i, k)))
    if weights > 32 * 2**20:
        return False
    return m <= (32 if weights > 8 * 2**20 else SMALL_M_MAX)


# One token on permuted words, short K and many row blocks: 3 warps a CTA instead of 4
# (session 21, ``tools/near_miss_probe.py`` parts 4 and 7..11, two rounds each, us, warps
# 4 / 3 / 5: 34816x5120 (20 K steps, 1088 row blocks) 32.07, 32.10, 32.33, 32.35 / 30.71,
# 30.74, 30.87, 30.87 / 32.94, 32.97; 36864x7168 (28 steps) 44.55, 44.59 / 45.24, 45.36 /
# 45.25, 45.20; 9216x7168 (288 blocks) 14.57, 14.64 / 18.12, 18.18). Packed words unmeasured.
M1_THREE_WARPS_MAX_STEPS = 20
M1_THREE_WARPS_MIN_BLOCKS = 8
# One token on permuted words where the rule keeps two row tiles of four warps: the up tile and
# its gate tile on two row groups of four warps each, one tile a warp (76 registers against
# 122; ``NVFP4GemmSmallM``'s ``row_groups``). H200 2026-12-02 (session 42,
# ``tools/row_groups_probe.py``, two rounds, graph us, (2, 1, 4, 1) -> (1, 1, 8, 1, 1, 2)):
# 9216x7168 14.53, 14.55 -> 13.94, 13.90; 36864x7168 44.37, 44.42 -> 43.62, 43.62, the outputs
# the same bytes (the same K steps a warp). It lost where the rule is another config
# (34816x5120's 3 warps 30.7 -> 32.7, 4096x7168's 8 warps 7.7 -> 9.0), with 6 or 16 warps
# (9216x7168 16.6 / 21.2), at 4 / 8 tokens (the register path: 15.3 -> 18.0), and so did the
# plain GEMM's one-tile config as two row groups (9216x7168 M = 1 12.87 -> 13.90).
M1_ROW_GROUPS = 2
# A cluster-pair kernel (the plain kernel's grid of one 8-column tile a CTA, two a cluster
# sharing the quant block's amax through distributed shared memory; commit bacceec, removed
# in session 43) lost to this rule and to (2, 1, 4, 1) everywhere (H200 2026-12-02, graph us,
# public / pairs): 9216x7168 M = 1 / 4 / 8 13.83 / 15.19 / 15.32 against 15.83 / 15.35 /
# 15.45, 36864x7168 43.01 / 44.40 / 44.53 against 49.6 / 49.5 / 49.7, 34816x5120 30.43 / 33.39
# / 33.44 against 36.0 / 35.8 / 36.0, 4096x7168 7.66 / 8.57 / 8.65 against 10.5 / 10.7 / 10.6.


def swiglu_small_m_config(m: int, i: int, k: int, permuted: bool = False,
                          a_fp4: bool = True) -> tuple[int, ...]:
    """(row_tiles, token_tiles, warps, prefetch[, splits[, row_groups]]): ``small_m_config`` of
    the [2I, K] GEMM, then what ``tools/swiglu_config_probe.py`` measured best for the fused
    kernel (H200, 2026-11-29, every config at M = 1, 8, 16, 32 on the issue's five shapes):

    * at least two row tiles (an up tile and its gate tile);
    * where that leaves fewer row blocks than SMs (small I: 1024x7168 has 32), 8 warps per CTA
      split K further, so each warp walks fewer steps (16 warps of ~126 registers would not
      fit an SM's register file);
    * one token tile per CTA where all token tiles still fit in one wave of CTAs (1024x7168
      at M = 32: 10.8 us against 21.8 with four), else at most two (four lost everywhere at
      M = 32: 36864x7168 136 against 161), except that weights under 32 Mi elements keep
      ``small_m_config``'s four token tiles and warps where that still gives a CTA per SM
      (4096x7168 at M = 64: the fused kernel with two took 50.9 us in session 5, the plain
      GEMM's same main loop with (2, 4, 4, 0) 30.7; the probe had measured only up to
      M = 32; with 8 warps four tiles would need ~186 registers x 256 threads per CTA);
    * register prefetch only for one token tile of small weights, or at M = 1 (staged
      activations): without it 9216x7168 M = 16 took 28.7 us against 42.7, 36864x7168 M = 8
      57.5 against 60.0 (session 5's loop; at 2..16 tokens it has paid since, below); with it
      1024x7168 M = 32 takes 10.8.

    Every best config of the probe but two is this rule's (4096x7168 M = 16: 16.2 us with
    prefetch, this rule's config not measured; 34816x5120 M = 1: 43.7 without prefetch
    against 46.7).

    Where the CTAs fill at most half the SMs, K is split over 4 (or 2) CTAs, reduced in the
    launch (``tools/small_split_probe.py``, H200 2026-11-30: 1024x7168 is 32 CTAs, M = 1 8.2
    us against 9.0, M = 8 8.5 against 10.2; 4096x7168's 128 CTAs and 9216x7168's 288 lost
    with any split).

    At 2..16 tokens the register prefetch stays on for NVFP4 activations, and for bf16 ones
    (``a_fp4`` False) with one token tile, except past two tokens on permuted words over 64 Mi
    elements (H200 2026-12-01, ``tools/packed_prefetch_probe.py``, without -> with, us):
      - packed words, M = 2 / 8 / 16: 36864x7168 51.1 / 51.3 / 67.1 -> 48.3 / 48.7 / 64.1,
        9216x7168 M = 16 22.9 -> 22.1, 4096x7168 15.0 -> 12.0 (the unfused pair 12.6),
        34816x5120 36.8 / 36.8 / 47.4 -> 36.1 / 36.3 / 47.6 (the one loss, 0.6-0.8% at
        12 / 16 tokens);
      - bf16 activations, packed words: 36864x7168 M = 2 / 8 67.7 / 65.8 -> 51.5 / 63.9, but
        with two token tiles (12 / 16 tokens) 90.0 / 97.5 -> 133.4 / 144.4 (4096x7168 14.9 /
        16.1 -> 15.5 / 17.3);
      - bf16 activations, permuted words: two token tiles alike (36864x7168 M = 16 98.6 ->
        141.6), and on weights over 64 Mi elements at 4 / 8 tokens 36864x7168 51.7 / 61.0 ->
        54.3 / 62.5, 34816x5120 37.0 / 43.6 -> 40.6 / 46.7 (session 14 had measured the
        opposite at 36864x7168, 55.1 / 63.0 -> 53.1 / 60.4), while 2 tokens (staged) gain
        67.9 -> 53.1.
    Permuted words, NVFP4 activations, earlier: at 9..16 tokens with two
    token tiles on weights under 64 Mi elements (``tools/swiglu_permuted_probe.py``, H200
    2026-11-30, M = 16: 4096x7168 15.66 -> 12.96 us, 9216x7168 24.90 -> 24.13; 34816x5120
    lost 4% with it, 36864x7168 gained 2%; since session 13's three CTAs per SM and session
    14's operand change, ``tools/m16_config_probe.py``, M = 12 / 16: 36864x7168 61.83 / 62.00
    -> 60.60 / 60.78, 34816x5120 45.18 / 45.23 -> 45.12 / 45.17, so on every weight), at
    every M on weights under 8 Mi elements (session 19, ``tools/near_miss_probe.py``, two
    rounds: 1024x7168 M = 64 (2, 2, 8, 0) 11.94, 11.21 -> (2, 2, 8, 1) 10.24, 10.14), and at
    2..8 tokens on every weight
    (``tools/fused_prefetch_probe.py``, H200 2026-11-30, without -> with, us: 36864x7168 M = 2
    / 4 / 8 64.1 / 50.0 / 50.3 -> 49.3 / 47.4 / 49.2, W4A16 68.5 / 55.1 / 63.0 -> 53.4 / 53.1 /
    60.4, 34816x5120 43.3 / 35.8 / 35.9 -> 34.7 / 35.4 / 35.6).

    One token on permuted words with at most ``M1_THREE_WARPS_MAX_STEPS`` K steps and
    ``M1_THREE_WARPS_MIN_BLOCKS`` row blocks an SM takes 3 warps; where it keeps (2, 1, 4, 1)
    with NVFP4 activations, the two tiles go to ``M1_ROW_GROUPS`` row groups of four warps,
    ``(1, 1, 8, 1, 1, 2)`` (the comments above)."""
    rt, jt, plain_warps, prefetch = small_m_config(m, 2 * i, k)[:4]
    rt = max(rt, 2)
    row_blocks = -(-2 * i // (16 * rt))
    warps = plain_warps
    if row_blocks < H200_SMS and k // STEP >= 8:
        warps = max(warps, 8)
    token_tiles = -(-m // 8)
    if row_blocks * token_tiles <= H200_SMS:
        jt = 1
    elif 2 * i * k >= 32 * 2**20 or row_blocks * -(-token_tiles // jt) < H200_SMS:
        jt = min(jt, 2)
    else:  # the plain GEMM's config (four token tiles: ~186 registers, so its 4 warps)
        warps = plain_warps
    big = 2 * i * k >= 64 * 2**20
    if permuted and 2 * i * k < 8 * 2**20:
        prefetch = 1
    elif m <= 16:
        # bf16 activations: not with two token tiles (their registers), nor on the register
        # path (past the two staged tokens) of permuted words over 64 Mi elements
        prefetch = int(a_fp4 or (jt == 1 and not (permuted and m > 2 and big)))
    else:
        prefetch = int(jt == 1 and not big)
    if permuted and m == 1 and k // STEP <= M1_THREE_WARPS_MAX_STEPS and warps == 4 \
            and row_blocks >= M1_THREE_WARPS_MIN_BLOCKS * H200_SMS:
        warps = 3
    ctas = row_blocks * -(-token_tiles // jt)
    for splits in (4, 2):
        if ctas * splits <= H200_SMS and k // STEP >= 4 * splits:  # >= 4 K steps per split
            return rt, jt, warps, prefetch, splits
    if permuted and a_fp4 and m == 1 and (rt, jt, warps, prefetch) == (2, 1, 4, 1):
        groups = M1_ROW_GROUPS
        return rt // groups, jt, warps * groups, prefetch, 1, groups
    return rt, jt, warps, prefetch


def launch_small_m(a, a_sf, w, w_sf, alpha: torch.Tensor, out_global_scale: torch.Tensor,
                   out: torch.Tensor, out_sf: torch.Tensor,
                   config: tuple[int, ...]) -> None:
    """The fused small-M kernel with an explicit (row_tiles, token_tiles, warps, prefetch[,
    splits[, row_groups]]) on validated operands (M >= 1); alpha and out_global_scale
    one-element fp32 tensors. splits > 1: K split over grid z, reduced in the same launch."""
    two_i, k, permuted = weight_dims(w)
    i, m = two_i // 2, a.shape[0]
    splits = config_splits(config)
    a_kind = "fp4" if a_sf is not None else str(a.dtype)
    x_tokens = staged_tokens(m, config, k, a_fp4=a_sf is not None)
    # W4A16 has no activation scales; the kernel never reads that argument, w_sf stands in.
    args = (a.view(torch.int32), (w_sf if a_sf is None else a_sf).view(-1), w.view(torch.int32),
            w_sf.view(-1), alpha, out_global_scale, out, out_sf.view(torch.uint8).view(-1))
    tail = config_compile_tail(config, permuted,
                               lane_columns_route(a_sf is not None, x_tokens, config[1]))
    kernel = compile_nvfp4_gemm_swiglu_quant_small_m(i, k, a_kind, *config[:4], x_tokens,
                                                     splits, *tail)
    kernel(*args, *(split_buffers(m, 2 * i, config, w.device) if splits > 1 else ()))


# The fused kernel on ``nvfp4_gemm``'s own stream-K launch where that has 16- or 32-token
# tiles (its CTAs per SM and K groups a stage too): no fp32 round trip and no second kernel
# (the fp32 route's ~3.5-4 us at M = 16 on 36864x7168). ``tools/ab_fused_narrow.sh`` (H200
# 2026-11-30, session 19, public function us, two rounds, fp32 route / this): 36864x7168
# M = 16 56.6, 56.7 / 53.6, 53.7, M = 32 59.9, 59.3 / 56.9, 56.6; 34816x5120 M = 16 (small
# kernel before) 45.0, 44.8 / 41.0, 41.5, M = 32 46.5, 46.3 / 42.6, 42.2; 9216x7168 M = 32
# 26.3, 26.3 / 23.8, 23.8.
FUSED_NARROW_TILES = True


# Weights of at most this many elements take "pieces" wherever the plain GEMM splits K
PIECES_MAX_WEIGHTS = 32 * 2**20


@functools.lru_cache(maxsize=4096)  # pure in its integers, asked on every large-M call
def large_m_route(m: int, i: int, k: int) -> tuple[str, object]:
    """The route past the small-M regime. Weights of at most ``PIECES_MAX_WEIGHTS`` elements
    where ``nvfp4_gemm``'s plan splits K (``split_route_plan``) and ``mid_m_launch`` has no
    whole tiles filling at least half the SMs (4096x7168 to 128 tokens, 1024x7168 to 512):
    ``("pieces", (tile_m, splits))``, the fused kernel on that split-K launch (stream-K on
    tiles x splits CTAs, the pieces added in the launch). H200 2026-12-01,
    session 30, ``tools/fused_split_pdl_probe.py``, permuted words, us, the route before (the
    fused kernel in stream-K to 127 tokens, from 128 the fp32 split route) / pieces / the
    unfused pair: 4096x7168 M = 48 20.1 / 17.8 / 17.8, M = 64 20.1 / 17.9 / 18.0, M = 96 25.4 /
    23.0 / 22.6; 1024x7168 M = 128 17.6 / 16.5 / 16.7, M = 256 19.6 / 17.8 / 18.7, M = 512
    25.7 / 24.4 / 24.3.

    Past 128 tokens where 128-token tiles fill at most a few waves: the fused kernel on
    ``mid_m_launch``'s launch (whole tiles or stream-K). Elsewhere (session 23's rule):
    ``("stream_k", tile_m)``, the fused TMA + wgmma kernel in stream-K where
    ``stream_k_plan(fused=True)`` takes it; ``("split", plan)`` (``plain_plan``'s form), the
    fp32 split route where whole tiles would starve the grid (``split_route_plan``), or where
    ``nvfp4_gemm``'s own launch has narrower token tiles than the fused kernel
    (``fp32_route_plan``), except that ``("narrow", tile_m)`` runs the fused kernel itself on
    that launch where it is stream-K with 16- or 32-token tiles (``FUSED_NARROW_TILES``; 17..32
    tokens on 36864x7168, 34816x5120 and 9216x7168: no model shape takes the split route since
    session 30); else ``("whole", config)``, the fused kernel on whole tiles; one wave of whole
    64-token tiles becomes ``("pieces", (128, 2))`` where ``wide_pieces`` takes it (as
    ``plain_plan``); a 256-token route becomes the 128-token stream-K (in lanes) where
    ``fused_lanes_128`` takes it, as do whole 128-token tiles where ``fused_part_wave_lanes``
    does.

    H200 2026-11-30, ``tools/stream_k_probe.py``, us, stream-K / before (the fused kernel or
    the split route): 36864x7168 M = 256 224.5 / 261.5; 9216x7168 M = 256 66.5 / 88.6,
    M = 1024 224.5 / 260.9; 34816x5120 M = 256 161.7 / 190.4."""
    route = _route_before_wide_pieces(m, i, k)
    if route == ("whole", (64, 0)) and wide_pieces(m, 2 * i, k):
        return "pieces", (128, 2)
    if route in (("stream_k", 256), ("whole", (256, 0))) and fused_lanes_128(m, 2 * i):
        return "stream_k", 128
    if route == ("whole", (128, 0)) and fused_part_wave_lanes(m, 2 * i, k):
        return "stream_k", 128
    return route


# ``mid_m_launch``'s 128-token stream-K takes whole 128-token tiles in K pieces instead where
# at least two pieces of each fit one wave (the most that fit, to STREAM_K_PIECES_MAX_SPLITS):
# no stream-K ranges, every CTA one piece. H200 2026-12-03, session 59 call 2,
# ``tools/stream_k_stretch_probe.py``, graph us, two rounds alike, stream-K / pieces (cuBLAS +
# silu), NVFP4 activations; W4A16 in place: 1024x7168 M = 640 (three pieces) 26.84 / 26.10;
# 28.91 / 28.27 (27.17), M = 768 (two) 28.51 / 28.23; 31.75 / 30.81 (32.6; W4A16 then takes
# four pieces of 256-token tiles, 28.48), M = 896 (two) 30.91 / 28.60; 34.62 / 31.05 (27.78).
STREAM_K_PIECES_MAX_SPLITS = 4


def stream_k_pieces(m: int, two_i: int, k: int, sms: int = H200_SMS) -> int:
    """K pieces for 128-token tiles in place of the 128-token stream-K (the comment above);
    0 where fewer than two fit one wave or the weights are over ``PIECES_MAX_WEIGHTS``."""
    tiles = -(-m // 128) * -(-two_i // TILE_N)
    splits = min(STREAM_K_PIECES_MAX_SPLITS, sms // tiles)
    return splits if splits >= 2 and two_i * k <= PIECES_MAX_WEIGHTS else 0


def _route_before_wide_pieces(m: int, i: int, k: int) -> tuple[str, object]:
    """``large_m_route`` but for its last rule (``wide_pieces``)."""
    plan = split_route_plan(m, i, k)
    pieces = plan is not None and 2 * i * k <= PIECES_MAX_WEIGHTS
    mid = mid_m_launch(m, 2 * i, k)
    if mid is not None:
        kind, tile_m = mid
        if pieces and kind == "whole" and 2 * -(-m // tile_m) * -(-2 * i // TILE_N) < H200_SMS:
            return "pieces", plan[:2]
        splits = stream_k_pieces(m, 2 * i, k) if kind == "stream_k" and tile_m == 128 else 0
        if splits:
            return "pieces", (128, splits)
        return ("whole", (tile_m, 0)) if kind == "whole" else ("stream_k", tile_m)
    if pieces:
        return "pieces", plan[:2]
    stream_plan = stream_k_plan(m, 2 * i, k, fused=True)
    config = large_m_config(m, 2 * i, k)
    fused_tile = (stream_plan[0] if stream_plan is not None
                  else plan[0] if plan is not None else config[0])
    narrower = fp32_route_plan(m, i, k, fused_tile)
    if narrower is not None and FUSED_NARROW_TILES and narrower[0] <= 32 and narrower[2:] == (
            True, False):
        # 8-token tiles as the plain GEMM's (``TILE_8_MAX_M``) if the fused kernel's ``TILE_8``
        # is on, else 16
        return "narrow", max(narrower[0], 8 if NVFP4GemmSwigluQuantLargeM.TILE_8 else 16)
    if narrower is not None:
        return "split", narrower
    if stream_plan is not None:
        return "stream_k", stream_plan[0]
    if plan is not None:
        return "split", plan
    return "whole", config


def packed_route(m: int, i: int, k: int) -> tuple[str, object]:
    """``large_m_route`` for packed weight bytes: 256-token stream-K tiles where it has
    128-token ones at 129..256 tokens (``packed_widens``, as ``packed_plan``): H200
    2026-12-01, session 30, ``tools/fused_route_probe.py`` on packed bytes, us, route / sk256:
    9216x7168 M = 129 60.8 / 59.1, M = 256 62.0 / 61.4 (permuted words keep 128: 53.8, 55.5)."""
    route = large_m_route(m, i, k)
    if route[0] == "stream_k" and packed_widens(m, k, route[1]):
        return "stream_k", 256
    return route


def narrow_pdl_plan(tile_m: int, ctas_per_sm: int) -> tuple[bool, bool]:
    """(trigger, spread) of the fused kernel on the "narrow" route (``nvfp4_gemm``'s
    stream-K launch with ``tile_m``-token tiles and ``ctas_per_sm`` CTAs an SM): the PDL
    trigger after the first main loop on 16- and 32-token tiles; the spread activation pass on
    16-token tiles, and on 32-token tiles at one CTA an SM. It differs from
    ``pdl_trigger_plan`` (the plain GEMM's): the fused kernel gained from the spread with more
    tiles than CTAs. H200 2026-12-01, session 38, ``tools/fused_narrow_pair_probe.py``,
    permuted words, graph us, untriggered / triggered: 36864x7168 M = 16 50.22 / 49.46,
    M = 32 53.01 / 51.46; 34816x5120 M = 16 37.79 / 36.76; at 9..16 tokens on 9216x7168 (the
    small kernel until then, 20.47 / 20.53 / 20.49 at M = 9 / 12 / 16) 22.03 / 19.92, 21.98 /
    20.04, 22.01 / 20.02. At one CTA an SM the 32-token tiles lost to the trigger then
    (9216x7168 M = 32 22.99 / 23.30), before the asynchronous stream-K fix-up; session 51
    (2026-12-02, same probe, two rounds, untriggered / trigger / trigger + spread): 9216x7168
    M = 32 19.94, 20.00 / 19.09, 19.20 / 18.65, 18.58."""
    trigger = tile_m <= 32
    return trigger, tile_m <= 16 or (trigger and ctas_per_sm == 1)


# The "pieces" launches (K pieces, or their cluster pairs) with ``nvfp4_gemm``'s PDL trigger and
# spread activation pass where ``pdl_trigger_plan`` gives them. ``tools/pair_route_probe.py``
# (H200 2026-12-03, session 56 call 2, graph us, two rounds alike, untriggered / both):
# 4096x7168 M = 65 (four pieces) 18.90 / 18.15, M = 128 18.95 / 18.56, M = 192 (pairs) 26.26 /
# 25.42, M = 256 26.70 / 25.87; 1024x7168 M = 960 29.58 / 28.99, M = 1024 29.74 / 29.07 (with
# ``PDL_PAIR_TRIGGER_MAX_M``; cuBLAS + silu 29.4-29.8); call 3: 1024x7168 M = 512 (four
# pieces) 20.43 / 20.03. The 64-token pieces (1024x7168 at 65..256 tokens) gain too (session 57
# call 1, the probe's "_pdl64" form then, trigger from 128 / from 64 tokens): M = 100 14.42 /
# 13.79, M = 256 15.62 / 15.29. One wave of whole tiles lost with it
# (call 3, 1024x7168 M = 2048 with the trigger to 2048 tokens: 49.14 -> 49.49): "whole"
# launches keep none.
PIECES_PDL = True
PIECES_PDL_MIN_TILE_M = 64


def route_launch(route: str, plan, m: int, two_i: int, k: int) -> tuple[tuple, bool, dict]:
    """(config, stream_k, ``launch_large_m`` options) of the fused kernel's ``large_m_route``
    routes: "whole", "stream_k" (``fused_stream_k_options``), "hybrid" (``fused_fitted_route``'s
    data-parallel + stream-K hybrid on fitted tiles), "narrow" (the plain GEMM's
    launch, with its CTAs per SM and K groups) and "pieces" (plan (tile_m, splits): stream-K
    on tiles x splits CTAs, the plain GEMM's split-K launch; two pieces of 128-token tiles as
    cluster pairs, ``pieces_pair``; on tiles of ``PIECES_PDL_MIN_TILE_M`` tokens or more
    ``PIECES_PDL``'s trigger and spread pass, the option "spread_pass" for the caller to take
    out)."""
    if route == "whole":
        return plan, False, {}
    if route == "pieces":
        tile_m, splits = plan
        pair = pieces_pair(tile_m, splits, k)  # two pieces: a cluster pair's K halves
        options = {"pair_pieces": True} if pair else {"splits": splits}
        if PIECES_PDL and tile_m >= PIECES_PDL_MIN_TILE_M:  # (the caller takes "spread_pass")
            options["pdl_trigger"], options["spread_pass"] = pdl_trigger_plan(
                m, two_i, tile_m, TILE_N, 1 if pair else splits, False, pair, H200_SMS)
        return (tile_m, 0), not pair, options
    if route == "narrow":
        return (plan, 0), True, plain_launch_options(m, two_i, k, plan, True)
    if route == "hybrid":  # (plan: tile_m; whole tiles but the last one to two waves)
        return (plan, 0), True, {"hybrid": True}
    assert route == "stream_k", route
    return (plan, 0), True, fused_stream_k_options(m, two_i, k, plan)


# The fused op launches as ``nvfp4_gemm`` does on the [2I, K] weight where that takes 64-row
# tiles (``wg_k_split_plan``, with ``wg_k_pairs``' clusters): the fused kernel on 64-row tiles of
# half an interleave group (``NVFP4GemmSwigluQuantLargeM``'s ``wg_k_split``). Before, the fused
# op trailed the pair there (session 33's fp32 split route on the same GEMM launch: the fp32 round
# trip and a second launch). ``tools/fused_wgk_route_probe.py`` (H200 2026-12-01, session 34
# call 5, graph us, permuted words, NVFP4 activations; this route / the fp32 split route on the
# same GEMM launch / the unfused pair): 4096x7168 M = 17 11.80 / 13.13 / 12.54, M = 32 12.27 /
# 13.53 / 13.05, M = 64 13.96 / 15.27 / 14.91 (QuACK + silu + quant 19.7), M = 128 21.38 /
# 22.06 / 21.44, M = 256 27.58 / 29.06 / 28.65. Weights of at most ``HALF_GROUP_MIN_WEIGHTS``
# values keep their fused routes (the pair's GEMM there is the small kernel up to 64 tokens,
# and the rest is unmeasured). Activations on permuted words at 9..16 tokens take this route
# where ``nvfp4_gemm`` takes 64-row tiles there (``plain_wgmma_from_9_tokens``):
# ``tools/fused_narrow_pair_probe.py`` (H200 2026-12-01, graph us, small kernel / half-group
# pairs with the trigger and the spread pass, equal bits), NVFP4 (session 37 call 1):
# 4096x7168 M = 9 11.13 / 10.39, M = 12 11.19 / 10.53, M = 16 11.34 / 10.50; bf16 (W4A16,
# session 38, the pass ``reorder_k``'s spread copy): M = 12 15.02 / 10.54, M = 16 16.18 /
# 10.49, where M = 8 is even (10.52 / 10.52) and M = 4 keeps the small kernel (9.38 / 10.34).
# Packed weight bytes keep the small kernel there (unmeasured).
HALF_GROUP_MIN_WEIGHTS = 8 * 2**20


def half_group_route(m: int, i: int, k: int, a_fp4: bool = True,
                     permuted: bool = False) -> bool:
    """Whether ``nvfp4_gemm_swiglu_quant`` launches the fused kernel on half interleave groups
    as ``nvfp4_gemm`` launches the [2I, K] weight (the comment above)."""
    narrow = m >= 9 and permuted
    return ((m > 16 or narrow) and 2 * i * k > HALF_GROUP_MIN_WEIGHTS
            and not small_m_regime(m, 2 * i, k, a_fp4, permuted)
            and wg_k_split_plan(m, 2 * i, k) is not None)


def _half_groups(a, a_sf, w, w_sf, alpha, out_global_scale, out, out_sf,
                 compile_fn=compile_nvfp4_gemm_swiglu_quant_large_m,
                 pdl_trigger: bool | None = None, spread_pass: bool | None = None):
    """The fused wgmma kernel in 64-row tiles of half an interleave group, the warpgroups on
    the K groups (``NVFP4GemmSwigluQuantLargeM``'s ``wg_k_split``), launched as ``nvfp4_gemm``
    launches the [2I, K] weight (``planned_launch``: ``wg_k_split_plan``'s token tile and K
    pieces, two pieces in clusters of two CTAs where ``wg_k_pairs``, the PDL trigger and the
    spread activation pass where ``pdl_trigger_plan``; ``pdl_trigger`` / ``spread_pass``: a
    probe's choice instead, ``pdl_choices``); ``compile_fn`` (a probe's kernel variant) as
    ``launch_large_m``'s."""
    two_i, k, _ = weight_dims(w)
    m = a.shape[0]
    tile_m, splits, options = planned_launch(m, two_i, k, plain_plan(m, two_i, k),
                                             wg_k_split=True)
    spread = pdl_choices(options, pdl_trigger, spread_pass)
    rows = -(-m // tile_m) * tile_m
    k_order = wgmma_k_order(w, m if a_sf is None else 0, rows != m)
    launch_large_m(bf16_activations(a, a_sf, k_order, rows, spread), w,
                   w_sf, alpha, out_global_scale, out, out_sf, (tile_m, 0), k_order=k_order,
                   compile_fn=compile_fn, splits=splits, **options)


# NVFP4 activations of at least SWAPPED_MIN_TOKENS_PER_ROW tokens a weight row take the
# swapped kernel (``swiglu_quant_swapped``: its pass decodes the 2I x K weights, not the M x K
# activations) where its 128 x 256 tiles fill at least SWAPPED_MIN_WAVES of the SMs. H200
# 2026-12-03, session 54, ``tools/swapped_fused_probe.py``, permuted words, graph us, two
# rounds alike, normal route / swapped whole tiles / swapped stream-K (cuBLAS + silu):
# 1024x7168 M = 1024 32.0 / 75.0 / 41.6 (29.2), M = 2048 49.2 / 75.2 / 54.2 (47.8), M = 3072
# 78.4 / 75.7 / 69.7 (70.1), M = 4096 92.6 / 76.7 / 85.5 (88.7), M = 8192 182.1 / 146.2 /
# 156.3 (171.6), M = 16384 364.3 / 288.8 / 303.7 (349.4); 4096x7168 M = 8192 610.7-622.5 /
# 609.0-614.9 / 731.8, M = 16384 1305.3-1308.4 / 1251.4-1257.0 / 1474.2; 9216x7168
# M = 16384 (1.8 tokens a row) 2845.1 / 2853.3. Codes and scales equal to the normal
# route's at every point.
SWAPPED_MIN_TOKENS_PER_ROW = 2
SWAPPED_MIN_WAVES = 0.7
# Stream-K costs about SK_FIXED + SK_PER_WAVE waves of whole tiles for ``waves`` of them (the
# fix-up and the ranges; fitted to the 1024x7168 rows above: 15 + 74 w us against 71 us a
# wave of whole tiles, the weight pass's ~5 us in both), so it pays where the last wave of
# whole tiles is mostly empty.
SK_FIXED, SK_PER_WAVE = 0.14, 1.04
SWAPPED = True  # (probes switch it off)
# Under SWAPPED_MIN_WAVES the swapped kernel's stream-K still beats the normal route's own
# stream-K launch, from SWAPPED_STREAM_K_MIN_WAVES: H200 2026-12-03, session 58 call 2,
# ``tools/swapped_pair_probe.py``, permuted words, graph us, two rounds alike, normal route /
# swapped stream-K (cuBLAS + silu): 1024x7168 M = 2304 (0.55 waves) 60.73 / 57.86 (58.11),
# M = 2500 (0.61) 69.14 / 62.29 (59.69). Where the normal route has whole tiles it loses:
# M = 1536 45.72 / 46.73, 1792 47.15 / 51.44, 1920 47.82 / 51.99, 2048 48.93 / 54.17.
SWAPPED_STREAM_K_MIN_WAVES = 0.5


def swapped_route(m: int, two_i: int, k: int, a_fp4: bool, sms: int = H200_SMS) -> str | None:
    """The swapped kernel's launch, "whole" or "stream_k", or None (the normal routes): NVFP4
    activations, 2I a multiple of its 256-feature tiles, ``SWAPPED_MIN_TOKENS_PER_ROW`` and
    ``SWAPPED_MIN_WAVES``, or from ``SWAPPED_STREAM_K_MIN_WAVES`` where ``large_m_route``
    launches stream-K (the comments above)."""
    if not (SWAPPED and a_fp4 and two_i % FEATURE_TILE == 0
            and m >= SWAPPED_MIN_TOKENS_PER_ROW * two_i):
        return None
    waves = -(-m // TOKEN_TILE) * (two_i // FEATURE_TILE) / sms
    if waves < SWAPPED_MIN_WAVES:
        normal_stream_k = large_m_route(m, two_i // 2, k)[0] == "stream_k"
        return "stream_k" if normal_stream_k and waves >= SWAPPED_STREAM_K_MIN_WAVES else None
    return "stream_k" if SK_FIXED + SK_PER_WAVE * waves < math.ceil(waves) else "whole"


# bf16 activations (W4A16) on weights of at most BF16_WEIGHTS_MAX_WEIGHTS values from
# BF16_WEIGHTS_MIN_M tokens, where the route launches whole 128-token tiles: the weights
# through ``bf16_weights``' pass (2I x K bf16, whatever M is; ~5 us at 1024x7168) and the fused
# kernel on ``KOrder.BF16`` (both operands from shared memory, no decode in the main loop) on
# that launch. There each CTA's one tile decodes its weights in the main loop, on 128 tokens
# too few to hide it. Elsewhere the pass costs more than it saves: the K pieces' and the
# stream-K launches' bf16 kernel moves twice the bytes of the decoding one through the L2 and
# is no faster, and 256-token tiles hide the decode. H200 2026-12-03 (session 57 calls 2 and
# 3, ``tools/bf16_weights_probe.py``, permuted words, graph us, two rounds alike, decode /
# bf16 weights (cuBLAS + silu)): 1024x7168 whole tiles M = 1536 57.72 / 43.57 (39.04),
# M = 1800 58.68 / 49.10 (45.97), M = 2048 58.31 / 47.05 (49.12); K pieces M = 256 15.97 /
# 20.97 (19.36), M = 512 22.62 / 25.77 (22.46), M = 1000 34.89 / 33.41 (31.63), M = 1024
# 31.31 / 33.10 (30.72); stream-K M = 768 31.36 / 34.93 (32.79), M = 1100 43.12 / 44.89
# (32.27), M = 2500 84.89 / 87.23 (59.78), M = 3072 89.80 / 88.80 (71.57); 256-token tiles
# M = 4096 84.41 / 85.28 (91.64); 4096x7168 (its pass ~20 us) M = 512 45.04 / 64.91, M = 1024
# 82.41 / 98.88, M = 2048 164.08 / 179.39, M = 4096 330.16 / 342.18.
BF16_WEIGHTS = True
BF16_WEIGHTS_MIN_M = 512
BF16_WEIGHTS_MAX_WEIGHTS = 1024 * 7168
BF16_WEIGHTS_ROUTES = ("whole",)
BF16_WEIGHTS_TILE_M = 128  # (None: any; a probe's form)


def bf16_weights_route(m: int, two_i: int, k: int, a_fp4: bool, route: str, tile_m: int,
                       options: dict) -> bool:
    """Whether ``_large_m`` takes the bf16 weights' launch (the comment above) on ``route``
    with ``route_launch``'s token tile and ``options`` (one CTA an SM, not half groups; the
    probe's forms widen ``BF16_WEIGHTS_ROUTES`` and ``BF16_WEIGHTS_TILE_M``)."""
    return (BF16_WEIGHTS and not a_fp4 and m >= BF16_WEIGHTS_MIN_M
            and two_i * k <= BF16_WEIGHTS_MAX_WEIGHTS and route in BF16_WEIGHTS_ROUTES
            and BF16_WEIGHTS_TILE_M in (None, tile_m) and options.get("ctas_per_sm", 1) == 1
            and not options.get("wg_k_split"))


# bf16 activations (W4A16) on permuted words that the stream-K route cuts into 128-token tiles
# take 256-token ones where those need no padding (M a multiple of 256), so that the weights
# decode in place (``k_order.w4a16_in_place``: from W4A16_IN_PLACE_MIN_M tokens, or
# W4A16_IN_PLACE_NARROW_MIN_M on narrow weights, up to W4A16_IN_PLACE_MAX_N rows) on twice
# the tokens a decode: it hides there, not on 128. H200
# 2026-12-03 (session 57 calls 4, 5, ``tools/bf16_weights_probe.py``, graph us, two rounds
# alike, 128 / 256 (cuBLAS + silu)): 1024x7168 M = 1280 43.40 / 43.17 (33.51), M = 2304 68.63 /
# 59.84 (58.14), M = 2816 78.99 / 64.53 (65.32), M = 3072 88.95 / 71.99 (70.86), M = 4608
# 131.66 / 104.18 (110.17), M = 6656 201.66 / 181.15 (165.18); 4096x7168 M = 1792 198.13 /
# 151.66 (168.77). Where the tokens need padding (the reordering copy either way) the
# 256-token tiles lost: 1024x7168 M = 1100 43.17 / 56.34, M = 2500 84.56 / 86.98.
W4A16_STREAM_K_TILE_M = 256
# The same for the K pieces: two pieces of 128-token tiles (cluster pairs), or the 128-token
# stream-K, become four or three K pieces of 256-token tiles (W4A16_PIECES_SPLITS, the most
# that fit one wave) from W4A16_PIECES_MIN_M tokens. H200 2026-12-03, session 59 call 1,
# ``tools/stream_k_stretch_probe.py``, graph us, two rounds alike, route / four / three pieces
# (cuBLAS + silu): 1024x7168 M = 1024 31.23 / 30.16 / 38.55 (29.91), M = 1280 (stream-K)
# 43.05 / 46.79 (160 CTAs) / 39.72 (33.86); M = 512: 22.47 (in place 20.97) / 25.96 (in
# place); call 2, M = 768 (two pieces of 128-token tiles, in place) 30.81 / 28.48 (32.58).
# NVFP4 activations (a bf16 pass either way) lose on them: M = 1024 29.28 / 33.93, M = 1280
# 38.74 / 44.98. Memcheck / racecheck clean (``tools/sanitize_w4a16_pieces.py``). From 641
# tokens (three 256-token tiles, as 768; under it three K pieces of 128-token tiles with the
# copy take 27.4-28.3 us): session 60 call 5 (``tools/w4a16_tail_probe.py``, "w16_p641"),
# two K pieces of 128-token tiles / four of 256, both with the tail in place (cuBLAS + silu):
# M = 660 30.70 / 28.49 (23.30), M = 700 30.63 / 28.56 (25.03).
W4A16_PIECES = True
W4A16_PIECES_MIN_M = 641
W4A16_PIECES_SPLITS = (4, 3)
# Both hold on token tails (``k_order.w4a16_tail_in_place`` reads them in place: no copy, the
# TMA filling the tile past M) whose last 256-token tile is at least W4A16_256_MIN_FILL full,
# or whose padding is at most W4A16_256_MAX_PAD of M (``w4a16_256_on_tail``). H200 2026-12-03
# (session 60 calls 2-3, ``tools/w4a16_tail_probe.py``, graph us, two rounds alike, 128-token
# tiles with the tail in place / 256-token tiles in place (cuBLAS + silu)): 1024x7168 M = 1000
# (four K pieces) 31.3 / 29.6 (30.6), M = 1200 (three) 43.2 / 38.9 (32.7), stream-K M = 2200
# 68.3 / 58.7 (54.2), M = 2500 78.3 / 65.7 (59.7), M = 3000 89.2 / 72.2 (70.2), M = 5000
# 162.2 / 149.9 (108.5); call 4, 4096x7168 M = 1200 (copied before) 118.2 / 111.3 (105.5).
# Emptier last tiles stay on 128 tokens (1024x7168 M = 1300, 8% of 256: 45.2 / 46.4), unless
# that padding is a small share of M: there the 128-token stream-K misses the 256-token tiles'
# lanes (``large_m_plans.STREAM_K_LANES``). H200 2026-12-03, session 61 call 3
# (``tools/w4a16_wide_tail_probe.py``, graph us, two rounds alike, 128-token stream-K / 256
# in lanes, the tail in place (cuBLAS + silu)): 1024x7168 M = 4700 (36% full) 148.2 / 105.1
# (104.0), M = 7000 (34%) 206.7 / 144.8 (154.3); M = 1300 unchanged (45.3 / 45.3).
W4A16_256_ON_TAILS = True
W4A16_256_MIN_FILL = 0.45
W4A16_256_MAX_PAD = 0.05


def w4a16_256_on_tail(m: int) -> bool:
    """Whether the 256-token plans take M tokens whose last 256-token tile is partial (the
    comment above)."""
    pad = -m % W4A16_STREAM_K_TILE_M
    return W4A16_256_ON_TAILS and (W4A16_STREAM_K_TILE_M - pad >= W4A16_256_MIN_FILL
                                   * W4A16_STREAM_K_TILE_M or pad <= W4A16_256_MAX_PAD * m)

# W4A16 on three K pieces of 128-token tiles (1024x7168 at 513..640 tokens) keeps the
# reordering copy: the in-place decode lost there, tail or not. H200 2026-12-03 (session 60
# calls 2-3, ``tools/w4a16_tail_probe.py``, graph us, copy / in place): M = 530 27.45 / 28.23,
# M = 540 27.65 / 28.35, M = 580 27.38 / 28.28; session 59 call 3, M = 640 28.05 / 28.34
# (session 60 call 4: even, 28.3 / 28.3). On four pieces (M = 512) and two (641..1024
# tokens) it won (``k_order``'s comments).
W4A16_COPY_ON_PIECES = ((128, 3),)  # (token tile, K pieces)


def w4a16_copied(m: int, two_i: int, tile_m: int, options: dict) -> bool:
    """Whether ``_large_m``'s launch on ``tile_m``-token tiles with ``options`` takes bf16
    activations through ``reorder_k``'s copy whatever ``k_order.w4a16_in_place`` says: a
    partial last tile not read in place (``w4a16_tail_in_place``), or three K pieces of
    128-token tiles (the comment above)."""
    tail = m % tile_m != 0 and not w4a16_tail_in_place(m, two_i, tile_m)
    return tail or (tile_m, options.get("splits")) in W4A16_COPY_ON_PIECES


def w4a16_in_place_route(m: int, two_i: int, a_fp4: bool, permuted: bool, route: str,
                         plan, sms: int = H200_SMS) -> tuple[str, object]:
    """``large_m_route``'s ``(route, plan)``, or the 256-token tiles' for W4A16's stream-K
    launches (``W4A16_STREAM_K_TILE_M``) and K pieces (``W4A16_PIECES_SPLITS``) that then
    decode in place (the comments above)."""
    # (256-token tiles: padded unless M is a multiple of 256 or ``w4a16_256_on_tail`` takes
    # the tail and the launch reads it in place: the question ``_large_m`` asks of it,
    # w4a16_copied)
    padded = m % W4A16_STREAM_K_TILE_M != 0 and (
        not w4a16_256_on_tail(m) or w4a16_copied(m, two_i, W4A16_STREAM_K_TILE_M, {}))
    if (a_fp4 or not permuted or m < W4A16_PIECES_MIN_M
            or not w4a16_in_place(m, two_i, padded)):
        return route, plan
    if W4A16_PIECES and (route, plan) in (("pieces", (128, 2)), ("stream_k", 128)):
        tiles = -(-m // W4A16_STREAM_K_TILE_M) * -(-two_i // TILE_N)
        for splits in W4A16_PIECES_SPLITS:
            if splits * tiles <= sms:
                return "pieces", (W4A16_STREAM_K_TILE_M, splits)
    if route == "stream_k" and plan < W4A16_STREAM_K_TILE_M:
        return route, W4A16_STREAM_K_TILE_M
    return route, plan


# The swapped kernel's tiles as cluster pairs (``NVFP4GemmSwigluQuantSwapped(pair_pieces)``:
# each tile's two K halves, CTA r finishing interleave group r) on NVFP4 activations of at
# least SWAPPED_PAIRS_MIN_TOKENS_PER_ROW tokens a weight row, where those CTAs fill one wave
# to at least SWAPPED_PAIRS_MIN_WAVES: at 1024x7168 M = 2048 the 64 whole tiles leave half the
# SMs idle (75.2 us, session 54). H200 2026-12-03, session 58 call 2,
# ``tools/swapped_pair_probe.py``, permuted words, graph us, two rounds alike, normal route /
# pairs (cuBLAS + silu): 1024x7168 M = 1536 (96 CTAs) 45.72 / 44.95 (38.87), M = 1792 (112)
# 47.15 / 45.13 (47.08), M = 1920 (120) 47.82 / 45.28 (48.28), M = 2048 (128) 48.93 / 45.36
# (48.96).
SWAPPED_PAIRS = True
SWAPPED_PAIRS_MIN_WAVES = 0.7
SWAPPED_PAIRS_MIN_TOKENS_PER_ROW = 1.5


def swapped_pairs(m: int, two_i: int, k: int, a_fp4: bool, sms: int = H200_SMS) -> bool:
    """Whether ``_large_m`` takes the swapped kernel's cluster pairs (the comment above)."""
    pairs = 2 * -(-m // TOKEN_TILE) * (two_i // FEATURE_TILE)
    return (SWAPPED_PAIRS and SWAPPED and a_fp4 and two_i % FEATURE_TILE == 0
            and (k // 64) % 2 == 0 and m >= SWAPPED_PAIRS_MIN_TOKENS_PER_ROW * two_i
            and SWAPPED_PAIRS_MIN_WAVES * sms <= pairs <= sms)


class LargeMLaunch(NamedTuple):
    """``_large_m``'s launch of the fused wgmma kernel (``large_m_launch``)."""
    route: str  # large_m_route's (or packed_route's), after w4a16_in_place_route
    plan: object
    config: tuple | None  # (tile_m, stages[, ctas]); None: the fp32 split route (``plan``)
    stream_k: bool
    options: dict  # launch_large_m's keywords
    spread: bool  # the activations' pass spread over the SMs (``bf16_activations``)
    bf16_weights: bool  # the weights through their bf16 pass (``bf16_weights_route``)
    copied: bool  # W4A16 through reorder_k's copy whatever w4a16_in_place says


def large_m_launch(m: int, two_i: int, k: int, a_fp4: bool, w_dtype: torch.dtype
                   ) -> LargeMLaunch:
    """The launch ``_large_m`` takes where the swapped kernel does not (``swapped_pairs``,
    ``swapped_route``): the route for ``w_dtype`` weights (uint8 packed bytes or int32
    permuted words), with fitted token tiles where ``fused_fitted_route`` takes them, its
    config and options; pure in its arguments (tests and probes ask it on the CPU)."""
    route, plan = (packed_route if w_dtype == torch.uint8 else large_m_route)(m, two_i // 2, k)
    route, plan = fused_fitted_route(m, two_i, k, a_fp4, route, plan)
    route, plan = w4a16_in_place_route(m, two_i, a_fp4, w_dtype == torch.int32, route, plan)
    if route == "split":
        return LargeMLaunch(route, plan, None, False, {}, False, False, False)
    config, stream_k, options = route_launch(route, plan, m, two_i, k)
    spread = options.pop("spread_pass", False)
    if route == "narrow":
        options["pdl_trigger"], spread = narrow_pdl_plan(config[0], options["ctas_per_sm"])
    return LargeMLaunch(route, plan, config, stream_k, options, spread,
                        bf16_weights_route(m, two_i, k, a_fp4, route, config[0], options),
                        w4a16_copied(m, two_i, config[0], options))


def _large_m(a, a_sf, w, w_sf, alpha, out_global_scale, out, out_sf):
    """``large_m_launch`` (W4A16 kernels; NVFP4 activations through ``bf16_activations``, as
    ``nvfp4_gemm`` at large M), or the swapped kernel (``swapped_route``)."""
    two_i, k, _ = weight_dims(w)
    m = a.shape[0]
    swapped = ("pair" if swapped_pairs(m, two_i, k, a_sf is not None)
               else swapped_route(m, two_i, k, a_sf is not None))
    if swapped is not None:
        launch_swapped(bf16_gate_up_weights(w, w_sf), a, a_sf, alpha, out_global_scale, out,
                       out_sf, stream_k=swapped == "stream_k", pair_pieces=swapped == "pair")
        return
    launch = large_m_launch(m, two_i, k, a_sf is not None, w.dtype)
    if launch.route == "split":
        launch_split_route(a, a_sf, w, w_sf, alpha, out_global_scale, out, out_sf, launch.plan)
        return
    tile_m = launch.config[0]
    rows = -(-m // tile_m) * tile_m  # whole token tiles: the TMA stays inside the buffer
    if launch.bf16_weights:
        k_order = KOrder.BF16  # bf16 a as it is, the weights through their pass
        acts, weights = a, bf16_weights(w, w_sf)
    else:
        k_order = wgmma_k_order(w, m if a_sf is None else 0, launch.copied)
        acts, weights = bf16_activations(a, a_sf, k_order, rows, launch.spread), w
    launch_large_m(acts, weights, w_sf, alpha, out_global_scale, out, out_sf, launch.config,
                   stream_k=launch.stream_k, k_order=k_order, **launch.options)


def _validate(a, a_sf, w, w_sf, out, out_sf) -> tuple[int, int, int]:
    """Dtypes and shapes, then devices and memory layout (CPU inputs: all on the CPU); (M, I, K)."""
    m, n, k = check_operands(a, a_sf, w, w_sf, b_name="w")
    if n % (2 * GATE_UP_GROUP):
        raise ValueError(f"w: 2I = {n} rows must be a multiple of {2 * GATE_UP_GROUP} (groups of "
                         f"{GATE_UP_GROUP} up + {GATE_UP_GROUP} gate rows from "
                         f"prepare_gate_up_weight), got shape {tuple(w.shape)}")
    i = n // 2
    if out is not None:
        check_dtype("out", out, torch.uint8)
        if tuple(out.shape) != (m, i // 2):
            raise ValueError(f"out: expected packed uint8 of shape ({m}, {i // 2}), got "
                             f"{tuple(out.shape)}")
    if out_sf is not None:
        check_dtype("out_sf", out_sf, torch.float8_e4m3fn, torch.uint8)
        mp, kbp = sf_padded_shape(m, i // BLOCK)
        if out_sf.numel() != mp * kbp:
            raise ValueError(f"out_sf: expected the swizzled scale buffer of {mp}x{kbp} = "
                             f"{mp * kbp} bytes for M={m}, I={i}, got shape "
                             f"{tuple(out_sf.shape)}")
    named = [("w", w), ("w_sf", w_sf), ("a", a)] + ([("a_sf", a_sf)] if a_sf is not None else [])
    named += [(name, t) for name, t in (("out", out), ("out_sf", out_sf)) if t is not None]
    if w.is_cuda:
        check_placement(named, like=w)
    else:
        for name, t in named:
            if t.device != w.device:
                raise ValueError(f"{name}: on {t.device}, but w is on {w.device}")
            check_contiguous(name, t)
    return m, i, k


def nvfp4_gemm_swiglu_quant(a: torch.Tensor, a_sf: torch.Tensor | None, w: torch.Tensor,
                            w_sf: torch.Tensor, alpha, out_global_scale,
                            out: torch.Tensor | None = None, out_sf: torch.Tensor | None = None
                            ) -> tuple[torch.Tensor, torch.Tensor]:
    """gate_up GEMM + SwiGLU + NVFP4 quantization of h in one launch (at large M, NVFP4
    activations are dequantized to bf16 first).

    a: packed uint8 [M, K/2] with swizzled e4m3 ``a_sf``, or bf16 [M, K] with ``a_sf=None``.
    w, w_sf: ``prepare_gate_up_weight``'s [2I, K/2] uint8 (or, with ``permute=True``, int32
    words [2I, K/8], decoded faster) and swizzled e4m3 scales (I a multiple of 64, K of 64).
    alpha = input_scale * weight_scale_2 and out_global_scale = the down projection's
    input_scale_inv: floats or one-element fp32 tensors.
    ``h = (alpha * up) * silu(alpha * gate)`` in fp32, quantized with G = out_global_scale.
    ``w`` and ``w_sf`` must not be written by the launch just before this call: with PDL the
    small-M kernel reads them while that launch may still run (README "Launches").

    Returns ``(out, out_sf)``: ``out`` uint8 [M, I/2] (element 2i in the low nibble),
    ``out_sf`` float8_e4m3fn [pad128(M), pad4(I/16)], swizzled, rows past M zero. ``out`` /
    ``out_sf``: optional buffers to write (``out_sf`` uint8 or e4m3, any shape with the right
    byte count; the result is an e4m3 [pad128(M), pad4(I/16)] view of it). CPU tensors take
    ``reference.gemm_swiglu_quant``.

    Route: the fused small-M kernel (``swiglu_small_m_regime``; K split in the launch where its
    CTAs fill at most half the GPU), else the fused wgmma kernel: where ``nvfp4_gemm`` runs
    64-row tiles on the [2I, K] weight, on half interleave groups launched as it
    (``half_group_route``); otherwise in stream-K where whole
    tiles would leave the last wave mostly empty (``stream_k_plan``); where it does not take
    stream-K but its grid would still starve, or where ``nvfp4_gemm``'s own launch has
    narrower token tiles, that wgmma GEMM (with split K, or as ``nvfp4_gemm`` launches it)
    writes fp32 pre-activations and a second kernel forms h in fp32 and quantizes it
    (``swiglu_split_route``), with this function's numerics. On gate_up weights of 4096 rows
    or more from 129 tokens, the fused kernel's whole and stream-K launches take token tiles
    fitted to M (144..240 tokens), whole, stream-K or the data-parallel + stream-K hybrid,
    where ``fitted_tiles.fused_fitted_route`` takes them. At one token on permuted words the
    small-M kernel may run on the balanced grid (``swiglu_quant_balanced``;
    ``nvfp4_gemm_balanced.FUSED_ONE_TOKEN_BALANCED``, ``public_balanced_launch``). The
    unfused ``nvfp4_gemm`` + ``silu_mul_nvfp4_quant`` pair itself is never taken: it rounds
    gate, up and h to bf16, moving 3-8% of the block scales off the fp32 numerics. Crossover table:
    ``python -m cute_kernels.bench swiglu``.
    """
    if (torch.compiler.is_compiling() and out is None and out_sf is None
            and isinstance(alpha, torch.Tensor) and isinstance(out_global_scale, torch.Tensor)):
        return torch.ops.cute_kernels.nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha,
                                                              out_global_scale)
    m, i, k = _validate(a, a_sf, w, w_sf, out, out_sf)
    alpha_t = as_scale_tensor("alpha", alpha, w.device)
    gs_t = as_scale_tensor("out_global_scale", out_global_scale, w.device)
    mp, kbp = sf_padded_shape(m, i // BLOCK)
    if out is None:
        out = torch.empty((m, i // 2), dtype=torch.uint8, device=w.device)
    if out_sf is None:
        out_sf = torch.empty((mp, kbp), dtype=torch.uint8, device=w.device)
    sf_bytes = out_sf.view(torch.uint8).view(mp, kbp)
    if m == 0:
        return out, sf_bytes.view(torch.float8_e4m3fn)
    if not w.is_cuda:
        q, sf = reference.gemm_swiglu_quant(a, a_sf, w, w_sf, alpha_t, gs_t)  # either layout
        out.copy_(q)
        sf_bytes.copy_(sf.view(torch.uint8))
    elif balanced := nvfp4_gemm_balanced.public_balanced_launch(
            nvfp4_gemm_balanced.FUSED_ONE_TOKEN_BALANCED, m, 2 * i, k, a_sf is not None,
            w.dtype == torch.int32, w.device, row_groups=2):
        # (imported here: that module builds on this one's small-M kernel)
        from .swiglu_quant_balanced import launch_swiglu_quant_balanced
        launch_swiglu_quant_balanced(a, a_sf, w, w_sf, alpha_t, gs_t, out, sf_bytes, *balanced)
    elif half_group_route(m, i, k, a_sf is not None, w.dtype == torch.int32):
        _half_groups(a, a_sf, w, w_sf, alpha_t, gs_t, out, sf_bytes)
    elif swiglu_small_m_regime(m, i, k, a_sf is not None, w.dtype == torch.int32):
        launch_small_m(a, a_sf, w, w_sf, alpha_t, gs_t, out, sf_bytes,
                       swiglu_small_m_config(m, i, k, w.dtype == torch.int32, a_sf is not None))
    else:
        _large_m(a, a_sf, w, w_sf, alpha_t, gs_t, out, sf_bytes)
    return out, sf_bytes.view(torch.float8_e4m3fn)


# ---- torch.compile: a custom op (fresh outputs, tensor scalars) ---------------------------------
@torch.library.custom_op("cute_kernels::nvfp4_gemm_swiglu_quant", mutates_args=())
def _nvfp4_gemm_swiglu_quant_op(a: torch.Tensor, a_sf: torch.Tensor | None, w: torch.Tensor,
                                w_sf: torch.Tensor, alpha: torch.Tensor,
                                out_global_scale: torch.Tensor
                                ) -> tuple[torch.Tensor, torch.Tensor]:
    return nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, out_global_scale)


@_nvfp4_gemm_swiglu_quant_op.register_fake
def _(a, a_sf, w, w_sf, alpha, out_global_scale):
    m, i = a.shape[0], w.shape[0] // 2
    mp, kbp = (m + 127) // 128 * 128, (i // BLOCK + 3) // 4 * 4
    return (a.new_empty((m, i // 2), dtype=torch.uint8),
            a.new_empty((mp, kbp), dtype=torch.float8_e4m3fn))
