"""The fused kernel's stream-K in lanes of row tiles (``large_m_plans.STREAM_K_LANES``) for
compute-sanitizer (memcheck, racecheck): the public fused op on permuted words where its route
takes lanes: 1024x7168 (8 lanes of 16 CTAs) W4A16 at 4700 tokens (256-token tiles, a tail 36%
full read in place, ``w4a16_256_on_tail``); and the forced 256-token stream-K on 1024x7168 at
100 tokens (one token tile: every tile in 16 pieces); 4096x7168 NVFP4 at 2100 tokens in lanes
of 32 row tiles (4 groups of 32 CTAs; the bar raised here, as in the tests); ``nvfp4_gemm``
on 4096x7168 at 1100 bf16 tokens, the 256-token stream-K in 32 lanes (``PLAIN_STREAM_K_LANES``
switched on here). (Session 61 call
2 ran it on W4A16 at 2200 tokens, and NVFP4 at 1100 (1024x7168) / 3000 (384x7168) on
128-token tiles in lanes.)"""

import importlib

import torch

from cute_kernels import (nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_gate_up_weight,
                          prepare_nvfp4_weight, reference)

fused = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
plans = importlib.import_module("cute_kernels.large_m_plans")


def run(m, two_i, fp4):
    raw = reference.nvfp4_quantize(torch.randn(two_i, 7168, device="cuda"), 100.0, swizzle=False)
    w, w_sf = prepare_gate_up_weight(*raw, permute=True)
    x = torch.randn(m, 7168, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4 else (x, None)
    nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, 0.5, 30.0)


run(4700, 1024, False)
plans.STREAM_K_LANES_MAX_ROW_TILES = 32
run(2100, 4096, True)
fused.large_m_route = lambda m, i, k: ("stream_k", 256)
run(100, 1024, False)
plans.PLAIN_STREAM_K_LANES = True
gemm = importlib.import_module("cute_kernels.nvfp4_gemm")
gemm.plain_plan = lambda m, n, k: (256, 1, True, False)
packed, sf = reference.nvfp4_quantize(torch.randn(4096, 7168, device="cuda"), 100.0)
nvfp4_gemm(torch.randn(1100, 7168, device="cuda", dtype=torch.bfloat16), None,
           prepare_nvfp4_weight(packed), sf, 0.5)
torch.cuda.synchronize()
print("stream-K lanes probe ran")
