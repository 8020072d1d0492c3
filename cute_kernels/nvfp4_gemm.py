"""``nvfp4_gemm``: D [M, N] = alpha * A @ B^T with NVFP4 weights B, for sm_90.

A is NVFP4 too (packed [M, K/2] + swizzled scales, e.g. from ``nvfp4_quantize`` or the fused
SwiGLU kernel: the ``down_proj`` that takes pre-quantized input), or bf16 [M, K] with
``a_sf=None`` (weight-only W4A16). Products are ``e2m1 * scale`` values, exact in bf16, so
decoding to bf16 for the tensor cores loses nothing; accumulation is fp32.

Regimes (chosen by ``small_m_regime``):
* small M: ``nvfp4_gemm_small_m`` — operands swapped so weight rows fill the MMA's 16-row side,
  FP4 decoded from global memory straight into registers, ``mma.sync``; a weight stream. It can
  also split K over grid z and reduce in the same launch (``nvfp4_gemm_small_m_split``, a
  config's optional fifth element; ``small_m_config`` takes it for long K with few rows).
  At one token the same kernel may run on a grid with the same work on every SM
  (``nvfp4_gemm_balanced``, ``ONE_TOKEN_BALANCED``: at the measured CTAs an SM,
  ``public_balanced_launch``; on NVFP4 tokens at 9216 rows on the H200's memory one CTA an
  SM in three row groups, ``plain_row_group_launch``).
* large M: ``nvfp4_gemm_large_m`` — persistent TMA + wgmma, the packed weights decoded from
  shared memory into the wgmma A-operand registers (weights as A, tokens as B); NVFP4
  activations are dequantized to bf16 first (exact). Where whole output tiles would leave the
  last wave mostly empty the CTAs share out (tile, k-tile) units evenly instead (stream-K,
  ``stream_k_plan``; cut tiles summed in order by their last CTA, deterministic; from two
  full waves of tiles, only the last one to two waves' worth: the hybrid); else where the
  tiles fill less than one wave K is split over several CTAs (``large_m_plan``).

Limits: K a multiple of 64 (four scale blocks per lane), any N >= 1, any M >= 0; b_sf/a_sf the
padded swizzled buffers ([pad128(rows), pad4(K/16)] e4m3, as ``reference.nvfp4_quantize``
returns); alpha a float or a one-element fp32 device tensor.
"""

from __future__ import annotations

import functools

import torch

from layouts import sf_padded_shape

from . import nvfp4_gemm_balanced
from .arch import h200_class_memory, sm_count
from .k_order import wgmma_k_order
from .large_m_plans import (packed_plan, pdl_trigger_plan, pieces_pair, plain_launch_options,
                             plain_plan, plain_stream_k_lanes, plain_wgmma_from_9_tokens,
                             wg_k_pairs, wg_k_split_plan, wgmma_from_9_tokens,
                             wide_stream_k_lanes)
from .nvfp4_dequant import bf16_activations
from .nvfp4_gemm_large_m import (H200_SMS, TILE_N, compile_nvfp4_gemm_large_m,
                                 launch_large_m)
from .nvfp4_gemm_small_m import (K_ALIGN, STEP, NVFP4GemmSmallM, compile_nvfp4_gemm_small_m,
                                 lane_columns_route, warp_steps)
from .nvfp4_gemm_small_m_split import (compile_nvfp4_gemm_small_m_split, config_compile_tail,
                                       config_splits, split_buffers)
from .permuted_fp4 import weight_dims
from .validate import as_scale_tensor, check_contiguous, check_cuda, check_dtype

_OUT_DTYPES = (torch.bfloat16, torch.float16, torch.float32)

# Where the two kernels cross over, measured on the H200 (2026-11-29, W4A4, graph us; the
# table is printed by ``python -m cute_kernels.bench nvfp4_gemm --sweep``; "large" is the
# wgmma kernel with 128-token tiles):
#   N x K         M=16: small / large   M=32            M=64            M=128
#   7168x18432    49.7 / 122.9          110.2 / 123.2   124.3 / 123.3   240.7 / 125.2
#   5120x17408    46.2 / 116.7          106.6 / 117.1   116.2 / 118.3   228.3 / 118.8
#   36864x7168    74.4 / 144.9          140.4 / 145.0   242.9 / 147.3   473.8 / 184.7
#   34816x5120    51.9 / 106.0          102.1 / 107.0   177.7 / 108.7   331.7 / 136.1
#   9216x7168     26.0 /  52.4           56.9 /  52.3    82.8 /  53.0   134.7 /  64.5
#   4096x7168     12.2 /  51.5           23.1 /  51.7    29.5 /  52.0    55.7 /  52.7
#   7168x2048      8.1 /  19.7           11.2 /  19.8    17.4 /  20.1    31.2 /  20.4
# and with 64-token wgmma tiles (``large_m_config``'s choice at M <= 64; W4A16,
# ``tools/tile_m_probe.py``):
#   N x K         M=32: small / large64 M=64
#   36864x7168    195.7 / 142.7         342.7 / 144.9
#   34816x5120    143.3 / 103.2         249.2 / 105.4
#   7168x18432    111.5 / 118.9         144.8 / 119.2
#   9216x7168      79.4 /  48.5         115.5 /  49.3
SMALL_M_MAX = 64  # above this the wgmma kernel always wins
X_SMEM_TOKENS = 2  # the small-M kernels stage the activations in shared memory up to here
# (two only where ``_stage_two_tokens``)
# The plain GEMM's own limits: up to PLAIN_X_SMEM_TOKENS tokens whose staged activations take
# at most PLAIN_STAGE_BYTES. 3..8 tokens staged lost to the routes at every point
# (``tools/staged_tokens_probe.py``, H200 session 73: 9216x7168 W4A16 M = 4 20.69 us at best
# against 16.84).
PLAIN_X_SMEM_TOKENS = 2
PLAIN_STAGE_BYTES = 48 * 1024
# with a K split, whole 8-token tiles are staged where their K slice takes at most this
# (a guess to be measured: tools/small_split_probe.py)
STAGED_TILE_BYTES = 48 * 1024


