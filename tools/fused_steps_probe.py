"""The fused op's fitted token tiles in steps of 16 (``fitted_tiles.FUSED_FITTED_STEP`` = 16,
"step16") against steps of 32 (its setting since session 65, "step32"), the unfused pair
``nvfp4_gemm`` + ``silu_mul_nvfp4_quant`` (whose GEMM takes steps of 16 since session 66: at
36864x7168 M = 200 it ran 146.2 us against the fused op's 150.0) and cuBLAS bf16 + torch
silu * mul, at points where the step changes the fused launch. The two steps' codes and
scales are compared first (a difference is named: stream-K sums K in other pieces). Permuted
words, NVFP4 activations, graph us in two rounds; one point per CUTE_KERNELS_BENCH_SHAPES
index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, cublas_silu, fused_point, print_variant_rounds,
                          public_fused, routing, same_bits, unfused_pair)

from cute_kernels.bench.timing import select_shapes, warm_only

FITTED = importlib.import_module("cute_kernels.fitted_tiles")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
PLANS = importlib.import_module("cute_kernels.large_m_plans")
STEP = {"step32": [(FITTED, "FUSED_FITTED_STEP", 32)],
        "step16": [(FITTED, "FUSED_FITTED_STEP", 16)]}
POINTS = [(36864, 7168, 200), (34816, 5120, 200), (4096, 7168, 260), (9216, 7168, 200),
          (36864, 7168, 450), (34816, 5120, 801), (4096, 7168, 800), (9216, 7168, 545),
          (36864, 7168, 337), (34816, 5120, 700)]


for two_i, k, m in select_shapes(POINTS):
    x, a, a_sf, words = fused_point(two_i, k, m)
    fused = public_fused([PLANS, FUSED])
    if not warm_only():
        launches = {}
        for name, switches in STEP.items():
            with routing(switches, [PLANS, FUSED]):
                launch = FUSED.large_m_launch(m, two_i, k, True, torch.int32)
            launches[name] = f"{launch.route} {launch.plan}"
        print(f"fused {two_i}x{k} M={m}: {launches['step32']} -> {launches['step16']}",
              flush=True)
        if not same_bits(fused(words[0], STEP["step16"], a, a_sf),
                         fused(words[0], STEP["step32"], a, a_sf)):
            print("  step16: codes or scales differ from step32's", flush=True)
    variants = {name: (words, lambda w, s=switches: fused(w, s, a, a_sf))
                for name, switches in STEP.items()}
    variants["pair"] = (words, unfused_pair(a, a_sf, two_i))
    variants["cublas_silu"] = (bf16_weight_rotation(two_i, k), lambda w: cublas_silu(x, w))
    print_variant_rounds(f"  {two_i}x{k} M={m}", variants)
