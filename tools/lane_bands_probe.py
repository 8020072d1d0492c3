"""Stream-K in lanes of bands of row tiles (``NVFP4GemmLargeM(lanes=L)`` with L dividing the
row tiles; built in session 62, no rule takes it yet) on the issue 5 shapes wider than 32 row
tiles: ``nvfp4_gemm`` (public, permuted words, NVFP4 activations) on its plan, the 256-token
stream-K forced on plain ranges ("sk") and in L lanes ("L<L>": CTA c in lane c % L, the row
tiles lane, lane + L, ...; 132 // L groups), cuBLAS bf16 beside. Points where the plan is
stream-K or the hybrid, and a few of whole tiles (the 128-token lanes beat whole tiles on
4096x7168 at 1700 tokens). Graph us, interleaved, two rounds; one point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, gate_up_words, planned_gemm,
                          print_variant_rounds, replaced)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
PLANS = importlib.import_module("cute_kernels.large_m_plans")
SK = (256, 1, True, False)
# (N, K, M, lanes to try)
POINTS = [(5120, 17408, 1100, (10, 20, 40)), (5120, 17408, 1700, (10, 20, 40)),
          (7168, 18432, 600, (8, 14, 28)), (7168, 18432, 1100, (8, 14, 28)),
          (7168, 18432, 3000, (8, 14, 28)), (7168, 2048, 600, (8, 14)),
          (7168, 2048, 1700, (8, 14)), (9216, 7168, 1100, (12, 18)),
          (9216, 7168, 2100, (12, 18)), (34816, 5120, 600, (16, 17))]


def in_lanes(a, a_sf, lanes):
    """The 256-token stream-K forced, in ``lanes`` lanes."""
    run = planned_gemm(a, a_sf, SK)

    def call(w):
        with replaced(GEMM, {"plain_stream_k_lanes": lambda n, t, sk, sms=132: lanes}):
            run(w)
    return call


for n, k, m, lane_counts in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    variants = {"plan": (words, planned_gemm(a4, a4_sf)),
                "sk": (words, planned_gemm(a4, a4_sf, SK))}
    for lanes in lane_counts:
        variants[f"L{lanes}"] = (words, in_lanes(a4, a4_sf, lanes))
    variants["cublas"] = (bf16_weight_rotation(n, k), lambda w: x @ w.t())
    print_variant_rounds(f"{n}x{k} M={m} plan={PLANS.plain_plan(m, n, k)}", variants)
