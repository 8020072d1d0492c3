"""The small-M GEMM at M = 1 and 8 as a head + tail pair (``launch_small_m_parts``) against the
public route, for grids whose last wave is mostly empty: 36864x7168 (1152 CTAs of 32 rows,
2.18 waves of 528) and 34816x5120 (1088, 2.06). The head takes the first two waves' row blocks
with the default (2, 1, 4, 1); the tail takes the rest with each TAILS config (finer rows, more
warps, or K split). Graph us, 200 calls per graph; the max relative difference to the route's
output. Then the fused gate_up kernel the same way at M = 1 (2I x K = 36864x7168 and
34816x5120; tails with two row tiles; the fraction of codes equal to the route's).
CUTE_KERNELS_BENCH_SHAPES picks shapes (0, 1: GEMM; 2, 3: fused)."""

import torch
from probe_inputs import gate_up_copies, weight_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.nvfp4_gemm import launch_small_m_parts
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m_parts as launch_fused_parts

HEAD = (2, 1, 4, 1)
HEAD_BLOCKS = 1056  # two waves of 528 CTAs
TAILS = [(2, 1, 4, 1), (1, 1, 4, 1), (1, 1, 8, 1), (2, 1, 4, 1, 2), (2, 1, 4, 1, 4),
         (1, 1, 4, 1, 2), (1, 1, 4, 1, 4)]
FUSED_TAILS = [(2, 1, 4, 1), (2, 1, 8, 1), (2, 1, 4, 1, 2), (2, 1, 4, 1, 4)]
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
SHAPES = [("gemm", 36864, 7168), ("gemm", 34816, 5120), ("fused", 36864, 7168),
          ("fused", 34816, 5120)]


def fused_line(two_i, k):
    """M = 1 of the fused kernel: route against head + tail pairs."""
    weights = gate_up_copies(two_i, k)
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    want, _ = nvfp4_gemm_swiglu_quant(a, a_sf, weights[0][0], weights[0][1], alpha, gs)
    q = torch.empty_like(want)
    sf = torch.empty(128 * (two_i // 32), device="cuda", dtype=torch.uint8)
    route = time_graph_us([lambda w=w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs,
                                                               out=q, out_sf=sf)
                           for w in weights])
    line = [f"route {route:.2f}"]
    for tail in FUSED_TAILS:
        launch_fused_parts(a, a_sf, weights[0][0], weights[0][1], alpha, gs, q, sf, HEAD,
                           HEAD_BLOCKS, tail)
        same = (q == want).float().mean().item()
        us = time_graph_us([lambda w=w, t=tail: launch_fused_parts(
            a, a_sf, w[0], w[1], alpha, gs, q, sf, HEAD, HEAD_BLOCKS, t) for w in weights])
        line.append(f"{''.join(map(str, tail))} {us:.2f} ({same:.4f} equal)")
    print(f"fused {two_i}x{k} M=1: " + " | ".join(line), flush=True)


for kind, n, k in select_shapes(SHAPES):
    if kind == "fused":
        fused_line(n, k)
        continue
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
