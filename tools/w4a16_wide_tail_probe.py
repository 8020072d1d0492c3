"""W4A16 on permuted words with token tails on 256-token tiles, session 61's rules ("w16", the
public route: any tail read in place on 256-token tiles, ``k_order.w4a16_tail_in_place``; the
256-token plans where the padding is at most 5% of M, ``w4a16_256_on_tail``) against session
60's ("w16_s60": 256-token tails in place and those plans from 45% full only, else the copy
or 128-token tiles), bf16 weights on whole 128-token tiles ("w16_whole128") and cuBLAS + silu
beside. Graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, cublas_silu, gate_up_words, print_variant_rounds,
                          public_fused)

from cute_kernels.bench.timing import select_shapes

K_ORDER = importlib.import_module("cute_kernels.k_order")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
ROUTED = [importlib.import_module("cute_kernels.large_m_plans"), FUSED]


def s60_tail(m, n, tile_m):  # session 60's k_order.w4a16_tail_in_place
    if tile_m < 256:
        return n <= K_ORDER.W4A16_IN_PLACE_NARROW_N
    return n <= K_ORDER.W4A16_IN_PLACE_MAX_N and m % tile_m >= 0.45 * tile_m


S60 = [(K_ORDER, "w4a16_tail_in_place", s60_tail), (FUSED, "w4a16_tail_in_place", s60_tail),
       (FUSED, "W4A16_256_MAX_PAD", 0.0)]
WHOLE128 = [(FUSED, "large_m_route", lambda m, i, k: ("whole", (128, 0)))]

# (0-5: 1024x7168, 4700 / 7000 the 256-token stream-K in lanes now (128-token before), 8000
# whole 256-token tiles and 8500 / 10000 the 256-token stream-K, copied before, 1300 as before;
# 6-8: 4096x7168, tails copied before)
POINTS = [(1024, 7168, 4700), (1024, 7168, 7000), (1024, 7168, 8000), (1024, 7168, 8500),
          (1024, 7168, 10000), (1024, 7168, 1300), (4096, 7168, 2100), (4096, 7168, 8000),
          (4096, 7168, 10000)]

for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    gate_up = gate_up_words(n, k, True)
    fused = public_fused(ROUTED)
    variants = {"w16": (gate_up, lambda w: fused(w, [], x, None)),
                "w16_s60": (gate_up, lambda w: fused(w, S60, x, None))}
    if n == 1024:
        variants["w16_whole128"] = (gate_up, lambda w: fused(w, WHOLE128, x, None))
    variants["cublas_silu"] = (bf16_weight_rotation(n, k), lambda w: cublas_silu(x, w))
    print_variant_rounds(f"{n}x{k} M={m}", variants)
