"""The spread activation pass's shape (session 36): how many CTAs an SM it allows (``cap``)
and how many units a thread takes (``units``; 4 makes a CTA of 16384 elements, so 64 tokens
of K = 7168 are 28 CTAs) under the routed PDL trigger. Per point, graph us of back-to-back
public calls (interleaved, two rounds): the rule's pass ("rule": ``spread_launch``) against
fixed variants ("c1u2": one CTA an SM, 2 units a thread) and the first rule ("first": 4
units, ceil(CTAs / SMs) an SM; the first call of this probe measured c1u2 faster than it at
every point). One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1``
compiles only."""

import importlib

import torch
from probe_inputs import (fp4_gemm_operands, fused_operands, gate_up_words, print_forms,
                          replaced_call)

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes

# (op, N or 2I, K, M)
POINTS = [("fused", 4096, 7168, 64), ("fused", 4096, 7168, 32), ("gemm", 4096, 7168, 64),
          ("gemm", 4096, 7168, 32), ("gemm", 7168, 2048, 32), ("gemm", 7168, 2048, 64),
          ("gemm", 7168, 2048, 256), ("gemm", 7168, 2048, 128), ("gemm", 4096, 7168, 17),
          ("fused", 4096, 7168, 17)]
dequant = importlib.import_module("cute_kernels.nvfp4_dequant")


def first_rule(out_rows: int, k: int, sms: int) -> tuple[int, int]:
    """Session 36's first spread: 4 units a thread, ceil(CTAs / SMs) CTAs an SM."""
    ctas = -(-(out_rows * k // 16) // 1024)
    cap = -(-ctas // sms)
    return (0 if cap >= 8 else cap), 4


VARIANTS = {"first": first_rule, "c1u1": lambda *_: (1, 1), "c1u2": lambda *_: (1, 2)}


alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for op, n, k, m in select_shapes(POINTS):
    if op == "fused":
        weights = gate_up_words(n, k, True)
        ops = fused_operands(n, k, m, True)
        a, a_sf, q, sf = (ops[x] for x in ("a", "a_sf", "q", "sf"))

        def public(w):
            nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, out=q, out_sf=sf)
    else:
        weights, a, a_sf, out = fp4_gemm_operands(n, k, m)

        def public(w):
            nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    calls = {"rule": public}
    # the spread activation pass's launch from each variant instead of the rule
    calls.update({name: replaced_call(public, dequant, {"spread_launch": v})
                  for name, v in VARIANTS.items()})
    print_forms(f"{op} {n}x{k} M={m}", calls, weights)
    del weights
