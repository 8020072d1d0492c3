"""Small launches of every kernel, for compute-sanitizer (memcheck, racecheck) on the GPU."""

import torch

from cute_kernels import reference
from cute_kernels.linear import bf16_gemv
from cute_kernels.nvfp4_dequant import nvfp4_dequantize

x = torch.randn(129, 96, device="cuda", dtype=torch.bfloat16)
q, sf = reference.nvfp4_quantize(x, 10.0)
nvfp4_dequantize(q, sf, 10.0)
bf16_gemv(torch.randn(512, device="cuda", dtype=torch.bfloat16),
          torch.randn(1037, 512, device="cuda", dtype=torch.bfloat16))
torch.cuda.synchronize()
print("sanitize probe ran")

from cute_kernels.linear import fp8_gemv, fp8_linear  # noqa: E402

w8 = torch.randn(1037, 1024, device="cuda").to(torch.float8_e4m3fn)
fp8_gemv(torch.randn(1024, device="cuda").to(torch.float8_e4m3fn), w8, 0.5)
fp8_linear(torch.randn(1024, device="cuda", dtype=torch.bfloat16), w8, 0.1, 0.2)
torch.cuda.synchronize()
print("fp8 probe ran")
