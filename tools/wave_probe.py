"""How the small-M GEMM's M = 1 time depends on its grid: the default config (2, 1, 4, 1), 32
weight rows per CTA, 4 CTAs resident per SM (528 slots on 132 SMs), N = CTAs x 32:

* K = 7168, from 1.5 to 3 waves of 528 CTAs: is the partial last wave (36864x7168 is 1152 CTAs,
  2.18 waves) a tail that costs several us? Compare us per CTA across whole and partial waves.
* K = 18432, from a quarter wave to one: how the weight stream scales with CTAs per SM (the
  long-K shapes are 224 and 160 CTAs).

Graph us (200 calls per graph, weights rotated past the L2), effective TB/s of packed weights +
scales. CUTE_KERNELS_BENCH_SHAPES picks entries of POINTS (one warm-up process each)."""

import torch
from probe_inputs import weight_copies

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.nvfp4_gemm import launch_small_m

SLOTS = 528
CONFIG = (2, 1, 4, 1)  # fixed: the public route would split K for the smallest long-K grids
alpha = torch.full((1,), 0.5, device="cuda")
POINTS = ([(7168, ctas) for ctas in (792, 924, 1024, 1056, 1088, 1152, 1188, 1320, 1452, 1584)]
          + [(18432, ctas) for ctas in (132, 176, 224, 264, 330, 396, 462, 528)])

for k, ctas in select_shapes(POINTS):
    n = 32 * ctas
    weights = weight_copies(n, k)
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    out = torch.empty(1, n, device="cuda", dtype=torch.bfloat16)
    us = time_graph_us([lambda w=w: launch_small_m(a, a_sf, w[0], w[1], alpha, out, CONFIG)
                        for w in weights])
    nbytes = n * k // 2 + n * k // 16
    print(f"K={k} N={n} CTAs={ctas} ({ctas / SLOTS:.2f} waves): {us:.2f} us, "
          f"{us / ctas * 1000:.1f} ns per CTA, {nbytes / us / 1e6:.2f} TB/s", flush=True)
    del weights
