"""The asynchronous stream-K fix-up's launches (``NVFP4GemmLargeM.ASYNC_FIXUP``, uncached
compiles) for compute-sanitizer: imported at the end of ``sanitize_probe``, or alone
(``python tools/sanitize_async_fixup.py``)."""

import torch
from probe_inputs import replaced

from cute_kernels import reference
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m)
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused

one = torch.full((1,), 0.5, device="cuda")
# (M, N, K, config, options): 10 tiles of 26 k-tiles on 6 CTAs (3 pieces a tile), 2 row tiles
# on 20 CTAs (10 pieces), hybrid, 64-row tiles
LAUNCHES = [(13, 1160, 1664, (16, 0, 6), {}), (13, 256, 4096, (16, 0, 20), {}),
            (200, 1160, 832, (16, 0, 9), {"hybrid": True}),
            (13, 1160, 1664, (16, 0, 12), {"k_groups": 2, "wg_k_split": True})]


def launches():
    """The plain kernel's ``LAUNCHES`` and the fused kernel's stream-K launch with two
    quantizer warps beside the fix-up warp."""
    for m, n, k, config, options in LAUNCHES:
        b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda",
                                                       dtype=torch.bfloat16), 50.0)
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        launch_large_m(x, b, b_sf, one, torch.empty(m, n, device="cuda"), config,
                       stream_k=True, compile_fn=compile_nvfp4_gemm_large_m.uncached,
                       **options)
    w, w_sf = reference.nvfp4_quantize(torch.randn(640, 832, device="cuda",
                                                   dtype=torch.bfloat16), 50.0)
    a, a_sf = reference.nvfp4_quantize(torch.randn(45, 832, device="cuda",
                                                   dtype=torch.bfloat16), 50.0)
    launch_fused(bf16_activations(a, a_sf), w, w_sf, one, torch.full((1,), 30.0, device="cuda"),
                 torch.empty(45, 160, device="cuda", dtype=torch.uint8),
                 torch.empty(128 * 20, device="cuda", dtype=torch.uint8), (64, 0, 7),
                 stream_k=True, quantizers=2,
                 compile_fn=compile_nvfp4_gemm_swiglu_quant_large_m.uncached)


with replaced(NVFP4GemmLargeM, {"ASYNC_FIXUP": True}):
    launches()
torch.cuda.synchronize()
print("async fix-up probe ran")
