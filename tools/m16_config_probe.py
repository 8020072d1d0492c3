"""Small-M configs at 12 and 16 tokens (two token tiles) after session 14's operand change
(fewer instructions per step): the defaults against the register prefetch held to three CTAs
per SM ((2, 2, 4, 1), ``min_ctas``), which session 11 measured when it still ran two per SM.
Plain GEMM on the five >= 32 MB shapes and the fused kernel on its two big shapes, permuted
words, W4A4, graph us, weights rotated past the L2. CUTE_KERNELS_BENCH_SHAPES picks points."""

import torch
from probe_inputs import gate_up_copies, print_configs_against_default, weight_copies

from cute_kernels import prepare_nvfp4_weight
from cute_kernels.bench.timing import select_shapes

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
POINTS = [("gemm", 7168, 18432), ("gemm", 5120, 17408), ("gemm", 36864, 7168),
          ("gemm", 34816, 5120), ("gemm", 9216, 7168), ("fused", 36864, 7168),
          ("fused", 34816, 5120)]


def candidates(kind):
    def extra(default):
        split = default[4:] if len(default) > 4 else ()
        configs = ((2, 2, 4, 1, *split), (2, 2, 4, 0, *split), (1, 2, 4, 1))
        return [c for c in configs if kind == "gemm" or c[0] % 2 == 0]
    return extra


for kind, n, k in select_shapes(POINTS):
    copies = weight_copies(n, k) if kind == "gemm" else gate_up_copies(n, k)
    words = [(prepare_nvfp4_weight(w), s) for w, s in copies]
    del copies
    for m in (12, 16):
        print_configs_against_default(kind, n, k, m, words, candidates(kind), alpha, gs)
    del words
