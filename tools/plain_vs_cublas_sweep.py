"""Issue 5's M >= 256 bar (0.9x the TFLOP/s of cuBLAS bf16) between the suite's points:
``nvfp4_gemm`` (public, permuted words, NVFP4 activations) on its plan against cuBLAS bf16 on
every issue 5 shape at 300 / 600 / 1100 / 1700 / 2100 / 3000 tokens, with the ratio (session
63 also ran lanes of 40 row tiles on 5120x17408: since session 64's rules the plan is ahead of
them). Graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index
(shape-major: index = 6 x shape + M's index); ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import bf16_weight_rotation, gate_up_words, planned_gemm, print_variant_rounds

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes

PLANS = importlib.import_module("cute_kernels.large_m_plans")
SHAPES = [(7168, 18432), (5120, 17408), (36864, 7168), (34816, 5120), (9216, 7168),
          (4096, 7168), (7168, 2048)]
POINTS = [(n, k, m) for n, k in SHAPES for m in (300, 600, 1100, 1700, 2100, 3000)]


for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    variants = {"plan": (words, planned_gemm(a4, a4_sf))}
    variants["cublas"] = (bf16_weight_rotation(n, k), lambda w: x @ w.t())
    plan = PLANS.plain_plan(m, n, k)
    print_variant_rounds(f"{n}x{k} M={m} plan={plan} ({2 * m * n * k / 1e6:.0f} MFLOP)",
                         variants)
