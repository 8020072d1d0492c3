"""The small-M GEMM at M = 1 alone, between cudaProfilerStart/Stop, for Nsight Compute:
ncu --profile-from-start off ... python tools/small_m_profile.py
Why long K streams at ~60% of the 4.25 TB/s roofline (7168x18432: 224 CTAs, 1.7 per SM;
5120x17408: 160 CTAs, K split in three) where 36864x7168 (1152 CTAs) reaches ~74%: DRAM
throughput, per-SM active cycles (min / max: the one-wave imbalance), warp stalls."""

import torch

from cute_kernels import reference
from cute_kernels.nvfp4_gemm import nvfp4_gemm

torch.manual_seed(0)
runs = []
for n, k in [(7168, 18432), (5120, 17408), (36864, 7168)]:
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 100.0)
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16), 100.0)
    nvfp4_gemm(a, a_sf, b, b_sf, 0.5)  # compile and warm up
    runs.append((a, a_sf, b, b_sf))
torch.cuda.synchronize()
torch.cuda.profiler.start()
for a, a_sf, b, b_sf in runs:
    nvfp4_gemm(a, a_sf, b, b_sf, 0.5)
torch.cuda.synchronize()
torch.cuda.profiler.stop()
print("small-M profile probe ran")
