"""The fused op with the fitted token tiles (``fitted_tiles.fused_fitted_route``, session 65)
against the fused op without them ("old": ``FUSED_FITTED_TILES`` off), the unfused pair
``nvfp4_gemm`` + ``silu_mul_nvfp4_quant`` (issue 6: never slower than it) and cuBLAS bf16 +
torch silu * mul (M >= 256: at least as fast), at points where the rule changes the launch
(session 65 measured four). Permuted words, NVFP4 activations, graph us in two rounds; one
point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, cublas_silu, fused_point, print_variant_rounds,
                          public_fused, unfused_pair)

from cute_kernels.bench.timing import select_shapes, warm_only

FITTED = importlib.import_module("cute_kernels.fitted_tiles")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
PLANS = importlib.import_module("cute_kernels.large_m_plans")
OLD = [(FITTED, "FUSED_FITTED_TILES", False)]
POINTS = [(36864, 7168, m) for m in (350, 450, 513, 600, 800)]
POINTS += [(34816, 5120, m) for m in (420, 513, 600, 800)]
POINTS += [(9216, 7168, m) for m in (450, 513, 560, 900)]
POINTS += [(4096, 7168, m) for m in (513, 560, 700, 800)]

for two_i, k, m in select_shapes(POINTS):
    x, a, a_sf, words = fused_point(two_i, k, m)
    fused = public_fused([PLANS, FUSED])
    if not warm_only():
        old = FUSED.large_m_route(m, two_i // 2, k)
        new = FUSED.large_m_launch(m, two_i, k, True, torch.int32)
        print(f"fused {two_i}x{k} M={m}: {old} -> {new.route} {new.plan}", flush=True)
    variants = {"old": (words, lambda w: fused(w, OLD, a, a_sf)),
                "new": (words, lambda w: fused(w, [], a, a_sf)),
                "pair": (words, unfused_pair(a, a_sf, two_i)),
                "cublas_silu": (bf16_weight_rotation(two_i, k), lambda w: cublas_silu(x, w))}
    print_variant_rounds(f"  {two_i}x{k} M={m}", variants)
