"""The public nvfp4_gemm at issue 5's furthest M <= 64 points (1.5x QuACK wanted, ~1.0-1.07x
measured): 7168x2048 and 4096x7168 at M = 64, NVFP4 activations, permuted weight words,
between cudaProfilerStart/Stop for Nsight Compute (``tools/session32_fifth.sh``): every
kernel of the call (the activations' dequantization and the wgmma GEMM)."""

import torch

from cute_kernels import nvfp4_gemm, prepare_nvfp4_weight, reference

torch.manual_seed(0)
CASES = [(7168, 2048, 64), (4096, 7168, 64)]
runs = []
for n, k, m in CASES:
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    b = prepare_nvfp4_weight(b)
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    nvfp4_gemm(a, a_sf, b, b_sf, 0.5)  # compile and warm up
    runs.append((a, a_sf, b, b_sf))
torch.cuda.synchronize()
torch.cuda.profiler.start()
for a, a_sf, b, b_sf in runs:
    nvfp4_gemm(a, a_sf, b, b_sf, 0.5)
torch.cuda.synchronize()
torch.cuda.profiler.stop()
