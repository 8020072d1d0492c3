"""Plain-GEMM small-M configs against the defaults after session 15's PDL for one wave of
register-path CTAs (a config whose grid is at most six CTAs per SM now overlaps the next
launch): one row tile instead of two, fewer K splits, no ring, where that makes the grid one
wave. Permuted words, W4A4, graph us, weights rotated past the L2; the default is starred.
CUTE_KERNELS_BENCH_SHAPES picks points."""

import torch
from probe_inputs import time_small_m_configs, weight_copies

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm import small_m_config

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
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        default = small_m_config(m, n, k, True, True)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        configs = [default] + [c for c in extra if c != default]
        times = time_small_m_configs(a, a_sf, words, alpha, out, configs, k)
        print(f"gemm {n}x{k} M={m}: " + " ".join(
            f"{''.join(map(str, c))}{'*' if c == default else ''}={t:.2f}"
            for c, t in times.items()), flush=True)
    del words
