"""``act_decode``'s launches (NVFP4 activations decoded in the wgmma kernel) for
compute-sanitizer: whole tiles past M and N, stream-K pieces across tiles, two K groups a
stage, split-K, permuted words and packed bytes. ``sanitize_probe`` imports it."""

import torch

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

one = torch.ones(1, device="cuda")
w, w_sf = reference.nvfp4_quantize(torch.randn(200, 1920, device="cuda", dtype=torch.bfloat16),
                                   50.0)
for weights, order in ((prepare_nvfp4_weight(w), KOrder.PERMUTED), (w, KOrder.PAIRS)):
    for rows, cfg, kw in ((13, (16, 0, 5), {"stream_k": True}),
                          (40, (32, 0, 3), {"stream_k": True, "k_groups": 2}),
                          (129, (64, 0), {}), (7, (16, 0), {"splits": 3})):
        a, a_sf = reference.nvfp4_quantize(
            torch.randn(rows, 1920, device="cuda", dtype=torch.bfloat16), 50.0)
        launch_large_m(a, weights, w_sf, one, torch.empty(rows, 200, device="cuda"), cfg,
                       k_order=order, a_sf=a_sf, **kw)
torch.cuda.synchronize()
print("act_decode probe ran")
