"""Row groups (``NVFP4GemmSmallM``'s ``row_groups``): the small-M kernel's warps split into
groups, each on its own row tiles, instead of every warp on all of the CTA's tiles. Issue 6's
one-token gap is the case: the fused kernel needs an up tile and its gate tile in one CTA, so
its rule (2, 1, 4, 1) holds two tiles a warp at 122 registers (8.7 warps an SM at 9216x7168)
where the plain kernel's one-tile warps take 72 (17.5 warps an SM); 9216x7168 M = 1 takes
14.44 us fused against 12.74 plain on the same weight bytes (sessions 41 / 42: no K split or
warp count closed it, ``tools/fused_m1_probe.py``). With two row groups of four warps each
warp holds one tile (76 registers on the CPU) and the CTA still both.

Per point, graph us, two interleaved rounds: the rule (starred) and the row-group configs
((row_tiles, token_tiles, warps, prefetch, splits, row_groups), "warps" the CTA's), the fused
kernel on [2I, K] permuted gate_up words, the plain one on [N, K] permuted words. The fused
configs' outputs are compared with the rule's: with the same K steps per warp (four warps a
group against the rule's four) the sums add in the same order, so equal bytes are expected;
other warp counts add in another order (a few codes may differ; reported, not fatal).
One shape per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import gate_up_words, permuted_weight_copies, print_variant_rounds

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm import launch_small_m as launch_plain
from cute_kernels.nvfp4_gemm import small_m_config
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m as launch_fused
from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config
from layouts import sf_padded_shape

G8 = (1, 1, 8, 1, 1, 2)  # one tile a warp, two groups of four warps: the rule's K steps
# (kind, N or 2I, K): {M: row-group configs}
SHAPES = [
    ("fused", 9216, 7168, {1: [G8, (1, 1, 6, 1, 1, 2), (1, 1, 16, 1, 1, 2)], 4: [G8],
                           8: [G8]}),
    ("fused", 36864, 7168, {1: [G8, (1, 1, 6, 1, 1, 2)], 8: [G8]}),
    ("fused", 34816, 5120, {1: [G8, (1, 1, 6, 1, 1, 2)]}),
    ("fused", 4096, 7168, {1: [(1, 1, 16, 1, 1, 2), G8]}),
    ("gemm", 9216, 7168, {1: [G8], 4: [G8, (2, 1, 8, 1, 1, 2)], 8: [G8, (2, 1, 8, 1, 1, 2)]}),
]
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")


def name(c, rule):
    return ("*" if c == rule else "") + "".join(map(str, c))


for kind, n, k, points in select_shapes(SHAPES):
    weights = gate_up_words(n, k, True) if kind == "fused" else permuted_weight_copies(n, k)
    for m, extra in points.items():
        a, a_sf = reference.nvfp4_quantize(
            torch.randn(m, k, device="cuda", dtype=torch.bfloat16), 100.0)
        if kind == "fused":
            rule = swiglu_small_m_config(m, n // 2, k, True)
        else:
            rule = small_m_config(m, n, k, True, True)
        variants, outputs = {}, {}
        for c in dict.fromkeys([rule] + extra):
            if kind == "fused":
                mp, kbp = sf_padded_shape(m, n // 32)
                q = torch.empty(m, n // 4, device="cuda", dtype=torch.uint8)
                sf = torch.empty(mp, kbp, device="cuda", dtype=torch.uint8)
                outputs[c] = (q, sf)
                call = lambda w, c=c, q=q, sf=sf: launch_fused(a, a_sf, w[0], w[1], alpha, gs,
                                                              q, sf, c)
            else:
                out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
                outputs[c] = (out,)
                call = lambda w, c=c, out=out: launch_plain(a, a_sf, w[0], w[1], alpha, out, c)
            variants[name(c, rule)] = (weights, call)
            call(weights[0])
        torch.cuda.synchronize()
        label = f"{kind} {n}x{k} M={m}"
        if not warm_only():
            for c, outs in outputs.items():
                diff = sum(int((o.view(torch.uint8) != r.view(torch.uint8)).sum())
                           for o, r in zip(outs, outputs[rule]))
                if diff:
                    print(f"{label}: {name(c, rule)} differs from the rule in {diff} bytes")
        print_variant_rounds(label, variants)
    del weights
