"""The wgmma (large-M) kernel's launch plans: the token tile (``large_m_config``), a K split
(``large_m_plan``) and stream-K (``stream_k_plan``), each from H200 measurements. Host-side
arithmetic only; the kernels are in ``nvfp4_gemm_large_m`` and ``stream_k``."""

from __future__ import annotations

import functools

from .fitted_tiles import FITTED_STEP, fitted_launch
from .nvfp4_gemm_large_m import H200_SMS, TILE_K, TILE_N


# Relative time of one CTA tile (the same K) by token-tile width, measured on the H200
# (2026-11-29, per wave of tiles at K = 7168: ~48 us with 64 tokens, ~60 with 128, 82-86 with
# 256; 7168x18432 gives the same ratios). The decode of the 128 x 64 weight tile is the same
# for every width, so narrow tiles are dearer per token but fill the SMs sooner.
# The 256 entry was 1.4 until session 10, whose permuted-word runs (``tools/mid_m_probe.py``,
# one wave of whole tiles at M = 256) gave 256 / 128 = 1.64 on 4096x7168 (72.5 / 44.3 us) and
# 1.69 on 9216x7168 (74.8 us in one wave against 88.5 in two).
# 32 tokens (the plain GEMM's split-K plans at M <= 32 only): ``tools/large_m_occupancy_probe.py``
# (session 16), whole tiles on 32 CTAs of 4096x7168, 26.4 us against 31.3 with 64 tokens.
TILE_COST = {32: 0.68, 64: 0.8, 128: 1.0, 256: 1.65}


def large_m_config(m: int, n: int, k: int, sms: int = H200_SMS) -> tuple[int, int]:
    """(tile_m, stages) for the large-M kernel: the token tile that minimizes waves x tile cost
    (``TILE_COST``), waves = ceil(tiles / SMs) of the persistent grid; ties go to the wider
    tile. It picks the best measured tile at every point the H200 measured (2026-11-29):
    36864x7168 M = 256: 256 (246 us; 297 with 128); 4096x7168 M = 1024: 256 (86; 119);
    7168x18432 M = 256: 128 (149; 194 with 256); M = 32 and 64 on 36864x7168, 34816x5120,
    9216x7168 and 7168x18432: 64 (e.g. 36864x7168 M = 64: 145 against 178 with 128);
    M = 128: 128 on 36864x7168 (181; 235 with 64), 34816x5120 and 9216x7168 (60; 97), 64 on
    7168x18432 (120; 146)."""
    return min((256, 128, 64), key=lambda t: _waves_x_cost(m, n, t, 1, sms)), 0


