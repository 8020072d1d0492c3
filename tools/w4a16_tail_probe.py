"""W4A16 (bf16 activations) on permuted words where the token count leaves the last token tile
partial: ``reorder_k``'s copy into whole tiles (zero rows past M) against reading the
activations in place with the TMA filling the last tile past M. Forms: "w16" the public route;
"w16_s59" session 59's (narrow weights' tails at least 45% full in place on the route's
tiles, three K pieces too); "w16_copy" session 58's (every tail copied);
"w16_tail" any tail in place (``k_order.w4a16_in_place`` asked as if unpadded);
"w16_tail256" that and the fused op's 256-token plans (``w4a16_in_place_route``) on any tail;
"w16_p641" four K pieces of 256-token tiles from 641 tokens (the public route since
session 60's call 5);
NVFP4 activations' route and cuBLAS + silu beside. Prints the public and "w16_copy" outputs'
differing code bytes (the K order inside a group changes the fp32 rounding: a step at
rounding boundaries). Graph us, interleaved, two rounds; one point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only;
``CUTE_KERNELS_PROBE_VARIANTS`` keeps the named forms only (and skips the code comparison)."""

import importlib
import os

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
NO_256_TAILS = [(FUSED, "W4A16_256_ON_TAILS", False)]
COPY = NO_256_TAILS + [(K_ORDER, "W4A16_IN_PLACE_TAIL", False)]  # session 58's
# the 256-token K pieces from 641 tokens (three 256-token tiles, as 768; public since call 5)
PIECES_641 = [(FUSED, "W4A16_PIECES_MIN_M", 641)]
S59 = NO_256_TAILS + [  # session 59's: narrow weights' tails in place from 45% on any tile
    (FUSED, "w4a16_tail_in_place", lambda m, n, t: n <= 1024 and m % t >= 0.45 * t),
    (FUSED, "W4A16_COPY_ON_PIECES", ())]

# 1024x7168: two K pieces of 128-token tiles (700), the 128-token stream-K (1100, 2500)
POINTS = [(1024, 7168, 700), (1024, 7168, 1100), (1024, 7168, 2500), (1024, 7168, 1000),
          # (4-8: emptier last tiles, 22% / 16% / 28%, on 1024x7168; 4096-row weights)
          (1024, 7168, 540), (1024, 7168, 660), (1024, 7168, 1060), (4096, 7168, 1100),
          (4096, 7168, 2500),
          # (9-13: the 128-token tail rule on three K pieces (530 14% full, 580 53%), two
          # (800 25%) and stream-K (1030 5%, 1300 16%); 14-18: session 60's 256-token plans
          # on tails, ``W4A16_256_ON_TAILS``: four / three K pieces (1000, 1200), stream-K
          # (2200, 3000, 5000); 19-20: 4096-row weights' 256-token stream-K on tails)
          (1024, 7168, 530), (1024, 7168, 580), (1024, 7168, 800), (1024, 7168, 1030),
          (1024, 7168, 1300), (1024, 7168, 1000), (1024, 7168, 1200), (1024, 7168, 2200),
          (1024, 7168, 3000), (1024, 7168, 5000), (4096, 7168, 2200), (4096, 7168, 3500),
          # (21-24: session 60's rule where call 3 did not measure it: 1024x7168 M = 640,
          # three K pieces keep the copy; 4096x7168 M = 1200, the 256-token stream-K on a
          # tail; M = 3000 / 5000, whole 256-token tiles with the tail in place)
          (1024, 7168, 640), (4096, 7168, 1200), (4096, 7168, 3000), (4096, 7168, 5000),
          # (25-26: beside 18's M = 5000, 150 us on the 256-token stream-K: M = 4608 / 5120,
          # multiples of 256 on the same launch)
          (1024, 7168, 4608), (1024, 7168, 5120),
          # (27: with 0 and 5, "w16_p641" at 641..767 tokens: M = 740)
          (1024, 7168, 740)]

for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    gate_up = gate_up_words(n, k, True)
    fused = public_fused(ROUTED)
    if not warm_only() and not os.environ.get("CUTE_KERNELS_PROBE_VARIANTS"):
        w = gate_up[0]
        public = nvfp4_gemm_swiglu_quant(x, None, w[0], w[1], 0.5, 30.0)[0]
        with routing(COPY, ROUTED):
            copy = nvfp4_gemm_swiglu_quant(x, None, w[0], w[1], 0.5, 30.0)[0]
        print(f"{n}x{k} M={m}: public / copy code bytes differing "
              f"{(public != copy).sum().item()} of {copy.numel()}")
    variants = {
        "w16": (gate_up, lambda w: fused(w, [], x, None)),
        "w16_s59": (gate_up, lambda w: fused(w, S59, x, None)),
        "w16_copy": (gate_up, lambda w: fused(w, COPY, x, None)),
        "w16_tail": (gate_up, lambda w: fused(w, TAIL + NO_256_TAILS, x, None)),
        "w16_tail256": (gate_up, lambda w: fused(w, TAIL256, x, None)),
        "w16_p641": (gate_up, lambda w: fused(w, PIECES_641, x, None)),
        "fp4": (gate_up, lambda w: fused(w, [], a4, a4_sf)),
        "cublas_silu": (bf16_weight_rotation(n, k), lambda w: cublas_silu(x, w)),
    }
    print_variant_rounds(f"{n}x{k} M={m}", variants)
