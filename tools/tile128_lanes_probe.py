"""4096x7168 between 600 and 3500 tokens, where the last 256-token tile is part empty: the
plain GEMM's plan (256-token plans before ``plain_lanes_128``, session 62) against the
128-token stream-K forced, on plain ranges ("s128") and in lanes ("s128L"), NVFP4 and bf16
activations ("w16_" ...); the fused op's public route (NVFP4 activations: the 128-token
stream-K at 535..2349 tokens, in lanes since session 62) and with the lanes on 128-token tiles
widened ("fusedL128", the same there now); the fused op's W4A16 alike ("fused_w16" ...);
cuBLAS bf16 and cuBLAS + silu beside; points 4-5, 11-15: 1024x7168's W4A16 (comment there).
Permuted words, graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES
index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, cublas_silu, gate_up_words, planned_gemm,
                          print_variant_rounds, public_fused)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes

PLANS = importlib.import_module("cute_kernels.large_m_plans")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
S128 = (128, 1, True, False)
WIDE = [(PLANS, "STREAM_K_LANES_TILE_M", (128, 256))]
NO_128_LANES = [(PLANS, "STREAM_K_LANES_128_MIN_ROW_TILES", 1 << 30)]  # (on since session 62)
POINTS = [(4096, 7168, m) for m in (1100, 1200, 1700, 2100)]
# (4-5: 1024x7168 W4A16 at 1300 / 1350, the 128-token stream-K, against the 256-token plans
# (stream-K in 8 lanes) on its 8% / 27% full last tile ("w16_256"))
POINTS += [(1024, 7168, m) for m in (1300, 1350)]
ON_TAILS = [(FUSED, "W4A16_256_MIN_FILL", 0.0)]
# (6-10: 4096x7168 at more token counts, for the rule)
POINTS += [(4096, 7168, m) for m in (600, 900, 1500, 2500, 3500)]
# (11-15: 1024x7168 W4A16 as points 4-5, for a rule on the 256-token plans' tail fill)
POINTS += [(1024, 7168, m) for m in (1030, 1100, 1200, 1282, 1400)]


for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    fused = public_fused([PLANS, FUSED])
    w16 = bf16_weight_rotation(n, k)
    if n == 1024:
        print_variant_rounds(f"{n}x{k} M={m}", {
            "w16": (words, lambda w: fused(w, [], x, None)),
            "w16_256": (words, lambda w: fused(w, ON_TAILS, x, None)),
            "fp4": (words, lambda w: fused(w, [], a4, a4_sf)),
            "cublas_silu": (w16, lambda w: cublas_silu(x, w))})
        continue
    variants = {}
    for name, a, a_sf in (("", a4, a4_sf), ("w16_", x, None)):
        variants[name + "plan"] = (words, planned_gemm(a, a_sf))
        variants[name + "s128"] = (words, planned_gemm(a, a_sf, S128, NO_128_LANES))
        variants[name + "s128L"] = (words, planned_gemm(a, a_sf, S128, WIDE))
    variants["fused"] = (words, lambda w: fused(w, [], a4, a4_sf))
    variants["fusedL128"] = (words, lambda w: fused(w, WIDE, a4, a4_sf))
    variants["fused_w16"] = (words, lambda w: fused(w, [], x, None))
    variants["fused_w16L128"] = (words, lambda w: fused(w, WIDE, x, None))
    variants["cublas"] = (w16, lambda w: x @ w.t())
    variants["cublas_silu"] = (w16, lambda w: cublas_silu(x, w))
    print_variant_rounds(f"{n}x{k} M={m}", variants)
