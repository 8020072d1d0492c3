"""Why stream-K's k-tiles are dearer than whole tiles' (9216x7168 M = 256: ~1.09 us a k-tile in
stream-K on 132 CTAs against ~0.75 with 72 whole tiles): the same whole-tile kernel with 72
and with 132 busy SMs (N = 9216 and 16896, one 256-token tile per CTA, 112 k-tiles each), and
the same on 36 SMs (a shrunk grid). If a k-tile costs more with more busy SMs, a shared
resource (L2, DRAM, power) limits, not stream-K's fix-up. Then stream-K with grids that cut
no tile (9216x7168 on 72 CTAs, 16896x7168 on 132: its bookkeeping alone) and that cut
(9216x7168 on 132 and 96 CTAs). Prints us and us per k-tile."""

import torch

from probe_inputs import weight_copies

from cute_kernels.bench.timing import time_graph_us
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

alpha = torch.full((1,), 0.5, device="cuda")
m, k = 256, 7168
x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
for n, ctas in ((4608, 36), (9216, 72), (16896, 132)):
    copies = weight_copies(n, k)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    us = time_graph_us([lambda c=c: launch_large_m(x, c[0], c[1], alpha, out, (256, 0))
                        for c in copies], 50)
    print(f"whole tiles {n}x{k} M={m}: {n // 128} CTAs busy, {us:.1f} us, "
          f"{us / (k // 64):.3f} us per k-tile, {2 * m * n * k / us / 1e6:.0f} TFLOP/s", flush=True)
    del copies

for n, ctas in ((9216, 72), (16896, 132), (9216, 132), (9216, 96)):
    copies = weight_copies(n, k)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    us = time_graph_us([lambda c=c: launch_large_m(x, c[0], c[1], alpha, out, (256, 0, ctas),
                                                   stream_k=True) for c in copies], 50)
    units = n // 128 * (k // 64) / ctas
    print(f"stream-K {n}x{k} M={m} on {ctas} CTAs: {units:.1f} k-tiles a CTA, {us:.1f} us, "
          f"{us / units:.3f} us per k-tile", flush=True)
    del copies
