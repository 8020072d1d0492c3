"""W4A16 (bf16 activations) on permuted words where the token count leaves the last token tile
partial: the public fused op as it is (``reorder_k``'s copy into whole tiles, zero rows past
M) against the same launch reading the activations in place with the TMA filling the last
tile past M ("_tail": ``k_order.w4a16_in_place`` asked as if unpadded, since session 59 the
route on narrow weights whose last tile is 45% full; "_tail256": the fused op's 256-token
plans too, ``w4a16_in_place_route``), NVFP4 activations' route and cuBLAS + silu beside.
Prints the two W4A16 outputs' differing code bytes (the K order inside a group changes the
fp32 rounding: a step at rounding boundaries). Graph us,
interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, cublas_silu, gate_up_words, print_variant_rounds,
                          public_fused, routing)

from cute_kernels import nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import select_shapes, warm_only

K_ORDER = importlib.import_module("cute_kernels.k_order")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
ROUTED = [importlib.import_module("cute_kernels.large_m_plans"), FUSED]
IN_PLACE = K_ORDER.w4a16_in_place
TAIL = [(K_ORDER, "w4a16_in_place", lambda m, n, padded: IN_PLACE(m, n, False))]
TAIL256 = TAIL + [(FUSED, "w4a16_in_place", lambda m, n, padded: IN_PLACE(m, n, False))]

# 1024x7168: two K pieces of 128-token tiles (700), the 128-token stream-K (1100, 2500)
POINTS = [(1024, 7168, 700), (1024, 7168, 1100), (1024, 7168, 2500), (1024, 7168, 1000),
          # (4-8: emptier last tiles, 22% / 16% / 28%, on 1024x7168; 4096-row weights)
          (1024, 7168, 540), (1024, 7168, 660), (1024, 7168, 1060), (4096, 7168, 1100),
          (4096, 7168, 2500)]

for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    gate_up = gate_up_words(n, k, True)
    fused = public_fused(ROUTED)
    if not warm_only():
        w = gate_up[0]
        copy = nvfp4_gemm_swiglu_quant(x, None, w[0], w[1], 0.5, 30.0)[0]
        with routing(TAIL, ROUTED):
            tail = nvfp4_gemm_swiglu_quant(x, None, w[0], w[1], 0.5, 30.0)[0]
        print(f"{n}x{k} M={m}: tail / copy code bytes differing "
              f"{(tail != copy).sum().item()} of {copy.numel()}")
    variants = {
        "w16": (gate_up, lambda w: fused(w, [], x, None)),
        "w16_tail": (gate_up, lambda w: fused(w, TAIL, x, None)),
        "w16_tail256": (gate_up, lambda w: fused(w, TAIL256, x, None)),
        "fp4": (gate_up, lambda w: fused(w, [], a4, a4_sf)),
        "cublas_silu": (bf16_weight_rotation(n, k), lambda w: cublas_silu(x, w)),
    }
    print_variant_rounds(f"{n}x{k} M={m}", variants)
