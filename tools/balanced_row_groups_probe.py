"""The plain balanced one-token launch on row groups, one CTA an SM (fewer CTAs read the
token from L2), against the public launch: 9216x7168 M = 1, NVFP4 tokens ("a4...") and bf16
ones ("a16..."), graph us, interleaved, two rounds. H200 2026-12-06 (session 94 call 4, NVFP4
tokens): public (8, 3) 12.00 -> (18, 1, 3) 11.78 (now the public route on NVFP4 tokens; the
"a4" rows are then both it), (21, 1, 3) 11.80, (24, 1, 3) 11.83, (15, 1, 3) 12.21, (12, 1, 3)
14.13. ``PROBE_L2=1``: one weight copy. ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools

import torch
from probe_inputs import permuted_weight_copies, print_forms

from cute_kernels import reference
from cute_kernels.nvfp4_gemm_balanced import launch_one_token_balanced, public_balanced_launch

N, K = 9216, 7168
CONFIGS = [(8, 3, 1), (18, 1, 3), (21, 1, 3), (24, 1, 3)]
x = torch.randn(1, K, device="cuda", dtype=torch.bfloat16)
a, a_sf = reference.nvfp4_quantize(x, 100.0)
alpha = torch.full((1,), 0.5, device="cuda")
out = torch.empty(1, N, device="cuda", dtype=torch.float32)
calls = {}
for tok, tokens, scales in (("a4", a, a_sf), ("a16", x, None)):
    public = public_balanced_launch(True, 1, N, K, scales is not None, True, x.device)
    calls[f"{tok}public"] = functools.partial(
        lambda w, t, s, public: launch_one_token_balanced(t, s, *w, alpha, out, *public),
        t=tokens, s=scales, public=public)
    for warps, per_sm, rg in CONFIGS:
        calls[f"{tok}_{warps}_{per_sm}_{rg}"] = functools.partial(
            lambda w, t, s, warps, per_sm, rg: launch_one_token_balanced(
                t, s, *w, alpha, out, warps, per_sm, row_groups=rg),
            t=tokens, s=scales, warps=warps, per_sm=per_sm, rg=rg)
print_forms(f"gemm {N}x{K} M=1", calls, permuted_weight_copies(N, K))