SMALL_M_SHORT_K = 2048  # K up to which small weights keep the small-M kernel to 32 tokens


# W4A16 (bf16 activations) takes the wgmma kernel from this many tokens with K > SMALL_M_SHORT_K,
# from W4A16_WGMMA_MIN_M_BIG on weights over W4A16_BIG_WEIGHTS values (over W4A16_MID_WEIGHTS
# with K > SMALL_M_SHORT_K), one more on packed bytes where the small kernel splits K there
# (``small_m_regime``)
W4A16_WGMMA_MIN_M = 9
W4A16_WGMMA_MIN_M_BIG = 4
W4A16_BIG_WEIGHTS = 32 * 2**20
W4A16_MID_WEIGHTS = 8 * 2**20


# asked on every call's host path, W4A16 on big weights through ``small_m_config``: memoized
@functools.lru_cache(maxsize=4096)
def small_m_regime(m: int, n: int, k: int, a_fp4: bool = True, permuted: bool = False) -> bool:
    """Whether the mma.sync weight-streaming kernel handles this M (else the wgmma kernel): up to 16
    tokens (W4A16 up to 8 with K > 2048, up to 3 on weights over 32 Mi values, or over 8 Mi with K >
    2048, or 4 where the small kernel splits K, and never past 16); W4A4 up to 64 for weights of at
    most 8 Mi elements (unchanged, not re-measured), up to 32 for weights of at most 32 Mi elements
    with short K (``SMALL_M_SHORT_K``). Bigger weights take the wgmma kernel from 17 tokens: with
    split-K its starved grids (7168x18432: 56 CTAs) fill the GPU, 7168x18432 M = 17..64 takes 65-67
    us there against 111 at M = 32 in the small kernel (H200, 2026-11-29, ``tools/split_probe.py``).
    Small weights measured on permuted words (H200 2026-11-30, ``tools/mid_m_probe.py``, small
    kernel / best wgmma launch, us): 4096x7168 M = 32 23.6 / 20.0, M = 64 28.7 / 20.8 (split K 4, 64
    tokens); 7168x2048 M = 32 11.0 / 13.8, M = 64 16.6 / 14.6. The tables above are the rest of the
    evidence.

    W4A16 (``a_fp4`` False) at 9..16 tokens: the small kernel's two token tiles load 16 bf16 token
    lanes per step (H200 2026-11-30, ``tools/w4a16_regime_probe.py``, permuted words, M = 12 / 16,
    small / wgmma us): 7168x18432 53.1 / 50.8, 56.8 / 49.6; 5120x17408 53.1 / 35.8, 56.9 / 35.9;
    9216x7168 54.0 / 34.6, 59.9 / 34.2; 4096x7168 20.4 / 18.4, 21.6 / 18.5. Short K keeps the small
    kernel (7168x2048 14.1 / 15.8, 15.0 / 15.5). The biggest weights kept it too until the wgmma
    kernel's narrow tiles (sessions 17-20) and ``reorder_k`` (H200 2026-12-01,
    ``tools/w4a16_order_probe.py``, small / wgmma us: permuted words 36864x7168 M = 12 88.2 / 49.9,
    M = 16 95.7 / 50.0, 34816x5120 M = 16 69.9 / 37.8; packed bytes, the small kernel measured in
    session 28, the wgmma one in ``KOrder.PAIRS``: 36864x7168 M = 12 87.9 / 52.0, M = 16 95.7 /
    52.0, 34816x5120 M = 16 70.2 / 39.3). At 4..8 tokens (the small kernel's register path) the
    wgmma kernel's 16-token tiles win on weights over 32 Mi values (H200 2026-12-01,
    ``tools/w4a16_order_probe.py``, small / wgmma us, packed bytes in PAIRS; permuted words alike,
    1-2 us faster on both sides): M = 8 36864x7168 61.9 / 52.3, 34816x5120 46.3 / 39.2, 7168x18432
    37.6 / 32.8, 9216x7168 27.9 / 21.7, 5120x17408 28.0 / 25.7; 9216x7168 M = 6 25.3 / 21.6;
    36864x7168 M = 5 54.5 / 52.2; M = 4 36864x7168 54.3 / 52.4, 34816x5120 40.4 / 39.2, 7168x18432
    33.5 / 32.7, 9216x7168 22.6 / 21.5, but not 5120x17408 on packed bytes, whose small kernel
    splits K in three (24.5 / 25.7: it waits for 5 tokens). On permuted words 5120x17408 takes
    it from 4 tokens too: the wgmma launch is the same 16-token tile at 4 and 8 tokens
    (``plain_plan``), and the suites timed the small kernel at M = 4 slower than that tile at
    M = 8 (H200 2026-12-05, session 73's staged probe, public us: M = 4 23.48 / M = 8 21.12;
    H100 2026-12-05, session 74's suite: 27.09 / 25.30). At 3 tokens the small kernel wins
    (36864x7168 51.2 / 52.3). Since ``reorder_k``'s copy spreads under the triggering wgmma
    launch, 4096x7168 (over 8 Mi values, long K) takes it from 4 tokens too (H200 2026-12-01,
    session 38, ``tools/w4a16_spread_probe.py`` and ``tools/w4a16_config_probe.py``, small
    kernel (best of nine configs) / wgmma us: packed M = 4 13.25 (10.53) / 9.95, M = 8 14.69
    (12.04) / 10.01; permuted M = 8 13.78 / 9.52); it had kept the small kernel (M = 8 14.3 /
    16.3 before). 7168x2048 (short K) keeps it, on two row tiles (``small_m_config``). Past 16
    tokens W4A16 always takes the wgmma kernel (the small-M extensions below were measured on
    W4A4): the nvfp4_gemm suite (H200 2026-11-30, session 16) had 7168x2048 W4A16 at M = 32 in
    the small kernel at 18.5 us, at M = 64 in the wgmma one at 13.9.

    W4A4 at 9..16 tokens takes the wgmma kernel where its stream-K tiles give each SM enough
    (tile, k-tile) units (``wgmma_from_9_tokens``): 7168x18432, 36864x7168, 34816x5120 and
    5120x17408; on ``permuted`` words also 4096x7168 and 9216x7168
    (``plain_wgmma_from_9_tokens``: its PDL trigger and spread activation pass).

    Short K over 8 Mi values (7168x2048) where the wgmma kernel has 64-row tiles
    (``wg_k_split_plan``): W4A4 at
    17..32 tokens and W4A16 at 9..16 take it (H200 2026-12-01, session 33,
    ``tools/wg_k_split_regime_probe.py``, permuted words, small / wgmma us: W4A4 M = 17 9.63 /
    7.51, M = 24 9.65 / 7.55, M = 32 9.67 / 7.57; W4A16 M = 9 12.74 / 7.68, M = 12 13.53 / 7.66,
    M = 16 15.02 / 7.74). W4A4 at 9..16 keeps the small kernel (7168x2048 M = 16 6.31 / 7.36;
    4096x7168 M = 16 10.56 / 12.29)."""
    short_k_wgmma = (k <= SMALL_M_SHORT_K and n * k > 8 * 2**20
                     and wg_k_split_plan(m, n, k) is not None)
    if not a_fp4:
        first = W4A16_WGMMA_MIN_M
        if n * k > W4A16_BIG_WEIGHTS or (n * k > W4A16_MID_WEIGHTS and k > SMALL_M_SHORT_K):
            split = not permuted and config_splits(
                small_m_config(W4A16_WGMMA_MIN_M_BIG, n, k, False)) > 1
            first = W4A16_WGMMA_MIN_M_BIG + split
        if m > 16 or (m >= first and (k > SMALL_M_SHORT_K or short_k_wgmma)):
            return False
    if a_fp4 and 9 <= m <= 16 and (plain_wgmma_from_9_tokens(n, k) if permuted
                                   else wgmma_from_9_tokens(n, k)):
        return False
    if m <= 16 or (m <= SMALL_M_MAX and n * k <= 8 * 2**20):
        return True
    return (m <= 32 and n * k <= 32 * 2**20 and k <= SMALL_M_SHORT_K
            and not short_k_wgmma)


