"""Fitted token tiles for ``nvfp4_gemm``'s wgmma launch: where M tokens split into a few tiles
of 144..240 tokens (steps of 16, ``nvfp4_gemm_large_m.token_tile_ok``) with less padding than
into tiles of 128 or 256, e.g. 300 tokens as two tiles of 160 (320 tokens of work) instead of
three of 128 (384) or two of 256 (512), or 200 tokens as one tile of 208 instead of two of 128.
Host-side arithmetic only, from H200 measurements.
``large_m_plans.plain_plan`` asks ``fitted_launch`` before its 128-token rules; the fused op
asks ``fused_fitted_route`` for its own kernel's launch.

The model (``fitted_estimates``), in K loops of one 128-token tile: whole tiles cost waves x
``FITTED_TILE_COST`` x k-tiles; stream-K costs each CTA's share of the (tile, k-tile) units
plus ``FITTED_PIECE_UNITS`` (its cut pieces' fix-up and the uneven finish), times the tile
cost. Stream-K needs ``FITTED_STREAM_K_MIN_K_TILES`` k-tiles (at K = 2048 its fix-up is as
long as a piece: 7168x2048 M = 300, stream-K 160 22.8 us against whole 160 16.6),
``FITTED_STREAM_K_MIN_UNITS`` units a CTA and at most ``FITTED_STREAM_K_MAX_M`` tokens. Past
that, the whole tiles the model picks take the data-parallel + stream-K hybrid where
``fitted_hybrid_fits``.
"""

from __future__ import annotations

import functools

from .nvfp4_gemm_large_m import H200_SMS, TILE_K, TILE_N

# One CTA tile's time relative to 128 tokens (the same K), from one wave of whole tiles at
# 5120x17408 (``tools/fitted_tiles_probe.py``, H200 2026-12-04, session 65 call 3, graph us
# with the activation pass; whole 128 / 160 / 192 / 224 tiles, one a CTA): 88.2 / 106.5 /
# 128.9 / 150.5; 256 is the mid-M model's (``large_m_plans.MID_M_TILE_COST``).
# Steps of 16 (session 66, ``tools/fitted_tiles_probe.py`` call 3, graph us): 208 from one wave
# of whole 208 / 224 tiles at 5120x17408 M = 600 (140.5 / 148.9); 240 from its stream-K against
# 160's at 36864x7168 M = 450 (303.9 / 317.0) and 7168x18432 M = 450 (158.7 / 165.6), which fit
# 1.70 and 1.66 (below 224's: the weight decode a k-tile costs does not grow with the tile);
# 144 from one wave of whole 144 / 160 tiles at 5120x17408 M = 400 (call 4: 101.9 / 108.0);
# 176 halfway between its neighbours.
FITTED_TILE_COST = {128: 1.0, 144: 1.14, 160: 1.21, 176: 1.335, 192: 1.46, 208: 1.60, 224: 1.71,
                    240: 1.70, 256: 1.85}
