"""One-token K splits of one row tile on the long-K weights. 5120x17408 M = 1 runs (2, 1, 4, 1,
3) at 17.6 us (67.1% of the copy rate; issue 5 asks 75%, 15.7 us), and its loop capped at 0
steps still takes 7.3 us (session 43). Session 15 had the one-tile splits behind (M = 1:
21413 18.65, 11412 19.64, 11413 21.87 us), before the lean one-tile loads, the scale table
and the one-token PDL start, which only one-tile configs (or the split) take. Registers (CPU,
x_tokens 1): (1, 1, 4, 1, 2) 78 (6 CTAs an SM, 640 CTAs = 4.85 an SM: one wave), (1, 1, 4,
1, 3) 72 (7, 960 = 7.3: two waves), (2, 1, 4, 1, 2) 126 (4, 320 = 2.4), (1, 1, 8, 1, 2) 74
(3 of 8 warps, 640: two waves).

Measured (H200 2026-12-02, session 44): 5120x17408 M = 1 21413* 17.50, 11412 18.86, 11413
22.45, 21412 21.89, 11812 20.53; M = 2 21413* 19.80, 11412 23.26; 7168x18432 M = 1 2141*
23.00, 21412 24.40. The public configs stay.

Per point, graph us (50 calls a graph, weights rotated past the L2) of the public config,
starred, and of the variants, NVFP4 tokens on permuted words. CUTE_KERNELS_BENCH_SHAPES picks
points; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import permuted_weight_copies, print_configs_against_default

from cute_kernels.bench.timing import select_shapes

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
POINTS = [(5120, 17408, 1), (5120, 17408, 2), (7168, 18432, 1)]
VARIANTS = [(1, 1, 4, 1, 2), (1, 1, 4, 1, 3), (2, 1, 4, 1, 2), (1, 1, 8, 1, 2)]

for n, k, m in select_shapes(POINTS):
    words = permuted_weight_copies(n, k)
    print_configs_against_default("gemm", n, k, m, words, lambda d: VARIANTS, alpha, gs)
    del words
