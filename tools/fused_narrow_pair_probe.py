"""Session 37 (prepared): the fused op at 9..16 tokens on 4096x7168, where ``nvfp4_gemm`` now
takes the wgmma kernel's cluster pairs (``plain_wgmma_from_9_tokens``; M = 16 10.58 -> 9.46
us) but the fused op keeps its small kernel (11.30 us at M = 16, session 36's suite). Per
point, graph us of back-to-back calls (interleaved, two rounds): the public route ("public":
the small fused kernel) and the fused kernel on half-group pairs of 16-token tiles with the
trigger and the spread pass (``_half_groups``, "pairs"), after a check of the pairs' codes and
scales against the public route's (the same h: equal but at rounding boundaries). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import fused_operands, gate_up_words, print_forms

from cute_kernels import nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm_swiglu_quant import _half_groups

POINTS = [(4096, 7168, 9), (4096, 7168, 12), (4096, 7168, 16)]

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for two_i, k, m in select_shapes(POINTS):
    weights = gate_up_words(two_i, k, True)
    ops = fused_operands(two_i, k, m, True)
    a, a_sf, q, sf = (ops[n] for n in ("a", "a_sf", "q", "sf"))
    calls = {"public": lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, out=q,
                                                         out_sf=sf),
             "pairs": lambda w: _half_groups(a, a_sf, w[0], w[1], alpha, gs, q, sf)}
    if not warm_only():
        calls["public"](weights[0])
        want = (q.clone(), sf.clone())
        calls["pairs"](weights[0])
        torch.cuda.synchronize()
        codes = (q != want[0]).float().mean().item()
        scales = (sf != want[1]).float().mean().item()
        print(f"fused {two_i}x{k} M={m}: pairs differ from public on {codes:.2e} of code bytes, "
              f"{scales:.2e} of scale bytes", flush=True)
    print_forms(f"fused {two_i}x{k} M={m}", calls, weights)
    del weights
