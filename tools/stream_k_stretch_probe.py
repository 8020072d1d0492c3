"""1024x7168's stream-K stretch (the fused op's 128-token stream-K route at 769..1100 and
2049..4095 tokens, 0.70-0.91x of cuBLAS + silu in session 57) against the other launches of the
same tokens, on NVFP4 activations ("fp4...") and bf16 ones ("w16..."): the route as it is,
whole 128-token tiles (two waves where they overflow one), whole / stream-K 256-token tiles,
256-token tiles in two / three / four / eight K pieces, W4A16 in place from 256 tokens ("ip"),
cuBLAS + silu beside. (On bf16 activations "_whole128" takes the bf16 weights,
``bf16_weights_route``, and the route 256-token stream-K tiles where M is a multiple of 256,
``w4a16_in_place_route``.) Public calls on permuted words, ``large_m_route`` replaced for a
form; graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, cublas_silu, gate_up_words, print_variant_rounds,
                          public_fused)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes

FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
K_ORDER = importlib.import_module("cute_kernels.k_order")
IN_PLACE = [(K_ORDER, "W4A16_IN_PLACE_MIN_M", 256)]
ROUTED = [importlib.import_module("cute_kernels.large_m_plans"), FUSED]

# (4, 5: M = 1024 / 1536, W4A16 0.94x of cuBLAS + silu on two K pieces of 128-token tiles, W4A4
# 0.87x at 1536 on the swapped kernel's pairs: the 256-token tiles in K pieces beside)
POINTS = [(1024, 7168, 1100), (1024, 7168, 1280), (1024, 7168, 2500), (1024, 7168, 2816),
          (1024, 7168, 1024), (1024, 7168, 1536), (1024, 7168, 512),
          (1024, 7168, 640), (1024, 7168, 768), (1024, 7168, 896), (1024, 7168, 700),
          (1024, 7168, 4608), (1024, 7168, 5000), (1024, 7168, 5120)]
# (6: M = 512, W4A16 0.95-1.00x on four K pieces of 128-token tiles after the reordering copy:
# 256-token tiles in four / eight pieces, and the weights decoded in place from 256 tokens)
# (7-9: M = 640 / 768 / 896, the 128-token stream-K that ``W4A16_IN_PLACE_NARROW_MIN_M`` now
# decodes in place, against the copy ("_copy": the rule before it) and K pieces of 128-token
# tiles, in place; 10: M = 700, a token tail on two K pieces, the bf16 activations copied)
# (11-13: M = 4608 / 5000 / 5120, W4A16's 256-token stream-K: 5000 took 150 us in session 60
# against NVFP4's 106 and cuBLAS + silu's 108; session 57 had 104 at 4608)


def forced(route, plan):  # (the swapped kernel off: it takes 1536 / 2500 NVFP4 tokens first)
    return [(FUSED, "large_m_route", lambda m, i, k: (route, plan)), (FUSED, "SWAPPED", False)]


FORMS = {"": [], "_whole128": forced("whole", (128, 0)), "_whole256": forced("whole", (256, 0)),
         "_sk256": forced("stream_k", 256), "_pieces256x2": forced("pieces", (256, 2)),
         "_pieces256x3": forced("pieces", (256, 3)),
         "_pieces256x4": forced("pieces", (256, 4)), "_pieces256x8": forced("pieces", (256, 8)),
         "_ip": IN_PLACE, "_pieces256x4ip": forced("pieces", (256, 4)) + IN_PLACE,
         "_pieces256x8ip": forced("pieces", (256, 8)) + IN_PLACE,
         "_copy": [(K_ORDER, "W4A16_IN_PLACE_NARROW_MIN_M", 1024)],
         "_pieces128x2": forced("pieces", (128, 2)), "_pieces128x3": forced("pieces", (128, 3))}

for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    gate_up = gate_up_words(n, k, True)
    fused = public_fused(ROUTED)
    variants = {}
    for name, a, a_sf in (("fp4", a4, a4_sf), ("w16", x, None)):
        for suffix, switches in FORMS.items():
            variants[name + suffix] = (gate_up, lambda w, s=switches, a=a, a_sf=a_sf:
                                       fused(w, s, a, a_sf))
    variants["cublas_silu"] = (bf16_weight_rotation(n, k), lambda w: cublas_silu(x, w))
    print_variant_rounds(f"{n}x{k} M={m}", variants)
