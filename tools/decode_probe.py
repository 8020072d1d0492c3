"""The wgmma kernels' FP4 decode (byte by PRMT, nibbles placed by two multiplies): the kernel
alone, bf16 activations, graph us. Before (session 6, shift / OR decode): 36864x7168 M = 64
whole 64-token tiles 144.3, stream-K 117.3; 9216x7168 M = 256 whole tiles 78.2 (72 CTAs);
16896x7168 M = 256 84.8 (132 CTAs)."""

import torch
from probe_inputs import weight_copies

from cute_kernels.bench.timing import time_graph_us
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m, tile, stream_k in ((36864, 7168, 64, 64, False), (36864, 7168, 64, 64, True),
                                (9216, 7168, 256, 256, False), (16896, 7168, 256, 256, False)):
    copies = weight_copies(n, k)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    us = time_graph_us([lambda c=c: launch_large_m(x, c[0], c[1], alpha, out, (tile, 0),
                                                   stream_k=stream_k) for c in copies], 50)
    print(f"{n}x{k} M={m} tile {tile}{' stream-K' if stream_k else ''}: {us:.1f} us", flush=True)
    del copies
