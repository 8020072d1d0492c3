"""W4A16 in place on K pieces of 256-token tiles (four pieces, and three uneven ones:
``W4A16_PIECES_SPLITS``) for compute-sanitizer (memcheck, racecheck): the public fused op, that
route forced, on 1024x7168 at 1024 tokens (four pieces, 128 CTAs), 384 rows at 1280 (five token
tiles, an I tail) and 1024x7168 at 1280 (three pieces of 37-38 k-tiles, 120 CTAs); then the
public route on 1024x7168 where narrow weights decode in place from 512 tokens (four / two K
pieces of 128-token tiles at 512 / 896, four of 256-token tiles at 768; three of 128-token
tiles at 640 keep the copy) and token tails read in place, the TMA filling the last tile
(1100: stream-K; on 256-token tiles, ``W4A16_256_ON_TAILS``: 660 / 700 / 1000 four K pieces,
1200 three, 2500 stream-K)."""

import importlib

import torch

from cute_kernels import nvfp4_gemm_swiglu_quant, prepare_gate_up_weight, reference

fused = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
large_m_route = fused.large_m_route

for m, two_i, k, plan in ((1024, 1024, 7168, (256, 4)),
                          (1280, 384, 7168, (256, 4)),
                          (1280, 1024, 7168, (256, 3))):
    fused.large_m_route = lambda m, i, k, plan=plan: ("pieces", plan)
    raw = reference.nvfp4_quantize(torch.randn(two_i, k, device="cuda"), 100.0, swizzle=False)
    w, w_sf = prepare_gate_up_weight(*raw, permute=True)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    nvfp4_gemm_swiglu_quant(x, None, w, w_sf, 0.5, 30.0)
fused.large_m_route = large_m_route
raw = reference.nvfp4_quantize(torch.randn(1024, 7168, device="cuda"), 100.0, swizzle=False)
w, w_sf = prepare_gate_up_weight(*raw, permute=True)
for m in (512, 640, 768, 896, 700, 660, 1100, 1000, 1200, 2500):
    x = torch.randn(m, 7168, device="cuda", dtype=torch.bfloat16)
    nvfp4_gemm_swiglu_quant(x, None, w, w_sf, 0.5, 30.0)
torch.cuda.synchronize()
print("w4a16 pieces ran")
