"""The activations decoded in the wgmma kernels (``act_decode``; by the consumers since
session 47), for compute-sanitizer; ``sanitize_probe.py`` runs it too: 300 tokens on 256-token
tiles (the second tile's second scale block past the buffer), 3 CTAs, plain and fused (6
tiles: the rule's 3 quantizer warps); the plain kernel in stream-K and split-K too; with the
decode warps (``act_warp_rows``) beside the consumers."""

import torch

from cute_kernels import prepare_gate_up_weight, reference
from cute_kernels.nvfp4_gemm_large_m import launch_large_m as plain_large_m
from cute_kernels.permuted_fp4 import prepare_nvfp4_weight
from cute_kernels.swiglu_quant_large_m import launch_large_m as fused_large_m

a, a_sf = reference.nvfp4_quantize(torch.randn(300, 1536, device="cuda", dtype=torch.bfloat16),
                                   9.0)
w, w_sf = reference.nvfp4_quantize(torch.randn(384, 1536, device="cuda", dtype=torch.bfloat16),
                                   9.0)
one = torch.ones(1, device="cuda")
for config, options in (((256, 0, 3), {}), ((128, 0, 5), {"stream_k": True}),
                        ((128, 0, 12), {"splits": 2}), ((256, 0, 3), {"act_warp_rows": 1}),
                        ((128, 0, 5), {"stream_k": True, "act_warp_rows": 1})):
    plain_large_m(a, prepare_nvfp4_weight(w), w_sf, one,
                  torch.empty(300, 384, device="cuda", dtype=torch.bfloat16), config, a_sf=a_sf,
                  **options)
gw, gw_sf = prepare_gate_up_weight(*reference.nvfp4_quantize(
    torch.randn(384, 1536, device="cuda", dtype=torch.bfloat16), 9.0, swizzle=False),
    permute=True)
for warp_rows in (0, 1):  # the rule's 3 quantizer warps, then the decode warps instead
    fused_large_m(a, gw, gw_sf, one, one, torch.empty(300, 96, device="cuda", dtype=torch.uint8),
                  torch.empty(384 * 12, device="cuda", dtype=torch.uint8), (256, 0, 3),
                  a_sf=a_sf, act_warp_rows=warp_rows)
torch.cuda.synchronize()
print("act_decode probe ran")
