"""Where the small-M kernel hands over to the wgmma kernel's 64-row tiles (``wg_k_split_plan``)
on the small weights: the public function (small-M kernel at these M) against
``launch_planned(..., wg_k_split=True)`` (the wgmma launch ``nvfp4_gemm`` takes past the small
regime), graph us with the activations' dequantization, NVFP4 (W4A4) and bf16 (W4A16)
activations, permuted words. One weight per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import permuted_weight_copies

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us, warm_only
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm import launch_planned

POINTS = [(7168, 2048, (9, 12, 16, 17, 20, 24, 28, 32)), (4096, 7168, (9, 12, 16))]

for n, k, ms in select_shapes(POINTS):
    words = permuted_weight_copies(n, k)
    alpha = torch.full((1,), 0.5, device="cuda")
    for m in ms:
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        a, a_sf = reference.nvfp4_quantize(x, 100.0)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        for kind, act, act_sf in (("W4A4", a, a_sf), ("W4A16", x, None)):
            groups = [[lambda w=w: nvfp4_gemm(act, act_sf, w[0], w[1], 0.5) for w in words],
                      [lambda w=w: launch_planned(act, act_sf, w[0], w[1], alpha, out,
                                                  plain_plan(m, n, k), wg_k_split=True)
                       for w in words]]
            for g in groups:
                g[0]()
            if warm_only():
                continue
            times = time_graphs_interleaved_us(groups, 100)
            print(f"{kind} {n}x{k} M={m}: public={times[0]:.2f} wgk={times[1]:.2f}", flush=True)
