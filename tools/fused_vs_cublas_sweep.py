"""Issue 6's bars between the suite's points: ``nvfp4_gemm_swiglu_quant`` (public, permuted
words; NVFP4 "fp4" and bf16 "w16" activations) against cuBLAS bf16 + torch silu * mul (M >=
256: at least as fast) and against the unfused pair ``nvfp4_gemm`` + ``silu_mul_nvfp4_quant``
("pair_fp4" / "pair_w16": every M, no slower), on every issue 6 shape at 300 / 600 / 1100 /
1700 / 2100 / 3000 tokens. Since session 62 the plain GEMM takes 128-token tiles in lanes on
4096x7168 (``plain_lanes_128``), and since session 64 the fused op its twin
(``FUSED_LANES_128``), switched off beside ("fp4_256" / "w16_256", from 600 tokens). Points
30..35 (session 66): 4096x7168 at 260 / 384 tokens (``FUSED_PART_WAVE_LANES``), the fitted
tiles under 257 tokens. Graph us, interleaved, two rounds; one point per
CUTE_KERNELS_BENCH_SHAPES index (shape-major: index = 6 x shape + M's index, then the session
66 points); ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

from probe_inputs import (bf16_weight_rotation, cublas_silu, fused_point, print_variant_rounds,
                          public_fused, unfused_pair)

from cute_kernels.bench.timing import select_shapes

PLANS = importlib.import_module("cute_kernels.large_m_plans")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
SHAPES = [(36864, 7168), (9216, 7168), (1024, 7168), (4096, 7168), (34816, 5120)]  # 2I x K
POINTS = [(n, k, m) for n, k in SHAPES for m in (300, 600, 1100, 1700, 2100, 3000)]
POINTS += [(4096, 7168, 260), (4096, 7168, 384), (36864, 7168, 160), (36864, 7168, 200),
           (34816, 5120, 200), (9216, 7168, 160)]
NO_S128 = [(PLANS, "FUSED_LANES_128", False)]

for n, k, m in select_shapes(POINTS):
    x, a4, a4_sf, words = fused_point(n, k, m)
    fused = public_fused([PLANS, FUSED])
    variants = {}
    for name, a, a_sf in (("fp4", a4, a4_sf), ("w16", x, None)):
        variants[name] = (words, lambda w, a=a, a_sf=a_sf: fused(w, [], a, a_sf))
        variants["pair_" + name] = (words, unfused_pair(a, a_sf, n))
        if n == 4096 and m >= 600:
            variants[name + "_256"] = (words,
                                       lambda w, a=a, a_sf=a_sf: fused(w, NO_S128, a, a_sf))
    variants["cublas_silu"] = (bf16_weight_rotation(n, k), lambda w: cublas_silu(x, w))
    print_variant_rounds(f"{n}x{k} M={m}", variants)
