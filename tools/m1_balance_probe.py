"""The open M = 1 points against configs with finer work units (session 15's reading): a
small-M CTA owns 16 * row_tiles rows over its K range, so 9216x7168's 576 CTAs give 132 SMs
4.36 each (the busiest run 5: ~87% balance), the fused 9216x7168's 288 give 2.18 (3: ~73%),
5120x17408's 480 split CTAs 3.64 (4: ~91%). Fewer warps per CTA with a K split cut the unit
without changing the steps a warp walks: (1, 1, 2, 1, 2) is 1152 CTAs of two warps, 8.7 per
SM (9: ~97%). The split partials at one token are 64 bytes a CTA. Plain GEMM and the fused
kernel, permuted words, W4A4, graph us, weights rotated past the L2; the default is starred.
The same at 4 and 16 tokens on the register path. CUTE_KERNELS_BENCH_SHAPES picks points."""

import torch
from probe_inputs import gate_up_copies, print_configs_against_default, weight_copies

from cute_kernels import prepare_nvfp4_weight
from cute_kernels.bench.timing import select_shapes

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
# (kind, N or 2I, K, M, candidates besides the default)
POINTS = [
    ("gemm", 9216, 7168, 1, [(1, 1, 2, 1, 2), (1, 1, 2, 1, 3), (1, 1, 3, 1, 2), (1, 1, 2, 1)]),
    ("gemm", 5120, 17408, 1, [(1, 1, 2, 1, 3), (1, 1, 2, 1, 4), (2, 1, 2, 1, 3),
                              (2, 1, 4, 1, 4)]),
    ("fused", 9216, 7168, 1, [(2, 1, 2, 1, 2), (2, 1, 2, 1, 3), (2, 1, 2, 1), (2, 1, 4, 1, 2)]),
    ("fused", 34816, 5120, 1, [(2, 1, 2, 1, 2), (2, 1, 2, 1), (2, 1, 4, 1, 2)]),
    ("gemm", 4096, 7168, 1, [(1, 1, 4, 1, 2), (1, 1, 2, 1, 2), (1, 1, 4, 1)]),
    # more tokens, the register path: 9216x7168 M = 4 is 576 CTAs (4.36 a SM), M = 16 288
    # (2.18); 7168x18432 M = 16 224 (1.7)
    ("gemm", 9216, 7168, 4, [(1, 1, 2, 1, 2), (1, 1, 2, 1)]),
    ("gemm", 9216, 7168, 16, [(1, 2, 2, 1, 2), (2, 2, 2, 1, 2), (1, 2, 4, 1, 2)]),
    ("gemm", 7168, 18432, 16, [(1, 2, 2, 1, 2), (1, 2, 2, 1, 4), (1, 2, 4, 1, 2)]),
    ("fused", 9216, 7168, 16, [(2, 2, 2, 1, 2), (2, 2, 2, 1)]),
]

for kind, n, k, m, extra in select_shapes(POINTS):
    copies = weight_copies(n, k) if kind == "gemm" else gate_up_copies(n, k)
    words = [(prepare_nvfp4_weight(w), s) for w, s in copies]
    del copies
    print_configs_against_default(kind, n, k, m, words, lambda _: extra, alpha, gs)
    del words
