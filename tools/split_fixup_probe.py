"""Split-K's sum inside the launch: ``nvfp4_gemm``'s split plans (small weights at 17..128
tokens: 4096x7168 in four, 7168x2048 in two) wrote fp32 partials that ``torch.sum`` added
and a copy cast (session 30's Nsight run, kernel us at 4096x7168 M = 64: GEMM 12.7, sum
6.8, cast 2.6). The stream-K launch on a grid of exactly tiles x splits CTAs cuts every tile
into the same K pieces and adds them in the launch (``stream_k``: the last CTA to arrive
sums); since session 30 ``launch_large_m`` runs split plans so. Variants, graph us with the
activations' dequantization (``time_wgmma_variants``): "plan"; "sk_exact" (stream-K on tiles
x splits CTAs, the plan's split), "sk_exact2" (twice as many, two CTAs an SM, 64-token tiles
at most), "sk" (stream-K on the default grid); and (session 31's points, where the plan
does not split: ``large_m_plan``'s cost model still charged the torch.sum) "t{tile}p{s}":
``tile``-token tiles in ``s`` pieces (bigger token tiles decode each weight tile fewer
times: 4096x7168 at M = 256 in 64-token whole tiles decodes every weight k-tile four times,
in one 256-token tile of four pieces once). Points 12, 13 are the fused op ("fused": the
fused kernel on those pieces, issue 6's 1024x7168 M = 1024 at 0.83x cuBLAS + silu). Points
14.. are issue 5's M = 8..32 targets on the big weights, where the plan is stream-K with
narrow token tiles on the default grid (tiles cut at arbitrary k-tiles, each CTA holding two
pieces) or the small-M kernel ("public"): "p{s}c{c}", every tile in ``s`` pieces at ``c``
CTAs an SM (the plan's K groups). Since session 31's third call the launches read whole token tiles of activations, as the
public functions (before, at M short of a whole tile the TMA zero-filled past M: slow).
"w64": whole 64-token tiles. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import planned, time_wgmma_variants

from cute_kernels import nvfp4_gemm
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_large_m import H200_SMS, TILE_N

POINTS = [(4096, 7168, 32), (4096, 7168, 64), (4096, 7168, 17), (4096, 7168, 128),
          (7168, 2048, 32), (4096, 7168, 48),
          # session 31: where the plan does not split
          (7168, 2048, 64), (7168, 2048, 128), (7168, 2048, 256), (4096, 7168, 256),
          (9216, 7168, 256), (7168, 18432, 64),
          # session 31: the fused op (2I x K)
          ("fused", 1024, 7168, 1024), ("fused", 4096, 7168, 256),
          # issue 5's M <= 16 (60% of the roofline) and M <= 64 (1.5x QuACK) on big weights
          (7168, 18432, 16), (9216, 7168, 16), (5120, 17408, 16), (9216, 7168, 8),
          (7168, 18432, 32), (9216, 7168, 32),
          # session 31: neighbours of the wins at 6..13 (128-token tiles in two pieces where
          # the plan has one wave of whole 64-token tiles) and 64-token pieces on 4096x7168
          (4096, 7168, 160), (4096, 7168, 192), ("fused", 1024, 7168, 640),
          ("fused", 1024, 7168, 768), ("fused", 4096, 7168, 96), ("fused", 4096, 7168, 128),
          ("fused", 4096, 7168, 129), ("fused", 4096, 7168, 192),
          # session 31: stream-K on the default grid ("sk", 128-token tiles on the wide
          # pieces' plans) beat them at fused 1024x7168 M = 640 (29.54 / 30.75 us)
          ("fused", 1024, 7168, 520), ("fused", 1024, 7168, 576), ("fused", 1024, 7168, 960)]
NARROW = range(14, 20)


def public(a, a_sf, w):
    return nvfp4_gemm(a, a_sf, w[0], w[1], 0.5)


def pieces_variants(m: int, n: int, k: int, plan: dict, narrow: bool) -> dict:
    """The "p{s}c{c}" variants of a narrow point (the plan's token tile and K groups) or the
    "t{tile}p{s}" ones of another point (one wave, s dividing K / 64, not the plan's own)."""
    tile_m, out = plan["config"][0], {}
    if narrow:
        for c in (1, 2):
            for s in range(2, 7):
                if -(-m // tile_m) * -(-n // TILE_N) * s <= c * H200_SMS:
                    out[f"p{s}c{c}"] = dict(config=(tile_m, 0), splits=s, ctas_per_sm=c,
                                            k_groups=plan.get("k_groups", 1))
    else:
        for t in (64, 128, 256):
            for s in (2, 3, 4):
                if (-(-m // t) * -(-n // TILE_N) * s <= H200_SMS and (k // 64) % s == 0
                        and t <= max(64, 2 * m) and (t, s) != (tile_m, plan.get("splits"))):
                    out[f"t{t}p{s}"] = dict(config=(t, 0), splits=s)
    return out


for point in select_shapes(POINTS):
    kind, n, k, m = point if len(point) == 4 else ("gemm", *point)
    narrow = POINTS.index(point) in NARROW
    plan = planned(kind, n, k, m)
    tile_m, splits = plan["config"][0], plan.get("splits", 1)
    tiles = -(-m // tile_m) * -(-n // TILE_N)
    variants = {"plan": plan}
    if narrow:
        variants["public"] = public
    else:
        variants["sk_exact"] = dict(config=(tile_m, 0, tiles * splits), stream_k=True)
        variants["sk"] = dict(config=(tile_m, 0), stream_k=True)
        if tile_m <= 64 and kind == "gemm":
            variants["sk_exact2"] = dict(config=(tile_m, 0, 2 * tiles * splits),
                                         stream_k=True, ctas_per_sm=2)
    if not narrow and plan["config"][0] != 64:
        variants["w64"] = dict(config=(64, 0))  # whole 64-token tiles (before wide_pieces)
    variants.update(pieces_variants(m, n, k, plan, narrow))
    print(f"{kind} {n}x{k} M={m}: plan {plan}, {tiles} tiles", flush=True)
    time_wgmma_variants(kind, n, k, m, variants)
