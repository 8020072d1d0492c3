"""The fused small-M launches that take the out_scale table of G (``NVFP4GemmSwigluQuantSmallM``'s
``EPILOGUE_TABLE``, session 90: filled by the CTA's threads after the PDL wait, read by the
epilogue), for compute-sanitizer: the register path, staged tokens, row groups, a K split, one
warp a CTA (a warp barrier, no CTA barrier) and the cp.async ring, at 1, 3 and 29 tokens."""

import torch

from cute_kernels import prepare_gate_up_weight, reference
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m
from layouts import sf_padded_shape

K, I = 1088, 320  # four whole 256-element steps and a tail of 64
one = torch.ones(1, device="cuda")
w, w_sf = prepare_gate_up_weight(*reference.nvfp4_quantize(
    torch.randn(2 * I, K, device="cuda", dtype=torch.bfloat16), 50.0, swizzle=False))
for m in (1, 3, 29):
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, K, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    mp, kbp = sf_padded_shape(m, I // 16)
    for config in ((2, 1, 4, 1), (1, 1, 8, 1, 1, 2), (2, 1, 4, 1, 4), (2, 4, 1, 0),
                   (2, 2, 2, 3)):
        launch_small_m(a, a_sf, w, w_sf, one, one,
                       torch.empty(m, I // 2, device="cuda", dtype=torch.uint8),
                       torch.empty(mp, kbp, device="cuda", dtype=torch.uint8), config)
torch.cuda.synchronize()
print("fused table probe ran")
