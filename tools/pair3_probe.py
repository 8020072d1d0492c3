"""The second permuted layout (pairs 1 and 2 by rotation, pair 3 by one multiply:
``permuted_fp4``) through the public functions, against standard packed weights in the same
run (graph us, timed in turn, weights rotated past the L2). Session 11's suite measured the
first permuted layout on the same shapes (``notes/h200-2026-11-30-s11.md``), which is the
comparison that matters. CUTE_KERNELS_BENCH_SHAPES picks entries of POINTS."""

import torch
from probe_inputs import gate_up_copies, weight_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_nvfp4_weight, reference
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us

POINTS = [("gemm", n, k) for n, k in [(36864, 7168), (7168, 18432), (34816, 5120), (9216, 7168),
                                      (5120, 17408)]] + [("fused", 36864, 7168)]
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")

for kind, n, k in select_shapes(POINTS):
    standard = weight_copies(n, k) if kind == "gemm" else gate_up_copies(n, k)
    permuted = [(prepare_nvfp4_weight(w), s) for w, s in standard]
    line = []
    for m in (1, 8, 256):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                           100.0)
        fn = ((lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha)) if kind == "gemm" else
              (lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs)))
        per_graph = 100 if m <= 64 else 10
        us = time_graphs_interleaved_us([[lambda w=w: fn(w) for w in ws]
                                         for ws in (standard, permuted)], per_graph, 9)
        line.append(f"M={m} packed {us[0]:.2f} permuted {us[1]:.2f}")
    print(f"{kind} {n}x{k}: " + " | ".join(line), flush=True)
    del standard, permuted
