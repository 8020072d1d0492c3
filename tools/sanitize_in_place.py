"""The wgmma kernels decoding permuted words in place (``KOrder.PERMUTED_IDENTITY``, bf16
activations as they are, M not a multiple of the token tile so the TMA reads past the rows),
plain (whole tiles, stream-K, hybrid) and fused (whole tiles, stream-K), for compute-sanitizer."""

import torch

from cute_kernels import prepare_gate_up_weight, prepare_nvfp4_weight, reference
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import launch_large_m as launch_plain
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused
from layouts import sf_padded_shape

K, M = 576, 129
ORDER = KOrder.PERMUTED_IDENTITY
one = torch.ones(1, device="cuda")
x = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
b, b_sf = reference.nvfp4_quantize(torch.randn(200, K, device="cuda", dtype=torch.bfloat16), 50.0)
words = prepare_nvfp4_weight(b)
for config, stream_k, hybrid in (((128, 0), False, False), ((64, 0, 5), True, False),
                                 ((128, 2, 3), True, True)):
    launch_plain(x, words, b_sf, one, torch.empty(M, 200, device="cuda"), config, 1, stream_k,
                 hybrid, k_order=ORDER)
w, w_sf = prepare_gate_up_weight(*reference.nvfp4_quantize(
    torch.randn(256, K, device="cuda", dtype=torch.bfloat16), 50.0, swizzle=False))
w = prepare_nvfp4_weight(w)
mp, kbp = sf_padded_shape(M, 128 // 16)
for config, stream_k in (((128, 0), False), ((64, 0, 5), True)):
    launch_fused(x, w, w_sf, one, one, torch.empty(M, 64, device="cuda", dtype=torch.uint8),
                 torch.empty(mp * kbp, device="cuda", dtype=torch.uint8), config,
                 stream_k=stream_k, k_order=ORDER)
torch.cuda.synchronize()
print("in-place probe ran")
