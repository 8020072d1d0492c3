"""The fused one-token row groups with K split in two: (1, 1, 4, 1, 2, 2) is 576 CTAs of four
warps at 9216x7168 (two groups of two warps on K, 7 K steps a warp as now), the plain
kernel's grid shape (4.4 CTAs an SM, 72 registers: one wave), where the rule's (1, 1, 8, 1,
1, 2) is 288 CTAs of eight (2.2 an SM: 24 SMs hold three, the rest two). Session 42 had the
plain kernel on the rule's CTA shape as slow as the fused one (13.90 against 12.74), so the
CTA shape, not the epilogue, is the fused one-token gap (issue 6: 13.70 us, 63.8%; 75%
asks 11.7). The split pays its fix-up (partials through L2, a counter, the last CTA adds).

Measured (H200 2026-12-02, session 44): 9216x7168 118112* 13.86, 114122 16.04, 116122 18.62,
118122 17.96, 114112 26.46; 4096x7168 2181* 7.70, 118122 10.28; 12288x7168 118112* 15.31,
114122 18.81. The fix-up costs more than the grid shape gains; the rule stays.

Per point, graph us (50 calls a graph, gate_up copies rotated past the L2) of the public
config, starred, and of the variants, M = 1 NVFP4 tokens on permuted words.
CUTE_KERNELS_BENCH_SHAPES picks points; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import gate_up_words, print_configs_against_default

from cute_kernels.bench.timing import select_shapes

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
POINTS = [(9216, 7168), (4096, 7168), (12288, 7168)]
VARIANTS = [(1, 1, 4, 1, 2, 2), (1, 1, 6, 1, 2, 2), (1, 1, 8, 1, 2, 2), (1, 1, 4, 1, 1, 2)]

for two_i, k in select_shapes(POINTS):
    words = gate_up_words(two_i, k, True)
    print_configs_against_default("fused", two_i, k, 1, words, lambda d: VARIANTS, alpha, gs)
    del words
