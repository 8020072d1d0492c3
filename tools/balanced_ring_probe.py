"""The balanced one-token launch (``nvfp4_gemm_balanced``) with its K warps' steps through a
cp.async ring of p slots a warp (``ring_slots``: p steps in flight) against the register
double buffer (one step in flight) and the public op, at issue 5's open one-token points.

Why: on the H200 (session 80, ``tools/read_ceiling_probe.py``) our fp8 GEMV reads 9216x7168's
37.16 MB in 10.90 us, the one-token GEMM takes 11.99 (75% of the copy asks 11.73); on the
H100 the two were level (14.51 / 14.79). A warp of the balanced launch walks ~5 steps of
2.3 KB with one in flight (~55 KB an SM at (8, 3)); the GEMV keeps ~140 KB in flight. If the
H200's bandwidth-latency product is the bound, more steps in flight close the gap.

Forms: "public" (``nvfp4_gemm``), "wWcC" the balanced launch of W K warps and C CTAs an SM on
the register path, "wWcCrP" the same through a ring of P slots (shared memory caps P: three
CTAs of 8 warps take 2). Graph us at M = 1 (permuted words; kind "gemm16": bf16 tokens),
interleaved, two rounds; then each form's output against the public one's (the ring gives
the register path's bits). One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools

import torch
from probe_inputs import permuted_weight_copies, time_forms_against_public

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_balanced import launch_one_token_balanced

# (kind, N, K, [(K warps, CTAs an SM, ring slots; 0: the register path)]); the public launch
# first among them
POINTS = [
    ("gemm", 9216, 7168, [(8, 3, 0), (8, 3, 2), (4, 4, 0), (4, 4, 2), (4, 4, 3)]),
    ("gemm16", 9216, 7168, [(8, 3, 0), (8, 3, 2), (4, 4, 3)]),
    ("gemm16", 5120, 17408, [(12, 2, 0), (12, 2, 2), (8, 2, 2)]),
    ("gemm", 5120, 17408, [(12, 2, 0), (12, 2, 2)]),
]
alpha = torch.full((1,), 0.5, device="cuda")

for kind, n, k, forms in select_shapes(POINTS):
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = (x, None) if kind == "gemm16" else reference.nvfp4_quantize(x, 100.0)
    outs = {"public": torch.empty(1, n, device="cuda", dtype=torch.bfloat16)}
    calls = {"public": lambda w, out=outs["public"]: nvfp4_gemm(a, a_sf, w[0], w[1], alpha,
                                                                out=out)}
    for warps, per_sm, slots in forms:
        name = f"w{warps}c{per_sm}" + (f"r{slots}" if slots else "")
        outs[name] = torch.empty(1, n, device="cuda", dtype=torch.bfloat16)
        calls[name] = functools.partial(
            lambda w, out, warps, per_sm, slots: launch_one_token_balanced(
                a, a_sf, w[0], w[1], alpha, out, warps, per_sm, ring_slots=slots),
            out=outs[name], warps=warps, per_sm=per_sm, slots=slots)
    weights = permuted_weight_copies(n, k)
    time_forms_against_public(f"{kind} {n}x{k} M=1", calls, weights, outs, False)
    del weights, calls, outs
