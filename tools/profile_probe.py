"""A few launches of the bandwidth-critical kernels at model shapes, for Nsight Compute:
ncu --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats \
    -k regex:kernel python tools/profile_probe.py [gemm|quant|all]
"""

import sys

import torch

from cute_kernels import reference
from cute_kernels.nvfp4_gemm import nvfp4_gemm
from cute_kernels.nvfp4_quant import nvfp4_quantize, silu_mul_nvfp4_quant

what = sys.argv[1] if len(sys.argv) > 1 else "all"
torch.manual_seed(0)
if what in ("gemm", "all"):
    n, k = 36864, 7168
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 100.0)
    for m in (1, 16):
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        a, a_sf = reference.nvfp4_quantize(x, 100.0)
        nvfp4_gemm(a, a_sf, b, b_sf, 0.5)
        nvfp4_gemm(x, None, b, b_sf, 0.5)
if what in ("quant", "all"):
    x = torch.randn(4096, 7168, device="cuda", dtype=torch.bfloat16)
    nvfp4_quantize(x, 100.0)
    gu = torch.randn(4096, 2 * 18432, device="cuda", dtype=torch.bfloat16)
    silu_mul_nvfp4_quant(gu, 100.0)
torch.cuda.synchronize()
print("profile probe ran")
