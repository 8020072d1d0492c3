"""W4A16 in place on four K pieces of 256-token tiles (``W4A16_PIECES_PLAN``) for
compute-sanitizer (memcheck, racecheck): the public fused op, that route forced, on 1024x7168
at 1024 tokens (128 CTAs) and on 384 rows at 1280 (five token tiles, an I tail)."""

import importlib

import torch

from cute_kernels import nvfp4_gemm_swiglu_quant, prepare_gate_up_weight, reference

fused = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
fused.large_m_route = lambda m, i, k: ("pieces", fused.W4A16_PIECES_PLAN)

for m, two_i, k in ((1024, 1024, 7168), (1280, 384, 7168)):
    raw = reference.nvfp4_quantize(torch.randn(two_i, k, device="cuda"), 100.0, swizzle=False)
    w, w_sf = prepare_gate_up_weight(*raw, permute=True)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    nvfp4_gemm_swiglu_quant(x, None, w, w_sf, 0.5, 30.0)
torch.cuda.synchronize()
print("w4a16 pieces ran")
