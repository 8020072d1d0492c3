"""What staging the one token costs the balanced one-token launch (``nvfp4_gemm_balanced``), on
NVFP4 activations and on bf16 ones (W4A16), and the launch with each K warp's second walk step
loaded during the staging, plain and fused.

Why: every CTA stages the whole token after the PDL wait, and its main loop waits for that.
Session 90 call 8 (H100, graph us): without the staging ("nostage") 5120x17408 M = 1 ran 17.5
against 19.2-19.4 and 9216x7168 13.2 against 14.4 (from L2 9.7 against 10.9), NVFP4 and bf16
tokens alike: ~1.25-1.7 us, ~9% of the launch. The token's loads queue behind the first step's
weights (issued before the wait), and a K warp issues its second step only after the staging's
barrier: the memory idles for a round trip. Issued between the staging's loads and their decode,
the second step is in flight while the first is computed.

Forms, the public launch's (K warps, CTAs an SM) each: "a4" / "a16" (NVFP4 / bf16 tokens),
"...nostage" with ``NVFP4GemmSmallM.PROBE_NO_STAGING`` (nothing staged; outputs wrong, timing
only), "...under" with ``NEXT_STEP_UNDER_STAGING`` (the second step's loads between the
staging's loads and their decode); the fused points "fused" / "fusedunder" (NVFP4 tokens),
"fused16" / "fused16under" (bf16 tokens).
Graph us at M = 1, permuted words, interleaved, two rounds; then the "under" forms' outputs
against the default's (equal bits expected). Session 90 (H100, call 14): "under" 5120x17408
19.21 -> 18.07 us from DRAM, 17.84 from L2 (now the rule there); 9216x7168 14.42 -> 13.48 from
DRAM but 11.02 -> 11.63 from L2; the fused op 15.21 -> 14.93 from DRAM. Measured and removed
(``notes/staging-early-spread.patch``): the second step before the staging's loads (call 9:
0.2-1 us slower from L2) and the staging spread over every thread (call 10: even).
``PROBE_L2=1``: one weight copy (read from L2: an H100 standing in for the H200's faster
memory). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools

import torch
from probe_inputs import (gate_up_words, permuted_weight_copies, print_bits_check, print_forms,
                          switched_compiler)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm_balanced import (NVFP4GemmOneTokenBalanced,
                                              compile_nvfp4_gemm_one_token_balanced,
                                              launch_one_token_balanced, public_balanced_launch)
from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM
from cute_kernels.swiglu_quant_balanced import (compile_nvfp4_gemm_swiglu_quant_balanced,
                                                launch_swiglu_quant_balanced)
from layouts import sf_padded_shape

POINTS = [("gemm", 5120, 17408), ("gemm", 9216, 7168), ("fused", 9216, 7168),
          ("gemm", 7168, 18432)]  # M = 1
UNDER = {"NEXT_STEP_UNDER_STAGING": True}
GEMM_FORMS = {
    "": compile_nvfp4_gemm_one_token_balanced,
    "nostage": switched_compiler(compile_nvfp4_gemm_one_token_balanced, NVFP4GemmSmallM,
                                 {"PROBE_NO_STAGING": True}, "compile_balanced_no_staging"),
    "under": switched_compiler(compile_nvfp4_gemm_one_token_balanced,
                               NVFP4GemmOneTokenBalanced, UNDER, "compile_balanced_under")}
FUSED_FORMS = {
    "": compile_nvfp4_gemm_swiglu_quant_balanced,
    "under": switched_compiler(compile_nvfp4_gemm_swiglu_quant_balanced,
                               NVFP4GemmOneTokenBalanced, UNDER, "compile_fused_under")}
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")


def gemm_point(n, k, x, a, a_sf):
    """(weight copies, calls, outputs (a one-tuple of fp32 sums)) of a plain point."""
    calls, outs = {}, {}
    for tok, tokens, scales in (("a4", a, a_sf), ("a16", x, None)):
        launch = public_balanced_launch(True, 1, n, k, scales is not None, True, x.device)
        if launch is None:
            raise SystemExit(f"{n}x{k}: no public balanced launch for {tok}")
        for suffix, fn in GEMM_FORMS.items():
            outs[tok + suffix] = (torch.empty(1, n, device="cuda", dtype=torch.float32),)
            calls[tok + suffix] = functools.partial(
                lambda w, t, s, o, launch, fn: launch_one_token_balanced(
                    t, s, w[0], w[1], alpha, o, *launch, compile_fn=fn),
                t=tokens, s=scales, o=outs[tok + suffix][0], launch=launch, fn=fn)
    return permuted_weight_copies(n, k), calls, outs


def fused_point(two_i, k, x, a, a_sf):
    """(gate_up word copies, calls, outputs (codes, scales)) of a fused point, NVFP4 tokens
    ("fused...") and bf16 ones ("fused16...")."""
    i = two_i // 2
    calls, outs = {}, {}
    for tok, tokens, scales in (("fused", a, a_sf), ("fused16", x, None)):
        launch = public_balanced_launch(True, 1, two_i, k, scales is not None, True, x.device,
                                        row_groups=2)
        for suffix, fn in FUSED_FORMS.items():
            name = tok + suffix
            outs[name] = (torch.empty(1, i // 2, device="cuda", dtype=torch.uint8),
                          torch.empty(sf_padded_shape(1, i // 16), device="cuda",
                                      dtype=torch.uint8))
            calls[name] = functools.partial(
                lambda w, t, s, o, launch, fn: launch_swiglu_quant_balanced(
                    t, s, w[0], w[1], alpha, gs, *o, *launch, fn),
                t=tokens, s=scales, o=outs[name], launch=launch, fn=fn)
    return gate_up_words(two_i, k, True), calls, outs


for kind, n, k in select_shapes(POINTS):
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    copies, calls, outs = (gemm_point if kind == "gemm" else fused_point)(n, k, x, a, a_sf)
    label = f"{kind} {n}x{k} M=1"
    print_forms(label, calls, copies)
    if warm_only():
        continue
    toks = ("a4", "a16") if kind == "gemm" else ("fused", "fused16")
    print_bits_check(label, calls, outs, copies, [(tok + "under", tok) for tok in toks])
