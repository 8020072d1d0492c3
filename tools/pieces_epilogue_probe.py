"""What the fused epilogue costs on the "pieces" launches (session 53: the fused op at
1024x7168 M = 512 / 1024 took 23.5 / 32.0 us where ``nvfp4_gemm`` on the same launch took
20.9 / 29.6 and cuBLAS + silu 21.0 / 29.8). The kernels alone on the same bf16 activations
(made before; permuted words, ``KOrder.PERMUTED``), 128-token tiles in ``splits`` pieces:
"plain" (``nvfp4_gemm``'s kernel, bf16 out [M, 2I]), "fused" (the fused kernel, its
quantizer warps by ``quantizer_warps``' rule), "fused_q0" (the consumers quantize), and the
public fused op ("public", its pass included), also with the PDL trigger after each CTA's
first main loop ("public_trigger") and with the pass spread under the kernel before it too
("public_spread"), as ``nvfp4_gemm``'s plans may launch. Graph us, interleaved, two rounds;
one point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

from probe_inputs import pieces_operands, print_variant_rounds, replaced

from cute_kernels import nvfp4_gemm_swiglu_quant
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import launch_large_m as launch_plain
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_dequant import bf16_activations

SWIGLU = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
ROUTE_LAUNCH = SWIGLU.route_launch


def triggered_pieces(route, plan, m, two_i, k):
    """``route_launch`` with the PDL trigger on the "pieces" route."""
    config, stream_k, options = ROUTE_LAUNCH(route, plan, m, two_i, k)
    if route == "pieces":
        options = dict(options, pdl_trigger=True)
    return config, stream_k, options


def spread_pass(a, a_sf, k_order, rows=None, spread=False):
    return bf16_activations(a, a_sf, k_order, rows, True)


def public_with(attrs: dict, a, a_sf):
    def run(w):
        with replaced(SWIGLU, attrs):
            nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)
    return run


# (2I, K, M, splits): the public route's launch at each point ("pieces", 128-token tiles)
POINTS = [(1024, 7168, 512, 4), (1024, 7168, 1024, 2)]

for two_i, k, m, splits in select_shapes(POINTS):
    ops, words, alpha, gscale, out16 = pieces_operands(two_i, k, m)
    x16, q, sf = ops["x16"], ops["q"], ops["sf"]

    def fused(w, quantizers=None):
        launch_fused(x16, w[0], w[1], alpha, gscale, q, sf, (128, 0), splits=splits,
                     k_order=KOrder.PERMUTED, quantizers=quantizers)

    variants = {
        "plain": (words, lambda w: launch_plain(x16, w[0], w[1], alpha, out16, (128, 0),
                                                splits, k_order=KOrder.PERMUTED)),
        "fused": (words, fused),
        "fused_q0": (words, lambda w: fused(w, 0)),
        "public": (words, lambda w: nvfp4_gemm_swiglu_quant(ops["a"], ops["a_sf"], w[0], w[1],
                                                            0.5, 30.0)),
        "public_trigger": (words, public_with({"route_launch": triggered_pieces}, ops["a"],
                                              ops["a_sf"])),
        "public_spread": (words, public_with({"route_launch": triggered_pieces,
                                              "bf16_activations": spread_pass}, ops["a"],
                                             ops["a_sf"])),
    }
    print_variant_rounds(f"{two_i}x{k} M={m} pieces 128x{splits}", variants)
    del variants, words
