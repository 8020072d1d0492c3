"""The launches that load their first weight k-tiles into the stages before the PDL wait
(``NVFP4GemmLargeM.weights_before_wait``: the plain GEMM in stream-K with the trigger at two
CTAs an SM), on more tiles than CTAs, for compute-sanitizer; ``sanitize_probe.py`` runs it
too."""

import torch

from cute_kernels import reference
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import launch_large_m
from cute_kernels.permuted_fp4 import prepare_nvfp4_weight

K = 1664  # 13 k-tiles of two 64-element K groups
x = torch.randn(29, K, device="cuda", dtype=torch.bfloat16)
act = bf16_activations(x, None, KOrder.PERMUTED)
one = torch.ones(1, device="cuda")
# 10 tiles of 1160 rows (an N tail) on 6 CTAs
b, b_sf = reference.nvfp4_quantize(torch.randn(1160, K, device="cuda", dtype=torch.bfloat16),
                                   50.0)
words = prepare_nvfp4_weight(b)
for tile_m in (16, 32):
    launch_large_m(act, words, b_sf, one, torch.empty(29, 1160, device="cuda"), (tile_m, 0, 6),
                   stream_k=True, ctas_per_sm=2, k_groups=2, k_order=KOrder.PERMUTED,
                   pdl_trigger=True)
torch.cuda.synchronize()
print("weights-first probe ran")
