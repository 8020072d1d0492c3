"""W4A16 at one token with the one-token launch rules (``SmallMLaunchRules.ONE_TOKEN_W4A16``:
``PDL_ONE_TOKEN`` and ``ONE_WAVE_STAGED``, which NVFP4 activations take since sessions 42 / 43)
against the public route, on permuted words, at issue 5's shapes. Measured in session 73 and
turned on (``notes/h200-2026-12-05-s73.md``), so both forms now take the same launch.

Why it may win: one staged bf16 token runs the same main loop as one staged NVFP4 token (72
registers at 9216x7168 (1, 1, 4, 1); the staging converts instead of decoding), but its
launches keep no PDL, so the ~3.2 us fixed part of a one-token launch is not overlapped with
the previous kernel. Session 50's suite: W4A16 M = 1 13.03 / 18.22 us on 9216x7168 /
5120x17408 (67.2 / 64.8% of the roofline, 75% asked) against W4A4's 12.25 / 17.62; the rules
took W4A4 12.73 -> 12.13 and 18.40 -> 17.60.

Forms: "public" and "w4a16pdl" (the switch on: the small-M kernels compiled under their own
cache keys). Graph us of back-to-back calls, interleaved, two rounds; then the switched form's
output against the public one's (same sums: 0). One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools
import importlib

import torch
from probe_inputs import (permuted_weight_copies, replaced_call, switched_small_m_compilers,
                          time_forms_against_public)

from cute_kernels import nvfp4_gemm
from cute_kernels.bench.timing import select_shapes

gemm_module = importlib.import_module("cute_kernels.nvfp4_gemm")  # the package exports the function
POINTS = [(9216, 7168), (5120, 17408), (36864, 7168), (34816, 5120), (7168, 18432), (4096, 7168),
          (7168, 2048)]

alpha = torch.full((1,), 0.5, device="cuda")
for n, k in select_shapes(POINTS):
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    outs = {name: torch.empty(1, n, device="cuda", dtype=torch.bfloat16)
            for name in ("public", "w4a16pdl")}
    calls = {name: functools.partial(
        lambda w, o: nvfp4_gemm(x, None, w[0], w[1], alpha, out=o), o=outs[name])
        for name in outs}
    calls["w4a16pdl"] = replaced_call(calls["w4a16pdl"], gemm_module, switched_small_m_compilers(
        "w4a16pdl", {"ONE_TOKEN_W4A16": True}))
    weights = permuted_weight_copies(n, k)
    time_forms_against_public(f"W4A16 {n}x{k} M=1", calls, weights, outs, codes=False)
    del weights
    torch.cuda.empty_cache()
