"""The balanced one-token launches (``cute_kernels.nvfp4_gemm_balanced``, and the fused op's,
``swiglu_quant_balanced``; the public ops take them where ``public_balanced_launch`` gives one)
against the public M = 1 routes, on issue 5's and issue 6's open one-token points.

Why it may win: the public one-token wave puts 4 CTAs on some SMs and 5 on others at
9216x7168 (576 CTAs); session 42's balance probe (8448 / 9216 / 10560 rows: 11.60 / 12.80 /
13.70 us) puts that at ~0.45 us, and the 75% target there is 11.67 us (12.25 in session 50's
suite). 5120x17408 splits K in three with its fix-up at the end of every CTA (its loop capped
at 0 steps cost 7.32 us, against 3.21 at 9216x7168); 17.62 us against 15.76 asked. The fused
op at 9216x7168 is 288 CTAs of 8 warps, two or three an SM; 13.62 us against 11.67 asked.

Forms: "public" (``nvfp4_gemm``), "wWcC" the balanced launch of W K warps and C CTAs an SM,
"...u" the same without its launch bound (``LAUNCH_BOUND``). Graph us of back-to-back calls
at M = 1 (permuted words, NVFP4 activations; kinds "gemm16" / "fused16": bf16 ones),
interleaved, two rounds; then each balanced form's bf16 output against the public one's
(relative norm of the difference; both are one rounding of fp32 sums added in other orders,
so small, and 0 where the roundings agree), or for the fused op the share
of output codes that differ from the public op's (rounding boundaries only). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools

import torch
from probe_inputs import (gate_up_words, permuted_weight_copies, switched_compiler,
                          time_forms_against_public)

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_balanced import (NVFP4GemmOneTokenBalanced,
                                              compile_nvfp4_gemm_one_token_balanced,
                                              launch_one_token_balanced)
from cute_kernels.swiglu_quant_balanced import (NVFP4GemmSwigluQuantBalanced,
                                                compile_nvfp4_gemm_swiglu_quant_balanced,
                                                launch_swiglu_quant_balanced)
from layouts import sf_padded_shape

# (kind, N or 2I, K, [(K warps, CTAs an SM, launch bound)]); the public launches in comments
# (session 76's rule: ``one_token_balanced``). Every form fits its CTAs an SM at 72..92 registers
# without spilling (nvdisasm, session 70).
POINTS = [
    # (7, 3): 28 K steps, 4 for every K warp (8 warps: half take 4, half 3)
    ("gemm", 9216, 7168, [(4, 4, True), (8, 3, True), (7, 3, True)]),  # balanced (8, 3)
    # (14, 2): 68 K steps, at most 5 a warp for a mean of 4.86 (12 warps: 6 for 5.67); 64
    # registers, no spill ((16, 2) and (17, 2) spill)
    ("gemm", 5120, 17408, [(8, 2, True), (12, 2, True), (14, 2, True)]),  # (12, 2)
    ("gemm", 7168, 18432, [(4, 3, True), (8, 2, True), (8, 3, True)]),  # paired (2, 1, 4, 1)
    ("gemm", 4096, 7168, [(8, 1, True), (4, 1, True)]),     # (1, 1, 8, 1): 256
    # (12, 2): 6 K warps a row group, at most 5 of the 28 steps a warp against 7 at (8, 2),
    # 26 warps an SM against 18; 72 registers, no spill ((14, 2) spills 16 bytes)
    ("fused", 9216, 7168, [(8, 2, True), (12, 2, True)]),   # balanced (8, 2)
    # W4A16 (bf16 activations; ``nvfp4_gemm`` takes two and three an SM since session 74, the
    # fused op two since session 76; 9216x7168 three, (8, 3), since session 78, before that the
    # unbalanced (1, 1, 4, 1), 576 CTAs)
    ("gemm16", 5120, 17408, [(12, 2, True), (14, 2, True)]),  # (12, 2)
    ("gemm16", 7168, 18432, [(8, 3, True), (4, 3, True)]),
    ("gemm16", 9216, 7168, [(4, 4, True), (8, 3, True), (7, 3, True)]),  # balanced (8, 3)
    ("gemm16", 4096, 7168, [(8, 1, True)]),
    ("fused16", 9216, 7168, [(8, 2, True), (12, 2, True)]),  # the fused W4A16: balanced (8, 2)
    # one step a K warp at (8, 3): the public ops no longer take it (``PUBLIC_BALANCED_MIN_STEPS``;
    # session 86's H200 suite: 7.53 / 7.60 us against 4.48 / 4.43 on packed bytes)
    ("gemm", 7168, 2048, [(8, 3, True)]),  # unbalanced (public one-token wave)
    ("gemm16", 7168, 2048, [(8, 3, True)]),
]
UNBOUND = {"LAUNCH_BOUND": False}
unbound = {
    "gemm": switched_compiler(compile_nvfp4_gemm_one_token_balanced,
                              NVFP4GemmOneTokenBalanced, UNBOUND, "compile_balanced_unbound"),
    "fused": switched_compiler(compile_nvfp4_gemm_swiglu_quant_balanced,
                               NVFP4GemmSwigluQuantBalanced, UNBOUND,
                               "compile_fused_balanced_unbound")}
bound = {"gemm": compile_nvfp4_gemm_one_token_balanced,
         "fused": compile_nvfp4_gemm_swiglu_quant_balanced}


def gemm_forms(n, k, forms, a, a_sf):
    """(weights, calls, outputs) of a plain point: each call writes its own bf16 output."""
    outs = {"public": torch.empty(1, n, device="cuda", dtype=torch.bfloat16)}
    calls = {"public": lambda w, out=outs["public"]: nvfp4_gemm(a, a_sf, w[0], w[1], alpha,
                                                                out=out)}
    for warps, per_sm, with_bound in forms:
        name = f"w{warps}c{per_sm}" + ("" if with_bound else "u")
        outs[name] = torch.empty(1, n, device="cuda", dtype=torch.bfloat16)
        calls[name] = functools.partial(
            lambda w, out, warps, per_sm, fn: launch_one_token_balanced(
                a, a_sf, w[0], w[1], alpha, out, warps, per_sm, fn),
            out=outs[name], warps=warps, per_sm=per_sm,
            fn=(bound if with_bound else unbound)["gemm"])
    return permuted_weight_copies(n, k), calls, outs


def fused_forms(two_i, k, forms, a, a_sf):
    """(weights, calls, outputs) of a fused point: each call writes its own codes (the scales
    into a buffer of its own)."""
    i = two_i // 2
    outs = {}

    def buffers(name):
        outs[name] = torch.empty(1, i // 2, device="cuda", dtype=torch.uint8)
        return outs[name], torch.empty(sf_padded_shape(1, i // 16), device="cuda",
                                       dtype=torch.uint8)
    q, sf = buffers("public")
    calls = {"public": lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs,
                                                         out=q, out_sf=sf)}
    for warps, per_sm, with_bound in forms:
        name = f"w{warps}c{per_sm}" + ("" if with_bound else "u")
        calls[name] = functools.partial(
            lambda w, bufs, warps, per_sm, fn: launch_swiglu_quant_balanced(
                a, a_sf, w[0], w[1], alpha, gs, *bufs, warps, per_sm, fn),
            bufs=buffers(name), warps=warps, per_sm=per_sm,
            fn=(bound if with_bound else unbound)["fused"])
    return gate_up_words(two_i, k, True), calls, outs


alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for kind, n, k, forms in select_shapes(POINTS):
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = (x, None) if kind.endswith("16") else reference.nvfp4_quantize(x, 100.0)
    fused = kind.startswith("fused")
    weights, calls, outs = (fused_forms if fused else gemm_forms)(n, k, forms, a, a_sf)
    label = f"{kind} {n}x{k} M=1"
    time_forms_against_public(label, calls, weights, outs, fused)
    del weights, calls, outs
