"""Stream-K in lanes of row tiles (``large_m_plans.STREAM_K_LANES``, ``PLAIN_STREAM_K_LANES``)
for compute-sanitizer (memcheck, racecheck), the public ops on permuted words where their
routes take lanes: the fused op on 1024x7168 (8 lanes of 16 CTAs) W4A16 at 4700 tokens
(256-token tiles, a tail 36% full read in place, ``w4a16_256_on_tail``), on 4096x7168 NVFP4 at
2100 tokens (256-token tiles, 4 groups of 32 CTAs) and at 1100 (128-token tiles in 32 lanes);
``nvfp4_gemm`` on 4096x7168 at 1100 NVFP4 tokens (its plan: the 128-token stream-K in 32
lanes, ``plain_lanes_128``); then forced: the fused 256-token stream-K on 1024x7168 at 100
tokens (one token tile: every tile in 16 pieces), ``nvfp4_gemm``'s 256-token stream-K on
4096x7168 at 1100 bf16 tokens in 32 lanes; lanes of bands of two row tiles (the fused op on
1024x7168 at 100 tokens in 4 lanes, ``nvfp4_gemm`` on 2560x7168 at 300 in 10). (Session 61
call 2 ran it on W4A16 at 2200 tokens, and NVFP4 at 1100 (1024x7168) / 3000 (384x7168) on
128-token tiles in lanes.)"""

import importlib

import torch

from cute_kernels import (nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_gate_up_weight,
                          prepare_nvfp4_weight, reference)

fused = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
gemm = importlib.import_module("cute_kernels.nvfp4_gemm")


def run(m, two_i, fp4):
    raw = reference.nvfp4_quantize(torch.randn(two_i, 7168, device="cuda"), 100.0, swizzle=False)
    w, w_sf = prepare_gate_up_weight(*raw, permute=True)
    x = torch.randn(m, 7168, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4 else (x, None)
    nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, 0.5, 30.0)


def plain(m, fp4, n=4096):
    packed, sf = reference.nvfp4_quantize(torch.randn(n, 7168, device="cuda"), 100.0)
    x = torch.randn(m, 7168, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4 else (x, None)
    nvfp4_gemm(a, a_sf, prepare_nvfp4_weight(packed), sf, 0.5)


run(4700, 1024, False)
run(2100, 4096, True)
run(1100, 4096, True)
plain(1100, True)
fused.large_m_route = lambda m, i, k: ("stream_k", 256)
run(100, 1024, False)
gemm.plain_plan = lambda m, n, k: (256, 1, True, False)
plain(1100, False)
# lanes of bands of two row tiles (no rule takes them yet): fused 1024 rows in 4 lanes, the
# plain GEMM on 2560 rows in 10
importlib.import_module("cute_kernels.large_m_plans").stream_k_lanes = lambda *args: 4
run(100, 1024, False)
gemm.plain_stream_k_lanes = lambda n, tile_m, stream_k, sms=132: 10 if stream_k else 1
plain(300, True, 2560)
torch.cuda.synchronize()
print("stream-K lanes probe ran")
