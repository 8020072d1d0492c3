"""The fused op on bf16 activations (W4A16) with the weights through ``bf16_weights``' pass and
both wgmma operands from shared memory (``KOrder.BF16``) against the decode in the main loop:
"fused" (the public route as it is), "fused_decode" (``BF16_WEIGHTS`` off: the route before),
"fused_bf16" (the bf16 weights wherever the launch allows: any M, any weight size), cuBLAS
bf16 + torch silu * up beside; from point 16 on also stream-K on 256-token tiles ("_sk256",
"_bf16_sk256") and the op on NVFP4 activations ("fp4", "fp4_sk256"), from point 19 on the route
and "_sk256" alone. ``CUTE_KERNELS_PROBE_UNIFORM_DESC=1``: "fused", "fused_bf16" and both with
``NVFP4GemmLargeM.UNIFORM_WEIGHT_DESC`` on ("fused_uniform", "fused_bf16_uniform": the bf16
weights' descriptors from a warp-uniform thread; session 103) instead of those forms.
Public calls on permuted words; graph us, interleaved, two rounds; one point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib
import os

import torch
from probe_inputs import (bf16_weight_rotation, cublas_silu, gate_up_words,
                          launches_compiled_by, print_variant_rounds, public_fused,
                          switched_compiler)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m

FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
ROUTED = [importlib.import_module("cute_kernels.large_m_plans"), FUSED]

# (2I, K, M): 1024x7168 where W4A16 trailed cuBLAS + silu (0.82-0.95x at 512..2048 tokens),
# its tail and neighbours; 4096x7168
POINTS = [(1024, 7168, 256), (1024, 7168, 512), (1024, 7168, 1000), (1024, 7168, 1024),
          (1024, 7168, 2048), (1024, 7168, 4096), (4096, 7168, 512), (4096, 7168, 1024),
          (4096, 7168, 2048), (4096, 7168, 4096),
          # then the 128-token whole / stream-K launches of 1024x7168 (session 57 call 3)
          (1024, 7168, 768), (1024, 7168, 1100), (1024, 7168, 1536), (1024, 7168, 1800),
          (1024, 7168, 2500), (1024, 7168, 3072),
          # then the stream-K stretch of 1024x7168 on 256-token tiles (session 57 call 4)
          (1024, 7168, 2500), (1024, 7168, 3072), (1024, 7168, 1100),
          # then W4A16's in-place stream-K launches of 128-token tiles against 256 (call 5)
          (1024, 7168, 1280), (1024, 7168, 2304), (1024, 7168, 2816), (1024, 7168, 4608),
          (1024, 7168, 6656), (4096, 7168, 1792)]
ANY_BF16 = [(FUSED, "BF16_WEIGHTS_MIN_M", 0), (FUSED, "BF16_WEIGHTS_MAX_WEIGHTS", 2**40),
            (FUSED, "BF16_WEIGHTS_ROUTES", ("whole", "stream_k", "pieces")),
            (FUSED, "BF16_WEIGHTS_TILE_M", None)]
SK256 = [(FUSED, "large_m_route", lambda m, i, k: ("stream_k", 256))]
FORMS = {"": [], "_decode": [(FUSED, "BF16_WEIGHTS", False)], "_bf16": ANY_BF16}
DESC_MODE = os.environ.get("CUTE_KERNELS_PROBE_UNIFORM_DESC") == "1"
if DESC_MODE:
    UNIFORM_DESC = [(FUSED, name, value) for name, value in launches_compiled_by(
        FUSED, switched_compiler(compile_nvfp4_gemm_swiglu_quant_large_m, NVFP4GemmLargeM,
                                 {"UNIFORM_WEIGHT_DESC": True}, "fused_uniform_desc")).items()]
    FORMS = {"": [], "_uniform": UNIFORM_DESC, "_bf16": ANY_BF16,
             "_bf16_uniform": ANY_BF16 + UNIFORM_DESC}
# points 16 on: also stream-K on 256-token tiles (``large_m_route`` replaced), decoding or on
# bf16 weights, and the op on NVFP4 activations (W4A4) as routed and so
LATE_FORMS = {"_sk256": SK256, "_bf16_sk256": SK256 + ANY_BF16}
FP4_FORMS = {"": [], "_sk256": SK256}

for point in select_shapes(range(len(POINTS))):
    n, k, m = POINTS[point]
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    gate_up = gate_up_words(n, k, True)
    w16s = bf16_weight_rotation(n, k)

    def fused(w, switches, a=x, a_sf=None):
        public_fused(ROUTED)(w, switches, a, a_sf)

    forms = dict(FORMS, **(LATE_FORMS if point >= 16 and not DESC_MODE else {}))
    if point >= 19 and not DESC_MODE:
        forms = {"": [], "_sk256": SK256}
    variants = {"fused" + suffix: (gate_up, lambda w, s=switches: fused(w, s))
                for suffix, switches in forms.items()}
    if 16 <= point < 19 and not DESC_MODE:
        variants.update({"fp4" + suffix: (gate_up, lambda w, s=switches: fused(w, s, a4, a4_sf))
                         for suffix, switches in FP4_FORMS.items()})
    variants["cublas"] = (w16s, lambda w: x @ w.t())
    variants["cublas_silu"] = (w16s, lambda w: cublas_silu(x, w))
    print_variant_rounds(f"{n}x{k} M={m} W4A16", variants)
