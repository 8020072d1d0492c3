"""Session 37 (prepared): the fused op with bf16 activations (W4A16) at 4..16 tokens on
4096x7168, permuted words: its small kernel (the public route; session 30 had it ahead of the
fp32 split route there, M = 9 14.3 / 18.3 us, M = 16 15.8 / 18.5) against the fused kernel on
half-group cluster pairs of 16-token tiles with the trigger and the spread reordering copy
(``_half_groups``, "pairs"; the NVFP4 activations' route at 9..16 tokens since session 37).
Per point, a check of the pairs' codes and scales against the public route's (the same h:
equal but at rounding boundaries), then graph us of back-to-back calls (interleaved, two
rounds). One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles
only."""

import torch
from probe_inputs import fused_operands, gate_up_words, print_forms

from cute_kernels import nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm_swiglu_quant import _half_groups

POINTS = [(4096, 7168, 4), (4096, 7168, 8), (4096, 7168, 12), (4096, 7168, 16)]

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for two_i, k, m in select_shapes(POINTS):
    weights = gate_up_words(two_i, k, True)
    ops = fused_operands(two_i, k, m, True)
    q, sf = ops["q"], ops["sf"]
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    calls = {"public": lambda w: nvfp4_gemm_swiglu_quant(x, None, w[0], w[1], alpha, gs, out=q,
                                                         out_sf=sf),
             "pairs": lambda w: _half_groups(x, None, w[0], w[1], alpha, gs, q, sf)}
    if not warm_only():
        calls["public"](weights[0])
        want = (q.clone(), sf.clone())
        calls["pairs"](weights[0])
        torch.cuda.synchronize()
        codes = (q != want[0]).float().mean().item()
        scales = (sf != want[1]).float().mean().item()
        print(f"fused W4A16 {two_i}x{k} M={m}: pairs differ from public on {codes:.2e} of code "
              f"bytes, {scales:.2e} of scale bytes", flush=True)
    print_forms(f"fused W4A16 {two_i}x{k} M={m}", calls, weights)
    del weights
