"""Issue 6's one-token gap: the fused small-M kernel against the plain one on the same weight
bytes. At M = 1 on permuted words 9216x7168 the fused op took 14.44 us (60.6% of the copy
bandwidth, the target 75%) where ``nvfp4_gemm`` of the same [9216, 7168] weight took 12.74
(H200 2026-12-02, sessions 40 / 41). The plain kernel there runs one row tile a warp, twice
the CTAs (``_permuted_w4a4_config``: 36864x7168 45.65 -> 44.09 us in session 11); the fused
kernel needs two (an up tile and its gate tile), so its configs that double the CTAs another
way, a K split in the launch (with 3 warps, or without the register prefetch: fewer
registers, so all the CTAs fit at once), are timed beside it, with 3 / 8 warps and no register
prefetch.

Per shape (2I x K; one per CUTE_KERNELS_BENCH_SHAPES index), graph us, two interleaved rounds:
the fused kernel per config ("f" + the config's digits; "f2141" is the rule at 9216x7168) and
the plain kernel on a weight of the same shape ("p1141" its rule, "p2141", and "p11412" with K
split in two: issue 5's one-token 9216x7168, 69.1% of the roofline, has 4.36 CTAs a SM).
Each fused config's outputs are checked against the rule config's (a K split adds in another
order: a few codes may differ, reported, not fatal). ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import gate_up_words, permuted_weight_copies, print_variant_rounds

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm import launch_small_m as launch_plain
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m as launch_fused
from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config
from layouts import sf_padded_shape

SHAPES = [(9216, 7168), (36864, 7168), (4096, 7168)]
# registers (CPU, session 41) -> CTAs an SM by registers at 9216x7168: 2141 122 -> 4 (its 288
# CTAs all resident, 8.7 warps an SM; the plain 1141 has 72 -> 7, 17.5 warps an SM); 21412
# 121 -> 4 (576 CTAs on 528 places); 21312 128 -> 5 (660 places); 2140 72 -> 7, 21402 76 -> 6;
# 2181 122 -> 2 (264 places for 288 CTAs); 4141 199 -> 2
FUSED = [(2, 1, 4, 1), (2, 1, 4, 1, 2), (2, 1, 3, 1, 2), (2, 1, 4, 0, 2), (2, 1, 4, 1, 3),
         (2, 1, 3, 1), (2, 1, 8, 1), (2, 1, 4, 0), (4, 1, 4, 1)]
PLAIN = [(1, 1, 4, 1), (2, 1, 4, 1), (1, 1, 4, 1, 2)]
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for two_i, k in select_shapes(SHAPES):
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    rule = swiglu_small_m_config(1, two_i // 2, k, True)
    mp, kbp = sf_padded_shape(1, two_i // 32)
    gate_up = gate_up_words(two_i, k, True)
    plain = permuted_weight_copies(two_i, k)
    out = torch.empty(1, two_i, device="cuda", dtype=torch.bfloat16)
    variants, outputs = {}, {}
    for c in dict.fromkeys([rule] + FUSED):
        q = torch.empty(1, two_i // 4, device="cuda", dtype=torch.uint8)
        sf = torch.empty(mp, kbp, device="cuda", dtype=torch.uint8)
        outputs[c] = (q, sf)
        variants["f" + "".join(map(str, c))] = (gate_up, lambda w, c=c, q=q, sf=sf: launch_fused(
            a, a_sf, w[0], w[1], alpha, gs, q, sf, c))
    for c in PLAIN:
        variants["p" + "".join(map(str, c))] = (plain, lambda w, c=c: launch_plain(
            a, a_sf, w[0], w[1], alpha, out, c))
    label = f"fused / plain {two_i}x{k} M=1 (rule {rule})"
    for c, (q, sf) in outputs.items():  # every config once on the first copy
        launch_fused(a, a_sf, gate_up[0][0], gate_up[0][1], alpha, gs, q, sf, c)
    torch.cuda.synchronize()
    if not warm_only():
        for c, (q, sf) in outputs.items():
            diff = int((q != outputs[rule][0]).sum()) + int((sf != outputs[rule][1]).sum())
            if diff:
                print(f"{label}: f{''.join(map(str, c))} differs from the rule in {diff} bytes")
    print_variant_rounds(label, variants)
    del gate_up, plain, variants
