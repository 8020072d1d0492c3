"""The launches that load their first weight k-tiles into the stages before the PDL wait
(``NVFP4GemmLargeM.weights_before_wait``: stream-K with the trigger at two CTAs an SM), plain
and fused, on more tiles than CTAs, for compute-sanitizer; ``sanitize_probe.py`` runs it too."""

import torch

from cute_kernels import reference
from cute_kernels.gate_up_weight import prepare_gate_up_weight
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import launch_large_m as launch_plain
from cute_kernels.permuted_fp4 import prepare_nvfp4_weight
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused

K = 1664  # 13 k-tiles of two 64-element K groups
x = torch.randn(29, K, device="cuda", dtype=torch.bfloat16)
act = bf16_activations(x, None, KOrder.PERMUTED)
one = torch.ones(1, device="cuda")
# plain: 10 tiles of 1160 rows (an N tail) on 6 CTAs
b, b_sf = reference.nvfp4_quantize(torch.randn(1160, K, device="cuda", dtype=torch.bfloat16),
                                   50.0)
words = prepare_nvfp4_weight(b)
# fused: 2I = 1024, 8 tiles on 6 CTAs
w, w_sf = reference.nvfp4_quantize(torch.randn(1024, K, device="cuda", dtype=torch.bfloat16),
                                   50.0, swizzle=False)
w, w_sf = prepare_gate_up_weight(w, w_sf, permute=True)
for tile_m in (16, 32):
    options = {"stream_k": True, "ctas_per_sm": 2, "k_groups": 2, "k_order": KOrder.PERMUTED,
               "pdl_trigger": True}
    launch_plain(act, words, b_sf, one, torch.empty(29, 1160, device="cuda"), (tile_m, 0, 6),
                 **options)
    launch_fused(act, w, w_sf, one, torch.full((1,), 30.0, device="cuda"),
                 torch.empty(29, 256, device="cuda", dtype=torch.uint8),
                 torch.empty(128 * 32, device="cuda", dtype=torch.uint8), (tile_m, 0, 6),
                 **options)
torch.cuda.synchronize()
print("weights-first probe ran")
