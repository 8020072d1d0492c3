"""Split-K's sum inside the launch: ``nvfp4_gemm``'s split plans (small weights at 17..128
tokens: 4096x7168 in four, 7168x2048 in two) write fp32 partials that ``torch.sum`` adds
and a copy casts (session 30's Nsight run, kernel us at 4096x7168 M = 64: GEMM 12.7, sum
6.8, cast 2.6). The stream-K launch on a grid of exactly tiles x splits CTAs cuts every tile
into the same K pieces and adds them in the launch (``stream_k``: the last CTA to arrive
sums). Variants, graph us with the activations' dequantization (``time_wgmma_variants``):
"plan" (split + torch.sum), "sk_exact" (stream-K on tiles x splits CTAs), "sk_exact2" (twice
as many, two CTAs an SM, 64-token tiles at most), "sk" (stream-K on the default grid). One
point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import planned, time_wgmma_variants

from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_large_m import TILE_N

POINTS = [(4096, 7168, 32), (4096, 7168, 64), (4096, 7168, 17), (4096, 7168, 128),
          (7168, 2048, 32), (4096, 7168, 48)]

for n, k, m in select_shapes(POINTS):
    plan = planned("gemm", n, k, m)
    tile_m, splits = plan["config"][0], plan["splits"]
    tiles = -(-m // tile_m) * -(-n // TILE_N)
    variants = {"plan": plan,
                "sk_exact": dict(config=(tile_m, 0, tiles * splits), stream_k=True),
                "sk": dict(config=(tile_m, 0), stream_k=True)}
    if tile_m <= 64:
        variants["sk_exact2"] = dict(config=(tile_m, 0, 2 * tiles * splits), stream_k=True,
                                     ctas_per_sm=2)
    print(f"gemm {n}x{k} M={m}: plan {plan}, {tiles} tiles", flush=True)
    time_wgmma_variants("gemm", n, k, m, variants)
