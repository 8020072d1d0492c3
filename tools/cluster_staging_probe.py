"""The balanced one-token launches staging the token once a cluster of 2 or 4 CTAs
(``cluster_staging``, probe-only ``STAGING_CLUSTER``) against their own staging: graph us at
M = 1 on permuted words, interleaved, two rounds, then each cluster form's outputs against the
default's (equal bits expected).

Why: staging the token is an L2 hot spot (H200 2026-12-06, session 94's stamps: 1.15 us after
the wait at 9216x7168 (8, 3), 1.47 at (4, 4), 2.05 at 5120x17408 (12, 2), 0.1 without it);
three row groups (a third of the CTAs) took 9216x7168 12.00 -> 11.78 us but lost at
5120x17408. A cluster reads the token C times less often without changing the grid.

Points (``CUTE_KERNELS_BENCH_SHAPES`` indices): 0 the plain 9216x7168, NVFP4 tokens on the
public row groups (18, 1, 3) and on (8, 3), bf16 tokens on their public (8, 3); 1 the fused
9216x7168 on its public (8, 2), NVFP4 ("fused") and bf16 ("fused16") tokens; 2 the plain
5120x17408 (12, 2), both tokens. Forms: the launch ("a4_8_3_1"), then "...c2" / "...c4".
``PROBE_L2=1``: one weight copy. ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools

import torch
from probe_inputs import gate_up_words, permuted_weight_copies, print_bits_check, print_forms

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm_balanced import (compile_nvfp4_gemm_one_token_balanced,
                                              launch_one_token_balanced)
from cute_kernels.swiglu_quant_balanced import (compile_nvfp4_gemm_swiglu_quant_balanced,
                                                launch_swiglu_quant_balanced)
from cute_kernels.testing import cluster_staging_compilers
from layouts import sf_padded_shape

POINTS = [("gemm", 9216, 7168, {"a4": [(18, 1, 3), (8, 3, 1)], "a16": [(8, 3, 1)]}),
          ("fused", 9216, 7168, {"fused": [(8, 2)], "fused16": [(8, 2)]}),
          ("gemm", 5120, 17408, {"a4": [(12, 2, 1)], "a16": [(12, 2, 1)]})]
CLUSTERS = (2, 4)
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")


def compilers(kind: str) -> dict:
    """Form suffix -> compile function: the default, then each cluster's."""
    default = (compile_nvfp4_gemm_one_token_balanced if kind == "gemm"
               else compile_nvfp4_gemm_swiglu_quant_balanced)
    forms = {"": default}
    for c in CLUSTERS:
        forms[f"c{c}"] = cluster_staging_compilers(c)[0 if kind == "gemm" else 1]
    return forms


def gemm_calls(n, launches, tokens):
    calls, outs = {}, {}
    for tok, configs in launches.items():
        t, s = tokens[tok]
        for warps, per_sm, rg in configs:
            for suffix, fn in compilers("gemm").items():
                name = f"{tok}_{warps}_{per_sm}_{rg}{suffix}"
                outs[name] = (torch.empty(1, n, device="cuda", dtype=torch.float32),)
                calls[name] = functools.partial(
                    lambda w, t, s, o, warps, per_sm, rg, fn: launch_one_token_balanced(
                        t, s, w[0], w[1], alpha, o, warps, per_sm, fn, row_groups=rg),
                    t=t, s=s, o=outs[name][0], warps=warps, per_sm=per_sm, rg=rg, fn=fn)
    return calls, outs


def fused_calls(two_i, launches, tokens):
    i = two_i // 2
    calls, outs = {}, {}
    for tok, configs in launches.items():
        t, s = tokens[tok]
        for warps, per_sm in configs:
            for suffix, fn in compilers("fused").items():
                name = f"{tok}_{warps}_{per_sm}{suffix}"
                outs[name] = (torch.empty(1, i // 2, device="cuda", dtype=torch.uint8),
                              torch.empty(sf_padded_shape(1, i // 16), device="cuda",
                                          dtype=torch.uint8))
                calls[name] = functools.partial(
                    lambda w, t, s, o, warps, per_sm, fn: launch_swiglu_quant_balanced(
                        t, s, w[0], w[1], alpha, gs, *o, warps, per_sm, fn),
                    t=t, s=s, o=outs[name], warps=warps, per_sm=per_sm, fn=fn)
    return calls, outs


for kind, n, k, launches in select_shapes(POINTS):
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    tokens = {"a4": (a, a_sf), "a16": (x, None), "fused": (a, a_sf), "fused16": (x, None)}
    if kind == "gemm":
        copies = permuted_weight_copies(n, k)
        calls, outs = gemm_calls(n, launches, tokens)
    else:
        copies = gate_up_words(n, k, True)
        calls, outs = fused_calls(n, launches, tokens)
    label = f"{kind} {n}x{k} M=1"
    print_forms(label, calls, copies)
    if warm_only():
        continue
    print_bits_check(label, calls, outs, copies, [
        (name, name.rsplit("c", 1)[0]) for name in calls if name[-2:] in ("c2", "c4")])
