"""The wgmma (large-M) kernel alone, between cudaProfilerStart/Stop, for Nsight Compute:
ncu --profile-from-start off --section SpeedOfLight ... python tools/large_m_profile.py
Shapes: 36864x7168 at M = 64 (64-token tiles, 288 CTA tiles) and 9216x7168 at M = 256
(256-token tiles, 72), the two regimes where the kernel runs far from the tensor peak."""

import torch

from cute_kernels import reference
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

torch.manual_seed(0)
runs = []
for n, k, m, tile_m in [(36864, 7168, 64, 64), (9216, 7168, 256, 256)]:
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 100.0)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    alpha = torch.ones(1, device="cuda")
    launch_large_m(x, b, b_sf, alpha, out, (tile_m, 0))  # compile and warm up
    runs.append((x, b, b_sf, alpha, out, tile_m))
torch.cuda.synchronize()
torch.cuda.profiler.start()
for x, b, b_sf, alpha, out, tile_m in runs:
    launch_large_m(x, b, b_sf, alpha, out, (tile_m, 0))
torch.cuda.synchronize()
torch.cuda.profiler.stop()
print("large-M profile probe ran")
