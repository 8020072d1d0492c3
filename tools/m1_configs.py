"""Session 5: small-M tile configs at M = 1 after the staging change (36864x7168 and
34816x5120, GEMM and fused), graph us. Arg: "warm" compiles only (one process per config)."""

import sys

import torch

from cute_kernels import reference
from cute_kernels.bench.timing import rotations_for, time_graph_us
from cute_kernels.gate_up_weight import prepare_gate_up_weight
from cute_kernels.nvfp4_gemm import launch_small_m
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m as launch_fused

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
CONFIGS = [(2, 1, 4, 1), (1, 1, 4, 1), (1, 1, 8, 1), (2, 1, 8, 1), (4, 1, 4, 1), (2, 1, 2, 1)]
for n, k in [(36864, 7168), (34816, 5120)]:
    w = [reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 100.0)
         for _ in range(rotations_for(n * k * 9 // 16))]
    f = [prepare_gate_up_weight(*reference.nvfp4_quantize(
        torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 100.0, swizzle=False))
        for _ in range(rotations_for(n * k * 9 // 16))]
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    out = torch.empty(1, n, device="cuda", dtype=torch.bfloat16)
    q = torch.empty(1, n // 4, device="cuda", dtype=torch.uint8)
    sf = torch.empty(128 * (n // 32), device="cuda", dtype=torch.uint8)
    line = []
    for c in CONFIGS:
        g = [lambda x=x, c=c: launch_small_m(a, a_sf, x[0], x[1], alpha, out, c) for x in w]
        fz = [lambda x=x, c=c: launch_fused(a, a_sf, x[0], x[1], alpha, gs, q, sf, c) for x in f]
        if len(sys.argv) > 1:
            g[0]()
            if c[0] % 2 == 0:
                fz[0]()
            continue
        t = time_graph_us(g, 50)
        tf = time_graph_us(fz, 50) if c[0] % 2 == 0 else float("nan")
        line.append(f"{''.join(map(str, c))}: {t:.1f}/{tf:.1f}")
    print(f"{n}x{k} M=1 gemm/fused: " + "  ".join(line), flush=True)
    del w, f
