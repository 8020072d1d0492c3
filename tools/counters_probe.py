"""Launches with in-launch reductions after ``arrival_counters`` (no memset per call), graph us,
50 calls per graph. Before (session 6, a zeroed buffer per call): 36864x7168 M = 64 stream-K
kernel 101.1; 9216x7168 M = 256 stream-K kernel 66.1; 5120x17408 M = 1 ``nvfp4_gemm`` W4A4
(split in three) 22.1 (probe, config launch); 1024x7168 M = 1 fused (split in four) 8.2."""

import torch
from probe_inputs import gate_up_copies, weight_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import time_graph_us
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for n, k, m in ((36864, 7168, 64), (9216, 7168, 256)):
    copies = weight_copies(n, k)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    tile = 64 if m <= 64 else 256
    us = time_graph_us([lambda c=c: launch_large_m(x, c[0], c[1], alpha, out, (tile, 0),
                                                   stream_k=True) for c in copies], 50)
    print(f"stream-K kernel {n}x{k} M={m}: {us:.1f} us", flush=True)
    del copies
copies = weight_copies(5120, 17408)
a, a_sf = reference.nvfp4_quantize(torch.randn(1, 17408, device="cuda", dtype=torch.bfloat16),
                                   100.0)
us = time_graph_us([lambda c=c: nvfp4_gemm(a, a_sf, c[0], c[1], alpha) for c in copies], 50)
print(f"nvfp4_gemm 5120x17408 M=1 (split 3): {us:.1f} us", flush=True)
del copies
fused = gate_up_copies(1024, 7168)
a, a_sf = reference.nvfp4_quantize(torch.randn(1, 7168, device="cuda", dtype=torch.bfloat16),
                                   100.0)
us = time_graph_us([lambda c=c: nvfp4_gemm_swiglu_quant(a, a_sf, c[0], c[1], alpha, gs)
                    for c in fused], 50)
print(f"fused 1024x7168 M=1 (split 4): {us:.1f} us", flush=True)
