"""Small launches of the quantization kernels (threshold encode and the fma variant, tails,
fp16, fused, experts) and of the activation dequantize, for compute-sanitizer memcheck."""

import torch

from cute_kernels.nvfp4_quant import (CLAIM_WORDS, compile_nvfp4_quant, nvfp4_quantize,
                                      silu_mul_nvfp4_quant, silu_mul_nvfp4_quant_experts)

for dtype in (torch.bfloat16, torch.float16):
    nvfp4_quantize(torch.randn(129, 80, device="cuda", dtype=dtype), 20.0)
    nvfp4_quantize(torch.randn(7, 5120, device="cuda", dtype=dtype), 20.0)
    silu_mul_nvfp4_quant(torch.randn(7, 160, device="cuda", dtype=dtype), 20.0)
    silu_mul_nvfp4_quant(torch.randn(130, 2 * 2048, device="cuda", dtype=dtype), 20.0)
silu_mul_nvfp4_quant_experts(torch.randn(3, 37, 2048, device="cuda", dtype=torch.bfloat16),
                             torch.tensor([0, 37, 5], dtype=torch.int32, device="cuda"),
                             torch.full((3,), 20.0, device="cuda"))
# the other configs of tools/quant_bw_probe.py, on a small shape
x = torch.randn(300, 3072, device="cuda", dtype=torch.bfloat16)
g = torch.full((1,), 30.0, device="cuda")
mask = torch.zeros(1, dtype=torch.int32, device="cuda")
for enc, vecs, per_sm, mc, pf in (("fma", 4, 16, 0, False), ("cmp", 2, 16, 16, False),
                                  ("cmp", 4, 8, 0, False), ("cmp", 2, 8, 0, True),
                                  ("cmp", 4, 6, 0, True), ("cmp", 4, 9, 9, False),
                                  ("cmp", 4, 8, 8, True), ("cmp", 2, 8, 8, True)):
    q = torch.empty(300, 1536, dtype=torch.uint8, device="cuda")
    sf = torch.empty(384 * 192, dtype=torch.uint8, device="cuda")
    compile_nvfp4_quant(3072, str(torch.bfloat16), False, False, vecs, 4, per_sm * 132, pf,
                        False, enc, mc)(x, g, mask, q, sf)
# the first item's loads before the table fill, and the launch without the early PDL trigger
for options in ((True, True), (False, False)):
    # positional: jit.cached keys on positional arguments only
    compile_nvfp4_quant(3072, str(torch.bfloat16), False, False, 4, 4, 8 * 132, False, False,
                        "cmp", 0, 0, *options)(x, g, mask, q, sf)
# claimed items (zeroed counters the launches leave zero): plain and fused, the last
# two rounds claimed on the full grid, the last three on a 3-CTA grid (12 warps, 12 shards)
counters = torch.zeros(CLAIM_WORDS, dtype=torch.int32, device="cuda")
for silu, k, vecs in ((False, 3072, 4), (True, 1536, 2)):
    q = torch.empty(300, k // 2, dtype=torch.uint8, device="cuda")
    sf = torch.empty(384 * (k // 16), dtype=torch.uint8, device="cuda")
    for ctas, claim in ((6 * 132, 2), (3, 3), (6 * 132, -4)):
        compile_nvfp4_quant(k, str(torch.bfloat16), silu, False, vecs, 4, ctas, True, False,
                            "cmp", 0, 0, False, True, claim)(x, g, counters, q, sf)
# the shared-memory ring (cp.async): plain and fused, a 3-CTA grid so warps cycle the ring
for silu, k, vecs, per_sm, ring in ((False, 3072, 4, 8, 2), (True, 1536, 2, 8, 3)):
    q = torch.empty(300, k // 2, dtype=torch.uint8, device="cuda")
    sf = torch.empty(384 * (k // 16), dtype=torch.uint8, device="cuda")
    for ctas in (per_sm * 132, 3):
        compile_nvfp4_quant(k, str(torch.bfloat16), silu, False, vecs, 4, ctas, False, False,
                            "cmp", 0, ring)(x, g, mask, q, sf)
# the activation passes of the wgmma routes, M tails: K = 80 takes the general kernel, 7168 and
# 192 the quarter-group kernels (packed order and permuted-K)
from cute_kernels import reference  # noqa: E402
from cute_kernels.nvfp4_dequant import bf16_activations  # noqa: E402

for m, k in ((129, 80), (3, 7168), (257, 192)):
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16), 9.0)
    bf16_activations(a, a_sf)
    if k % 64 == 0:
        bf16_activations(a, a_sf, True)
torch.cuda.synchronize()
print("quant sanitize probe ran")
