"""Issue 6's M >= 256 bar (the fused op at least as fast as cuBLAS bf16 + torch silu * mul)
between the suite's points: ``nvfp4_gemm_swiglu_quant`` (public, permuted words; NVFP4 and
bf16 activations) against cuBLAS + silu on every issue 6 shape at 300 / 600 / 1100 / 1700 /
2100 / 3000 tokens. Graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES
index (shape-major: index = 6 x shape + M's index); ``CUTE_KERNELS_BENCH_WARM=1`` compiles
only."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, cublas_silu, gate_up_words, print_variant_rounds,
                          public_fused)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes

PLANS = importlib.import_module("cute_kernels.large_m_plans")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
SHAPES = [(36864, 7168), (9216, 7168), (1024, 7168), (4096, 7168), (34816, 5120)]  # 2I x K
POINTS = [(n, k, m) for n, k in SHAPES for m in (300, 600, 1100, 1700, 2100, 3000)]

for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    fused = public_fused([PLANS, FUSED])
    print_variant_rounds(f"{n}x{k} M={m}", {
        "fp4": (words, lambda w: fused(w, [], a4, a4_sf)),
        "w16": (words, lambda w: fused(w, [], x, None)),
        "cublas_silu": (bf16_weight_rotation(n, k), lambda w: cublas_silu(x, w))})
