"""The fused op with bf16 activations (W4A16) at 4..16 tokens: the public function
(``swiglu_small_m_regime``'s pick), the fused small-M kernel ("small": the regime forced on,
since session 30's rule) and the fused wgmma kernel on the plain GEMM's 16-token stream-K
launch ("wgmma": forced off, ``large_m_route``'s "narrow"), and the unfused pair
(``nvfp4_gemm`` W4A16, which takes the wgmma kernel there since session 29, +
``silu_mul_nvfp4_quant``). Session 29 found the plain GEMM's wgmma route
ahead from 5 tokens on weights over 32 Mi values (36864x7168 M = 8 61.9 -> 52.3 us): does the
fused op's? Packed bytes (``KOrder.PAIRS``) and permuted words; graph us, interleaved, two
rounds; one point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1``
compiles only."""

import importlib

import torch
from probe_inputs import gate_up_words, print_variant_rounds, replaced

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_quant import silu_mul_nvfp4_quant

# the module, not the function the package exports under the same name
SWIGLU = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")

POINTS = [(36864, 7168, 8), (36864, 7168, 16), (34816, 5120, 8), (34816, 5120, 16),
          (9216, 7168, 8), (9216, 7168, 16), (36864, 7168, 5), (7168, 18432, 8),
          # session 30: the shapes and token counts the first run left out
          (4096, 7168, 9), (4096, 7168, 12), (4096, 7168, 16), (1024, 7168, 9), (1024, 7168, 16),
          (9216, 7168, 9), (9216, 7168, 12), (36864, 7168, 4), (34816, 5120, 4), (34816, 5120, 5),
          (7168, 18432, 4), (7168, 18432, 5), (9216, 7168, 5),
          # where the rule's bar for permuted 34816x5120 (6 tokens) was interpolated
          (34816, 5120, 6), (34816, 5120, 7)]


def public(x, w):
    return nvfp4_gemm_swiglu_quant(x, None, w[0], w[1], 0.5, 30.0)


def small(x, w):
    with replaced(SWIGLU, {"swiglu_small_m_regime": lambda *args, **kwargs: True}):
        return public(x, w)


def wgmma(x, w):
    with replaced(SWIGLU, {"swiglu_small_m_regime": lambda *args, **kwargs: False}):
        return public(x, w)


def pair(x, w):
    return silu_mul_nvfp4_quant(nvfp4_gemm(x, None, w[0], w[1], 0.5), 30.0)


for two_i, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    variants = {}
    for layout, permute in (("packed", False), ("permuted", True)):
        words = gate_up_words(two_i, k, permute)
        variants[f"{layout} public"] = (words, lambda w: public(x, w))
        variants[f"{layout} small"] = (words, lambda w: small(x, w))
        variants[f"{layout} wgmma"] = (words, lambda w: wgmma(x, w))
        variants[f"{layout} pair"] = (words, lambda w: pair(x, w))
    route = SWIGLU.large_m_route(m, two_i // 2, k)
    print_variant_rounds(f"fused {two_i}x{k} M={m} W4A16 (forced route {route})", variants)
    del variants
