"""What the K pieces' fix-up costs on the "pieces" launches (issue 6's 1024x7168 at M = 512 /
1024: the kernels alone take 18.7 / 25.4 us on 128 CTAs of 28 / 56 k-tiles, while whole
128-token tiles of 112 k-tiles at M = 2048 take ~41). Each pieces launch is set beside a
launch of whole 128-token tiles with the same CTAs (128) and the same k-tiles a CTA but no
fix-up: the same weight rows, K / splits, splits x M tokens. The kernels alone on bf16
activations made before (permuted words), "plain" (bf16 out) and "fused" (the consumers
quantize), each with the scattered pieces (``SCATTER_PIECES``, the default) and with
``stream_k_fixup`` ("_fixup"), at two pieces also as a cluster pair's K halves ("_pair",
``pair_pieces``), the public fused op ("public") and cuBLAS bf16 on each shape.
Session 55 call 1 (before the scattered pieces), graph us: M = 512 plain 18.8 / fused 20.4,
its twin 13.5 / 14.7; M = 1024 25.6 / 27.3, its twin 21.7 / 23.1. Graph us, interleaved, two
rounds; one point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles
only."""

import torch
from probe_inputs import pieces_operands, print_variant_rounds, switched_compiler

from cute_kernels import nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import rotations_for, select_shapes
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m as launch_plain)
from cute_kernels.swiglu_quant_large_m import (compile_nvfp4_gemm_swiglu_quant_large_m,
                                               launch_large_m as launch_fused)

# (2I, K, M, tile_m, splits, twin): the pieces launch; its twin (where asked) is (2I,
# K / splits, M x splits, tile_m, 1). The last three: other "pieces" routes the scattered
# pieces take (the fused op at 64-token tiles, 4096x7168 at 128 / 256 tokens)
POINTS = [(1024, 7168, 512, 128, 4, True), (1024, 7168, 1024, 128, 2, True),
          (1024, 7168, 256, 64, 4, False), (4096, 7168, 128, 128, 4, False),
          (4096, 7168, 256, 128, 2, False)]
OFF = {"SCATTER_PIECES": False}
PLAIN_FIXUP = switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM, OFF,
                                "compile_nvfp4_gemm_large_m_fixup")
FUSED_FIXUP = switched_compiler(compile_nvfp4_gemm_swiglu_quant_large_m, NVFP4GemmLargeM, OFF,
                                "compile_nvfp4_gemm_swiglu_quant_large_m_fixup")


def time_launch(two_i: int, k: int, m: int, tile_m: int, splits: int) -> None:
    ops, words, alpha, gscale, out16 = pieces_operands(two_i, k, m)
    x16, q, sf = ops["x16"], ops["q"], ops["sf"]
    x = reference.nvfp4_dequantize(ops["a"], ops["a_sf"], 100.0, m, k,
                                   out_dtype=torch.bfloat16)
    w16 = torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16)
    w16s = [w16] + [w16.clone() for _ in range(rotations_for(two_i * k * 2) - 1)]
    def plain(w, compile_fn=compile_nvfp4_gemm_large_m):
        launch_plain(x16, w[0], w[1], alpha, out16, (tile_m, 0), splits, k_order=KOrder.PERMUTED,
                     compile_fn=compile_fn)

    def fused(w, compile_fn=compile_nvfp4_gemm_swiglu_quant_large_m):
        launch_fused(x16, w[0], w[1], alpha, gscale, q, sf, (tile_m, 0), splits=splits,
                     k_order=KOrder.PERMUTED, quantizers=0, compile_fn=compile_fn)

    variants = {
        "plain": (words, plain),
        "plain_fixup": (words, lambda w: plain(w, PLAIN_FIXUP)),
        "fused": (words, fused),
        "fused_fixup": (words, lambda w: fused(w, FUSED_FIXUP)),
        "public": (words, lambda w: nvfp4_gemm_swiglu_quant(ops["a"], ops["a_sf"], w[0], w[1],
                                                            0.5, 30.0)),
        "cublas": (w16s, lambda w: x @ w.t()),
    }
    if splits == 2:  # the two K halves in a cluster pair instead (``pair_pieces``)
        variants["plain_pair"] = (words, lambda w: launch_plain(
            x16, w[0], w[1], alpha, out16, (tile_m, 0), k_order=KOrder.PERMUTED,
            pair_pieces=True))
        variants["fused_pair"] = (words, lambda w: launch_fused(
            x16, w[0], w[1], alpha, gscale, q, sf, (tile_m, 0), k_order=KOrder.PERMUTED,
            pair_pieces=True))
    print_variant_rounds(f"{two_i}x{k} M={m} {tile_m}-token tiles x {splits} pieces", variants)


for two_i, k, m, tile_m, splits, twin in select_shapes(POINTS):
    time_launch(two_i, k, m, tile_m, splits)
    if twin:
        time_launch(two_i, k // splits, m * splits, tile_m, 1)
