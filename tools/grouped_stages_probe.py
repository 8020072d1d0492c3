"""K groups, stages and CTAs per SM of the wgmma kernel beyond the planned launch (session 20's
stage probe: one CTA an SM ran faster with fewer k-tiles in flight, 12 rather than 16 with two
K groups, 7 rather than 8 with 64-token tiles). Variants: two K groups a stage at 64- and
128-token tiles with 3..5 stages (session 17 measured two groups at 8 stages there: slower),
two CTAs an SM of 64-token tiles with 4..5 stages, and the 16-token stream-K launch at M = 16
on the two weights that keep the small kernel there (9216x7168, 5120x17408: issue 5's M = 16
60% points; the small kernel's public times are the A/B's). Interleaved graphs, two rounds,
the dequantization included; one point per CUTE_KERNELS_BENCH_SHAPES index. gNsS = N K groups
and S stages, cC = C CTAs an SM."""

from probe_inputs import fits, planned, time_wgmma_variants

from cute_kernels.bench.timing import select_shapes

POINTS = [("gemm", 36864, 7168, 64), ("gemm", 34816, 5120, 64), ("gemm", 7168, 18432, 64),
          ("fused", 36864, 7168, 64), ("fused", 34816, 5120, 64), ("gemm", 9216, 7168, 256),
          ("gemm", 9216, 7168, 16), ("gemm", 5120, 17408, 16)]
SHAPES = [(1, 2, 3), (1, 2, 4), (1, 2, 5), (1, 2, 6), (2, 1, 4), (2, 1, 5), (2, 2, 3),
          (2, 2, 5), (1, 1, 6), (1, 1, 8)]  # (CTAs an SM, K groups, stages)


def variants(kind, n, k, m):
    """name -> launch keywords: the planned launch, then each SHAPES entry that constructs
    (two CTAs only on tiles of at most 64 tokens, and not on the planned shape itself)."""
    launch = planned(kind, n, k, m)
    out = {"auto": launch}
    tile_m = launch["config"][0]
    for ctas, groups, stages in SHAPES:
        if ctas == 2 and tile_m > 64:
            continue
        v = dict(launch, config=(tile_m, stages), ctas_per_sm=ctas, k_groups=groups)
        if fits(kind, n, k, v):
            out[f"c{ctas}g{groups}s{stages}"] = v
    return out


for kind, n, k, m in select_shapes(POINTS):
    found = variants(kind, n, k, m)
    print(f"{kind} {n}x{k} M={m}: auto = {found['auto']}", flush=True)
    time_wgmma_variants(kind, n, k, m, found)
