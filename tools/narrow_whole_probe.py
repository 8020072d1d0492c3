"""``nvfp4_gemm``'s stream-K plans with 256-token tiles where whole 128-token tiles would fill
one wave to at least 90% (session 53: 1024x7168 M = 2048, stream-K 56.9 us, whole 128-token
tiles 46.8, ``swapped_roles_probe``). Variants through the public function (the activations'
pass included), graph us, interleaved, two rounds, permuted words: "plan" (``plain_plan``
as it is), "whole128" (whole 128-token tiles forced), "stream_k" (the stream-K plan forced,
for after a rule change) and "cublas" (bf16). One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import gemm_on_plan, permuted_weight_copies, print_variant_rounds

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import rotations_for, select_shapes

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
WHOLE128 = (128, 1, False, False)
STREAM_K256 = (256, 1, True, False)

# (N, K, M): every weight in 128..4096 rows where the rule would change a plan (1024x7168 at
# 1793..2048 tokens, 2048x7168 at 897..1024, 3072x7168 at 513..640, 1536x7168 at 1153..1408,
# 512x7168 at 3713..4224), at both ends of its range
POINTS = [(1024, 7168, 2048), (1024, 7168, 1800), (2048, 7168, 1024), (2048, 7168, 900),
          (3072, 7168, 640), (3072, 7168, 520), (1536, 7168, 1400), (512, 7168, 4096)]


for n, k, m in select_shapes(POINTS):
    x16 = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x16, 100.0)
    x = reference.nvfp4_dequantize(a, a_sf, 100.0, m, k, out_dtype=torch.bfloat16)
    words = permuted_weight_copies(n, k)
    w16 = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    w16s = [w16] + [w16.clone() for _ in range(rotations_for(n * k * 2) - 1)]
    variants = {
        "plan": (words, lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], 0.5)),
        "whole128": (words, lambda w: gemm_on_plan(a, a_sf, w, WHOLE128)),
        "stream_k": (words, lambda w: gemm_on_plan(a, a_sf, w, STREAM_K256)),
        "cublas": (w16s, lambda w: x @ w.t()),
    }
    print_variant_rounds(f"{n}x{k} M={m} plan {GEMM.plain_plan(m, n, k)}", variants)
    del variants, w16s, words
