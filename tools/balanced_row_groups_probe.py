"""The plain balanced one-token launch on row groups, one CTA an SM (fewer CTAs read the
token), against the public launch: 9216x7168 M = 1, NVFP4 tokens, graph us, interleaved,
two rounds. ``PROBE_L2=1``: one weight copy. ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools

import torch
from probe_inputs import permuted_weight_copies, print_forms

from cute_kernels import reference
from cute_kernels.nvfp4_gemm_balanced import launch_one_token_balanced, public_balanced_launch

N, K = 9216, 7168
CONFIGS = [(18, 1, 3), (21, 1, 3), (15, 1, 3), (12, 1, 3), (24, 1, 3)]
x = torch.randn(1, K, device="cuda", dtype=torch.bfloat16)
a, a_sf = reference.nvfp4_quantize(x, 100.0)
alpha = torch.full((1,), 0.5, device="cuda")
out = torch.empty(1, N, device="cuda", dtype=torch.float32)
public = public_balanced_launch(True, 1, N, K, True, True, x.device)
calls = {"public": lambda w: launch_one_token_balanced(a, a_sf, *w, alpha, out, *public)}
for warps, per_sm, rg in CONFIGS:
    calls[f"{warps}_{rg}"] = functools.partial(
        lambda w, warps, per_sm, rg: launch_one_token_balanced(
            a, a_sf, *w, alpha, out, warps, per_sm, row_groups=rg),
        warps=warps, per_sm=per_sm, rg=rg)
print_forms(f"gemm {N}x{K} M=1", calls, permuted_weight_copies(N, K))
