"""What staging the one token costs the balanced one-token launch (``nvfp4_gemm_balanced``), on
NVFP4 activations and on bf16 ones (W4A16), whose staging reads four times the bytes: every CTA
stages the whole token after the PDL wait, so on bf16 tokens 264 CTAs read 9 MB at once at
5120x17408 (NVFP4: 2.6 MB).

Why: on the H200 W4A16 trails W4A4 at M = 1 (session 88, permuted words, us): 5120x17408 15.87
against 15.63 (74.4%: 75% asks 15.75), 9216x7168 12.03 against 11.94. If "nostage" takes
more off the bf16 launch than off the NVFP4 one, the staging's bytes are W4A16's gap, and a
staging that reads less at once (a K warp staging its own steps) is the lever.

Forms, the public launch's (K warps, CTAs an SM) each: "a4" / "a16" (NVFP4 / bf16 tokens), and
"a4nostage" / "a16nostage" with ``NVFP4GemmSmallM.PROBE_NO_STAGING`` (nothing staged; outputs
wrong, timing only). Graph us at M = 1, permuted words, interleaved, two rounds.
``PROBE_L2=1``: one weight copy (read from L2: an H100 standing in for the H200's faster
memory). One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles
only."""

import functools

import torch
from probe_inputs import permuted_weight_copies, print_forms, switched_compiler

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_balanced import (compile_nvfp4_gemm_one_token_balanced,
                                              launch_one_token_balanced, public_balanced_launch)
from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM

POINTS = [(5120, 17408), (9216, 7168)]  # (N, K) at M = 1
no_staging = switched_compiler(compile_nvfp4_gemm_one_token_balanced, NVFP4GemmSmallM,
                               {"PROBE_NO_STAGING": True}, "compile_balanced_no_staging")
alpha = torch.full((1,), 0.5, device="cuda")
for n, k in select_shapes(POINTS):
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    out = torch.empty(1, n, device="cuda", dtype=torch.bfloat16)
    calls = {}
    for name, tokens, scales in (("a4", a, a_sf), ("a16", x, None)):
        launch = public_balanced_launch(True, 1, n, k, scales is not None, True, x.device)
        if launch is None:
            raise SystemExit(f"{n}x{k}: no public balanced launch for {name}")
        for suffix, fn in (("", compile_nvfp4_gemm_one_token_balanced), ("nostage", no_staging)):
            calls[name + suffix] = functools.partial(
                lambda w, t, s, launch, fn: launch_one_token_balanced(
                    t, s, w[0], w[1], alpha, out, *launch, compile_fn=fn),
                t=tokens, s=scales, launch=launch, fn=fn)
    print_forms(f"{n}x{k} M=1", calls, permuted_weight_copies(n, k))
