"""The flagged activation pass and GEMM (``nvfp4_gemm.PASS_FLAG``) for compute-sanitizer:
``nvfp4_gemm`` at small points of each launch form that takes a pass (whole tiles, 64-row
tiles in cluster pairs, stream-K), NVFP4 and bf16 tokens, three
calls each (the flags' turns wrap), the bits checked against the default route."""

import importlib

import torch
from probe_inputs import replaced

from cute_kernels import nvfp4_gemm, prepare_nvfp4_weight, reference

gemm = importlib.import_module("cute_kernels.nvfp4_gemm")
# (M, N, K): whole 64-token tiles, 64-row tiles in pairs, stream-K (the GPU tests add two
# CTAs an SM, a bigger weight)
POINTS = [(129, 2048, 2048), (37, 4096, 7168), (13, 9216, 7168)]

for m, n, k in POINTS:
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda"), 100.0)
    w = prepare_nvfp4_weight(b)
    x = (torch.randn(m, k, device="cuda") * 2).to(torch.bfloat16)
    for a, a_sf in (reference.nvfp4_quantize(x, 100.0), (x, None)):
        want = nvfp4_gemm(a, a_sf, w, b_sf, 1e-3)
        with replaced(gemm, {"PASS_FLAG": True}):
            got = [nvfp4_gemm(a, a_sf, w, b_sf, 1e-3) for _ in range(3)]
        torch.cuda.synchronize()
        assert all(torch.equal(g, want) for g in got), (m, n, k, a_sf is None)
print("pass flag probe ran")
