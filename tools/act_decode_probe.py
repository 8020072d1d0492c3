"""The activations decoded inside the fused and the plain wgmma kernels (``act_decode``)
against the same launches on the decode pass's bf16 activations, permuted words, graph us a
call (weights rotated past the L2), per (2I, K, M):

* ``route``: ``nvfp4_gemm_swiglu_quant`` as routed (the pass, then the fused kernel);
* ``whole``: the fused kernel alone on the pass's activations, whole tiles
  (``large_m_config``, at least 128 tokens), the quantizer warps by the rule; ``pass``: the
  pass alone;
* ``decode wN``: the fused kernel decoding the activations itself, no pass: the consumers
  alone (``w0``), or with warps 1..3 of the producer warpgroup taking N rows a thread of each
  stage (``act_warp_rows``; then no quantizer warps);
* ``plain whole`` / ``plain decode wN``: the same for the plain kernel.

Each decode variant's codes are compared with the route's (fraction equal).
CUTE_KERNELS_BENCH_SHAPES picks points; ACT_DECODE_PROBE_PLAIN=0 leaves the plain kernel out."""

import os

import torch
from probe_inputs import fused_operands, gate_up_copies

from cute_kernels import nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.large_m_plans import large_m_config
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import launch_large_m as launch_plain
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_large_m as launch_fused
from cute_kernels.permuted_fp4 import prepare_nvfp4_weight

POINTS = [(1024, 7168, 4096), (1024, 7168, 16384), (1024, 7168, 1024), (4096, 7168, 4096)]
WARP_ROWS = (0, 1, 2)  # 0, 96 or 192 of a 256-token tile's rows by the decode warps
PERMUTED = True
PLAIN = os.environ.get("ACT_DECODE_PROBE_PLAIN", "1") == "1"
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")

for two_i, k, m in select_shapes(POINTS):
    weights = [(prepare_nvfp4_weight(w), s) for w, s in gate_up_copies(two_i, k)]
    per_graph = 20 if m <= 1024 else 4
    ops = fused_operands(two_i, k, m, PERMUTED)
    a, a_sf, x16, q, sf, h = (ops[n] for n in ("a", "a_sf", "x16", "q", "sf", "h"))
    want, _ = nvfp4_gemm_swiglu_quant(a, a_sf, weights[0][0], weights[0][1], alpha, gs)

    def timed(fn, weights=weights, per_graph=per_graph):
        return time_graph_us([lambda w=w: fn(w) for w in weights], per_graph)

    whole = large_m_config(m, two_i, k)
    if whole[0] < 128:
        whole = (128, 0)
    line = {
        "route": timed(lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs,
                                                         out=q, out_sf=sf)),
        "pass": timed(lambda w: bf16_activations(a, a_sf, PERMUTED)),
        "whole": timed(lambda w: launch_fused(x16, w[0], w[1], alpha, gs, q, sf, whole)),
    }
    same = {}
    rows = [r for r in WARP_ROWS if 96 * r < whole[0]]
    for r in rows:
        launch_fused(a, weights[0][0], weights[0][1], alpha, gs, q, sf, whole, a_sf=a_sf,
                     act_warp_rows=r)
        same[f"w{r}"] = (q == want).float().mean().item()
        line[f"decode w{r}"] = timed(lambda w, r=r: launch_fused(
            a, w[0], w[1], alpha, gs, q, sf, whole, a_sf=a_sf, act_warp_rows=r))
    if PLAIN:
        line["plain whole"] = timed(lambda w: launch_plain(x16, w[0], w[1], alpha, h, whole))
    for r in rows if PLAIN else ():
        line[f"plain decode w{r}"] = timed(lambda w, r=r: launch_plain(
            a, w[0], w[1], alpha, h, whole, a_sf=a_sf, act_warp_rows=r))
    print(f"{two_i}x{k} M={m} {whole}: " + " | ".join(f"{n} {us:.1f}" for n, us in line.items())
          + " | codes equal: " + " ".join(f"{n} {v:.4f}" for n, v in same.items()), flush=True)
    del weights
