"""The small-M kernels with row groups (``NVFP4GemmSmallM``'s ``row_groups``: warps on row
tiles of their own), plain and fused, staged and register paths, with an N tail and a K split,
for compute-sanitizer; ``sanitize_probe.py`` runs it too."""

import torch

from cute_kernels import prepare_gate_up_weight, reference
from cute_kernels.nvfp4_gemm import launch_small_m as launch_plain
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m as launch_fused
from layouts import sf_padded_shape

K = 1088  # four whole 256-element steps and a tail of 64
one = torch.ones(1, device="cuda")
b, b_sf = reference.nvfp4_quantize(torch.randn(336, K, device="cuda", dtype=torch.bfloat16), 50.0)
w, w_sf = prepare_gate_up_weight(*reference.nvfp4_quantize(
    torch.randn(640, K, device="cuda", dtype=torch.bfloat16), 50.0, swizzle=False))
for m in (1, 29):
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, K, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    for config in ((1, 1, 8, 1, 1, 2), (1, 2, 6, 1, 2, 3)):  # rows 336: the last block's tail
        launch_plain(a, a_sf, b, b_sf, one, torch.empty(m, 336, device="cuda"), config)
    mp, kbp = sf_padded_shape(m, 320 // 16)
    for config in ((1, 1, 8, 1, 1, 2), (1, 1, 8, 1, 3, 2)):
        launch_fused(a, a_sf, w, w_sf, one, one, torch.empty(m, 160, device="cuda",
                                                            dtype=torch.uint8),
                     torch.empty(mp, kbp, device="cuda", dtype=torch.uint8), config)
torch.cuda.synchronize()
print("row-groups probe ran")
