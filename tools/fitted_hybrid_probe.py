"""Stream-K fitted tiles past 1024 tokens (session 67, for session 68): call 3 of session 67
measured them 1-24% over the model's estimates, worst where a CTA's range spans several tiles
of long-K weights (7168x18432 M = 1136, 2.1 tiles a CTA: 24%). A guess: the CTAs then walk K
out of step, and the weight rows a wave of whole tiles reads together through the L2 are read
again from DRAM per token tile. The hybrid (``hybrid``: whole tiles for all but the last one
to two waves' worth, stream-K on the rest) keeps most tiles in step. Per point: today's plan
("plan", whole tiles past 1024), the fitted width whole ("w"), stream-K ("sk") and hybrid
("hy"), each first checked against the fp64 product (fp32 out poisoned with NaN; the relative
error printed), then graph us in two rounds with cuBLAS bf16, NVFP4 activations on permuted
words. Points: session 67 call 3's four stream-K losses, then its four wins. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import (bf16_weight_rotation, fp64_plan_error, gate_up_words, gemm_on_plan,
                          print_variant_rounds)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.large_m_plans import plain_plan

# (N, K, M, the stream-K width measured in session 67 call 3)
POINTS = [(7168, 18432, 1136, 240), (5120, 17408, 1560, 176), (36864, 7168, 1295, 144),
          (34816, 5120, 1825, 240), (5120, 17408, 1030, 176), (5120, 17408, 1295, 144),
          (5120, 17408, 1931, 176), (34816, 5120, 1100, 160)]

for n, k, m, width in select_shapes(POINTS):
    plans = {"w": (width, 1, False, False), "sk": (width, 1, True, False),
             "hy": (width, 1, True, True)}
    error = fp64_plan_error(n, k, m, plans["hy"])  # (warms fp32 out)
    if not warm_only():
        print(f"gemm {n}x{k} M={m} plan={plain_plan(m, n, k)} width {width}", flush=True)
        print(f"  hy fp64 rel err: {error:.1e}", flush=True)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    variants = {"plan": (words, lambda w: gemm_on_plan(a4, a4_sf, w))}
    variants.update({name: (words, lambda w, p=p: gemm_on_plan(a4, a4_sf, w, p))
                     for name, p in plans.items()})
    variants["cublas"] = (bf16_weight_rotation(n, k), lambda w: x @ w.t())
    print_variant_rounds("  us", variants)
