"""The fused op at M >= 256 on its two activation formats against cuBLAS + silu, same run:
"w4a4" (NVFP4 activations: the public route decodes them to bf16 in a pass first), "w4a16"
(the same activations' bf16 values, ``a_sf=None``: no pass), and "cublas" (bf16 GEMM on bf16
weights + torch silu(gate) * up, the issue's comparator, which takes the same bf16
activations as "w4a16"). Permuted words (the models' layout); graph us, interleaved, two
rounds; one point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1``
compiles only."""

import torch
import torch.nn.functional as F
from probe_inputs import gate_up_words, print_variant_rounds

from cute_kernels import nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import rotations_for, select_shapes

POINTS = [(1024, 7168, 1024), (1024, 7168, 2048), (1024, 7168, 4096), (1024, 7168, 16384),
          (1024, 7168, 256), (4096, 7168, 1024), (4096, 7168, 4096), (9216, 7168, 1024),
          (34816, 5120, 1024), (36864, 7168, 1024)]


for two_i, k, m in select_shapes(POINTS):
    i = two_i // 2
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    # the w4a16 and cuBLAS activations: the NVFP4 activations' own values, so every path
    # multiplies the same numbers
    x_q = reference.nvfp4_dequantize(a, a_sf, 100.0, m, k, out_dtype=torch.bfloat16)
    words = gate_up_words(two_i, k, True)
    w16 = torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16)
    w16s = [w16] + [w16.clone() for _ in range(rotations_for(two_i * k * 2) - 1)]

    def cublas(w):
        y = x_q @ w.t()
        return F.silu(y[:, :i]) * y[:, i:]

    variants = {
        "w4a4": (words, lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)),
        "w4a16": (words, lambda w: nvfp4_gemm_swiglu_quant(x_q, None, w[0], w[1], 0.5, 30.0)),
        "cublas": (w16s, cublas),
    }
    print_variant_rounds(f"fused {two_i}x{k} M={m}", variants)
    del variants, words, w16s
