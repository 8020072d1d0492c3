"""The small-M GEMM at M = 1 and 8 as a head + tail pair (``launch_small_m_parts``) against the
public route, for grids whose last wave is mostly empty: 36864x7168 (1152 CTAs of 32 rows,
2.18 waves of 528) and 34816x5120 (1088, 2.06). The head takes the first two waves' row blocks
with the default (2, 1, 4, 1); the tail takes the rest with each TAILS config (finer rows, more
warps, or K split). Graph us, 200 calls per graph; the max relative difference to the route's
output. CUTE_KERNELS_BENCH_SHAPES picks shapes."""

import torch
from probe_inputs import weight_copies

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.nvfp4_gemm import launch_small_m_parts

HEAD = (2, 1, 4, 1)
HEAD_BLOCKS = 1056  # two waves of 528 CTAs
TAILS = [(2, 1, 4, 1), (1, 1, 4, 1), (1, 1, 8, 1), (2, 1, 4, 1, 2), (2, 1, 4, 1, 4),
         (1, 1, 4, 1, 2), (1, 1, 4, 1, 4)]
alpha = torch.full((1,), 0.5, device="cuda")

for n, k in select_shapes([(36864, 7168), (34816, 5120)]):
    weights = weight_copies(n, k)
    for m in (1, 8):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        want = nvfp4_gemm(a, a_sf, weights[0][0], weights[0][1], alpha, out_dtype=torch.float32)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        route = time_graph_us([lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
                               for w in weights])
        line = [f"route {route:.2f}"]
        for tail in TAILS:
            got = torch.empty(m, n, device="cuda", dtype=torch.float32)
            launch_small_m_parts(a, a_sf, weights[0][0], weights[0][1], alpha, got, HEAD,
                                 HEAD_BLOCKS, tail)
            diff = ((got - want).abs().max() / want.abs().max()).item()
            us = time_graph_us([lambda w=w, t=tail: launch_small_m_parts(
                a, a_sf, w[0], w[1], alpha, out, HEAD, HEAD_BLOCKS, t) for w in weights])
            line.append(f"{''.join(map(str, tail))} {us:.2f} ({diff:.0e})")
        print(f"{n}x{k} M={m}: " + " | ".join(line), flush=True)
    del weights
