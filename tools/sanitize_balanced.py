"""The balanced one-token launches for compute-sanitizer (one CTA an SM, so the grids stay
small): ``nvfp4_gemm_balanced``'s with pieces and a K tail on packed bytes and bf16
activations, one remainder block in more pieces than K steps, no remainder at all, and the
public ops' 8 K warps; the fused op's (``swiglu_quant_balanced``) with pieces and a K tail.
``BALANCED_UNDER=1``: with ``NEXT_STEP_UNDER_STAGING`` on, every launch's second step under its
staging (give such a run a kernel cache of its own: the cache keys do not see the switch).
Then the row-group launches (session 94): the plain op on three row groups (the public 9216x7168
route's form, here with pieces, a K tail and bf16 activations too)."""

import os

import torch

from cute_kernels import prepare_gate_up_weight, prepare_nvfp4_weight, reference
from cute_kernels.arch import sm_count
from cute_kernels.nvfp4_gemm_balanced import NVFP4GemmOneTokenBalanced, launch_one_token_balanced
from cute_kernels.swiglu_quant_balanced import launch_swiglu_quant_balanced
from layouts import sf_padded_shape

if os.environ.get("BALANCED_UNDER") == "1":
    NVFP4GemmOneTokenBalanced.NEXT_STEP_UNDER_STAGING = True
sms = sm_count(torch.cuda.current_device())
alpha = torch.ones(1, device="cuda")
# (N, K, NVFP4 tokens, permuted words, K warps, row groups): 16-row blocks, then the row
# groups' 48-row blocks (4 / 2 K warps a group)
PLAIN = [(16 * (sms + 50), 576, False, False, 2, 1), (16 * (sms + 1), 1088, True, True, 4, 1),
         (16 * sms, 1024, True, False, 4, 1), (16 * (sms + 20), 2048, True, True, 8, 1),
         (48 * (sms + 7), 1088, True, True, 12, 3), (48 * (sms + 40), 576, False, True, 6, 3)]
for n, k, fp4_a, permuted, warps, rg in PLAIN:
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       50.0)
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4_a else (x, None)
    for _ in range(2):  # the second launch finds the counters the first left
        launch_one_token_balanced(a, a_sf, prepare_nvfp4_weight(b) if permuted else b, b_sf,
                                  alpha, torch.empty(1, n, device="cuda"), warps, 1,
                                  row_groups=rg)
# the fused op: pieces and a K tail
i, k = 16 * (sms + 32) // 64 * 64, 1088
w, w_sf = prepare_gate_up_weight(*reference.nvfp4_quantize(
    torch.randn(2 * i, k, device="cuda", dtype=torch.bfloat16), 50.0, swizzle=False),
    permute=True)
a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                   100.0)
for _ in range(2):
    launch_swiglu_quant_balanced(
        a, a_sf, w, w_sf, alpha, alpha, torch.empty(1, i // 2, device="cuda", dtype=torch.uint8),
        torch.empty(sf_padded_shape(1, i // 16), device="cuda", dtype=torch.uint8), 4, 1)
torch.cuda.synchronize()
print("balanced probe ran")
