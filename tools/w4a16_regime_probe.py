"""W4A16 (bf16 activations) at 4..16 tokens: the small-M kernel (the public route) against the
wgmma route (``nvfp4_gemm.launch_planned`` on ``plain_plan``: stream-K or whole tiles with
K splits, as past the crossover). The session 15 nvfp4_gemm suite had W4A16 M = 16 in the small-M kernel slower
than M = 32 in the wgmma one (5120x17408 56.1 against 39.4 us, 9216x7168 58.9 against 30.8):
``small_m_regime`` does not look at the activation type. Packed and permuted weights, graph us,
weights rotated past the L2. CUTE_KERNELS_BENCH_SHAPES picks shapes."""

import torch
from probe_inputs import weight_copies

from cute_kernels import nvfp4_gemm, prepare_nvfp4_weight
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm import launch_planned

SHAPES = [(7168, 18432), (5120, 17408), (36864, 7168), (34816, 5120), (9216, 7168),
          (4096, 7168), (7168, 2048)]
alpha = torch.full((1,), 0.5, device="cuda")

for n, k in select_shapes(SHAPES):
    packed = weight_copies(n, k)
    for layout, weights in (("packed", packed),
                            ("permuted", [(prepare_nvfp4_weight(b), s) for b, s in packed])):
        for m in (4, 8, 12, 16):
            a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            small = time_graph_us([lambda w=w: nvfp4_gemm(a, None, w[0], w[1], alpha, out=out)
                                   for w in weights], 50)
            plan = plain_plan(m, n, k)
            large = time_graph_us([lambda w=w: launch_planned(a, None, w[0], w[1], alpha, out,
                                                              plan) for w in weights], 50)
            print(f"W4A16 {layout} {n}x{k} M={m}: small {small:.2f} wgmma {large:.2f}",
                  flush=True)
    del packed
