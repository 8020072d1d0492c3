"""The fused op's balanced one-token launch on two up/gate tile pairs a block (``pairs`` 2,
four row groups, one CTA an SM: half as many CTAs read the token from L2 as the public (8, 2)
launch's; the comment on ``nvfp4_gemm_balanced.PLAIN_ROW_GROUPS``) against the public launch:
the fused 9216x7168 at M = 1 (issue 6's open row: 72.0% on the H200, 75% asked), NVFP4 tokens
("fused...") and bf16 ones ("fused16..."), graph us, interleaved, two rounds; then whether each
form's codes and scales equal the public launch's (the pieces add in another order: a few codes
may differ). ``PROBE_L2=1``: one weight copy. ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools

import torch
from probe_inputs import gate_up_words, print_forms, same_bits

from cute_kernels import reference
from cute_kernels.bench.timing import warm_only
from cute_kernels.nvfp4_gemm_balanced import public_balanced_launch
from cute_kernels.swiglu_quant_balanced import launch_swiglu_quant_balanced
from layouts import sf_padded_shape

TWO_I, K = 9216, 7168
PAIRS = [(24, 1), (20, 1), (16, 1)]  # (K warps, CTAs an SM) on pairs = 2
x = torch.randn(1, K, device="cuda", dtype=torch.bfloat16)
a, a_sf = reference.nvfp4_quantize(x, 100.0)
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
calls, outs = {}, {}
for tok, tokens, scales in (("fused", a, a_sf), ("fused16", x, None)):
    public = public_balanced_launch(True, 1, TWO_I, K, scales is not None, True, x.device,
                                    row_groups=2)
    forms = {"": (*public, 1), **{f"_{w}_{c}": (w, c, 2) for w, c in PAIRS}}
    for suffix, (warps, per_sm, pairs) in forms.items():
        name = tok + suffix
        outs[name] = (torch.empty(1, TWO_I // 4, device="cuda", dtype=torch.uint8),
                      torch.empty(sf_padded_shape(1, TWO_I // 32), device="cuda",
                                  dtype=torch.uint8))
        calls[name] = functools.partial(
            lambda w, t, s, o, warps, per_sm, pairs: launch_swiglu_quant_balanced(
                t, s, w[0], w[1], alpha, gs, *o, warps, per_sm, pairs=pairs),
            t=tokens, s=scales, o=outs[name], warps=warps, per_sm=per_sm, pairs=pairs)
copies = gate_up_words(TWO_I, K, True)
print_forms(f"fused {TWO_I}x{K} M=1", calls, copies)
if not warm_only():
    for call in calls.values():
        call(copies[0])
    torch.cuda.synchronize()
    print("bits equal to the public launch's: " + " ".join(
        f"{name}={same_bits(outs[name], outs[name.split('_')[0]])}" for name in calls
        if "_" in name), flush=True)
