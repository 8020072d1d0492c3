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
in one 256-token tile of four pieces once). Points 12.. are the fused op ("fused": the
fused kernel on those pieces, issue 6's 1024x7168 M = 1024 at 0.83x cuBLAS + silu). One
point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import planned, time_wgmma_variants

from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_large_m import H200_SMS, TILE_N

POINTS = [(4096, 7168, 32), (4096, 7168, 64), (4096, 7168, 17), (4096, 7168, 128),
          (7168, 2048, 32), (4096, 7168, 48),
          # session 31: where the plan does not split
          (7168, 2048, 64), (7168, 2048, 128), (7168, 2048, 256), (4096, 7168, 256),
          (9216, 7168, 256), (7168, 18432, 64),
          # session 31: the fused op (2I x K)
          ("fused", 1024, 7168, 1024), ("fused", 4096, 7168, 256)]

for point in select_shapes(POINTS):
    kind, n, k, m = point if len(point) == 4 else ("gemm", *point)
    plan = planned(kind, n, k, m)
    tile_m, splits = plan["config"][0], plan.get("splits", 1)
    tiles = -(-m // tile_m) * -(-n // TILE_N)
    variants = {"plan": plan,
                "sk_exact": dict(config=(tile_m, 0, tiles * splits), stream_k=True),
                "sk": dict(config=(tile_m, 0), stream_k=True)}
    if tile_m <= 64 and kind == "gemm":
        variants["sk_exact2"] = dict(config=(tile_m, 0, 2 * tiles * splits), stream_k=True,
                                     ctas_per_sm=2)
    if splits == 1:  # pieces of 2..4 on token tiles that keep the grid within one wave
        for t in (64, 128, 256):
            for s in (2, 3, 4):
                t_tiles = -(-m // t) * -(-n // TILE_N)
                if t_tiles * s <= H200_SMS and (k // 64) % s == 0 and t <= max(64, 2 * m):
                    variants[f"t{t}p{s}"] = dict(config=(t, 0), splits=s)
    print(f"{kind} {n}x{k} M={m}: plan {plan}, {tiles} tiles", flush=True)
    time_wgmma_variants(kind, n, k, m, variants)
