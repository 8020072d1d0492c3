"""The fused op's stream-K in lanes of row tiles (``large_m_plans.STREAM_K_LANES``) against
plain ranges ("_L0") on 1024x7168, where the route is the 128- or 256-token stream-K: W4A16 on
permuted words ("w16"), NVFP4 activations ("fp4") where their route is that stream-K too (not
the swapped kernel), bf16 weights on whole 128-token tiles ("w16_whole128", the best other
W4A16 launch at M = 5000 in session 61 call 1, and at 1300 in call 3) and cuBLAS + silu
beside. Graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only; ``CUTE_KERNELS_PROBE_VARIANTS`` keeps the named
forms only. Points 11-14: 4096x7168 with lanes of 32 row tiles ("_L32"), the public route
since session 62; 15-17: 1024x7168 M = 1200 / 1250 / 1280."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, cublas_silu, gate_up_words, print_variant_rounds,
                          public_fused)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes

FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
PLANS = importlib.import_module("cute_kernels.large_m_plans")
ROUTED = [PLANS, FUSED]
PLAIN = [(PLANS, "STREAM_K_LANES", False)]
WHOLE128 = [(FUSED, "large_m_route", lambda m, i, k: ("whole", (128, 0))),
            (FUSED, "SWAPPED", False)]

# (0-2: the 128-token stream-K, both activations; 3-10: W4A16's 256-token stream-K, NVFP4 on
# the swapped kernel)
POINTS = [(1024, 7168, m) for m in (1030, 1100, 1300, 2200, 2500, 3000, 4608, 5000, 5120, 6656,
                                    10000)]
# (11-14: 4096x7168's 256-token stream-K, 32 row tiles: lanes ("_L32": 4 groups of 32 CTAs;
# the public route since session 62, plain ranges before) against the public route)
POINTS += [(4096, 7168, m) for m in (1200, 2100, 2500, 3500)]
# (15-17: more of W4A16's 128-token stream-K against whole 128-token tiles, for a rule)
POINTS += [(1024, 7168, m) for m in (1200, 1250, 1280)]
WIDE = [(PLANS, "STREAM_K_LANES_MAX_ROW_TILES", 32)]

for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    gate_up = gate_up_words(n, k, True)
    fused = public_fused(ROUTED)
    other, suffix = (WIDE, "_L32") if n > 1024 else (PLAIN, "_L0")
    variants = {"w16": (gate_up, lambda w: fused(w, [], x, None)),
                "w16" + suffix: (gate_up, lambda w: fused(w, other, x, None))}
    if FUSED.swapped_route(m, n, k, True) is None:
        variants["fp4"] = (gate_up, lambda w: fused(w, [], a4, a4_sf))
        variants["fp4" + suffix] = (gate_up, lambda w: fused(w, other, a4, a4_sf))
    if n == 1024:
        variants["w16_whole128"] = (gate_up, lambda w: fused(w, WHOLE128, x, None))
    variants["cublas_silu"] = (bf16_weight_rotation(n, k), lambda w: cublas_silu(x, w))
    print_variant_rounds(f"{n}x{k} M={m}", variants)
