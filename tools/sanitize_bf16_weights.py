"""The ``KOrder.BF16`` launches for compute-sanitizer (memcheck, racecheck): the weight pass,
the plain kernel whole / in four scattered pieces / as a cluster pair / in stream-K at a token
tail, and the public fused op on bf16 activations (1024x7168, M = 1800: whole tiles, a tail)."""

import torch

from cute_kernels import nvfp4_gemm_swiglu_quant, prepare_gate_up_weight, reference
from cute_kernels.bf16_weights import bf16_weights
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

packed, sf = reference.nvfp4_quantize(torch.randn(384, 1024, device="cuda"), 100.0)
w16 = bf16_weights(packed, sf)
a = torch.randn(129, 1024, device="cuda", dtype=torch.bfloat16)
out = torch.empty(129, 384, device="cuda", dtype=torch.bfloat16)
alpha = torch.ones(1, device="cuda")
for launch in ({}, {"splits": 4}, {"pair_pieces": True}, {"stream_k": True}):
    launch_large_m(a, w16, sf, alpha, out, (128, 0), **launch)
torch.cuda.synchronize()
print("plain kernel ran")

raw = reference.nvfp4_quantize(torch.randn(1024, 7168, device="cuda"), 100.0, swizzle=False)
w, w_sf = prepare_gate_up_weight(*raw, permute=True)
nvfp4_gemm_swiglu_quant(torch.randn(1800, 7168, device="cuda", dtype=torch.bfloat16), None, w,
                        w_sf, 0.5, 30.0)
torch.cuda.synchronize()
print("fused op ran")
