"""Launch variants of the wgmma kernel on the small weights at 17..64 tokens (issue 5's 1.5x
QuACK points left open: 4096x7168 at M = 32 / 64 takes 32- / 64-token tiles in four K splits +
``torch.sum``, 7168x2048 two splits / whole tiles). Each K split or stream-K share is ~14-28
k-tiles a CTA there, and at one CTA an SM the decode is latency-bound (~550 cycles a k-tile
against ~200 of issue, session 16's ncu): more, shorter CTAs per SM (two an SM, eight splits)
or stream-K's in-launch fix-up instead of the workspace round trip may pay. Per point: the
planned launch ("auto"), split counts x CTAs per SM, stream-K at one / two CTAs and one / two
K groups, and 32-token tiles at M = 64; interleaved graphs, two rounds, the dequantization
included. One point per CUTE_KERNELS_BENCH_SHAPES index."""

from probe_inputs import planned, time_wgmma_variants

from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_large_m import TILE_K

POINTS = [("gemm", 4096, 7168, 32), ("gemm", 4096, 7168, 64), ("gemm", 7168, 2048, 32),
          ("gemm", 7168, 2048, 64)]


def variants(n, k, m):
    """name -> launch_large_m keyword arguments, the planned launch first: tNsScC = N-token
    tiles in S K splits at C CTAs an SM, tNskcCgG = stream-K at C CTAs an SM, G K groups."""
    out = {"auto": planned("gemm", n, k, m)}
    tile_m, splits = out["auto"]["config"][0], out["auto"]["splits"]
    k_tiles = k // TILE_K
    wide = [(tile_m, s, c) for s in (2, 4, 8) for c in (1, 2)
            if k_tiles % s == 0 and k_tiles // s >= 8 and (s, c) != (splits, 1)]
    if tile_m > 32:  # two rows of 32-token tiles: twice the decode, twice the CTAs
        wide += [(32, s, 2) for s in (2, 4) if k_tiles // s >= 8]
    for t, s, c in wide:
        out[f"t{t}s{s}c{c}"] = dict(config=(t, 0), splits=s, ctas_per_sm=c)
    for c, g in ((1, 1), (2, 1), (2, 2)):
        out[f"t{tile_m}skc{c}g{g}"] = dict(config=(tile_m, 0), stream_k=True, ctas_per_sm=c,
                                            k_groups=g)
    return out


for kind, n, k, m in select_shapes(POINTS):
    found = variants(n, k, m)
    print(f"{kind} {n}x{k} M={m}: auto = {found['auto']}", flush=True)
    time_wgmma_variants(kind, n, k, m, found)
