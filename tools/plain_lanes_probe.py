"""``nvfp4_gemm``'s 256-token stream-K in lanes of row tiles (``PLAIN_STREAM_K_LANES``, on
since session 62) through the public function (the activations' pass included), permuted
words: the plan ("plan": stream-K in lanes wherever it is stream-K or would be the hybrid),
the hybrid forced ("hyb"), the 256-token stream-K forced on plain ranges ("sk") and in lanes
("skL"); NVFP4 activations and bf16 ones ("w16" ...), cuBLAS bf16 beside. Points 0-5:
4096x7168 (32 row tiles: 4 groups of 32 CTAs; the plan was stream-K at 1100 / 1500 tokens, the
hybrid from 2100), 6-9: 1024x7168 (8 lanes of 16 CTAs; the hybrid from 8502 tokens). Graph us
(``probe_inputs.print_variant_rounds``), two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, gate_up_words, gemm_on_plan, print_variant_rounds,
                          replaced)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes

PLANS = importlib.import_module("cute_kernels.large_m_plans")
SK = (256, 1, True, False)
HYBRID = (256, 1, True, True)
POINTS = [(4096, 7168, m) for m in (1100, 1500, 2100, 2500, 3500, 4500)]
POINTS += [(1024, 7168, m) for m in (2500, 5000, 9000, 12000)]


def gemm(a, a_sf, w, plan, lanes):
    with replaced(PLANS, {"PLAIN_STREAM_K_LANES": lanes}):
        return gemm_on_plan(a, a_sf, w, plan)


for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    variants = {}
    for name, a, a_sf in (("", a4, a4_sf), ("w16_", x, None)):
        for form, plan, lanes in (("plan", None, True), ("hyb", HYBRID, False),
                                  ("sk", SK, False), ("skL", SK, True)):
            variants[name + form] = (words, lambda w, a=a, a_sf=a_sf, plan=plan, lanes=lanes:
                                     gemm(a, a_sf, w, plan, lanes))
    variants["cublas"] = (bf16_weight_rotation(n, k), lambda w: x @ w.t())
    print_variant_rounds(f"gemm {n}x{k} M={m}", variants)
