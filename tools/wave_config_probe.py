"""Plain-GEMM small-M configs against the defaults after session 15's PDL for one wave of
register-path CTAs (a config whose grid is at most six CTAs per SM now overlaps the next
launch): one row tile instead of two, fewer K splits, no ring, where that makes the grid one
wave. Permuted words, W4A4, graph us, weights rotated past the L2; the default is starred.
CUTE_KERNELS_BENCH_SHAPES picks points."""

import torch
from probe_inputs import print_configs_against_default, weight_copies

from cute_kernels import prepare_nvfp4_weight
from cute_kernels.bench.timing import select_shapes

alpha = torch.full((1,), 0.5, device="cuda")
# (N, K): {M: candidate configs besides the default}
POINTS = [
    ((5120, 17408), {1: [(1, 1, 4, 1, 2), (1, 1, 4, 1, 3), (2, 1, 4, 1, 2)],
                     4: [(1, 1, 4, 1, 2), (1, 1, 4, 1, 3), (2, 1, 4, 1, 3), (1, 1, 4, 1)],
                     16: [(1, 2, 4, 1), (1, 2, 4, 1, 2), (2, 2, 4, 1)]}),
    ((9216, 7168), {1: [(1, 1, 8, 1), (2, 1, 4, 1)],
                    4: [(2, 1, 4, 1), (1, 1, 8, 1), (1, 1, 4, 0)],
                    16: [(1, 2, 4, 1), (2, 2, 4, 0)]}),
    ((7168, 18432), {4: [(1, 1, 4, 1), (1, 1, 4, 1, 2), (2, 1, 4, 1)],
                     16: [(1, 2, 4, 1), (2, 2, 4, 1), (1, 2, 4, 1, 2)]}),
    ((34816, 5120), {16: [(1, 2, 4, 1)]}),
    ((7168, 2048), {4: [(1, 1, 4, 1), (2, 1, 8, 1)], 16: [(2, 2, 4, 1), (1, 2, 8, 1)]}),
]

for (n, k), cases in select_shapes(POINTS):
    words = [(prepare_nvfp4_weight(w), s) for w, s in weight_copies(n, k)]
    for m, extra in cases.items():
        print_configs_against_default("gemm", n, k, m, words, lambda _: extra, alpha, None)
    del words