# Split K in three where a long-K weight gives at most this many small-M CTAs per SM (one and a
# bit: 5120x17408's 160 gain, 7168x18432's 224 do not)
SPLIT_WAVE_FRACTION = 1.5


def small_m_config(m: int, n: int, k: int, a_fp4: bool = True,
                   permuted: bool = False) -> tuple[int, ...]:
    """(row_tiles, token_tiles, warps, prefetch[, splits]) for the small-M kernel: the best of
    ``python -m cute_kernels.bench nvfp4_gemm --sweep`` on the H200 (2026-11-29). Big weights
    want two row tiles per warp (the activation decode amortized over 32 rows); short K wants
    more warps per CTA (more loads in flight per row block). Long K at 9..16 tokens takes the
    cp.async ring with 3 steps in flight (``tools/ring_probe.py``, W4A4: 7168x18432 M = 16
    44.0 us against 50.2); elsewhere the ring measured slower than the register double
    buffer. W4A16 (``a_fp4`` False) keeps the register path there: its bf16 activations
    would triple the ring's shared memory (one CTA per SM), unmeasured. Since session 27
    weights of 64 Mi values or more take the register prefetch at 9..16 fp4 tokens instead
    (packed bytes, where the small kernel runs there below ``wgmma_from_9_tokens``'s bar;
    ``tools/plain_packed_narrow_probe.py``,
    M = 12 / 16, us: 7168x18432 ring 41.4 / 43.0, no prefetch 44.5 / 44.5, prefetch 39.4 /
    39.6; 36864x7168 no prefetch 64.8 / 64.9, prefetch 61.6 / 61.1; 34816x5120 46.3 / 46.5 ->
    44.9 / 44.9); 5120x17408's K split keeps it off (27.8 / 27.9 against 31.9 / 31.3).

    Long K whose CTAs barely pass one per SM splits K in three (``SPLIT_WAVE_FRACTION``;
    ``tools/small_split_probe.py``, H200 2026-11-30, W4A4: 5120x17408 is 160 CTAs, M = 1
    22.1 us against 27.7, M = 8 26.1 against 31.3, M = 16 32.3 against the ring's 41.8;
    7168x18432 at 224 CTAs and every K = 7168 shape measured no gain from 2, 3, 4 or 6).

    Permuted weight words (``permuted``, W4A4) decode with fewer instructions, which moves
    three choices (``tools/permuted_config_probe.py``, H200 2026-11-30, us):
    ``_permuted_w4a4_config``."""
    if permuted and a_fp4 and m <= 16:
        return _permuted_w4a4_config(m, n, k)
    big = n * k >= 64 * 2**20
    if m <= 8:
        config = (2 if big else 1), 1, (8 if k <= 2048 else 4), 1
    elif m <= 16:
        if big and a_fp4:  # the register prefetch (below)
            config = 2, 2, 4, 1
        elif k >= 16384 and a_fp4:
            config = 2, 2, 4, 3
        else:
            config = (2, 2, 4, 0) if big else (1, 2, 4, 1)
    elif k <= 2048:
        return 2, 2, 4, 0
    else:
        return (4 if k >= 16384 else 2), 4, 4, 0
    rt, jt = config[:2]
    ctas = -(-n // (16 * rt)) * -(-m // (8 * jt))
    # W4A16 at 3..8 tokens (the register path) keeps the register prefetch only with two row
    # tiles on whole K. H200 2026-12-01 (``tools/plain_w4a16_prefetch_probe.py``, M = 3 / 4 /
    # 8, packed and permuted words alike, prefetch on / off, us): two row tiles, 36864x7168
    # packed 50.9 / 58.4, 54.3 / 63.2, 62.1 / 75.1, 7168x18432 permuted 30.8 / 34.3 .. 36.2 /
    # 38.0 (permuted 34816x5120 M = 3 even); one row tile of 4 warps, 9216x7168 permuted
    # 24.8 / 19.9, 28.2 / 22.2, 36.2 / 27.4; split in three, 5120x17408 permuted 27.3 / 22.6,
    # 28.2 / 23.4, 31.3 / 26.1. (4096x7168 takes the same one-tile config, unmeasured; the
    # 8-warp config of short K, 7168x2048, keeps it, unmeasured.)
    w4a16_register_path = not a_fp4 and 3 <= m <= 8
    if k >= 16384 and ctas <= SPLIT_WAVE_FRACTION * H200_SMS:
        return rt, jt, config[2], int(m <= 8 and not w4a16_register_path), 3
    if w4a16_register_path and rt == 1 and config[2] == 4:
        return (*config[:3], 0)
    # Short K on the register path: two row tiles of 8 warps read the activations half as often
    # (H200 2026-12-01, session 38, ``tools/w4a16_config_probe.py``, permuted words, 7168x2048,
    # (1, 1, 8, 1) / (2, 1, 8, 1) us: M = 4 7.32 / 5.06, M = 8 8.67 / 5.98; the wgmma launch
    # 7.2 / 6.9)
    if w4a16_register_path and k <= SMALL_M_SHORT_K:  # (8 warps there)
        return 2, 1, 8, 1
    return config


# One token, big weights, K < 16384, where each warp walks at least this many K steps: the one
# row tile a warp on two row groups of four warps (the fused op's (1, 1, 8, 1, 1, 2)), which
# takes the second step under the token staging (``NVFP4GemmSmallM.small_m_under_staging``).
# H100 2026-12-06 (session 91 call 2, ``tools/small_m_rg_probe.py``, graph us, two rounds,
# (1, 1, 4, 1) / under alone / two groups alone / two groups with it): 36864x7168 (7 steps a
# warp) 54.48, 54.44 / 54.74, 54.62 / 54.68, 54.67 / 53.40, 53.36; 34816x5120 (5 steps)
# 37.76, 37.75 / 39.20 / 38.01 / 37.74, 37.75 (even: not taken). Its weights fit neither
# card's L2, so the H100's DRAM regime is the H200's. (On the H200 the two groups alone had
# lost at 9216x7168 M = 1, 12.87 -> 13.90, session 42; that point is on the balanced grid.)
PLAIN_M1_ROW_GROUPS_MIN_STEPS = 6


def _permuted_w4a4_config(m: int, n: int, k: int) -> tuple[int, ...]:
    """``small_m_config`` at M <= 16 on permuted words (H200 2026-11-30, graph us, default ->
    this config):

    - one token, big weights with K < 16384: one row tile per warp, twice the CTAs
      (36864x7168 45.65 -> 44.09, 34816x5120 33.43 -> 31.33); where a warp walks
      ``PLAIN_M1_ROW_GROUPS_MIN_STEPS`` steps, as two row groups (H100, session 91);
    - one token, weights <= 32 Mi values: 8 warps per CTA (4096x7168 8.36 -> 7.88);
    - 3..8 tokens with long K (the register path: 3 CTAs per SM) on at most two CTAs per SM:
      K split in two where that fits one wave of 3 CTAs per SM, else (session 11) in three
      (5120x17408 M = 4 / 8 27.31 / 27.13 -> 23.51 / 23.45; 7168x18432 33.77 / 33.83 -> 32.10 /
      31.69);
      one row tile in two splits where that grid is one wave at the register path's five CTAs
      per SM (``tools/wave_config_probe.py``, session 15: 5120x17408 M = 4 (2, 1, 4, 1, 2)
      20.82 -> (1, 1, 4, 1, 2) 20.18); where that would not fit, one row tile of 8 warps on
      whole K (session 19, ``tools/near_miss_probe.py``, two rounds: 7168x18432 M = 4 / 8
      (2, 1, 4, 1, 3) 27.88, 27.75 / 27.82, 27.80 -> (1, 1, 8, 1) 27.24, 27.09 / 27.26, 27.25;
      (2, 1, 4, 1) 27.45, 27.39 / 27.58, 27.58).
    - 9..16 tokens, K < 16384, weights >= 32 Mi values: two row tiles with the register
      prefetch, three CTAs per SM (``min_ctas``), since session 14's operand change
      (``tools/m16_config_probe.py``, M = 12 / 16: 36864x7168 (2, 2, 4, 0) 60.99 / 61.67 ->
      57.41 / 57.88, 34816x5120 43.82 / 43.95 -> 42.69 / 42.31, 9216x7168 (1, 2, 4, 1) 23.25 /
      23.29 -> 20.95 / 20.78; long K keeps the ring (7168x18432 M = 16 38.57 against 39.07)
      and the split (5120x17408 26.92 against 30.54)).
    One or two tokens keep the packed rules' splits (5120x17408 M = 1: three 19.83, two 21.5;
    7168x18432 M = 1: none 26.80, three 27.8)."""
    config = small_m_config(m, n, k)
    rt, jt, warps, prefetch = config[:4]
    if m > 8:
        return (2, 2, 4, 1) if k < 16384 and n * k >= 32 * 2**20 else config
    if m == 1 and k < 16384 and n * k >= 64 * 2**20:
        if k // STEP >= PLAIN_M1_ROW_GROUPS_MIN_STEPS * warps:
            groups = NVFP4GemmSmallM.UNDER_STAGING_MIN_ROW_GROUPS  # (the groups that take it)
            return 1, jt, groups * warps, prefetch, 1, groups
        return 1, jt, warps, prefetch, *config[4:]
    if m == 1 and n * k <= 32 * 2**20:
        return rt, jt, 8, prefetch, *config[4:]
    ctas = -(-n // (16 * rt))
    if m >= 3 and k >= 16384 and ctas <= 2 * H200_SMS:
        if 2 * (-(-n // 16)) <= 5 * H200_SMS:  # one row tile in two splits: one wave at 5 a SM
            return 1, jt, warps, prefetch, 2
        if 2 * ctas <= 3 * H200_SMS:
            return rt, jt, warps, prefetch, 2
        return 1, jt, 8, prefetch
    return config


def _check_scales(name: str, sf, rows: int, k: int) -> None:
    check_dtype(name, sf, torch.float8_e4m3fn)
    mp, kbp = sf_padded_shape(rows, k // 16)
    if sf.numel() != mp * kbp:
        raise ValueError(f"{name}: expected the swizzled scale buffer of {mp}x{kbp} = {mp * kbp} "
                         f"e4m3 values for {rows} rows and K={k}, got {sf.numel()}")


def check_operands(a, a_sf, b, b_sf, b_name: str = "b") -> tuple[int, int, int]:
    """Dtypes and shapes of the GEMM operands (not their devices): (M, N, K). ``b_name`` names
    the weight in the errors (its scales are ``<b_name>_sf``)."""
    check_dtype(b_name, b, torch.uint8, torch.int32)
    if b.dim() != 2:
        raise ValueError(f"{b_name}: expected packed uint8 weights [N, K/2] or permuted int32 "
                         f"words [N, K/8], got shape {tuple(b.shape)}")
    n, k, _ = weight_dims(b)
    if n == 0 or k == 0 or k % K_ALIGN:
        raise ValueError(f"{b_name}: K = {k} must be a positive multiple of {K_ALIGN} (and N >= 1),"
                         f" got shape {tuple(b.shape)}")
    _check_scales(f"{b_name}_sf", b_sf, n, k)
    if a_sf is None:
        check_dtype("a", a, torch.bfloat16)
        if a.dim() != 2 or a.shape[1] != k:
            raise ValueError(f"a: expected bf16 [M, {k}] (W4A16, a_sf=None) to match {b_name}'s "
                             f"K={k}, got shape {tuple(a.shape)}")
    else:
        check_dtype("a", a, torch.uint8)
        if a.dim() != 2 or 2 * a.shape[1] != k:
            raise ValueError(f"a: expected packed [M, {k // 2}] to match {b_name}'s K={k}, got "
                             f"shape {tuple(a.shape)}")
        _check_scales("a_sf", a_sf, a.shape[0], k)
    return a.shape[0], n, k


def check_placement(named, like: torch.Tensor) -> None:
    """Every (name, tensor) on ``like``'s CUDA device, contiguous and 16-byte aligned."""
    for name, t in named:
        check_cuda(name, t, like=like)
        check_contiguous(name, t)


def _validate(a, a_sf, b, b_sf, out_dtype, out):
    """Types and shapes first, then devices and memory layout; all before any launch."""
    m, n, k = check_operands(a, a_sf, b, b_sf)
    if out_dtype not in _OUT_DTYPES:
        raise TypeError(f"out_dtype: expected one of {_OUT_DTYPES}, got {out_dtype}")
    if out is not None:
        check_dtype("out", out, out_dtype)
        if tuple(out.shape) != (m, n):
            raise ValueError(f"out: expected shape ({m}, {n}), got {tuple(out.shape)}")
    named = [("b", b), ("b_sf", b_sf), ("a", a)] + ([("a_sf", a_sf)] if a_sf is not None else [])
    named += [("out", out)] if out is not None else []
    check_placement(named, like=b)
    return m, n, k


def _staged_bytes(tokens: int, steps: int) -> int:
    """Shared memory the small-M kernel's staged activations take (its layout)."""
    return tokens * (steps * 16 * 8 + 4) * 4


def _stage_two_tokens(config: tuple[int, ...], k: int, a_fp4: bool) -> bool:
    """Whether two tokens are staged (else they take the register path): always for bf16
    activations (W4A16: its register path loads and keeps 8 token lanes of bf16 per warp and
    step, 29.6 us at 9216x7168 M = 4 against 14.3 staged at M = 1; two tokens unmeasured); for
    fp4 ones with a K split, 8 warps, or the paired-step loop's long K. Elsewhere the register
    path measured faster
    (H200 2026-11-30, ``tools/ab_register_m2.sh``, M = 2, graph us, staged -> register):
    36864x7168 46.35 -> 43.98, 34816x5120 34.53 -> 32.25, 9216x7168 17.81 -> 14.67 (with
    ``PDL_ONE_WAVE``), 4096x7168 10.41 -> 8.30, fused 36864x7168 50.08 -> 44.91, 9216x7168 15.98
    -> 15.19; where it is kept, staging won: 7168x18432 24.62 against 28.01, 5120x17408 (split
    in three) 20.19 against 24.30, 7168x2048 (8 warps) 4.14 against 4.40, fused 4096x7168 (8
    warps) 8.17 against 8.53, fused 1024x7168 (split) 5.79 against 6.48."""
    warps, splits = config[2], config_splits(config)
    return (not a_fp4 or splits > 1 or warps > 4
            or warp_steps(k, splits, warps) >= NVFP4GemmSmallM.PAIRED_MIN_STEPS)


def staged_tokens(m: int, config: tuple[int, ...], k: int | None = None,
                  max_tokens: int = X_SMEM_TOKENS, max_bytes: int | None = None,
                  a_fp4: bool = True) -> int:
    """The small-M kernels' ``x_tokens`` for M tokens and a config: with one token tile per CTA,
    up to X_SMEM_TOKENS tokens (two where ``_stage_two_tokens``, K given), and up to
    ``max_tokens`` whose staging fits ``max_bytes`` (K given), are decoded once per CTA into
    shared memory instead of per warp and step; with a K split (the config's fifth element, K
    given) all the CTA's token tiles (8 per tile) are, where their slice of K fits
    STAGED_TILE_BYTES (0: the register path)."""
    jt, splits = config[1], config_splits(config)
    if jt == 1 and m <= X_SMEM_TOKENS:
        return m if m == 1 or k is None or _stage_two_tokens(config, k, a_fp4) else 0
    if k is None:
        return 0
    steps = -(-k // STEP)
    split_steps = -(-steps // splits)  # the CTA's K steps
    if jt == 1 and m <= max_tokens and (
            max_bytes is None or _staged_bytes(m, split_steps) <= max_bytes):
        return m
    if splits > 1 and _staged_bytes(8 * jt, split_steps) <= STAGED_TILE_BYTES:
        return 8 * jt
    return 0


def launch_small_m(a, a_sf, b, b_sf, alpha: torch.Tensor, out: torch.Tensor,
                   config: tuple[int, ...]) -> None:
    """The small-M kernel with an explicit (row_tiles, token_tiles, warps, prefetch[, splits[,
    row_groups]]) on operands ``nvfp4_gemm`` has validated; alpha a one-element fp32 tensor.
    With splits > 1 K is split over grid z and reduced in the same launch
    (``nvfp4_gemm_small_m_split``): an fp32 workspace per call and the stream's arrival
    counters (``arrival_counters``). The tile sweep and the config tests call it directly.
    Permuted int32 weight words (``weight_dims``) take the kernels' permuted decode."""
    n, k, permuted = weight_dims(b)
    m = a.shape[0]
    splits = config_splits(config)
    a_kind = "fp4" if a_sf is not None else str(a.dtype)
    # W4A16 has no activation scales; the kernel never reads that argument, b_sf stands in.
    args = (a.view(torch.int32), (b_sf if a_sf is None else a_sf).view(-1), b.view(torch.int32),
            b_sf.view(-1), alpha, out)
    x_tokens = staged_tokens(m, config, k, PLAIN_X_SMEM_TOKENS, PLAIN_STAGE_BYTES,
                             a_sf is not None)
    tail = config_compile_tail(config, permuted,
                               lane_columns_route(a_sf is not None, x_tokens, config[1]))
    if splits == 1:
        compile_nvfp4_gemm_small_m(n, k, a_kind, str(out.dtype), *config[:4], x_tokens,
                                   *tail)(*args)
        return
    compile_nvfp4_gemm_small_m_split(n, k, a_kind, str(out.dtype), *config[:4], x_tokens,
                                     splits, *tail)(
        *args, *split_buffers(m, n, config, out.device))


def planned_launch(m: int, n: int, k: int, plan: tuple[int, int, bool, bool],
                   wg_k_split: bool = False) -> tuple[int, int, dict]:
    """(tile_m, splits, ``launch_large_m`` options) of ``launch_planned``'s launch: ``plan``
    in ``plain_plan``'s form (tile_m, splits, stream_k, hybrid) with ``plain_launch_options``'
    CTAs per SM and K groups; with ``wg_k_split``, 64-row tiles instead where
    ``wg_k_split_plan`` has a launch (two K pieces of tiles of up to 64 tokens in clusters of
    two CTAs, ``wg_k_pairs``); else two K pieces of 128-token tiles as cluster pairs
    (``pieces_pair``); the PDL trigger and the spread activation pass where
    ``pdl_trigger_plan`` (options ``pdl_trigger`` and ``spread_pass``)."""
    tile_m, splits, stream_k, _ = plan
    options = plain_launch_options(m, n, k, tile_m, stream_k)
    split_plan = wg_k_split_plan(m, n, k) if wg_k_split and not stream_k else None
    if split_plan is not None:
        (tile_m, splits), options = split_plan, {"k_groups": 2, "wg_k_split": True}
        if wg_k_pairs(m, n, k):  # the two K pieces in a cluster, no global fix-up
            splits, options["pair_pieces"] = 1, True
    elif not stream_k and pieces_pair(tile_m, splits, k):  # (128-row tiles, token shares)
        splits, options["pair_pieces"] = 1, True
    proper = stream_k and not plan[3] and splits == 1  # stream-K, no hybrid, no K split
    lanes = plain_stream_k_lanes(n, tile_m, proper)
    if lanes == 1 and proper:
        lanes = wide_stream_k_lanes(m, n, k, tile_m)
    if lanes > 1:
        options["lanes"] = lanes
    ctas = options.get("ctas_per_sm", 1) * H200_SMS  # the plans' grid
    tile_n = 64 if options.get("wg_k_split") else TILE_N
    options["pdl_trigger"], options["spread_pass"] = pdl_trigger_plan(
        m, n, tile_m, tile_n, splits, stream_k, options.get("pair_pieces", False), ctas)
    return tile_m, splits, options


def pdl_choices(options: dict, pdl_trigger: bool | None, spread_pass: bool | None) -> bool:
    """A caller's PDL choices (None: the plan's) on ``planned_launch``'s ``options``: sets
    ``pdl_trigger``, takes ``spread_pass`` out and returns the spread, the plan's only where
    the launch triggers (the pass then launches under the kernel before it)."""
    if pdl_trigger is not None:
        options["pdl_trigger"] = pdl_trigger
    spread = options.pop("spread_pass") and options["pdl_trigger"]
    return spread if spread_pass is None else spread_pass


def launch_planned(a, a_sf, b, b_sf, alpha: torch.Tensor, out: torch.Tensor,
                   plan: tuple[int, int, bool, bool], wg_k_split: bool = False,
                   compile_fn=compile_nvfp4_gemm_large_m, pdl_trigger: bool | None = None,
                   spread_pass: bool | None = None) -> None:
    """The TMA + wgmma kernel (W4A16; NVFP4 activations through ``bf16_activations``) on
    validated operands, launched as ``planned_launch`` says; ``compile_fn`` (a probe's kernel
    variant) as ``launch_large_m``'s; ``pdl_trigger`` (None: ``planned_launch``'s) as
    ``NVFP4GemmLargeM``'s; ``spread_pass`` (None: ``planned_launch``'s where the launch
    triggers) as ``bf16_activations``' ``spread``."""
    n, k, _ = weight_dims(b)
    m = out.shape[0]
    tile_m, splits, options = planned_launch(m, n, k, plan, wg_k_split)
    spread = pdl_choices(options, pdl_trigger, spread_pass)
    rows = -(-m // tile_m) * tile_m  # whole token tiles: the TMA stays inside the buffer
    k_order = wgmma_k_order(b, m if a_sf is None else 0, rows != m)
    launch_large_m(bf16_activations(a, a_sf, k_order, rows, spread), b, b_sf, alpha, out,
                   (tile_m, 0), splits, plan[2], plan[3], k_order=k_order,
                   compile_fn=compile_fn, **options)


def nvfp4_gemm(a: torch.Tensor, a_sf: torch.Tensor | None, b: torch.Tensor, b_sf: torch.Tensor,
               alpha, out_dtype: torch.dtype = torch.bfloat16,
               out: torch.Tensor | None = None) -> torch.Tensor:
    """D [M, N] = alpha * dequant(a) @ dequant(b)^T in fp32, cast to ``out_dtype``.

    a: packed uint8 [M, K/2] with swizzled e4m3 ``a_sf``, or bf16 [M, K] with ``a_sf=None``.
    b: packed uint8 [N, K/2] with swizzled e4m3 ``b_sf``, or the same weights as permuted
    int32 words [N, K/8] (``prepare_nvfp4_weight``: decoded with fewer instructions).
    alpha = input_scale * weight_scale_2 (float or one-element fp32 tensor). See the module
    docstring for the limits. ``b`` and ``b_sf`` must not be written by the launch just before
    this call: where the small-M kernel launches with PDL (``NVFP4GemmSmallM.PDL_SHORT_K_STEPS``)
    it reads them while that launch may still run (README "Launches").

    Under ``torch.compile`` (no ``out``, ``alpha`` a tensor) the call is the custom op
    ``torch.ops.cute_kernels.nvfp4_gemm``."""
    if torch.compiler.is_compiling() and out is None and isinstance(alpha, torch.Tensor):
        return torch.ops.cute_kernels.nvfp4_gemm(a, a_sf, b, b_sf, alpha, out_dtype)
    m, n, k = _validate(a, a_sf, b, b_sf, out_dtype, out)
    alpha_t = as_scale_tensor("alpha", alpha, b.device)
    if out is None:
        out = torch.empty((m, n), dtype=out_dtype, device=b.device)
    if m == 0:
        return out
    balanced = nvfp4_gemm_balanced.public_balanced_launch(
        nvfp4_gemm_balanced.ONE_TOKEN_BALANCED, m, n, k, a_sf is not None,
        b.dtype == torch.int32, b.device)
    if balanced:
        index = b.device.index or 0
        grouped = nvfp4_gemm_balanced.plain_row_group_launch(
            n, a_sf is not None, balanced, sm_count(index), h200_class_memory(index))
        warps, per_sm, row_groups = grouped or (*balanced, 1)
        nvfp4_gemm_balanced.launch_one_token_balanced(a, a_sf, b, b_sf, alpha_t, out, warps,
                                                      per_sm, row_groups=row_groups)
    elif small_m_regime(m, n, k, a_sf is not None, b.dtype == torch.int32):
        launch_small_m(a, a_sf, b, b_sf, alpha_t, out,
                       small_m_config(m, n, k, a_sf is not None, b.dtype == torch.int32))
    else:
        plan = plain_plan(m, n, k) if b.dtype == torch.int32 else packed_plan(m, n, k)
        launch_planned(a, a_sf, b, b_sf, alpha_t, out, plan, wg_k_split=True)
    return out


# ---- torch.compile: a custom op (a fresh output, alpha a tensor) --------------------------------
@torch.library.custom_op("cute_kernels::nvfp4_gemm", mutates_args=())
def _nvfp4_gemm_op(a: torch.Tensor, a_sf: torch.Tensor | None, b: torch.Tensor,
                   b_sf: torch.Tensor, alpha: torch.Tensor, out_dtype: torch.dtype
                   ) -> torch.Tensor:
    return nvfp4_gemm(a, a_sf, b, b_sf, alpha, out_dtype)


@_nvfp4_gemm_op.register_fake
def _(a, a_sf, b, b_sf, alpha, out_dtype):
    return a.new_empty((a.shape[0], b.shape[0]), dtype=out_dtype)