FITTED_PIECE_UNITS = 40
FITTED_STREAM_K_MIN_K_TILES = 64
FITTED_STREAM_K_MIN_UNITS = 32
# The rule against the plan without it (``tools/fitted_rule_probe.py``, H200 2026-12-04,
# session 65 call 4, graph us, permuted words, NVFP4 activations, two rounds alike; old ->
# fitted (cuBLAS bf16)): faster at 31 of 35 points, e.g. 7168x18432 M = 300 134.1 -> 111.8
# (114.5), M = 513 225.4 -> 194.0 (191.2); 5120x17408 M = 450 125.7 -> 108.8 (109.1), M = 513
# 152.9 -> 128.7 (123.6), M = 800 225.2 -> 195.7 (191.0); 36864x7168 M = 300 257.4 -> 215.3
# (225.7), M = 800 631.0 -> 510.1 (567.2); 34816x5120 M = 300 177.1 -> 150.0 (159.1), M = 513
# 290.7 -> 253.9 (284.1), M = 800 456.9 -> 367.7 (366.6); 9216x7168 M = 300 69.1 -> 58.7
# (63.2); 4096x7168 M = 513 52.5 -> 47.6 (42.6), M = 800 73.7 -> 65.1 (64.8); 7168x2048 M =
# 300 23.9 -> 16.6 (15.6), M = 384 24.1 -> 19.0 (17.9), M = 700 39.1 -> 35.0 (30.4). Slower
# at three: 7168x18432 M = 800 286.9 -> 293.0 (whole 128-token tiles filling 99% of 3 waves),
# 5120x17408 M = 900 229.8 -> 236.8 (256-token stream-K), 36864x7168 M = 450 312.4 -> 319.2
# (the 256-token hybrid); even at 36864x7168 M = 600 (405.1 -> 406.7). No margin on the
# estimates separates those: the wins include estimates within 1% (36864x7168 M = 384, 268.0
# -> 252.7). Packed weight bytes (``packed_plan``) and bf16 activations (W4A16) take the same
# plans: their fp64 tests pass (``tests/test_fitted_tiles.py``), their times are unmeasured.
# Session 66 (calls 3 and 4): ``nvfp4_gemm``'s plans take steps of 16 (``FITTED_STEP``; the
# fused kernel's too since session 67) and start at 129 tokens, one tile of 144..256 against
# two of 128: ``tools/fitted_tiles_probe.py`` (call 3, graph us; plan / the model's pick, cuBLAS
# bf16): 36864x7168 M = 160 158.6 / stream-K 160 112.2 (157.1); 7168x18432 M = 180 89.6 /
# stream-K 192 74.6 (86.2); 9216x7168 M = 160 47.0 / 38.2 (52.8); 5120x17408 M = 160 65.6 /
# 50.1 (58.3); 5120x17408 M = 600 152.9 / whole 208 140.3 (138.4); 7168x2048 M = 450 24.2 /
# whole 240 23.1 (21.5); 36864x7168 M = 450 317.0 / stream-K 240 303.8 (325.3).
# ``tools/fitted_steps_probe.py`` (call 4, graph us, two rounds alike; session 65's rule ->
# this one (cuBLAS)): faster at 17 of 20 points, e.g. 36864x7168 M = 200 164.5 -> 143.2 (164.5);
# 34816x5120 M = 200 116.7 -> 101.8 (117.2); 7168x18432 M = 140 89.8 -> 58.8 (79.2); M = 513
# 197.8 -> 186.2 (195.4), M = 700 255.1 -> 241.3 (332.9); 5120x17408 M = 400 107.9 -> 101.9
# (105.2), M = 513 128.8 -> 121.2 (126.2), M = 900 241.9 -> 232.1 (208.7); 36864x7168 M = 337
# 252.2 -> 238.6 (250.4), M = 817 568.8 -> 541.0 (573.3); 34816x5120 M = 513 259.2 -> 245.6
# (289.3), M = 801 461.2 -> 374.8 (398.0), M = 700 325.1 -> 322.1 (339.2). Slower at three,
# two of them 144-token tiles whose cost (1.10 then, halfway) was raised to the measured 1.14:
# the plans there are now stream-K 208 at 7168x18432 M = 400 (call 5: 148.9 -> 140.9, cuBLAS
# 147.1) and session 65's at 36864x7168 M = 545 (381.3 -> 384.4 on whole 144). The third stays:
# 36864x7168 M = 900, whole 240 against whole 192, 612.1 -> 615.7 (638.8).
FITTED_MIN_M = 129
FITTED_STEP = 16
# Past 1024 tokens, whole tiles only (session 67): ``tools/fitted_past_1024_probe.py`` (H200
# 2026-12-04, session 67 call 3, graph us, permuted words, NVFP4 activations, two rounds alike;
# plan -> ``fitted_launch`` asked up to 2048 tokens (cuBLAS bf16)). Whole fitted tiles won at
# all 16 points they were picked, e.g. 36864x7168 M = 1030 811 -> 666 (732), M = 1560 1199 ->
# 1094 (1112); 7168x18432 M = 1295 506 -> 419 (428), M = 1560 553 -> 490 (510); 34816x5120
# M = 1295 677 -> 601 (623); 9216x7168 M = 1613 285 -> 268 (270); 4096x7168 M = 1560 126.6 ->
# 120.8 (117.0); 7168x2048 M = 1083 46.7 -> 44.2 (43.9). The model's whole-tile estimates held
# within ~5% of the time per unit of the 128-token plans. Its stream-K estimates ran 1-24%
# short: stream-K fitted tiles won at four points (5120x17408 M = 1030 267.7 -> 249.7, M =
# 1295 345 -> 313, M = 1931 468 -> 439; 34816x5120 M = 1100 571 -> 519) but lost at four,
# against whole 128-token tiles that fill their waves: 7168x18432 M = 1136 stream-K 240 386 ->
# 459, 5120x17408 M = 1560 stream-K 176 370 -> 429, 36864x7168 M = 1295 956 -> 960,
# 34816x5120 M = 1825 885 -> 896. So past ``FITTED_STREAM_K_MAX_M`` tokens the model weighs
# whole tiles alone. That rule (call 4, plan -> rule (cuBLAS)) was faster at all 16 points
# measured: the six whose stream-K pick turned whole, e.g. 5120x17408 M = 1030 264.9 -> 238.8
# (320.3), M = 1295 342.1 -> 300.0 (287.5); 34816x5120 M = 1100 561.3 -> 491.1 (508.2), M =
# 1825 860.7 -> 845.6 (887.1); 36864x7168 M = 1295 934.2 -> 885.5 (896.1); and ten drawn from
# the points it changes, e.g. 7168x18432 M = 1175 400.9 -> 379.7 (376.4); 5120x17408 M = 1667
# 398.5 -> 392.2 (372.8), M = 2033 459.2 -> 450.0 (439.8); 36864x7168 M = 1610 1187.9 -> 1118.9
# (1148.2); 7168x2048 M = 1828 84.2 -> 72.8 (71.7). The fused op takes them too
# (``fused_fitted_route``): ``tools/fused_fitted_probe.py`` (call 3; route / its pick / the
# pair) 36864x7168 M = 1136 818.2 / 772.7 / 848.0, M = 1560 1195.9 / 1096.5 / 1231.6;
# 9216x7168 M = 1295 253.4 / 221.0 / 231.8; 4096x7168 M = 1560 133.5 / 124.8 / 134.0;
# 34816x5120 M = 1100 562.2 / 508.0 / 585.7 (whole 224 502.1).
# To 4096 tokens since session 68: ``tools/fitted_past_1024_probe.py`` points 40..55 (H200
# 2026-12-04, session 68 call 2, graph us, permuted words, NVFP4 activations, two rounds alike;
# plan with ``FITTED_MAX_M`` 2048 -> 4096 (cuBLAS bf16)): faster at 14 of 16 points, e.g.
# 9216x7168 M = 2448 435.5 -> 383.7 (398.0); 36864x7168 M = 3339 2428.5 -> 2309.3 (2413.9);
# 7168x18432 M = 3633 1370.1 -> 1298.2 (1289.4); 5120x17408 M = 3810 916.8 -> 873.6 (895.5);
# 4096x7168 M = 3720 294.0 -> 277.7 (273.7); 7168x2048 M = 3828 153.7 -> 144.0 (149.7).
# Slower at two, where the plan was stream-K: 7168x18432 M = 2988 (the 256-token hybrid 1035.8
# -> whole 240 1093.6, cuBLAS 1069.3) and 4096x7168 M = 2175 (stream-K 128 165.0 -> whole 192
# 167.8, 157.4); the model weighs neither of those plans past ``FITTED_STREAM_K_MAX_M``.
FITTED_MAX_M = 4096
FITTED_STREAM_K_MAX_M = 1024
# Past ``FITTED_STREAM_K_MAX_M`` tokens the model's whole fitted tiles take the hybrid (whole
# tiles for all but the last one to two waves, stream-K on the rest, ``fitted_hybrid_fits``)
# where they fill three waves or more, the last one at most ``FITTED_HYBRID_MAX_FILL`` full
# (the fullest measured), on 64 k-tiles or more (``FITTED_STREAM_K_MIN_K_TILES``).
# H200 2026-12-04, session 68, graph us, permuted words, NVFP4 activations, two rounds alike;
# whole -> the hybrid on the same width (waves; cuBLAS bf16):
# - ``tools/fitted_hybrid_probe.py`` (call 3): 5120x17408 M = 1931 176 (3.3) 485.4 -> 426.3
#   (426.1); 34816x5120 M = 1100 160 (14.4) 498.8 -> 488.4 (520.1), M = 1825 240 (16.5) 863.1
#   -> 846.9 (907.4); 36864x7168 M = 1295 144 (19.6) 909.6 -> 904.7 (922.7). Under three waves
#   it lost: 5120x17408 M = 1560 176 (2.7) 368.2 -> 401.7, M = 1295 144 (2.7) 303.2 -> 320.9,
#   M = 1030 176 (1.8) 239.2 -> 250.3.
# - ``tools/fitted_past_1024_probe.py`` points 56..67 (call 4): 7168x18432 M = 2988 240 (5.5)
#   1087.6 -> 1051.6 (1054.8); 36864x7168 M = 1614 240 (15.3) 1134.0 -> 1107.9 (1173.1);
#   34816x5120 M = 1814 240 (16.5) 835.2 -> 821.7 (849.6), M = 1900 863.5 -> 847.0 (907.5);
#   9216x7168 M = 3226 240 (7.6) 548.3 -> 537.8 (537.1); 4096x7168 M = 3564 240 (3.6) 279.2 ->
#   268.2 (261.0). There the hybrid was weighed in the model, and where that moved the width
#   it lost twice: 5120x17408 M = 3897 whole 256 918.8 -> hybrid 240 946.1; 36864x7168 M =
#   3852 whole 176 2706.8 -> hybrid 240 2773.7 (and won or tied at four: 7168x18432 M = 3927,
#   5120x17408 M = 1667 / 2635, 9216x7168 M = 3378). So the width stays the whole pick's.
# - The rule as landed, points 68..73 (call 5; last waves 52-64% full): 5120x17408 M = 1906 160
#   (3.6) 453.5 -> 440.3 (426.1); 9216x7168 M = 3345 240 (7.6) 556.3 -> 545.7 (561.2);
#   4096x7168 M = 3337 176 (4.6) 261.8 -> 253.2 (253.3); 7168x18432 M = 3080 240 (5.5) 1096.1
#   -> 1069.1 (1102.9); even at 36864x7168 M = 3210 240 (30.5) 2290.8 -> 2291.0 and 34816x5120
#   M = 2330 240 (20.6) 1076.3 -> 1079.2: with many waves the last one is a small share.
FITTED_HYBRID = True
FITTED_HYBRID_MIN_WAVES = 3
FITTED_HYBRID_MAX_FILL = 0.65


