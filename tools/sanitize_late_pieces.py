"""The late pieces' launches (``NVFP4GemmLargeM.LATE_PIECES``, uncached compiles, the counters
with the late region) for compute-sanitizer: ``python tools/sanitize_late_pieces.py``."""

import functools

import torch
from probe_inputs import replaced

import cute_kernels.nvfp4_gemm_large_m as large_m
from cute_kernels import reference
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m)

one = torch.full((1,), 0.5, device="cuda")
# (M, N, K, config, options): 3 pieces a tile on 6 CTAs, 10 pieces on 20, hybrid, M tail
LAUNCHES = [(13, 1160, 1664, (16, 0, 6), {}), (13, 256, 4096, (16, 0, 20), {}),
            (200, 1160, 832, (16, 0, 9), {"hybrid": True}), (129, 1160, 832, (64, 0, 11), {})]

with replaced(NVFP4GemmLargeM, {"LATE_PIECES": True}), replaced(large_m, {
        "stream_k_buffers": functools.partial(large_m.stream_k_buffers, late=True)}):
    for m, n, k, config, options in LAUNCHES:
        b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda",
                                                       dtype=torch.bfloat16), 50.0)
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        for _ in range(2):
            launch_large_m(x, b, b_sf, one, torch.empty(m, n, device="cuda"), config,
                           stream_k=True, compile_fn=compile_nvfp4_gemm_large_m.uncached,
                           **options)
torch.cuda.synchronize()
print("late pieces probe ran")
