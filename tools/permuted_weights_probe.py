"""Standard against permuted weight words through the public functions, W4A4: ``nvfp4_gemm`` on
the issue's seven shapes and ``nvfp4_gemm_swiglu_quant`` on 36864x7168 and 1024x7168, at M = 1
to 1024 (graph us, the two timed in turn, weights rotated past the L2; the wgmma routes
include the activation dequantization, permuted-K for permuted weights; that pass alone:
``activation_probe.py``). CUTE_KERNELS_BENCH_SHAPES picks entries of POINTS."""

import torch
from probe_inputs import gate_up_copies, weight_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_nvfp4_weight, reference
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us

MS = (1, 8, 16, 64, 256, 1024)
POINTS = [("gemm", n, k) for n, k in [(36864, 7168), (7168, 18432), (34816, 5120), (9216, 7168),
                                      (5120, 17408), (4096, 7168), (7168, 2048)]]
POINTS += [("fused", 36864, 7168), ("fused", 1024, 7168)]
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")

for kind, n, k in select_shapes(POINTS):
    standard = weight_copies(n, k) if kind == "gemm" else gate_up_copies(n, k)
    permuted = [(prepare_nvfp4_weight(w), s) for w, s in standard]
    line = []
    for m in MS:
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                           100.0)
        fn = ((lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha)) if kind == "gemm" else
              (lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs)))
        per_graph = 200 if m <= 64 else 20
        us = time_graphs_interleaved_us([[lambda w=w: fn(w) for w in ws]
                                         for ws in (standard, permuted)], per_graph)
        line.append(f"M={m} {us[0]:.2f} -> {us[1]:.2f} ({us[0] / us[1]:.3f}x)")
    print(f"{kind} {n}x{k}: " + " | ".join(line), flush=True)
    del standard, permuted