def token_tile_widths(m: int, step: int = FITTED_STEP) -> list[int]:
    """The token tiles ``fitted_estimates`` weighs for M tokens: for each count of tiles from
    M / 256 to M / 128 (rounded up), the narrowest multiple of ``step`` (16 or 32) that holds M
    in that many."""
    widths = []
    for count in range(-(-m // 256), -(-m // 128) + 1):
        per_tile = -(-m // count)
        width = max(128, min(256, -(-per_tile // step) * step))
        if width not in widths and -(-m // width) == count:
            widths.append(width)
    return widths


def fitted_estimates(m: int, n: int, k: int, sms: int = H200_SMS,
                     step: int = FITTED_STEP) -> dict:
    """("whole" | "stream_k", tile_m) -> estimated time in K loops of one 128-token tile, for
    ``token_tile_widths(m, step)`` (the module docstring's model)."""
    k_tiles = k // TILE_K
    row_tiles = -(-n // TILE_N)
    est = {}
    for tile_m in token_tile_widths(m, step):
        cost = FITTED_TILE_COST[tile_m]
        tiles = -(-m // tile_m) * row_tiles
        est[("whole", tile_m)] = -(-tiles // sms) * cost * k_tiles
        per_cta = tiles * k_tiles / sms
        if (m <= FITTED_STREAM_K_MAX_M and k_tiles >= FITTED_STREAM_K_MIN_K_TILES
                and per_cta >= FITTED_STREAM_K_MIN_UNITS):
            est[("stream_k", tile_m)] = (per_cta + FITTED_PIECE_UNITS) * cost
    return est


def fitted_hybrid_fits(m: int, n: int, k: int, tile_m: int, sms: int = H200_SMS) -> bool:
    """Whether whole ``tile_m``-token tiles take the hybrid (the comment on ``FITTED_HYBRID``)."""
    tiles = -(-m // tile_m) * -(-n // TILE_N)
    return (FITTED_HYBRID and m > FITTED_STREAM_K_MAX_M and tiles >= FITTED_HYBRID_MIN_WAVES * sms
            and 0 < tiles % sms <= FITTED_HYBRID_MAX_FILL * sms
            and k // TILE_K >= FITTED_STREAM_K_MIN_K_TILES)


# uncached: tests and probes switch this module's constants (``fitted_launch`` is the
# memoized form the host paths ask)
def fitted_least(m: int, n: int, k: int, sms: int = H200_SMS, step: int = FITTED_STEP,
                 whole_128_waves: int = 0) -> tuple[str, int] | None:
    """The least of ``fitted_estimates`` (widths in steps of ``step``), ("whole" |
    "stream_k", tile_m), at ``FITTED_MIN_M``..``FITTED_MAX_M`` tokens; else None. Where
    ``whole_128_waves`` and the least is whole 128-token tiles filling that many waves or
    more, the least among the fitted tiles (144..240 tokens) instead (the fused kernel's,
    ``FUSED_WHOLE_128_MIN_WAVES``)."""
    if not FITTED_MIN_M <= m <= FITTED_MAX_M:
        return None
    est = fitted_estimates(m, n, k, sms, step)
    least = min(est, key=est.get)
    fitted = [pick for pick in est if pick[1] not in (128, 256)]
    if (least == ("whole", 128) and whole_128_waves and fitted
            and -(-m // 128) * -(-n // TILE_N) >= whole_128_waves * sms):
        return min(fitted, key=est.get)
    return least


# asked on the fused op's host path at every call (``fused_fitted_route``): pure in its
# integers, so memoized (~3.6 us of Python otherwise)
@functools.lru_cache(maxsize=4096)
def fitted_launch(m: int, n: int, k: int, sms: int = H200_SMS, step: int = FITTED_STEP,
                  hybrid: bool = True, whole_128_waves: int = 0
                  ) -> tuple[int, int, bool, bool] | None:
    """``plain_plan``'s form (tile_m, 1, stream_k, hybrid) of ``fitted_least``'s launch where
    its tile is a fitted one (144..240 tokens), whole tiles in the hybrid where ``hybrid`` and
    ``fitted_hybrid_fits``; else None (the plan stays)."""
    least = fitted_least(m, n, k, sms, step, whole_128_waves)
    if least is None or least[1] in (128, 256):
        return None
    kind, tile_m = least
    if kind == "whole" and hybrid and fitted_hybrid_fits(m, n, k, tile_m, sms):
        return tile_m, 1, True, True
    return tile_m, 1, kind == "stream_k", False


# The fused op (``nvfp4_gemm_swiglu_quant``) takes ``fitted_launch``'s tiles for its fused
# kernel's "whole" and "stream_k" routes on NVFP4 activations and gate_up weights of at least
# FUSED_FITTED_MIN_ROWS rows (2I): since the plain GEMM took them the unfused pair had passed
# it there. ``tools/fused_fitted_probe.py`` (H200 2026-12-04, session 65 call 7, graph us,
# permuted words, two rounds alike; route / whole fitted / stream-K fitted / the pair):
# 36864x7168 M = 300 267.3 / 235.2 / 226.7 / 230.0; 34816x5120 M = 300 220.8 / 173.7 / 158.4 /
# 162.2; 9216x7168 M = 300 73.1 / 95.9 / 61.8 / 63.0; 4096x7168 M = 600 54.8 / 50.6 / 56.2 /
# 51.9 (224-token tiles 67.0 / 61.3): ``fitted_launch``'s pick the fastest at all four, and
# ahead of the pair. Codes and scales equal the route's at all four; the fused kernel on
# fitted tiles (packed bytes, quantizer warps or not) matches the reference
# (``tests/test_fitted_tiles.py``). 1024-row weights (whose routes are K pieces) keep their
# routes. From ``FUSED_FITTED_MIN_M`` tokens since session 66: ``tools/fused_fitted_probe.py``
# (call 4, graph us; route / fitted / the pair, whose GEMM takes steps of 16): 36864x7168 M =
# 160 164.2 / stream-K 160 118.4 / 120.3, M = 200 168.7 / stream-K 224 152.2 / 149.0;
# 34816x5120 M = 200 122.7 / 110.8 / 108.4; 9216x7168 M = 160 48.7 / 37.8 / 41.0.
# Tiles in steps of 16 (``FUSED_FITTED_STEP``) since session 67: ``tools/fused_steps_probe.py``
# (H200 2026-12-04, session 67 call 1, graph us, two rounds alike; steps of 32 / 16 / the pair /
# cuBLAS + silu): 36864x7168 M = 200 151.1 / 141.8 / 146.5 / 185.3, M = 337 250.9 / 236.1 /
# 241.5 / 284.5, M = 450 324.5 / 309.4 / 316.2 / 387.2; 34816x5120 M = 200 109.4 / 104.6 /
# 107.1 / 141.2, M = 700 361.3 / 319.4 / 331.4 / 413.5, M = 801 457.8 / 370.4 / 384.4 / 485.4;
# 4096x7168 M = 260 36.9 / 33.2 / 33.6 / 38.2, M = 800 68.6 / 64.6 / 66.3 / 77.9; 9216x7168
# M = 200 49.3 / 46.8 / 51.0 / 57.5, M = 545 102.9 / 104.4 / 106.3 / 165.4 (the one loss, 1.4%,
# stream-K 144 for 192). The fused kernel on steps of 16 matches the reference at 144 / 176 /
# 208 / 240 tokens (``tests/test_fitted_tiles.py``, same call).
# Past 2048 tokens too (``FITTED_MAX_M``), whole tiles (the hybrid only where
# ``FUSED_FITTED_HYBRID``): ``tools/fused_fitted_probe.py`` points 20..23 (H200 2026-12-04,
# session 68 call 4, graph us, two rounds alike; route (whole 256) / whole fitted / the pair,
# whose GEMM takes fitted tiles there): 36864x7168 M = 3339 2416.1 / 2302.2 (240) / 2372.5;
# 9216x7168 M = 2448 435.7 / 386.2 (224) / 396.5; 4096x7168 M = 3720 299.0 / 282.3 (240) /
# 289.8; slower at one, still ahead of the pair: 34816x5120 M = 3222 1495.1 / 1512.8 (240) /
# 1585.2. On its old routes the fused op lost to the pair at the other three.
# The hybrid where ``fitted_launch`` takes it (the route "hybrid"; without it the pair, whose
# GEMM takes it, may pass the fused op). Measured (session 69, ``tools/fused_gaps_probe.py``,
# H200 2026-12-04, graph us, permuted words, two rounds alike; whole fitted / hybrid / the
# pair, whose GEMM takes the hybrid):
# 4096x7168 M = 3564 280.3 / 272.0 / 277.7 (bf16 activations 306.5 / 299.6 / 306.1);
# 9216x7168 M = 3226 556.1 / 544.0 / 552.6; 36864x7168 M = 1614 1124.3 / 1098.1 / 1135.4,
# M = 3339 2273.4 / 2267.6 / 2336.1; 34816x5120 M = 1900 859.4 / 844.2 / 885.8, M = 1100
# 509.7 / 496.4 / 506.8, M = 2330 1068.4 / 1065.1 / 1115.3: faster at all eight, and ahead of
# the pair.
FUSED_FITTED_HYBRID = True
# The fused kernel's whole 128-token tiles lost to the model's best fitted launch where
# they filled 2.7 and 3.8 waves, where the plain GEMM's did not (each wave's SwiGLU and
# quantization epilogue is exposed): 9216x7168 (session 69 calls 2 and 3, graph us; whole
# 128 / the model's best fitted launch / the fastest / the pair): M = 600 116.7 / stream-K 160
# 112.4 / stream-K 208 109.6 / 115.4; M = 640 117.7 / stream-K 160 114.6 / same / 116.4;
# M = 820 154.0 / whole 176 151.0 / stream-K 208 142.5 / 152.2; M = 880 155.9 / whole 176
# 152.8 / same / 153.9. So the fused op takes the best fitted launch there from
# FUSED_WHOLE_128_MIN_WAVES waves (``fitted_launch``'s ``whole_128_waves``) on K of
# FUSED_WHOLE_128_K_TILES k-tiles (7168, the only K where it won at every point). Call 4 (the
# route before -> the rule; the pair): 9216x7168 M = 890 156.6 -> stream-K 224 152.8 (154.5),
# M = 1130 216.1 (whole 256) -> whole 240 204.2 (194.0), M = 1380 253.7 (stream-K 256) -> whole
# 160 237.1 (233.7); 6144x4096 M = 1300 94.1 -> whole 176 91.9 (94.9). It lost: 5120x17408
# M = 1600 379.7 -> whole 192 399.9, 7168x18432 M = 850 297.7 -> stream-K 176 321.8,
# 7168x2048 M = 800 40.2 -> whole 208 41.5 (32 k-tiles, whole 128 filling 99% of three
# waves); call 6: 6144x4096 M = 1000 71.0 -> whole 208 72.2 (the pair 71.7). Past
# ``FITTED_STREAM_K_MAX_M`` tokens whole 128-token tiles themselves were faster (call 5, graph
# us; the rule / whole 128 / the fastest / the pair): 9216x7168 M = 1130 whole 240 204.2 /
# 195.6 / same / 195.2, M = 1380 whole 160 237.2 / 236.3 / hybrid 176 234.8 / 235.3; so the
# rule stops there (and 6144x4096 M = 1300 keeps whole 128, 94.1).
FUSED_WHOLE_128_MIN_WAVES = 2
FUSED_WHOLE_128_K_TILES = (112, 112)
# Past ``FITTED_STREAM_K_MAX_M`` tokens, where the model's least is whole 128-token tiles (the
# pair's GEMM takes them) and the fused op's route is on 256-token tiles, it takes whole
# 128-token tiles (call 5, graph us; the route / whole 128 / the pair): 9216x7168 M = 1130
# whole 256 216.1 (call 4) / 195.6 / 195.2, M = 1380 stream-K 256 253.7 (call 4) / 236.3 /
# 235.3; 7168x18432 M = 2930 stream-K 256 1400.7 / 1099.5 / 1042.8 (the hybrid 256, the pair's
# GEMM's plan there, 1033.5: not taken, unweighed). Call 6: 7168x2048 M = 2930 stream-K 256
# 125.2 / 122.9 / 136.9; 9216x7168 M = 1130 on bf16 activations whole 256 229.9 / 209.5 /
# 207.8. (Asked through the uncached ``fitted_least``, a few us of Python, only on those
# 256-token routes past 1024 tokens, whose launches run for tens of us or more.)
FUSED_WHOLE_128_PAST_STREAM_K = True
FUSED_FITTED_TILES = True
FUSED_FITTED_MIN_ROWS = 4096
FUSED_FITTED_MIN_M = 129
FUSED_FITTED_STEP = 16
# bf16 activations (W4A16) too: ``tools/fused_vs_cublas_sweep.py`` (H200 2026-12-04, session 66
# call 2, graph us, permuted words, two rounds; route / fitted tiles / the W4A16 pair):
# 36864x7168 M = 300 270.7 / 229.0 / 233.2, M = 600 445.8 / 436.1 / 445.7; 9216x7168 M = 300
# 73.7 / 62.4 / 65.6, M = 600 121.9 / 121.9 / 124.1; 4096x7168 M = 600 58.2 / 54.0 / 56.7;
# 34816x5120 M = 300 224.1 / 160.3 / 165.6, M = 600 317.9 / 311.1 / 319.3.
FUSED_FITTED_W4A16 = True


def fused_fitted_route(m: int, two_i: int, k: int, a_fp4: bool, route: str, plan
                       ) -> tuple[str, object]:
    """The fused op's (route, plan) with ``fitted_launch``'s tiles in place of a "whole" or
    "stream_k" route where the comment above takes them ("hybrid", tile_m where
    ``FUSED_FITTED_HYBRID`` and it takes the hybrid), whole 128-token tiles for a 256-token
    route where ``FUSED_WHOLE_128_PAST_STREAM_K``; else as given."""
    if not (FUSED_FITTED_TILES and (a_fp4 or FUSED_FITTED_W4A16) and m >= FUSED_FITTED_MIN_M
            and two_i >= FUSED_FITTED_MIN_ROWS and route in ("whole", "stream_k")):
        return route, plan
    low, high = FUSED_WHOLE_128_K_TILES
    waves = (FUSED_WHOLE_128_MIN_WAVES
             if low <= k // TILE_K <= high and m <= FITTED_STREAM_K_MAX_M else 0)
    fitted = fitted_launch(m, two_i, k, step=FUSED_FITTED_STEP, hybrid=FUSED_FITTED_HYBRID,
                           whole_128_waves=waves)
    if fitted is None:
        tile_m = plan if route == "stream_k" else plan[0]
        if (FUSED_WHOLE_128_PAST_STREAM_K and m > FITTED_STREAM_K_MAX_M and tile_m == 256
                and fitted_least(m, two_i, k, step=FUSED_FITTED_STEP) == ("whole", 128)):
            return "whole", (128, 0)
        return route, plan
    if fitted[3]:
        return "hybrid", fitted[0]
    return ("stream_k", fitted[0]) if fitted[2] else ("whole", (fitted[0], 0))
