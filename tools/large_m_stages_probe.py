"""The wgmma kernel's pipeline depth at 32..256 tokens (session 16).

``large_m_occupancy_probe`` found 32-token tiles 20-27% faster than 64 at M = 32, and two
CTAs per SM no help on most shapes. A k-tile of 32 tokens takes ~480 SM cycles there (36864x7168:
244 k-tiles a CTA in ~60 us) against 128 of tensor work and ~210 of instruction issue; the
stages cap at 8, i.e. 8 x 4.6 KB of weights and scales in flight per SM, about what Little's law
asks of one SM's share of DRAM bandwidth at ~1 us latency. So: deeper pipelines. Per shape and
M, stream-K launches "sk{tile}s{stages}[x2]" (x2: two CTAs per SM), and the current route
(``launch_planned`` on ``plain_plan``, bf16 activations, which adds the activations' K
permutation pass). Permuted words, graph us, weights rotated past the L2.
CUTE_KERNELS_BENCH_SHAPES picks shapes."""

import torch
from probe_inputs import permuted_weight_copies

from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm import launch_planned
from cute_kernels.nvfp4_gemm_large_m import SMEM_BYTES, launch_large_m

SHAPES = [(36864, 7168), (34816, 5120), (9216, 7168), (7168, 18432), (5120, 17408),
          (4096, 7168), (7168, 2048)]
alpha = torch.full((1,), 0.5, device="cuda")


def max_stages(tile_m: int, cps: int = 1) -> int:
    """As many stages as fit (``NVFP4GemmLargeM``'s budget)."""
    return (SMEM_BYTES // cps - 4096) // (tile_m * 128 + 4096 + 512)


# M -> (tile_m, stages, ctas per SM)
VARIANTS = {
    32: [(32, 8, 1), (32, 12, 1), (32, 16, 1), (32, max_stages(32), 1), (32, max_stages(32, 2), 2)],
    64: [(64, 8, 1), (64, 12, 1), (64, max_stages(64), 1), (32, 16, 1)],
    256: [(128, 8, 1), (128, max_stages(128), 1), (256, max_stages(256), 1)],
}

for n, k in select_shapes(SHAPES):
    words = permuted_weight_copies(n, k)
    for m, variants in VARIANTS.items():
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        plan = plain_plan(m, n, k)
        row = [f"{n}x{k} M={m}: route "
               + f"{time_graph_us([lambda w=w: launch_planned(a, None, w[0], w[1], alpha, out, plan) for w in words], 50):.2f}"]
        for tile, stages, cps in variants:
            us = time_graph_us([lambda w=w, t=tile, s=stages, c=cps: launch_large_m(
                a, w[0], w[1], alpha, out, (t, s), stream_k=True, ctas_per_sm=c)
                for w in words], 50)
            row.append(f"sk{tile}s{stages}{'x2' if cps == 2 else ''} {us:.2f}")
        print("  ".join(row), flush=True)
    del words
