"""The balanced one-token launch (``cute_kernels.nvfp4_gemm_balanced``, unrouted) against the
public M = 1 route, on issue 5's one-token points.

Why it may win: the public one-token wave puts 4 CTAs on some SMs and 5 on others at
9216x7168 (576 CTAs); session 42's balance probe (8448 / 9216 / 10560 rows: 11.60 / 12.80 /
13.70 us) puts that at ~0.45 us, and the 75% target there is 11.67 us (12.25 in session 50's
suite). 5120x17408 splits K in three with its fix-up at the end of every CTA (its loop capped
at 0 steps cost 7.32 us, against 3.21 at 9216x7168); 17.62 us against 15.76 asked.

Forms: "public" (``nvfp4_gemm``), "wWcC" the balanced launch of W K warps and C CTAs an SM,
"...u" the same without its launch bound (``LAUNCH_BOUND``). Graph us of back-to-back calls
at M = 1 (permuted words, NVFP4 activations), interleaved, two rounds; then each balanced
form's bf16 output against the public one's (relative norm of the difference; both are one
rounding of fp32 sums added in other orders, so ~1e-3, not 0). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools

import torch
from probe_inputs import permuted_weight_copies, print_forms, switched_compiler

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm_balanced import (NVFP4GemmOneTokenBalanced,
                                              compile_nvfp4_gemm_one_token_balanced,
                                              launch_one_token_balanced)

# (N, K, [(K warps, CTAs an SM, launch bound)]); the public configs in the comments
POINTS = [
    (9216, 7168, [(4, 4, True), (4, 4, False)]),          # (1, 1, 4, 1): 576 CTAs
    (5120, 17408, [(8, 2, True), (8, 2, False), (4, 2, True)]),  # (2, 1, 4, 1, 3): 480
    (7168, 18432, [(4, 3, True), (8, 2, True)]),          # (2, 1, 4, 1) paired: 224
    (4096, 7168, [(8, 1, True), (4, 1, True)]),           # (1, 1, 8, 1): 256
]
unbound = switched_compiler(compile_nvfp4_gemm_one_token_balanced, NVFP4GemmOneTokenBalanced,
                            {"LAUNCH_BOUND": False}, "compile_balanced_unbound")

alpha = torch.full((1,), 0.5, device="cuda")
for n, k, forms in select_shapes(POINTS):
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    weights = permuted_weight_copies(n, k)
    outs = {"public": torch.empty(1, n, device="cuda", dtype=torch.bfloat16)}

    def public(w, out=outs["public"]):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    calls = {"public": public}
    for warps, per_sm, bound in forms:
        name = f"w{warps}c{per_sm}" + ("" if bound else "u")
        outs[name] = torch.empty(1, n, device="cuda", dtype=torch.bfloat16)
        calls[name] = functools.partial(
            lambda w, out, warps, per_sm, fn: launch_one_token_balanced(
                a, a_sf, w[0], w[1], alpha, out, warps, per_sm, fn),
            out=outs[name], warps=warps, per_sm=per_sm,
            fn=compile_nvfp4_gemm_one_token_balanced if bound else unbound)
    print_forms(f"{n}x{k} M=1", calls, weights)
    if not warm_only():
        for name, call in calls.items():
            call(weights[0])
        want = outs["public"].float()
        print(f"{n}x{k} M=1 against public: " + " ".join(
            f"{name}={((o.float() - want).norm() / want.norm()).item():.1e}"
            for name, o in outs.items() if name != "public"), flush=True)
    del weights, calls, outs
