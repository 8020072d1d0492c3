"""The fused op (public, permuted words, bf16 tokens) with ``NVFP4GemmSwigluQuantLargeM.TILE_8``
off ("old": its narrow route on 16-token tiles) and on ("new": 8-token tiles, as the plain GEMM
takes them at 4..8 tokens since session 81), beside the unfused pair and cuBLAS + silu, at
W4A16 M = 4 / 8 on the big gate_up weights whose narrow route it is (36864x7168, 34816x5120).
Graph us, two rounds; codes and scales compared (a difference is named: another stream-K cut
may round at a boundary). Run after ``tests/test_fused_tile8.py`` passes on the GPU. One point
per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import (bf16_weight_rotation, cublas_silu, fused_point, print_variant_rounds,
                          replaced, same_bits, unfused_pair)

from cute_kernels import nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm_swiglu_quant import large_m_route
from cute_kernels.swiglu_quant_large_m import NVFP4GemmSwigluQuantLargeM

POINTS = [(two_i, k, m) for two_i, k in ((36864, 7168), (34816, 5120)) for m in (4, 8)]


def fused_with(tile_8: bool, x, w):
    """The public fused op (alpha 0.5, out_global_scale 30) with ``TILE_8`` set, its memoized
    route cleared either side."""
    with replaced(NVFP4GemmSwigluQuantLargeM, {"TILE_8": tile_8}):
        large_m_route.cache_clear()
        got = nvfp4_gemm_swiglu_quant(x, None, w[0], w[1], 0.5, 30.0)
    large_m_route.cache_clear()
    return got


for two_i, k, m in select_shapes(POINTS):
    x, _, _, words = fused_point(two_i, k, m)
    if not warm_only():
        with replaced(NVFP4GemmSwigluQuantLargeM, {"TILE_8": True}):
            large_m_route.cache_clear()
            print(f"fused {two_i}x{k} M={m}: route with TILE_8 {large_m_route(m, two_i // 2, k)}",
                  flush=True)
        large_m_route.cache_clear()
        if not same_bits(fused_with(True, x, words[0]), fused_with(False, x, words[0])):
            print("  new: codes or scales differ from old", flush=True)
    print_variant_rounds(f"fused W4A16 {two_i}x{k} M={m} narrow route 16- -> 8-token tiles",
                         {"old": (words, lambda w: fused_with(False, x, w)),
                          "new": (words, lambda w: fused_with(True, x, w)),
                          "pair": (words, unfused_pair(x, None, two_i)),
                          "cublas_silu": (bf16_weight_rotation(two_i, k),
                                          lambda w: cublas_silu(x, w))})
    del words
    torch.cuda.empty_cache()
