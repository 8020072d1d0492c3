"""The fused op's swapped kernel as cluster pairs (``SWAPPED_PAIRS``: each 128-token x
256-feature tile's two K halves in a cluster of two CTAs, CTA r finishing interleave group r)
where its whole tiles fill half a wave: "fp4" (the public route as it is), "fp4_pair" (the
pairs wherever they fit one wave), "fp4_swapped" (the swapped kernel whole / stream-K, its
wave and tokens-a-row rules off), "fp4_normal" (the swapped kernel off: the normal route),
cuBLAS + silu beside. NVFP4 activations, permuted words;
graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, cublas_silu, gate_up_words, print_variant_rounds,
                          public_fused)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes

FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
ROUTED = [importlib.import_module("cute_kernels.large_m_plans"), FUSED]

# (2I, K, M): 1024x7168 where the normal route trails cuBLAS + silu (M = 2048 0.98-0.99x) and
# below it, down to 48 tiles (96 CTAs); then past it, where the normal route is stream-K
# (0.87x at M = 2500) and the swapped kernel's wave rule (0.7) kept it off (session 58 took
# both); then two points between those measured (an M tail in the pairs, 17 tiles stream-K)
POINTS = [(1024, 7168, 2048), (1024, 7168, 1920), (1024, 7168, 1792), (1024, 7168, 1536),
          (1024, 7168, 2304), (1024, 7168, 2500), (1024, 7168, 1664), (1024, 7168, 2100)]
FORMS = {"": [],
         "_pair": [(FUSED, "SWAPPED_PAIRS", True), (FUSED, "SWAPPED_PAIRS_MIN_WAVES", 0.0),
                   (FUSED, "SWAPPED_PAIRS_MIN_TOKENS_PER_ROW", 0)],
         "_swapped": [(FUSED, "SWAPPED_MIN_TOKENS_PER_ROW", 0), (FUSED, "SWAPPED_MIN_WAVES", 0.0)],
         "_normal": [(FUSED, "SWAPPED", False)]}

for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    gate_up = gate_up_words(n, k, True)
    fused = public_fused(ROUTED)
    variants = {"fp4" + suffix: (gate_up, lambda w, s=switches: fused(w, s, a, a_sf))
                for suffix, switches in FORMS.items()}
    variants["cublas_silu"] = (bf16_weight_rotation(n, k), lambda w: cublas_silu(x, w))
    print_variant_rounds(f"{n}x{k} M={m}", variants)
