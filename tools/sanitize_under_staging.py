"""The small-M kernel with ``UNDER_STAGING`` on (each warp's second step loaded under the token
staging, ``_stage_around``'s scratch words) for compute-sanitizer: one and two staged tokens,
a K split, row groups, the fused op's one-token configs; N and K tails. Run it with a kernel
cache of its own (``CUTE_KERNELS_CACHE_DIR``): the cache keys do not see the switch."""

import importlib

import torch

from cute_kernels import prepare_gate_up_weight, prepare_nvfp4_weight, reference
from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM
from layouts import sf_padded_shape

NVFP4GemmSmallM.UNDER_STAGING = True
gemm = importlib.import_module("cute_kernels.nvfp4_gemm")  # the package exports the function
fused = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
K, N, I = 1088, 1040, 320  # four whole steps and a tail of 64; a row tail
one = torch.ones(1, device="cuda")
b, b_sf = reference.nvfp4_quantize(torch.randn(N, K, device="cuda", dtype=torch.bfloat16), 50.0)
words = prepare_nvfp4_weight(b)
w, w_sf = prepare_gate_up_weight(*reference.nvfp4_quantize(
    torch.randn(2 * I, K, device="cuda", dtype=torch.bfloat16), 50.0, swizzle=False))
for m, config in ((1, (1, 1, 4, 1)), (2, (1, 1, 4, 1)), (1, (2, 1, 4, 1, 3)),
                  (1, (1, 1, 8, 1, 1, 2))):
    x = torch.randn(m, K, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    for act, act_sf in ((a, a_sf), (x, None)):
        gemm.launch_small_m(act, act_sf, words, b_sf, one, torch.empty(m, N, device="cuda"),
                            config)
a, a_sf = reference.nvfp4_quantize(torch.randn(1, K, device="cuda", dtype=torch.bfloat16), 100.0)
mp, kbp = sf_padded_shape(1, I // 16)
for config in ((1, 1, 8, 1, 1, 2), (2, 1, 8, 1, 4), (2, 1, 3, 1)):
    fused.launch_small_m(a, a_sf, w, w_sf, one, one,
                         torch.empty(1, I // 2, device="cuda", dtype=torch.uint8),
                         torch.empty(mp, kbp, device="cuda", dtype=torch.uint8), config)
torch.cuda.synchronize()
print("under-staging probe ran")