def _waves_x_cost(m: int, n: int, tile_m: int, splits: int, sms: int) -> float:
    """Waves of the persistent grid (output tiles x K splits over the SMs) x ``TILE_COST``."""
    tiles = -(-m // tile_m) * -(-n // TILE_N) * splits
    return -(-tiles // sms) * TILE_COST[tile_m]


# Split-K model: one k-tile of a 128-token CTA tile takes ~0.40 us (H200 2026-11-30, permuted
# words: 4096x7168 M = 256, one wave of whole 128-token tiles, 44.3 us for 112 k-tiles, the
# activation pass included; 0.53 on 2026-11-29 with packed weights), and the workspace round
# trip costs its bytes at ~3.5 TB/s (per output element: 4 per split written, read again by
# one ``torch.sum``, its fp32 result written and read, the output written: 8 splits + 10)
# plus ~3 us for the extra launches. Since session 30 the pieces are added in the launch
# (``launch_large_m``: stream-K on tiles x splits CTAs, 1.5-2.6 us faster at the split plans'
# points); the model keeps the round trip it was fitted with, so the plans stay as measured.
K_TILE_US = 0.40
WORKSPACE_BYTES_PER_US = 3.5e6
REDUCE_LAUNCH_US = 3.0
MAX_SPLITS = 4
MIN_SPLIT_K_TILES = 16  # at least 1024 of K per split: the pipeline fill stays small


def large_m_plan(m: int, n: int, k: int, sms: int = H200_SMS) -> tuple[int, int]:
    """(tile_m, splits) for ``nvfp4_gemm``'s large-M path: the token tile and K split with the
    least estimated time, ``waves x TILE_COST x k-tiles per split x K_TILE_US`` plus the
    workspace round trip for splits > 1. Only a grid that fills less than one wave is split,
    and the split must win by 10% (the model ignores fixed costs): 7168x18432 at M = 64 is 56
    CTAs of 64 tokens (125 us measured, 122 estimated; two splits: 66 estimated)."""
    row_tiles = -(-n // TILE_N)
    k_tiles = k // TILE_K

    def estimate(tile_m: int, splits: int) -> float:
        us = _waves_x_cost(m, n, tile_m, splits, sms) * (k_tiles // splits) * K_TILE_US
        if splits > 1:
            us += (8 * splits + 10) * m * n / WORKSPACE_BYTES_PER_US + REDUCE_LAUNCH_US
        return us

    tile_m = large_m_config(m, n, k, sms)[0]
    tiles = (256, 128, 64) + ((32,) if m <= 32 else ())
    split_plans = [(estimate(t, splits), t, splits) for t in tiles
                   for splits in range(2, MAX_SPLITS + 1)
                   if -(-m // t) * row_tiles < sms and k_tiles % splits == 0
                   and k_tiles // splits >= MIN_SPLIT_K_TILES]
    if split_plans:
        us, t, splits = min(split_plans)
        if us < 0.9 * estimate(tile_m, 1):
            return t, splits
    return tile_m, 1


# Stream-K (H200, 2026-11-30, ``tools/stream_k_probe.py``, bf16 activations, us): it wins
# where whole tiles leave the last wave mostly empty, e.g. 9216x7168 (72 row tiles) M = 256
# 66.9 against 84.3, M = 1024 250.8 against 262.3; 36864x7168 M = 64 117.3 against 144.3;
# 5120x17408 M = 64 47.1 against split-K's 63.1, and loses where the waves are nearly full
# (36864x7168 M = 1024: 956 against 885) or each CTA has few k-tiles, its tiles then cut into
# many pieces whose fix-up is serial (4096x7168 M = 256: 27 k-tiles a CTA, 41.9 against
# split-K's 37.6; 7168x2048 everywhere).
STREAM_K_MAX_EFFICIENCY = 0.8  # whole tiles / (waves x CTAs) below which stream-K is taken
# the fused kernel's whole tiles also run an epilogue each: 34816x5120 M = 512 (82% full)
# 307.9 us in stream-K against 320.8; 36864x7168 M = 512 (87%) 457.7 against 453.5
STREAM_K_MAX_EFFICIENCY_FUSED = 0.85
STREAM_K_MIN_K_TILES = 40      # k-tiles per CTA the plain GEMM needs for stream-K
# With this many k-tiles a CTA the plain GEMM's fix-ups are cheap against its stream, so it
# takes stream-K below ``STREAM_K_LONG_MAX_EFFICIENCY``: 7168x18432 M = 1024 (224 tiles of
# 256 tokens, 85% of two waves, 488 k-tiles a CTA; ``tools/plain_route_probe.py``, H200
# 2026-12-01, session 25, public us, two rounds): stream-K 371.2, 371.9 against whole tiles
# 411.8, 416.8 (cuBLAS 416.3, 427.1). Of the model shapes at 129..16384 tokens only
# 7168x18432 at 897..1024 tokens changes with it.
STREAM_K_LONG_K_TILES = 200
STREAM_K_LONG_MAX_EFFICIENCY = 0.9
# The hybrid (whole tiles, then stream-K for the last one to two waves' worth) where the
# whole tiles fill at least two waves (``tools/stream_k_probe.py``, H200 2026-11-30, us,
# hybrid / whole tiles / stream-K): 36864x7168 M = 512 (87% full) 424.5 / 444.4 / 440.7;
# 34816x5120 M = 512 (82%) 290.0 / 309.4 / 318.0; 9216x7168 M = 1024 (73%) 228.6 / 239.9 /
# 227.6. Near-full waves keep whole tiles (36864x7168 M = 1024, 97%: 830.3 / 825.2; 34816x5120
# M = 1024, 92%: 580.4 / 580.7).
STREAM_K_HYBRID_MAX_EFFICIENCY = 0.9


# The plain GEMM at 129..256 tokens takes 128-token stream-K tiles where one row of 256-token
# tiles is fewer (tile, k-tile) units than this (``tools/large_m_stages_probe.py``, H200
# 2026-11-30, M = 256, kernel us with 128 / 256 tokens: 9216x7168 (8064 units) 58.0 / 62.0,
# 5120x17408 (10880) 77.4 / 83.7, 4096x7168 (3584; split-K before) 31.5 / 38.8; more units
# keep 256: 7168x18432 (16128) 115.9 / 111.3, 36864x7168 246.7 / 217.2, 34816x5120 165.9 /
# 165.1): each CTA's cut pieces are then half the fp32 fix-up traffic
STREAM_K_NARROW_UNITS = 12000


# The plain GEMM's stream-K launch takes 16-token tiles up to this many tokens (W4A4 at 9..16
# on the largest weights, ``wgmma_from_9_tokens``, and W4A16 at 9..16): the same decode as a
# 32-token tile, half its tensor work and activation reads, the same output bits.
# ``tools/ab_tile16.sh`` (H200 2026-11-30, public function us at M = 16, two rounds, 32 / 16
# tokens): W4A4 7168x18432 32.9, 32.9 / 30.9, 30.8; 36864x7168 53.7, 53.9 / 51.8, 51.5;
# 34816x5120 41.1, 41.2 / 40.1, 40.0; fused 36864x7168 (fp32 route) 57.3, 57.7 / 55.8, 55.7;
# W4A16 7168x18432 37.7, 37.9 / 35.9, 35.4; 5120x17408 30.5, 31.1 / 29.2, 29.0; 9216x7168
# 25.4, 25.6 / 24.6, 24.2 (M = 12 alike).
TILE_16_MAX_M = 16
# And 8-token tiles (wgmma N = 8) up to this many: at 4..8 tokens (W4A16 on big weights) half
# of a 16-token tile's tensor work is padding, and the 16-token launch is bound by its
# consumers on the H200 (session 80). H100 2026-12-05 (session 81, ``tools/tile8_rule_probe.py``,
# public op, W4A16, graph us, two rounds alike, 16 / 8 tokens, cuBLAS bf16): 9216x7168 M = 4
# 19.07 / 18.60 (47.8), M = 8 19.15 / 18.55 (48.1); 5120x17408 M = 4 25.17 / 23.99 (68.1), M = 8
# 25.35 / 24.10 (68.5); 7168x18432 M = 4 34.05 / 32.52 (99.3), M = 8 34.35 / 32.78 (100.4).
# Unmeasured on the H200.
TILE_8_MAX_M = 8


def row_units(n: int, k: int) -> int:
    """(tile, 64-K) units of one row of token tiles over an [N, K] weight: its 128-row tiles
    times its k-tiles (stream-K's work units; a launch has one row per token tile)."""
    return -(-n // TILE_N) * (k // TILE_K)


def launch_units(m: int, n: int, k: int, tile_m: int) -> int:
    """(tile, 64-K) units of a launch with ``tile_m``-token tiles: one row per token tile."""
    return -(-m // tile_m) * row_units(n, k)


def stream_k_tile(m: int, n: int, k: int, fused: bool = False) -> int:
    """The token tile of a stream-K launch: the narrowest of 8, 16 and 32 (the plain GEMM only,
    ``TILE_8_MAX_M``, ``TILE_16_MAX_M``), 64, 128, 256 that holds M (256 past it; measured best
    at every M of the probe, for the plain GEMM), except that the plain GEMM keeps 128 up to
    256 tokens on weights whose row of 256-token tiles is under ``STREAM_K_NARROW_UNITS``.
    32-token tiles at M <= 32 (``tools/large_m_occupancy_probe.py``, H200 2026-11-30, kernel
    us, 64 -> 32 tokens: 36864x7168 75.6 -> 65.5, 34816x5120 61.5 -> 46.8, 9216x7168 26.0 ->
    22.6, 7168x18432 41.6 -> 36.5, 5120x17408 32.3 -> 27.9): half the tensor work of a
    64-token tile for the same decode."""
    if fused:
        return next((t for t in (64, 128) if m <= t), 256)
    if m <= TILE_16_MAX_M:
        return 8 if m <= TILE_8_MAX_M else 16
    narrow = row_units(n, k) < STREAM_K_NARROW_UNITS
    return next((t for t in (32, 64, 128) if m <= t or (t == 128 and narrow and m <= 256)),
                256)


# The plain GEMM whose hybrid (whole tiles under ``STREAM_K_HYBRID_MAX_EFFICIENCY`` of two
# waves or more) would stream too few k-tiles (short K) takes stream-K proper instead of
# whole tiles. ``tools/plain_rules_probe.py`` (H200 2026-12-04, session 64 call 4, graph us,
# permuted words, NVFP4 activations, two rounds alike; whole 256-token tiles -> stream-K,
# cuBLAS bf16): 7168x2048 M = 1200 66.1 -> 58.4 (48.4), M = 2350 111.9 -> 105.3 (94.2), M =
# 2450 112.0 -> 106.0 (101.3; whole 128-token tiles 102.4 in call 3), M = 3000 133.4 -> 123.8
# (116.9), M = 4750 199.1 -> 189.4 (183.0); 4096x2048 M = 3200 91.0 -> 83.5 (77.1), M = 6200
# 157.4 -> 150.6 (136.8); 2048x2048 M = 4400 70.7 -> 63.5 (51.2); 1024x2048 M = 9000 77.1 ->
# 69.2 (52.6). Only where ``large_m_plan`` keeps the same token tile (no 128-token whole tiles
# turned into 256-token stream-K).
PLAIN_STREAM_K_FOR_SHORT_HYBRID = True


def stream_k_plan(m: int, n: int, k: int, sms: int = H200_SMS, fused: bool = False
                  ) -> tuple[int, bool] | None:
    """(token tile, hybrid) for a stream-K launch of the wgmma kernel, or None (whole tiles,
    with ``large_m_plan``). Taken where whole tiles fill less than ``STREAM_K_MAX_EFFICIENCY``
    of their waves (``STREAM_K_MAX_EFFICIENCY_FUSED`` for the fused kernel,
    ``STREAM_K_LONG_MAX_EFFICIENCY`` for the plain one with many k-tiles a CTA); the plain GEMM
    also needs ``STREAM_K_MIN_K_TILES`` k-tiles per CTA in its stream-K part (its alternative,
    split-K, is cheap), and takes the hybrid where whole tiles fill two waves or more, below
    ``STREAM_K_HYBRID_MAX_EFFICIENCY`` (from 257 tokens, as measured). The fused kernel's
    alternative is the fp32 split route, dearer, so it takes stream-K regardless (its hybrid
    is unmeasured), and with fewer than SMs / 2 tiles (each cut into more than two pieces) a
    narrower tile: ``tools/fused_large_m_probe.py``, H200 2026-11-30, kernel us with 128 / 256
    tokens: 1024x7168 M = 256 (8 tiles of 256) 25.0 / 42.3, M = 1024 (32) 38.4 / 41.8;
    4096x7168 M = 256 (32) 37.9 / 40.5; with more tiles the wider one wins (36864x7168 M = 256,
    288 tiles: 266.1 / 202.9; 34816x5120 M = 256, 272: 181.2 / 145.3; 9216x7168 M = 1024, 288:
    259.2 / 201.0)."""
    tile_m = stream_k_tile(m, n, k, fused)
    tiles = -(-m // tile_m) * -(-n // TILE_N)
    efficiency = tiles / (-(-tiles // sms) * sms)
    if fused:
        if efficiency >= STREAM_K_MAX_EFFICIENCY_FUSED:
            return None
        return (tile_m // 2 if tile_m > 64 and tiles * 2 < sms else tile_m), False
    # measured from M = 512 only (the probe's hybrid columns)
    hybrid = m > 256 and tiles >= 2 * sms and efficiency < STREAM_K_HYBRID_MAX_EFFICIENCY
    long_k = tiles * (k // TILE_K) >= STREAM_K_LONG_K_TILES * sms
    bar = STREAM_K_LONG_MAX_EFFICIENCY if long_k else STREAM_K_MAX_EFFICIENCY
    if not hybrid and efficiency >= bar:
        return None
    # the kernel's split (``_whole_tiles``): whole waves but the last, the rest in stream-K
    streamed = tiles - (tiles // sms - 1) * sms if hybrid else tiles
    if streamed * (k // TILE_K) < STREAM_K_MIN_K_TILES * sms:
        if (hybrid and PLAIN_STREAM_K_FOR_SHORT_HYBRID
                and large_m_plan(m, n, k, sms) == (tile_m, 1)):
            return tile_m, False  # (its stream-K part long enough: ``tiles`` >= 2 waves)
        return None
    return tile_m, hybrid


# Two 64-element K groups per pipeline stage (``NVFP4GemmLargeM(k_groups=2)``) pay on 16- and
# 32-token stream-K tiles where each CTA streams at least this many (tile, 64-K) units: the
# per-stage barrier, release, TMA issue and wgmma-descriptor work is halved a weight, and the
# TMA reads 64 bytes a weight row instead of 32. H200 2026-12-05 (session 80 calls 5 and 6,
# ``tools/k_groups_rule_probe.py``, the public op, graph us, one / two groups, two rounds
# alike): 9216x7168 (61 units a CTA) M = 16 W4A4 17.26 / 16.77, W4A16 17.15 / 16.75; M = 8
# W4A16 16.99 / 16.65; M = 4 16.74 / 16.53; M = 32 W4A4 18.34 / 17.26, W4A16 18.49 / 17.31.
# (Session 18, H200 2026-11-30, before the kernel's later changes, had 9216x7168 M = 32 22.7 /
# 23.5 and set the bar at 80 units.) ``tools/stream_shape_probe.py`` (session 80 call 7, the
# launch alone at M = 16, one / two / four groups): 9216x7168 17.20 / 16.20 / 17.29, 7168x18432
# 29.29 / 27.41 / 29.00; four groups are probe-only. Fewer units were not measured since: the
# older rows (session 18, M = 32, us with one / two groups): 4096x7168 in split-K (28 units)
# 16.8, 16.7 / 17.6, 17.4. Wider token tiles lost 1-12% with two groups (M = 64, and M = 256's
# 128-token tiles: 5120x17408 75.8 / 85.3), as did the fused kernel at 9216x7168 and
# 36864x7168.
K_GROUPS_MIN_UNITS = 60


def stream_k_groups(m: int, n: int, k: int, tile_m: int, sms: int = H200_SMS) -> int:
    """K groups per pipeline stage for the plain GEMM's stream-K launch with ``tile_m``-token
    tiles: 2 on 16- and 32-token tiles where K / 64 is even and each CTA's share of (tile,
    k-tile) units reaches ``K_GROUPS_MIN_UNITS``, else 1."""
    return (2 if tile_m <= 32 and (k // TILE_K) % 2 == 0
            and launch_units(m, n, k, tile_m) >= K_GROUPS_MIN_UNITS * sms else 1)


# Two CTAs per SM (``ctas_per_sm=2``: four consumer warpgroups hide each other's decode
# latency) for stream-K launches of 32-token tiles (16-token ones since ``TILE_16_MAX_M``)
# with at least this many (tile, 64-K) units per SM, two K groups a stage kept.
# ``tools/ab_two_ctas.sh`` (H200 2026-11-30, session 18, public function us, two rounds, one
# CTA / two CTAs one K group / two CTAs two K groups):
# M = 32 36864x7168 (244 units an SM) 57.6, 57.5 / 59.7, 59.5 / 55.5, 55.3; 34816x5120 (165)
# 42.6, 42.7 / 44.8, 45.1 / 42.1, 41.9. 64-token tiles lost with two CTAs (M = 64 36864x7168
# 77.7, 74.9 / 79.9, 77.9; 34816x5120 53.3, 53.7 / 55.3, 54.6), the fused kernel's alike
# (82.2, 79.2 / 81.9, 81.7; 56.2, 56.3 / 57.4, 57.6), so they keep one; below 150 units an SM
# the occupancy probe had two CTAs behind (7168x18432 at 122: 36.5 / 36.9 kernel us), and
# the public function too at a bar of 120 (session 19, ``tools/ab_fused_narrow.sh``:
# 7168x18432 M = 16 31.0, 30.8 / 34.5, 34.4; M = 32 34.6, 34.5 / 36.3, 36.3).
# Session 20 (``tools/grouped_stages_probe.py``, us, two rounds, planned launch with one CTA /
# two CTAs of 5 stages / two CTAs of two K groups and 3 stages): 64-token tiles won with two
# CTAs once held to 5 stages (session 18's loss was at 8): M = 64 36864x7168 (244 units an SM)
# 83.77, 84.11 / 78.34, 78.76 / 86.18, 86.89; 34816x5120 (165) 58.97, 59.74 / 57.72, 57.67 /
# 62.51, 62.12; 7168x18432 (122) lost: 43.98, 44.25 / 46.41, 46.80. The fused kernel takes two
# K groups there: 36864x7168 86.59, 87.47 / 82.89, 82.94 / 80.83, 81.27; 34816x5120 62.02,
# 62.24 / 60.39, 60.35 / 58.05, 58.14 (``fused_stream_k_options``).
# Through the public functions (session 21, ``tools/ab_m64_two_ctas.sh``, main / two CTAs, two
# rounds) only the fused kernel kept the win: fused M = 48 36864x7168 80.92, 78.32 / 77.53,
# 75.30, 34816x5120 56.40, 56.68 / 53.36, 53.50; M = 64 34816x5120 57.49, 57.25 / 55.80, 55.85.
# The plain GEMM's 64-token tiles stay at one CTA: 36864x7168 M = 64 73.11, 75.92 / 80.29,
# 75.61; 34816x5120 53.48, 53.03 / 53.63, 53.31.
# Session 46 (``tools/sessions/session46_first.sh``, after session 45's cheaper fix-up), bar 40
# (one K group below 80 units / two), us, one CTA / two / two with two groups: M = 16
# 7168x18432 (122) 28.16 / 28.13 / 28.16, 5120x17408 (82) 21.85 / 22.57 / 22.63, 9216x7168 (61)
# 17.89 / 18.22 / 18.16; M = 32 30.76 / 31.27 / 31.16, 23.84 / 25.33 / 25.34, 19.80 / 20.45 /
# 20.67. The bar stays.
TWO_CTAS_MIN_UNITS = 150


def stream_k_ctas(m: int, n: int, k: int, tile_m: int, sms: int = H200_SMS) -> int:
    """CTAs per SM of the plain GEMM's stream-K launch with ``tile_m``-token tiles: 2 on 16- and
    32-token tiles with ``TWO_CTAS_MIN_UNITS`` units an SM or more, else 1."""
    return 2 if tile_m <= 32 and many_units(m, n, k, tile_m, sms) else 1


def many_units(m: int, n: int, k: int, tile_m: int, sms: int = H200_SMS) -> bool:
    """Whether a row of ``tile_m``-token tiles has ``TWO_CTAS_MIN_UNITS`` units an SM or more."""
    return launch_units(m, n, k, tile_m) >= TWO_CTAS_MIN_UNITS * sms


def fused_stream_k_options(m: int, two_i: int, k: int, tile_m: int, sms: int = H200_SMS) -> dict:
    """``launch_large_m``'s keyword options for the fused kernel's own stream-K launch: two
    CTAs an SM and two K groups a stage on 64-token tiles with ``TWO_CTAS_MIN_UNITS`` units an
    SM or more (the comment above); lanes of row tiles where ``stream_k_lanes`` takes them;
    else the defaults."""
    if tile_m == 64 and (k // TILE_K) % 2 == 0 and many_units(m, two_i, k, tile_m, sms):
        return {"ctas_per_sm": 2, "k_groups": 2}
    lanes = stream_k_lanes(two_i, tile_m, sms)
    return {"lanes": lanes} if lanes > 1 else {}


# The fused kernel's stream-K on 256-token tiles of narrow weights (at most
# STREAM_K_LANES_MAX_ROW_TILES row tiles) in lanes (``NVFP4GemmLargeM``'s ``lanes``): CTA c
# works row tile c % lanes, the CTAs of a lane share out its (token tile, k-tile) units alike,
# so that a token tile's row tiles read the same activation k-tiles at the same time and the
# L2 serves them once from DRAM. With plain ranges they sit at unrelated K positions: at
# 1024x7168 W4A16, the 256-token stream-K took 105.9 us at M = 4608 (144 tiles) and 148-150
# at 5000 / 5120 (160 tiles; cuBLAS + silu 108.8 / 115.0): 73 MB of bf16 activations, past
# the L2, read by 8 row tiles each (H200 2026-12-03, session 61 call 1,
# ``tools/stream_k_stretch_probe.py``). The grid is whole groups of ``lanes`` CTAs (128 of 132
# SMs at 8 lanes). Call 2 (``tools/stream_k_lanes_probe.py``, graph us, two rounds alike,
# W4A16 lanes / plain ranges (cuBLAS + silu)): M = 2200 56.6 / 59.2 (54.7), M = 2500 60.9 /
# 65.6 (59.7), M = 3000 67.3 / 73.0 (70.8), M = 4608 96.4 / 107.2 (111.0), M = 5000 105.6 /
# 150.6 (109.2), M = 5120 105.9 / 153.9 (115.1), M = 6656 136.6 / 187.6 (166.1), M = 10000 282.5
# / 363.7 (217.1). On 128-token tiles (at most 1300 tokens, in the L2 either way) the four
# idle SMs cost more: W4A16 M = 1030 41.3 / 40.1, M = 1300 47.6 / 45.1; NVFP4 activations
# M = 1100 35.6 / 35.3, M = 1300 41.0 / 39.4.
# Call 4, 4096x7168 (32 row tiles; 4 groups of 32 CTAs, "_L32"), lanes / plain ranges (cuBLAS +
# silu): W4A16 M = 2100 188.0 / 190.5 (181.4), M = 3500 282.5 / 326.0 (308.1); NVFP4
# activations M = 2100 176.3 / 180.9, M = 3500 267.8 / 327.3. Session 62 call 1 (every GPU test
# passed with lanes of 32, memcheck / racecheck clean): W4A16 M = 1200 105.3 / 111.2 (105.7),
# M = 2500 203.4 / 223.4 (215.7); NVFP4 M = 1200 106.4 / 106.4, M = 2500 192.9 / 215.9: so
# the bar is 32 row tiles.
# The grid is whole groups: lanes that leave more than 1 - STREAM_K_LANES_MIN_GRID_FILL of the
# SMs idle keep plain ranges (a guard, not measured: 8 and 32 lanes leave 4 of 132 idle).
STREAM_K_LANES = True
STREAM_K_LANES_TILE_M = (256,)
STREAM_K_LANES_MAX_ROW_TILES = 32
STREAM_K_LANES_MIN_GRID_FILL = 0.9
# 128-token tiles take lanes on weights of at least this many row tiles: on 4096x7168 (32) they
# won, fused (``tools/tile128_lanes_probe.py``, H200 2026-12-03, session 62 calls 4-5, graph
# us, two rounds alike, NVFP4 activations on the 128-token stream-K, plain ranges -> lanes):
# M = 600 56.8 -> 54.7 (W4A16 60.2 -> 58.1), 1100 95.7 -> 94.1, 1200 106.4 -> 103.6, 1700
# 153.1 -> 143.8 (cuBLAS + silu 57.3 / 100.5 / 106.3 / 149.8); even at 900 / 1500; the plain
# GEMM as ``PLAIN_LANES_128``'s comment has. On 1024x7168 (8 row tiles, four SMs idle) they
# lost (the comment above); 9..31 row tiles are unmeasured.
STREAM_K_LANES_128_MIN_ROW_TILES = 32


def stream_k_lanes(two_i: int, tile_m: int, sms: int = H200_SMS) -> int:
    """Lanes for a wgmma kernel's stream-K launch (the fused one's, and ``nvfp4_gemm``'s through
    ``plain_stream_k_lanes``) on ``two_i`` weight rows in ``tile_m``-token tiles (the comments
    above): the row tiles, or 1 (plain ranges)."""
    rows = -(-two_i // TILE_N)
    tile_takes = tile_m in STREAM_K_LANES_TILE_M or (
        tile_m == 128 and rows >= STREAM_K_LANES_128_MIN_ROW_TILES)
    return (rows if STREAM_K_LANES and tile_takes
            and 2 <= rows <= min(STREAM_K_LANES_MAX_ROW_TILES, sms)
            and sms // rows * rows >= STREAM_K_LANES_MIN_GRID_FILL * sms else 1)


# The plain GEMM's 256-token stream-K in lanes too (``STREAM_K_LANES``' comment), and in place
# of the hybrid where lanes apply. ``tools/plain_lanes_probe.py`` (H200 2026-12-03, session 62
# call 2, 4096x7168 in 32 lanes, public function graph us, two rounds alike; NVFP4 / bf16
# activations, plan -> lanes, cuBLAS bf16 beside): stream-K plans M = 1100 101.5 -> 100.2 /
# 113.8 -> 110.3 (83.2), M = 1500 121.0 -> 116.3 / 134.2 -> 128.5 (115.3); hybrid plans
# M = 2100 172.0 -> 172.0 / 190.5 -> 189.0 (154.3), M = 2500 192.7 -> 187.8 / 213.5 -> 207.9
# (182.0), M = 3500 264.2 -> 260.5 / 291.0 -> 287.4 (259.0), M = 4500 334.8 -> 332.4 / 369.4 ->
# 367.2 (334.5). (Plain ranges in place of the hybrid lost 6-63 us there.)
PLAIN_STREAM_K_LANES = True


def lanes_over_hybrid(n: int, stream_plan: tuple[int, bool] | None) -> tuple[int, bool] | None:
    """``stream_k_plan``'s plain plan with its 256-token hybrid turned into stream-K proper
    where the plain GEMM's lanes apply (``PLAIN_STREAM_K_LANES``' comment)."""
    if stream_plan == (256, True) and PLAIN_STREAM_K_LANES and stream_k_lanes(n, 256) > 1:
        return 256, False
    return stream_plan


# The plain GEMM on weights whose 128-token tiles take lanes (``stream_k_lanes``) swaps its
# 256-token plans past ``PLAIN_MID_M_MAX`` and up to PLAIN_LANES_128_MAX_M tokens for the
# 128-token stream-K in lanes where whole 256-token tiles fill their waves to less than
# PLAIN_LANES_128_MAX_FILL: the last token tile pads less and the lanes keep the L2 serving
# every row tile. ``tools/tile128_lanes_probe.py`` (H200 2026-12-03, session 62 calls 4-5,
# 4096x7168, graph us, two rounds alike; NVFP4 / bf16 activations, plan -> 128-token lanes,
# cuBLAS bf16): M = 600 (256-token stream-K in lanes) 63.6 -> 52.4 / 67.4 -> 56.2 (46.7),
# M = 1100 (the same) 99.9 -> 89.4 / 110.3 -> 100.1 (83.6), M = 1200 100.0 -> 96.9 / 111.1 ->
# 109.5 (88.0), M = 1500 115.5 -> 113.9 / 128.7 -> 126.6 (115.1), M = 1700 (whole 256-token
# tiles, 85% of two waves) 146.6 -> 135.5 / 159.5 -> 149.0 (125.5), M = 2100 (256-token
# lanes) 172.9 -> 164.3 / 190.0 -> 183.1 (154.3); kept: M = 900 (whole tiles, one wave 97%
# full) 73.8 / 82.6 against 74.9 / 84.4, M = 2500 188.5 / 209.3 against 188.7 / 209.0, M =
# 3500 261.2 / 290.4 against 265.3 / 293.6.
PLAIN_LANES_128 = True
PLAIN_LANES_128_MAX_M = 2400
PLAIN_LANES_128_MAX_FILL = 0.9


def plain_lanes_128(m: int, n: int, sms: int = H200_SMS) -> bool:
    """Whether ``plain_plan`` takes the 128-token stream-K in lanes for a 256-token plan (the
    comment above)."""
    return PLAIN_LANES_128 and PLAIN_STREAM_K_LANES and lanes_128_over_256(m, n, sms)


def lanes_128_over_256(m: int, n: int, sms: int = H200_SMS) -> bool:
    """``plain_lanes_128``'s token counts and weights, its switches aside: past
    ``PLAIN_MID_M_MAX`` and up to PLAIN_LANES_128_MAX_M tokens, 128-token tiles that take
    lanes, whole 256-token tiles under PLAIN_LANES_128_MAX_FILL of their waves."""
    if not (PLAIN_MID_M_MAX < m <= PLAIN_LANES_128_MAX_M and stream_k_lanes(n, 128, sms) > 1):
        return False
    tiles = -(-m // 256) * -(-n // TILE_N)
    return tiles < PLAIN_LANES_128_MAX_FILL * -(-tiles // sms) * sms


# The fused op's twin of ``plain_lanes_128`` (``large_m_route``: its 256-token routes for the
# 128-token stream-K, in lanes). ``tools/fused_vs_cublas_sweep.py`` ("fp4_s128" / "w16_s128",
# H200 2026-12-04, session 63 call 4, graph us, 4096x7168 gate_up, NVFP4 / W4A16 activations,
# 256-token route -> this rule; the unfused nvfp4_gemm + silu_mul_nvfp4_quant pair): M = 2100
# 176.6 -> 172.3 (pair 171.8) / 188.5 -> 189.6 (its two rounds ran 190.6 / 186.4 without the
# rule); M = 600, 1100, 1700: within 0.3 us either way (1700: 143.1 -> 143.3 / 146.6 -> 146.5).
FUSED_LANES_128 = True


def fused_lanes_128(m: int, two_i: int, sms: int = H200_SMS) -> bool:
    """Whether ``large_m_route`` takes the 128-token stream-K for a 256-token route (the
    comment above)."""
    return FUSED_LANES_128 and lanes_128_over_256(m, two_i, sms)


# Weights of more rows than STREAM_K_LANES_MAX_ROW_TILES tiles on the plain GEMM's 256-token
# stream-K with at least WIDE_LANES_MIN_ACTIVATION_BYTES of bf16 activations (M x K x 2): WIDE_LANES
# lanes where they divide the row tiles (bands of row tiles / WIDE_LANES; 4 of 132 SMs idle).
# With plain ranges the CTAs sit at unrelated K positions of activations too big to stay in
# the L2 beside the weight stream, which then come from DRAM again for each row tile. H100
# 2026-12-05 (session 80 calls 12 and 13, ``tools/lanes_w4a16_probe.py``, graph us, two rounds
# alike, plain ranges / lanes 4 / 5 / 7 / 8 / 10 / 14 / 20 / 40 where they divide, cuBLAS bf16):
# W4A16 5120x17408 M = 1024 265.5 / 242.9 / 239.5 / - / 234.7 / 237.8 / - / 243.9 / 242.5
# (223.1); 7168x18432 M = 1024 428.3 / 395.6 / - / 381.2 / 372.5 / - / 377.1 / - / - (368.4);
# NVFP4 tokens 7168x18432 plain ranges 401.2, 8 lanes 341.8. Call 14 (this rule, another
# H100; plain ranges forced / the rule, cuBLAS): 5120x17408 W4A16 272.9 / 240.8, NVFP4 tokens
# 263.6 / 235.8 (229.2); the GPU tests' fp64 checks pass. The H200's plain ranges already
# ran NVFP4 tokens at 93-96% of its mma peak (session 76-77: 7168x18432 367.7, 5120x17408
# 239.9 us), W4A16 at 85.5% / 90.7% (401.3 / 253.8 us) where the H100 in 8 lanes took 372.5 /
# 234.7: unmeasured on the H200.
WIDE_LANES = 8
WIDE_LANES_MIN_ACTIVATION_BYTES = 32 * 2**20


def wide_stream_k_lanes(m: int, n: int, k: int, tile_m: int, sms: int = H200_SMS) -> int:
    """Lanes for ``nvfp4_gemm``'s 256-token stream-K proper on weights past
    ``STREAM_K_LANES_MAX_ROW_TILES`` row tiles (the comment above): ``WIDE_LANES`` where they
    divide the row tiles and the activations reach ``WIDE_LANES_MIN_ACTIVATION_BYTES``, else 1."""
    rows = -(-n // TILE_N)
    return (WIDE_LANES if STREAM_K_LANES and tile_m == 256
            and rows > STREAM_K_LANES_MAX_ROW_TILES and rows % WIDE_LANES == 0
            and m * k * 2 >= WIDE_LANES_MIN_ACTIVATION_BYTES and WIDE_LANES <= sms else 1)


def plain_stream_k_lanes(n: int, tile_m: int, stream_k: bool, sms: int = H200_SMS) -> int:
    """Lanes for ``nvfp4_gemm``'s launch on N rows in ``tile_m``-token tiles where it is
    stream-K proper (``stream_k``: no hybrid, no K split): ``stream_k_lanes``' where
    ``PLAIN_STREAM_K_LANES``, else 1."""
    return stream_k_lanes(n, tile_m, sms) if PLAIN_STREAM_K_LANES and stream_k else 1


# Past 128 tokens where a launch of 128-token tiles fills at most ``MID_M_MAX_WAVES`` waves, the
# wgmma kernels (fused and plain) take whole tiles of 64 / 128 / 256 tokens or stream-K with 128
# / 256, whichever ``mid_m_estimates`` has fastest. Its costs are the fused kernel's, from
# ``tools/fused_route_probe.py`` (H200 2026-12-01, session 24, public function us, activations
# padded to whole tiles; one wave of whole tiles at K = 7168: ~31 us with 64 tokens, ~41-44 with
# 128, ~74-78 with 256), and a stream-K CTA pays ~0.3 of a tile's K loop for its cut pieces'
# fix-up and the uneven finish. Its choice is the fastest launch measured, or within 1%, at each
# of its 15 points (9216x7168 M = 129..512, 4096x7168 M = 129..512, 1024x7168 M = 768..2048;
# ``FASTEST_FUSED_LAUNCH`` in the tests), e.g. fused, whole / stream-K 128 / stream-K 256:
# 9216x7168 M = 256 91.6 (64) / 56.9 / 62.9; M = 320 81.9 (128) / 80.7 / 101.2; 4096x7168 M =
# 192 31.1 (64) / 37.4 / 44.1; M = 512 44.0 (128) / 52.1 / 59.2; 1024x7168 M = 768 33.5 (64) /
# 31.9 / 40.3; M = 2048 52.2 (128) / 60.3 / 67.1. Session 23's route there (the fp32 split
# route, or stream-K from ``stream_k_plan``) measured 61.4, 101.2, 40.1, 52.1, 36.4 and 60.1 us
# at those points. Beyond the waves bound (9216x7168 M = 1024, 36864x7168 and 34816x5120 from M
# = 129) the kernel's stream-K / whole-tile rule (``stream_k_plan``, ``large_m_config``) stays:
# its choice there, stream-K with 256 tokens, was the fastest launch measured or within 1% at
# the five points probed, where this model's single-wave costs would extrapolate. The plain GEMM
# (``plain_plan``, where it does not split K), same probe for it
# (``tools/plain_route_probe.py``): the fastest launch or within 1% at its 10 points inside the
# bound (7168x18432, 5120x17408, 9216x7168, 4096x7168, 7168x2048 at M = 256, the last three at
# 512, 9216x7168 and 7168x18432 at 129), e.g. plan before / now: 4096x7168 M = 512 56.9
# (stream-K 256) / 42.5 (whole 128; cuBLAS 41.5); M = 256 32.2 / 30.8 (whole 64); 7168x18432 M =
# 256 104.7 / 100.9 (whole 128); 9216x7168 M = 512 104.1 / 101.1 (stream-K 128).
MID_M_TILE_COST = {64: 0.75, 128: 1.0, 256: 1.85}
MID_M_PIECE_COST = 0.3
MID_M_MAX_WAVES = 4
# stream-K enters the model from this many units a CTA (``STREAM_K_MIN_K_TILES``' 40 until
# session 31): the fused 1024x7168 at 513..640 tokens (34 units a CTA with 128-token tiles;
# ``tools/split_fixup_probe.py``, H200 2026-12-01, us, stream-K 128 / the wide pieces / whole
# 64-token tiles: M = 520 29.56 / 30.55 / 32.10, M = 576 29.88 / 30.55 / 32.21, M = 640 29.54 /
# 30.75 / 32.66). No other model shape's launch changes with it.
MID_M_STREAM_K_MIN_K_TILES = 32


def mid_m_estimates(m: int, two_i: int, k: int, sms: int = H200_SMS) -> dict:
    """("whole" | "stream_k", tile_m) -> the wgmma kernel's estimated time, in K loops of one
    128-token tile: waves x ``MID_M_TILE_COST`` for whole tiles; for stream-K (only with
    ``MID_M_STREAM_K_MIN_K_TILES`` units a CTA or more: fewer, and the fix-up dominates) each
    CTA's share of the units plus ``MID_M_PIECE_COST`` of a K loop, times the tile's cost."""
    k_tiles = k // TILE_K
    est = {}
    for tile_m in (64, 128, 256):
        tiles = -(-m // tile_m) * -(-two_i // TILE_N)
        est[("whole", tile_m)] = -(-tiles // sms) * MID_M_TILE_COST[tile_m] * k_tiles
    for tile_m in (128, 256):
        per_cta = launch_units(m, two_i, k, tile_m) / sms
        if per_cta >= MID_M_STREAM_K_MIN_K_TILES:
            est[("stream_k", tile_m)] = ((per_cta + MID_M_PIECE_COST * k_tiles)
                                         * MID_M_TILE_COST[tile_m])
    return est


@functools.lru_cache(maxsize=4096)
def mid_m_launch(m: int, two_i: int, k: int, sms: int = H200_SMS) -> tuple[str, int] | None:
    """("whole" | "stream_k", tile_m): the wgmma kernel's launch with the least
    ``mid_m_estimates`` past 128 tokens, where 128-token tiles fill at most
    ``MID_M_MAX_WAVES`` waves; else None. ``two_i``: the weight's rows (2I for the fused
    kernel, N for the plain one)."""
    if m <= 128 or -(-m // 128) * -(-two_i // TILE_N) > MID_M_MAX_WAVES * sms:
        return None
    return mid_m_fastest(m, two_i, k, sms)


def mid_m_fastest(m: int, two_i: int, k: int, sms: int = H200_SMS) -> tuple[str, int]:
    """("whole" | "stream_k", tile_m) with the least ``mid_m_estimates``, at any waves."""
    est = mid_m_estimates(m, two_i, k, sms)
    return min(est, key=est.get)


# ``plain_plan`` takes ``mid_m_launch`` up to this many tokens: the range session 24 measured
# it on for the plain GEMM (``tools/plain_route_probe.py``, M = 129..512). Its cost model is
# the fused kernel's, whose 256-token tiles cost more than the plain kernel's: at M = 1024 the
# nvfp4_gemm suite (H200 2026-12-01, session 25, permuted words, us) had 7168x18432 482.9
# (0.92x cuBLAS), 5120x17408 328.5 (0.84x) and 7168x2048 54.7 (0.87x) on its 128-token
# stream-K, against session 22's suite on the plans kept here (256-token tiles): 402.3
# (1.07x), 288.9 (0.96x) and 46.3 (0.95x).
PLAIN_MID_M_MAX = 512


# One wave of whole 64-token tiles becomes 128-token tiles in two K pieces (the pieces added
# in the launch, as split plans) where those fill at most one wave too and each piece has at
# least this many k-tiles: every CTA then decodes half a weight tile's K for twice the tokens.
# ``tools/split_fixup_probe.py`` (H200 2026-12-01, session 31, us with the activations'
# dequantization, whole 64-token tiles / 128-token tiles in two pieces): 4096x7168 M = 256
# 30.43 / 28.64, fused 4096x7168 M = 256 31.33 / 30.40, fused 1024x7168 M = 1024 34.68 /
# 33.80; short K loses (7168x2048 M = 128, 16 k-tiles a piece: 11.94 / 15.23).
WIDE_PIECES_MIN_K_TILES = 40


def wide_pieces(m: int, n: int, k: int, sms: int = H200_SMS) -> bool:
    """Whether whole 64-token tiles on an [N, K] weight (N: 2I for the fused kernel) take
    128-token tiles in two K pieces instead (``WIDE_PIECES_MIN_K_TILES``)."""
    row_tiles, k_tiles = -(-n // TILE_N), k // TILE_K
    return (m > 64 and -(-m // 64) * row_tiles <= sms and 2 * -(-m // 128) * row_tiles <= sms
            and k_tiles % 2 == 0 and k_tiles // 2 >= WIDE_PIECES_MIN_K_TILES)


# A stream-K plan on 256-token tiles takes whole 128-token tiles instead where those fill one
# wave to at least this much: no fix-up, and every SM busy for the whole K loop.
# ``tools/narrow_whole_probe.py`` (H200 2026-12-03, session 53, public us, two rounds alike;
# whole 128-token tiles / the 256-token stream-K plan / cuBLAS): 1024x7168 M = 2048 47.2 /
# 57.3 / 40.9, M = 1800 46.0 / 57.2 / 37.9; 2048x7168 M = 1024 42.3 / 52.9 / 40.6, M = 900
# 41.5 / 51.8 / 38.0; 3072x7168 M = 640 40.2 / 53.4 / 40.4, M = 520 39.0 / 52.7 / 33.9;
# 1536x7168 M = 1400 44.3 / 57.7 / 41.4; 512x7168 M = 4096 58.0 / 86.2 / 42.3. No weight on
# issue 5's list has such a plan at 129..16384 tokens: only weights of at most ~4096 rows do.
NARROW_WHOLE_MIN_FILL = 0.9


def narrow_whole_wave(m: int, n: int, sms: int = H200_SMS) -> bool:
    """Whether whole 128-token tiles fill one wave to ``NARROW_WHOLE_MIN_FILL`` (a 256-token
    stream-K plan then takes them)."""
    tiles = -(-m // 128) * -(-n // TILE_N)
    return NARROW_WHOLE_MIN_FILL * sms <= tiles <= sms


# Per call on the host path of every large-M launch: pure in its integers, so memoized (a few
# microseconds of Python each time otherwise)
@functools.lru_cache(maxsize=4096)
def plain_plan(m: int, n: int, k: int) -> tuple[int, int, bool, bool]:
    """(tile_m, splits, stream_k, hybrid): ``nvfp4_gemm``'s wgmma launch on an [N, K] weight:
    ``plain_plan_before_lanes_128``'s, on 128-token tiles in lanes instead of a 256-token plan
    where ``plain_lanes_128`` takes it, or of whole 128-token tiles in part of a wave where
    ``plain_part_wave_lanes`` does; else on ``plain_narrow_launch``'s 128-token tiles where it
    has them for a 256-token plan. Before all of those, a plan without a K split takes
    ``fitted_launch``'s tiles of 144..240 tokens where it has them."""
    plan = plain_plan_before_lanes_128(m, n, k)
    fitted = fitted_launch(m, n, k) if plan[1] == 1 else None
    if fitted is not None:
        return fitted
    if plan[:2] == (256, 1) and plain_lanes_128(m, n):
        return 128, 1, True, False
    if plain_part_wave_lanes(m, n, k, plan):
        return 128, 1, True, False
    narrow = plain_narrow_launch(m, n, k, plan)
    return plan if narrow is None else narrow


# Whole 128-token tiles from the mid-M model that fill less than PLAIN_PART_WAVE_MAX_FILL of
# one wave take the 128-token stream-K instead on weights whose 128-token tiles take lanes
# (``stream_k_lanes``; a stream-K with ``MID_M_STREAM_K_MIN_K_TILES`` units a CTA): every SM
# busy. ``tools/small_m_plans_probe.py`` (H200 2026-12-04, session 64 calls 1 and 3, graph us,
# permuted words, NVFP4 activations; whole 128 / stream-K 128 in 32 lanes / cuBLAS bf16):
# 4096x7168 M = 260 37.9 / 34.7 / 31.6, M = 300 38.4 / 34.8 / 31.4, M = 384 39.3 / 35.7 /
# 37.1; at M = 450 (128 tiles, 97%) 39.2 / 39.3 / 38.9. ``tools/plain_rules_probe.py`` (call 5,
# plan -> this rule, cuBLAS): 4096x7168 M = 320 38.6 -> 35.0 (27.5); 4096x5120 M = 260 28.0 ->
# 27.3 (23.0), M = 300 28.1 -> 27.5 (22.9), M = 384 28.4 -> 27.7 (26.4).
PLAIN_PART_WAVE_MAX_FILL = 0.9


def plain_part_wave_lanes(m: int, n: int, k: int, plan: tuple[int, int, bool, bool],
                          sms: int = H200_SMS) -> bool:
    """Whether ``plain_plan`` takes the 128-token stream-K in lanes for ``plan``, whole
    128-token tiles in part of one wave (the comment above)."""
    return (plan == (128, 1, False, False) and PLAIN_STREAM_K_LANES
            and part_wave_lanes(m, n, k, sms))


def part_wave_lanes(m: int, n: int, k: int, sms: int = H200_SMS) -> bool:
    """Whether whole 128-token tiles on an [N, K] weight fill less than
    ``PLAIN_PART_WAVE_MAX_FILL`` of one wave (to ``PLAIN_MID_M_MAX`` tokens) where its
    128-token stream-K takes lanes and ``mid_m_estimates`` weighs it."""
    if m > PLAIN_MID_M_MAX:
        return False
    tiles = -(-m // 128) * -(-n // TILE_N)
    return (tiles < PLAIN_PART_WAVE_MAX_FILL * sms and stream_k_lanes(n, 128, sms) > 1
            and ("stream_k", 128) in mid_m_estimates(m, n, k, sms))


# The fused op's twin (``large_m_route``: its whole 128-token tiles in part of one wave for the
# 128-token stream-K, in lanes). ``tools/fused_fitted_probe.py`` (H200 2026-12-04, session 66
# call 4, graph us, permuted words, NVFP4 activations, two rounds alike; whole 128 / stream-K
# 128 / the unfused pair): 4096x7168 M = 260 40.5 / 37.1 / 33.7; M = 300 40.4 / 37.0 / 38.0; M =
# 384 40.6 / 37.7 / 38.4. (The pair's GEMM takes one 144-token tile at 260, which the fused
# kernel then took only in steps of 32; stream-K on 160-token tiles ran 35.8 / 36.1 / 45.7.
# With ``FUSED_FITTED_STEP`` 16 the fitted route takes stream-K 144 at 260 tokens: 33.2.)
FUSED_PART_WAVE_LANES = True


def fused_part_wave_lanes(m: int, two_i: int, k: int, sms: int = H200_SMS) -> bool:
    """Whether ``large_m_route`` takes the 128-token stream-K for whole 128-token tiles (the
    comment above)."""
    return FUSED_PART_WAVE_LANES and STREAM_K_LANES and part_wave_lanes(m, two_i, k, sms)


# Past the mid-M range (``PLAIN_MID_M_MAX`` tokens or ``MID_M_MAX_WAVES``) a 256-token plan
# without a K split takes 128-token tiles where ``mid_m_fastest`` has them fastest: whole
# tiles up to PLAIN_NARROW_MAX_M tokens, stream-K up to PLAIN_NARROW_STREAM_K_MAX_M (past it
# the 128-token stream-K lost at 12 of 19 points). ``tools/plain_narrow_probe.py`` (H200
# 2026-12-04, session 64 call 2, graph us, permuted words, NVFP4 activations, two rounds alike;
# plan -> this rule, cuBLAS bf16): whole tiles 7168x18432 M = 800 330.8 -> 288.7 (301.2), M =
# 1100 405.2 -> 385.3 (369.5); 5120x17408 M = 1100 310.7 -> 270.5 (255.3), M = 2048 499.1 ->
# 469.3 (459.2); 9216x7168 M = 800 163.5 -> 146.1 (141.0), M = 1100 214.6 -> 188.1 (188.1), M =
# 1300 244.4 -> 225.4 (222.2); 36864x7168 M = 1300 1035.5 -> 957.3 (931.4); stream-K
# 7168x18432 M = 513 240.6 -> 227.4 (192.9), M = 600 244.7 -> 234.3 (213.4); 5120x17408 M =
# 513 168.3 -> 153.9 (124.9), M = 600 169.4 -> 158.0 (140.3); 7168x2048 M = 513 39.0 -> 33.3,
# M = 600 38.9 -> 33.6 (27.4); 36864x7168 M = 300 308.6 -> 259.4 (227.8), M = 384 310.9 ->
# 270.2 (269.5); 34816x5120 M = 300 211.1 -> 178.3 (160.9), M = 384 213.3 -> 186.1 (189.9), M =
# 513 319.5 -> 293.5 (287.4), M = 600 316.6 -> 302.1 (292.0). The 128-token stream-K lost at
# 7168x18432 M = 700 / 900 / 1024 (251.4 -> 274.9 / 337.3 -> 446.5 / 347.1 -> 443.6), 5120x17408
# M = 800 / 900 / 1024 / 2100 (226.5 -> 238.5 / 231.3 -> 299.4 / 236.3 -> 298.9 / 528.2 ->
# 713.5), 7168x2048 M = 900 / 1024 (45.0 -> 46.6, 45.2 -> 46.9), 36864x7168 M = 800 / 1100
# (631.9 -> 649.1 / 815.2 -> 855.9); it won at 7168x2048 M = 700 and 1300 (39.1 -> 37.5, 67.2
# -> 59.8), 9216x7168 M = 700 (141.0 -> 134.9), 34816x5120 M = 800 / 1100 (459.1 -> 418.9 /
# 569.7 -> 552.9). Whole tiles lost at 4096x7168 M = 2500 (189.9 -> 194.0, hence the 2400)
# and, over the 128-token lanes (``plain_lanes_128``, which come first), at M = 1536 (115.4 ->
# 117.1).
PLAIN_NARROW_MAX_M = 2400
PLAIN_NARROW_STREAM_K_MAX_M = 640


def plain_narrow_launch(m: int, n: int, k: int,
                        plan: tuple[int, int, bool, bool]) -> tuple[int, int, bool, bool] | None:
    """128-token tiles (whole or stream-K, ``mid_m_fastest``'s) for a 256-token plan without
    a K split up to ``PLAIN_NARROW_MAX_M`` tokens where the model has 128-token tiles fastest
    (the comment above); else None."""
    if plan[:2] != (256, 1) or m > PLAIN_NARROW_MAX_M:
        return None
    kind, tile_m = mid_m_fastest(m, n, k)
    if tile_m != 128 or (kind == "stream_k" and m > PLAIN_NARROW_STREAM_K_MAX_M):
        return None
    return 128, 1, kind == "stream_k", False


def plain_plan_before_lanes_128(m: int, n: int, k: int) -> tuple[int, int, bool, bool]:
    """``plain_plan`` but for its 128-token lanes (the fused op's split-route rule compares
    token tiles on this one: ``swiglu_split_route.fp32_route_plan``): stream-K (or its hybrid)
    where ``stream_k_plan`` takes it, else whole tiles with ``large_m_plan``'s K splits;
    without a K split, ``mid_m_launch``'s launch where it has one (129..``PLAIN_MID_M_MAX``
    tokens, a few waves); one wave of whole 64-token tiles in 128-token pieces where
    ``wide_pieces`` takes it; whole 128-token tiles instead of 256-token stream-K where
    ``narrow_whole_wave`` takes it; stream-K in lanes instead of the hybrid where
    ``lanes_over_hybrid`` takes it."""
    stream_plan = lanes_over_hybrid(n, stream_k_plan(m, n, k))
    if stream_plan == (256, False) and narrow_whole_wave(m, n):
        plan = 128, 1, False, False
    elif stream_plan is not None:
        plan = stream_plan[0], 1, True, stream_plan[1]
    else:
        plan = *large_m_plan(m, n, k), False, False
    # K splits stay (few tiles)
    mid = mid_m_launch(m, n, k) if plan[1] == 1 and m <= PLAIN_MID_M_MAX else None
    if mid is not None:
        plan = mid[1], 1, mid[0] == "stream_k", False
    if plan == (64, 1, False, False) and wide_pieces(m, n, k):
        return 128, 2, False, False
    return plan


# ``nvfp4_gemm``'s own launches at up to this many tokens take 64-row tiles with the consumer
# warpgroups on the K groups (``NVFP4GemmLargeM(wg_k_split=True)``) where its plan is whole
# 128-row tiles or K pieces (not stream-K) and the 64-row tiles of the narrowest token tile that
# holds M fit one wave: each K piece then has twice the CTAs, or a tile half the pieces.
# ``tools/wg_k_split_probe.py`` (H200 2026-12-01, session 33, graph us with the activations'
# dequantization, two rounds alike; plan -> 64-row tiles, QuACK w4a16 in the same run):
# 7168x2048 M = 32 (32-token tiles in two pieces, 112 CTAs -> 112 whole tiles) 10.54 -> 7.57
# (QuACK 10.55; the public small-M kernel 9.71), M = 48 11.08 -> 8.33, M = 64 (56 whole tiles ->
# 112) 11.17 -> 8.35 (QuACK 11.35), M = 96 11.88 -> 10.83 and M = 128 11.95 -> 10.91 (128-token
# tiles); 4096x7168 (four pieces of 32 row tiles -> two of 64) M = 17 14.46 -> 12.77, M = 32 14.64
# -> 12.87, M = 64 16.33 -> 14.58 (QuACK 17.9), M = 128 21.24 -> 19.03. Whole tiles with four
# pieces' CTAs lost there (M = 64 17.44), as did stream-K on the full grid everywhere (7168x2048
# M = 64 12.58) and 9216x7168 M = 64 (stream-K 25.1 against 32.3 whole); 7168x18432 M = 64 gained
# 1% (40.2 -> 39.7, not taken: its plan is stream-K). Two CTAs an SM lost everywhere (call 5:
# 7168x2048 M = 64 in two pieces 11.4, 32-token tiles 10.4; 4096x7168 M = 64 in four pieces 16.8).
# At 129..256 tokens (calls 6, 7) whole 128-token tiles where they fill a wave
# (``WG_K_SPLIT_MID_MIN_FILL``): 4096x7168 (128 tiles) M = 129 27.4 -> 25.5 (cuBLAS 19.9), M = 160
# 27.5 -> 25.6 (25.0), M = 192 27.8 -> 25.6 (27.9), M = 224 27.8 -> 25.7 (30.0), M = 256 28.05 ->
# 25.84 (cuBLAS 26.6-27.1: 1.03-1.05x). Two waves lost (7168x2048 M = 256 17.65 against 15.22),
# as did 256-token tiles (two stages fit: 7168x2048 21.2, 4096x7168 59.5, in two pieces 37.4).
WG_K_SPLIT_MAX_M = 128
WG_K_SPLIT_MIN_STAGES = 8  # 128-K stages a piece at least (``MIN_SPLIT_K_TILES`` / 2)
WG_K_SPLIT_MID_MAX_M = 256
WG_K_SPLIT_MID_MIN_FILL = 0.9  # of a wave, by whole 128-token tiles at 129..256 tokens
# Past this many tokens ``plain_plan``'s 128-token tiles in two or four K pieces take their
# launch: since the scattered pieces (``NVFP4GemmLargeM.SCATTER_PIECES``, session 55) they beat
# the 64-row tiles. ``tools/pieces_route_probe.py`` (H200 2026-12-03, session 56 call 1, public
# calls, graph us, two rounds alike; 64-row tiles / the scattered pieces, ``nvfp4_gemm`` then
# the fused op): 4096x7168 M = 65 17.90 / 16.41, 20.11 / 18.84; M = 128 18.03 / 16.83, 20.26 /
# 18.86; M = 192 25.12 / 24.66, 26.88 / 26.45; M = 256 25.25 / 25.05, 27.21 / 26.80 (two pieces,
# before their cluster pairs, ``pieces_pair``). At 64 tokens and below the 64-row tiles pair up
# (``wg_k_pairs``) and stay.
WG_K_SPLIT_PIECES_FROM_M = 64


def scattered_pieces(tile_m: int, splits: int) -> bool:
    """Whether a split-K launch of ``tile_m``-token tiles in ``splits`` pieces is the scattered
    pieces' (each piece a whole number of 8-token column groups of 128-token tiles: two or four)."""
    return tile_m == 128 and splits in (2, 4)


# Two K pieces of 128-token tiles (``plain_plan``'s split-K launches of two, the fused op's
# "pieces" of two) run as cluster pairs (``pair_pieces``: each CTA sends the other its token
# share of its sums through distributed shared memory) instead of the scattered pieces' global
# round trips. ``tools/pieces_fixup_probe.py`` (H200 2026-12-03, session 56 call 1, the
# kernels alone, graph us, two rounds alike; scattered / pair): plain 1024x7168 M = 1024 25.39
# / 22.72, 4096x7168 M = 256 24.79 / 22.61; fused (its pair then on 7 stages, now 8:
# ``recv_in_epilogue``) 25.92 / 25.51 and 25.13 / 25.31.
PAIR_TWO_PIECES = True


def pieces_pair(tile_m: int, splits: int, k: int) -> bool:
    """Whether a split-K launch of ``tile_m``-token tiles in ``splits`` pieces of K runs as
    cluster pairs instead (``PAIR_TWO_PIECES``; K halves of whole k-tiles with one or two K
    groups a k-tile)."""
    return (PAIR_TWO_PIECES and tile_m == 128 and splits == 2 and k % (4 * TILE_K) == 0)


@functools.lru_cache(maxsize=4096)
def wg_k_split_plan(m: int, n: int, k: int, sms: int = H200_SMS) -> tuple[int, int] | None:
    """(tile_m, splits) of ``nvfp4_gemm``'s launch in 64-row tiles with the warpgroups on the
    K groups (the comment above), or None: up to ``WG_K_SPLIT_MAX_M`` tokens the narrowest of
    16 / 32 / 64 / 128 tokens that holds M, in as many K pieces (at most ``MAX_SPLITS``,
    dividing the 128-K stages, each at least ``WG_K_SPLIT_MIN_STAGES``) as one wave holds; up to
    ``WG_K_SPLIT_MID_MAX_M`` whole 128-token tiles that fill ``WG_K_SPLIT_MID_MIN_FILL`` of a
    wave."""
    if m > WG_K_SPLIT_MID_MAX_M or (k // TILE_K) % 2 or plain_plan(m, n, k)[2]:
        return None
    if m > WG_K_SPLIT_PIECES_FROM_M and scattered_pieces(*plain_plan(m, n, k)[:2]):
        return None
    if m > WG_K_SPLIT_MAX_M:
        tiles = -(-m // 128) * -(-n // 64)
        return (128, 1) if WG_K_SPLIT_MID_MIN_FILL * sms <= tiles <= sms else None
    tile_m = next(t for t in (16, 32, 64, 128) if m <= t)
    tiles = -(-m // tile_m) * -(-n // 64)
    stages = k // (2 * TILE_K)
    fits = [s for s in range(1, MAX_SPLITS + 1) if tiles * s <= sms and stages % s == 0
            and (s == 1 or stages // s >= WG_K_SPLIT_MIN_STAGES)]
    return (tile_m, max(fits)) if fits else None


# Two K pieces of tiles of at most this many tokens are one cluster of two CTAs each
# (``pair_pieces``): the second CTA stores its sums into the first's shared memory instead of
# the stream-K fix-up through global memory. ``tools/wg_k_split_probe.py`` with
# ``CUTE_KERNELS_PROBE_PAIRS=1`` (H200 2026-12-01, session 34, graph us with the activations'
# dequantization, two pieces in global memory -> a pair, QuACK w4a16 in the same run):
# 4096x7168 M = 17 12.70 -> 11.03 (QuACK 15.04), M = 32 12.84 -> 11.13 (14.78), M = 64 14.68 ->
# 12.54 (17.7); M = 128 lost (19.15 -> 19.85), as did pairs where the plan has whole tiles (their
# CTAs then pass a wave: 7168x2048 M = 64 8.38 -> 13.06, M = 32 7.53 -> 11.45).
WG_K_PAIR_MAX_TILE_M = 64


def wg_k_pairs(m: int, n: int, k: int) -> bool:
    """Whether ``nvfp4_gemm``'s 64-row-tile launch (``wg_k_split_plan``) sums its two K pieces
    in a cluster of two CTAs (``WG_K_PAIR_MAX_TILE_M``) instead of the global fix-up."""
    plan = wg_k_split_plan(m, n, k)
    return plan is not None and plan[1] == 2 and plan[0] <= WG_K_PAIR_MAX_TILE_M


# The wgmma kernels' PDL trigger after the first main loop (``pdl_trigger_plan``): stream-K
# launches up to this many tokens; launches of whole tiles or fixed K pieces, with the next
# activation pass spread over the SMs, up to ``PDL_SPREAD_TRIGGER_MAX_M``
PDL_TRIGGER_MAX_M = 256
PDL_SPREAD_TRIGGER_MAX_M = 512
# Cluster pairs of 128-token tiles (``pieces_pair``) trigger and spread up to this many tokens
# (one wave of pairs: 1024x7168 at 897..1024). ``tools/pair_route_probe.py`` (H200 2026-12-03,
# session 56 call 2, graph us, two rounds alike, pairs untriggered / both): ``nvfp4_gemm``
# 1024x7168 M = 960 26.76 / 26.37, M = 1024 26.96 / 26.49; the fused op 29.58 / 28.99 and
# 29.74 / 29.07 (``PIECES_PDL``).
PDL_PAIR_TRIGGER_MAX_M = 1024
# stream-K launches that trigger spread their pass on token tiles up to this wide
PDL_STREAM_K_SPREAD_MAX_TILE = 32


def pdl_trigger_plan(m: int, n: int, tile_m: int, tile_n: int, splits: int, stream_k: bool,
                     pair_pieces: bool, ctas: int) -> tuple[bool, bool]:
    """(trigger, spread): whether the wgmma launch (``tile_m`` x ``tile_n`` tiles, ``splits``
    fixed K pieces a tile or two in a cluster pair, ``ctas`` CTAs at most) takes
    ``NVFP4GemmLargeM``'s PDL trigger after the first main loop, and whether its activation
    pass spreads over the SMs (``bf16_activations(spread=True)``).

    Whole tiles and fixed pieces, one a CTA, up to ``PDL_SPREAD_TRIGGER_MAX_M`` tokens: both.
    Without the spread the next call's pass, launched under this launch, piled onto the few
    SMs free then and lost (H200 2026-12-01, session 36, ``tools/pass_spread_probe.py``, us
    untriggered / trigger / trigger + spread: 4096x7168 M = 32 (pair) 11.14 / 12.01 / 10.38,
    M = 64 (pair) 12.54 / 14.31 / 11.85, M = 128 (pieces) 19.12 / 19.51 / 18.58, M = 256
    25.89 / 25.87 / 25.50, M = 512 40.41 / 41.60 / 40.17, M = 1024 74.86 / 75.66 / 75.40;
    7168x2048 M = 32 7.56 / 7.10 / 7.10, M = 64 8.40 / 7.92 / 7.91, M = 256 15.25 / 15.06 /
    14.79). Session 35 lost with several tiles a CTA (7168x2048 M = 1024 45.27 / 47.30).

    Stream-K, one token tile, up to ``PDL_TRIGGER_MAX_M`` tokens: the trigger, the spread
    on 16- and 32-token tiles (``tools/narrow_spread_probe.py``, M = 16, trigger / both:
    9216x7168 19.90 / 19.48, 5120x17408 24.26 / 23.81, 7168x18432 30.94 / 30.43; session 50,
    with the asynchronous fix-up, M = 32, untriggered / trigger / both, two rounds:
    7168x18432 29.43, 29.40 / 29.17, 29.18 / 28.85, 28.90, 5120x17408 22.62, 22.68 / 22.31,
    22.27 / 21.95, 21.99, 9216x7168 19.07, 19.08 / 18.87, 18.83 / 18.31, 18.31). 64-token
    tiles keep it unspread: mixed in session 50 (M = 64, trigger / both: 7168x18432 36.52,
    36.47 / 36.64, 36.65, 5120x17408 29.60, 29.66 / 30.13, 30.12, 9216x7168 22.08, 22.10 /
    21.76, 21.75), lost in session 36 (7168x18432 39.87 / 40.50, 36864x7168 70.74 / 71.12;
    with the first spread pass, 4 units a thread, 7168x18432 M = 64 40.25 untriggered / 39.79
    / 40.34). Over two token tiles both lost (5120x17408 M = 256 68.35 / 69.03 / 68.65).
    With more tiles than CTAs, the trigger alone where the launch holds two CTAs an SM, on
    16- or 32-token tiles (H200 2026-12-01, session 38, ``tools/pass_spread_probe.py``,
    untriggered / trigger / both: 36864x7168 M = 16 50.16 / 48.42 / 49.05, M = 32 53.24 /
    51.78 / 52.49; 34816x5120 M = 16 37.47 / 36.38 / 36.77, M = 32 40.37 / 39.71 / 40.06).
    Their wider tiles, one CTA an SM, keep no trigger (the same probe: 36864x7168 M = 64 69.92 /
    71.31 / 69.57, M = 128 97.26 / 98.31 / 97.17, M = 256 173.95 / 175.25 / 173.57;
    34816x5120 M = 64 50.16 / 52.13 / 49.81, M = 256 123.77 / 126.60 / 124.29)."""
    tok_tiles = -(-m // tile_m)
    tiles = tok_tiles * -(-n // tile_n)
    if stream_k:
        one_row = m <= PDL_TRIGGER_MAX_M and tok_tiles == 1
        fits = tiles <= ctas
        trigger = one_row and (fits or (tile_m <= 32 and ctas >= 2 * H200_SMS))
        return trigger, trigger and fits and tile_m <= PDL_STREAM_K_SPREAD_MAX_TILE
    pieces = 2 if pair_pieces else splits
    max_m = PDL_PAIR_TRIGGER_MAX_M if pair_pieces else PDL_SPREAD_TRIGGER_MAX_M
    trigger = m <= max_m and tiles * pieces <= ctas
    return trigger, trigger


# Packed weight bytes at 129..256 tokens take stream-K on 256-token tiles where the plan has
# 128-token tiles without a K split and K is at least this: their decode (``KOrder.PAIRS``,
# ~1.6x permuted words' integer instructions) is then shared by twice the tokens.
# ``tools/plain_route_probe.py`` with ``CUTE_KERNELS_PROBE_PACKED=1`` (H200 2026-12-01,
# session 29, public function us, packed on the plan / packed on sk256 / permuted words on the
# plan): 7168x18432 M = 256 114.5 / 98.8 / 93.1, M = 129 113.4 / 93.9 / 90.9; 5120x17408
# M = 256 78.3 / 74.2 / 69.7; 9216x7168 M = 256 60.0 / 58.0 / 53.2. 4096x7168 M = 256 keeps its
# whole 64-token tiles (32.7; sk256 39.0); 7168x2048 (K 2048) is unmeasured and keeps its plan.
# Since session 66 (``fitted_launch`` from 129 tokens) the stream-K tile is the narrowest
# multiple of 16 that holds M (256 at 241..256 tokens), as the fitted tiles measured on
# permuted words.
PACKED_WIDE_TILE_MIN_K = 5120


def packed_widens(m: int, k: int, tile_m: int) -> bool:
    """Whether packed weight bytes take 256-token stream-K tiles instead of unsplit
    ``tile_m``-token ones (``PACKED_WIDE_TILE_MIN_K``; ``packed_plan``, and the fused op's
    ``packed_route``)."""
    return 128 < m <= 256 and tile_m == 128 and k >= PACKED_WIDE_TILE_MIN_K


# Whether packed weight bytes take the 8-token tiles too (``TILE_8_MAX_M``; off: 16). On since
# session 82: their fp64 GPU test passed and ``tools/tile8_rule_probe.py``'s packed points
# won (H100 2026-12-05, public op, W4A16, graph us, 16- / 8-token tiles, two rounds alike):
# 9216x7168 M = 4 18.73 / 18.43, M = 8 19.02 / 18.44; 5120x17408 M = 4 27.23 / 27.20,
# M = 8 25.02 / 23.66; 7168x18432 M = 4 33.25 / 31.91, M = 8 33.53 / 32.35. Unmeasured on
# the H200.
PACKED_TILE_8 = True


@functools.lru_cache(maxsize=4096)
def packed_plan(m: int, n: int, k: int) -> tuple[int, int, bool, bool]:
    """``plain_plan`` for packed weight bytes (``packed_widens``: one stream-K tile of the
    narrowest multiple of ``FITTED_STEP`` tokens that holds M); 16-token tiles where
    permuted words take 8 if ``PACKED_TILE_8`` is off."""
    plan = plain_plan(m, n, k)
    if plan[0] == 8 and not PACKED_TILE_8:
        return (16,) + plan[1:]
    if plan[1] == 1 and packed_widens(m, k, plan[0]):
        return -(-m // FITTED_STEP) * FITTED_STEP, 1, True, False
    return plan


def plain_launch_options(m: int, n: int, k: int, tile_m: int, stream_k: bool) -> dict:
    """``launch_large_m``'s keyword options for the plain kernel's launch with ``tile_m``-token
    tiles: CTAs per SM and K groups per stage (stream-K only; whole tiles keep one and one)."""
    if not stream_k:
        return {}
    return {"ctas_per_sm": stream_k_ctas(m, n, k, tile_m),
            "k_groups": stream_k_groups(m, n, k, tile_m)}


# W4A4 at 9..16 tokens takes the wgmma kernel's stream-K launch (16-token tiles since
# ``TILE_16_MAX_M``, 2-6% faster than the 32-token tiles measured here) where a row of tiles
# gives at least this many (tile, 64-K) units an SM (two K groups a stage, two CTAs per SM
# from 150). ``tools/ab_two_ctas.sh`` (H200 2026-11-30, session 18, public function us at
# M = 16, two rounds, small kernel / wgmma): 7168x18432 (122 units an SM) 37.8, 38.0 / 32.8,
# 32.8; 36864x7168 (244) 57.7, 57.4 / 54.0, 54.2; 34816x5120 (165) 42.5, 42.7 / 42.0, 41.7;
# session 17's suite had the small kernel ahead below: 5120x17408 (82 units) 26.3 against the
# wgmma kernel's 27.8 at M = 32, 9216x7168 (61) 20.1 / 22.6. The fused op's fp32 route adds
# its activation kernel: it paid on 36864x7168 (fused small kernel 59.9, 60.6 / 57.5, 57.9),
# not on 34816x5120 (44.5, 44.9 / 45.9, 45.9), so the fused op's bar was 200 until session
# 19's ``FUSED_NARROW_TILES`` ran the fused kernel itself on that launch (no fp32 route): the
# plain bar since (fused 34816x5120 M = 12 45.0, 44.6 us on the small kernel / 41.1, 41.6).
# Session 20 (``tools/grouped_stages_probe.py``): 5120x17408 (82 units an SM) at M = 16 in
# 16-token tiles with two K groups and 6 stages (``stage_cap``) 24.68, 24.76 us with the
# dequantization, against the small kernel's 26.7-26.9 public (``tools/ab_stage_caps.sh``);
# 9216x7168 (61) stays: 20.4-21.4 at best against 20.2-20.4.
WGMMA_FROM_9_MIN_UNITS = 80
# Packed weight bytes take the same bar since their decode in ``KOrder.PAIRS`` (session 29;
# session 28's byte order needed 100 units an SM). ``tools/packed_order_probe.py`` (H200
# 2026-12-01, M = 16, us, two rounds, the wgmma route in pairs / the small kernel, public):
# 5120x17408 (82 units) 25.6, 25.7 / 28.0, 28.0.


# ``nvfp4_gemm``'s own W4A4 launches on permuted words since the PDL trigger and the spread
# activation pass (``pdl_trigger_plan``, session 36) also take the wgmma kernel at 9..16 tokens
# on weights over 8 Mi values where it sums two K pieces in cluster pairs (``wg_k_pairs``) or
# its 16-token stream-K row has at least this many units an SM. ``tools/narrow_spread_probe.py``
# (H200 2026-12-01, graph us, small kernel / wgmma): 4096x7168 (pairs) M = 9 10.47 / 9.54,
# M = 12 10.58 / 9.55, M = 16 10.58 / 9.54; 9216x7168 (61 units) M = 16 20.1 / 19.5 (spread);
# 7168x2048 (whole 64-row tiles) stays: M = 16 6.34 / 6.84.
PLAIN_WGMMA_FROM_9_MIN_UNITS = 60


@functools.lru_cache(maxsize=256)
def plain_wgmma_from_9_tokens(n: int, k: int, sms: int = H200_SMS) -> bool:
    """Whether ``nvfp4_gemm``'s fp4 activations at 9..16 tokens on permuted words [N, K] take
    the wgmma kernel: ``wgmma_from_9_tokens``, or (over 8 Mi values) its cluster pairs or a
    stream-K row of ``PLAIN_WGMMA_FROM_9_MIN_UNITS`` units an SM."""
    if wgmma_from_9_tokens(n, k, sms):
        return True
    if n * k <= 8 * 2**20:
        return False
    return wg_k_pairs(16, n, k) or (stream_k_plan(16, n, k) is not None and
                                   row_units(n, k) >= PLAIN_WGMMA_FROM_9_MIN_UNITS * sms)


@functools.lru_cache(maxsize=256)  # asked on the small-M host path at 9..16 tokens
def wgmma_from_9_tokens(n: int, k: int, sms: int = H200_SMS) -> bool:
    """Whether fp4 activations at 9..16 tokens take the wgmma kernel on an [N, K] weight (the
    plain GEMM's, or the fused op's [2I, K]): from ``WGMMA_FROM_9_MIN_UNITS`` (tile, k-tile)
    units an SM, permuted words and packed bytes alike."""
    return (stream_k_plan(16, n, k) is not None
            and row_units(n, k) >= WGMMA_FROM_9_MIN_UNITS * sms)
