"""The public nvfp4_gemm (NVFP4 activations) alone, between cudaProfilerStart/Stop, for Nsight
Compute: ncu --profile-from-start off ... python tools/small_m_profile.py
Default cases, M = 1: why long K streams at ~60% of the 4.25 TB/s roofline (7168x18432: 224
CTAs, 1.7 per SM; 5120x17408: 160 CTAs, K split in three) where 36864x7168 (1152 CTAs)
reaches ~74%: DRAM throughput, per-SM active cycles (min / max: the one-wave imbalance), warp
stalls. CUTE_KERNELS_PROFILE_CASES="n,k,m;n,k,m" profiles other points (session 32: 7168x2048
and 4096x7168 at M = 64, every kernel of the call), CUTE_KERNELS_PROFILE_PERMUTED=1 on
permuted weight words."""

import os

import torch

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.nvfp4_gemm import nvfp4_gemm

torch.manual_seed(0)
CASES = [(7168, 18432, 1), (5120, 17408, 1), (36864, 7168, 1)]
if os.environ.get("CUTE_KERNELS_PROFILE_CASES"):
    CASES = [tuple(int(v) for v in case.split(","))
             for case in os.environ["CUTE_KERNELS_PROFILE_CASES"].split(";")]
PERMUTED = os.environ.get("CUTE_KERNELS_PROFILE_PERMUTED") == "1"
runs = []
for n, k, m in CASES:
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    if PERMUTED:
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
print("small-M profile probe ran")
