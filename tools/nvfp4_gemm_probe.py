"""Quick device probe for the NVFP4 GEMM: M = 1/16/64 times on two shapes vs cuBLAS bf16, with
the tile config given on the command line (``row_tiles,token_tiles,warps,prefetch``; default: the
library's choice). ``python tools/nvfp4_gemm_probe.py [cfg ...]``"""
import sys

import torch

from cute_kernels.bench.nvfp4_gemm_suite import _activations, _weights
from cute_kernels.bench.timing import rotations_for, time_graph_us
from cute_kernels.nvfp4_gemm import launch_small_m, small_m_config

cfgs = [tuple(int(v) for v in c.split(",")) for c in sys.argv[1:]] or [None]
for n, k in [(36864, 7168), (7168, 18432), (4096, 7168), (7168, 2048)]:
    copies = [_weights(n, k) for _ in range(rotations_for(n * k // 2))]
    w16 = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16) for _ in range(rotations_for(n * k * 2))]
    roof = (n * k // 2 + n * k // 16) / 4.2e6
    for m in (1, 16, 64):
        x, a, a_sf = _activations(m, k)
        d = torch.empty(m, n, dtype=torch.bfloat16, device="cuda")
        al = torch.full((1,), 0.5, device="cuda")
        cub = time_graph_us([lambda w=w: torch.nn.functional.linear(x, w) for w in w16])
        for cfg in cfgs:
            c = cfg or small_m_config(m, n, k)
            for kind, aa, ss in (("fp4", a, a_sf), ("torch.bfloat16", x, None)):
                us = time_graph_us([lambda b=b, s=s: launch_small_m(aa, ss, b, s, al, d, c)
                                    for b, s in copies])
                print(f"{n}x{k} M={m:3d} {kind:15s} cfg={c} {us:8.2f} us  roofline(M=1) {roof:6.1f} us "
                      f"({100 * roof / us:5.1f}%)  cuBLAS bf16 {cub:8.2f} us ({cub / us:4.2f}x)", flush=True)
    del copies, w16
