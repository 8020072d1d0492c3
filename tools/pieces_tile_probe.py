"""The fused op's 1024x7168 launches at 512..2048 tokens with the scattered K pieces
(``SCATTER_PIECES``, session 55): 128-token tiles (the route's plans: four pieces at M = 512,
two at 1024, whole tiles at 2048) against 256-token tiles in twice the pieces (the same 128
CTAs, wgmma N = 256, half the activations' reads from L2, twice the fix-up bytes). Per plan
(tile_m, splits): the fused kernel alone on bf16 activations made before ("k" + plan) and the
public op with ``large_m_route`` replaced by it ("p" + plan); cuBLAS + torch silu * up beside.
Graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
import torch.nn.functional as F
from probe_inputs import pieces_operands, print_variant_rounds, replaced

from cute_kernels import nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import rotations_for, select_shapes
from cute_kernels.k_order import KOrder
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused

FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")

# (2I, K, M, plans (tile_m, splits))
POINTS = [(1024, 7168, 512, [(128, 4), (256, 8)]), (1024, 7168, 1024, [(128, 2), (256, 4)]),
          (1024, 7168, 2048, [(128, 1), (256, 2)])]


def route_of(tile_m: int, splits: int):
    return ("pieces", (tile_m, splits)) if splits > 1 else ("whole", (tile_m, 0))


for two_i, k, m, plans in select_shapes(POINTS):
    ops, words, alpha, gscale, _ = pieces_operands(two_i, k, m)
    x16, q, sf = ops["x16"], ops["q"], ops["sf"]
    if m % 256:  # (256-token tiles read whole tiles of activations)
        x16 = torch.cat([x16, x16.new_zeros(-m % 256, k)])
    x = x16[:m]
    w16 = torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16)
    w16s = [w16] + [w16.clone() for _ in range(rotations_for(two_i * k * 2) - 1)]

    def kernel(w, tile_m, splits):
        launch_fused(x16, w[0], w[1], alpha, gscale, q, sf, (tile_m, 0), splits > 1,
                     splits=splits, k_order=KOrder.PERMUTED, quantizers=0)

    def public(w, tile_m, splits):
        with replaced(FUSED, {"large_m_route": lambda *_: route_of(tile_m, splits)}):
            nvfp4_gemm_swiglu_quant(ops["a"], ops["a_sf"], w[0], w[1], 0.5, 30.0)

    def cublas_silu(w):
        y = x @ w.t()
        return F.silu(y[:, :two_i // 2]) * y[:, two_i // 2:]

    variants = {}
    for tile_m, splits in plans:
        variants[f"k{tile_m}x{splits}"] = (words, lambda w, t=tile_m, s=splits: kernel(w, t, s))
        variants[f"p{tile_m}x{splits}"] = (words, lambda w, t=tile_m, s=splits: public(w, t, s))
    variants["cublas_silu"] = (w16s, cublas_silu)
    print_variant_rounds(f"{two_i}x{k} M={m} route {FUSED.large_m_route(m, two_i // 2, k)}",
                         variants)
