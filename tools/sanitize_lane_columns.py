"""Lane columns (``nvfp4_gemm_small_m.LANE_COLUMNS`` on) for compute-sanitizer, on small grids:
``nvfp4_gemm`` at one and two NVFP4 tokens with K and N tails on packed bytes (and at one
token staged without the prefetch), a K split on permuted words, the fused op at one and two
tokens with a K tail, and the balanced launch (one CTA an SM, one remainder block in
pieces)."""

import torch

from cute_kernels import (nvfp4_gemm, nvfp4_gemm_small_m, nvfp4_gemm_swiglu_quant,
                          prepare_gate_up_weight, prepare_nvfp4_weight, reference)
from cute_kernels.arch import sm_count
from cute_kernels.nvfp4_gemm import launch_small_m
from cute_kernels.nvfp4_gemm_balanced import launch_one_token_balanced

nvfp4_gemm_small_m.LANE_COLUMNS = True


def weights(n, k):
    return reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 50.0)


def tokens(m, k):
    return reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16), 100.0)


alpha = torch.ones(1, device="cuda")
for m in (1, 2):
    b, b_sf = weights(200, 576)
    a, a_sf = tokens(m, 576)
    nvfp4_gemm(a, a_sf, b, b_sf, alpha)                                      # tails, packed
    if m == 1:  # (two tokens take the register path here)
        launch_small_m(a, a_sf, b, b_sf, alpha, torch.empty(m, 200, device="cuda"),
                       (1, 1, 4, 0))
    b, b_sf = weights(1024, 4096)
    a, a_sf = tokens(m, 4096)
    launch_small_m(a, a_sf, prepare_nvfp4_weight(b), b_sf, alpha,
                   torch.empty(m, 1024, device="cuda"), (1, 1, 8, 1, 2))     # K split
    i, k = 192, 576
    w, w_sf = prepare_gate_up_weight(*reference.nvfp4_quantize(
        torch.randn(2 * i, k, device="cuda", dtype=torch.bfloat16), 50.0, swizzle=False),
        permute=True)
    x, x_sf = tokens(m, k)
    nvfp4_gemm_swiglu_quant(x, x_sf, w, w_sf, alpha, alpha)
sms = sm_count(torch.cuda.current_device())
n, k = 16 * (sms + 1), 1088
b, b_sf = weights(n, k)
a, a_sf = tokens(1, k)
for _ in range(2):  # the second launch finds the counters the first left
    launch_one_token_balanced(a, a_sf, prepare_nvfp4_weight(b), b_sf, alpha,
                              torch.empty(1, n, device="cuda"), 4, 1)
torch.cuda.synchronize()
nvfp4_gemm_small_m.LANE_COLUMNS = False  # as found (``sanitize_probe`` imports this)
print("lane columns probe ran")
