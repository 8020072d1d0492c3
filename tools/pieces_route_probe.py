"""Whether the scattered K pieces (``SCATTER_PIECES``, session 55) now beat the 64-row-tile
routes at 4096x7168 M = 65..256 (session 55 call 2: the pieces kernels alone at M = 128 took
16.5 us plain, 17.4 fused, where the public fused op took 20.2 on its half-group route).
Public calls, permuted words, NVFP4 activations, the pass included: "gemm" (``nvfp4_gemm`` as
routed) and "gemm_pieces" (``wg_k_split_plan`` off: ``plain_plan``'s split-K launch), "fused"
(``nvfp4_gemm_swiglu_quant`` as routed) and "fused_pieces" (``half_group_route`` off:
``large_m_route``'s "pieces"), cuBLAS bf16 and cuBLAS + torch silu * up beside. Graph us,
interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch.nn.functional as F
from probe_inputs import print_variant_rounds, replaced, route_point_operands

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")

# (N = 2I, K, M)
POINTS = [(4096, 7168, 65), (4096, 7168, 128), (4096, 7168, 192), (4096, 7168, 256)]

for n, k, m in select_shapes(POINTS):
    a, a_sf, words, gate_up, x, w16s = route_point_operands(n, k, m)

    def gemm(w, pieces=False):
        with replaced(GEMM, {"wg_k_split_plan": lambda *_: None} if pieces else {}):
            nvfp4_gemm(a, a_sf, w[0], w[1], 0.5)

    def fused(w, pieces=False):
        with replaced(FUSED, {"half_group_route": lambda *_: False} if pieces else {}):
            nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)

    def cublas_silu(w):
        y = x @ w.t()
        return F.silu(y[:, :n // 2]) * y[:, n // 2:]

    variants = {"gemm": (words, gemm), "gemm_pieces": (words, lambda w: gemm(w, True)),
                "fused": (gate_up, fused), "fused_pieces": (gate_up, lambda w: fused(w, True)),
                "cublas": (w16s, lambda w: x @ w.t()), "cublas_silu": (w16s, cublas_silu)}
    print_variant_rounds(f"{n}x{k} M={m} fused route {FUSED.large_m_route(m, n // 2, k)}",
                         variants)
