"""memcheck on the quantization kernel's split tail alone (``split_tail``): the launches of
``quant_sanitize_probe.py``'s split-tail block, small enough for a short device call."""

import torch

from cute_kernels.nvfp4_quant import compile_nvfp4_quant

x = torch.randn(300, 3072, device="cuda", dtype=torch.bfloat16)
g = torch.full((1,), 30.0, device="cuda")
mask = torch.zeros(1, dtype=torch.int32, device="cuda")
for k, ctas in ((3072, 7), (80, 8 * 132)):
    q = torch.empty(300, k // 2, dtype=torch.uint8, device="cuda")
    sf = torch.empty(384 * -(-(k // 16) // 4) * 4, dtype=torch.uint8, device="cuda")
    compile_nvfp4_quant(k, str(torch.bfloat16), False, False, 4, 4, ctas, True, False, "cmp",
                        0, 0, False, True, True)(x[:, :k].contiguous(), g, mask, q, sf)
torch.cuda.synchronize()
print("split tail launches ran")
