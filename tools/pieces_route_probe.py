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

import torch
import torch.nn.functional as F
from probe_inputs import (permuted_weight_copies, pieces_operands, print_variant_rounds,
                          replaced)

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import rotations_for, select_shapes

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")

# (N = 2I, K, M)
POINTS = [(4096, 7168, 65), (4096, 7168, 128), (4096, 7168, 192), (4096, 7168, 256)]

for n, k, m in select_shapes(POINTS):
    ops, gate_up, _, _, _ = pieces_operands(n, k, m)
    a, a_sf = ops["a"], ops["a_sf"]
    words = permuted_weight_copies(n, k)
    x = reference.nvfp4_dequantize(a, a_sf, 100.0, m, k, out_dtype=torch.bfloat16)
    w16 = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    w16s = [w16] + [w16.clone() for _ in range(rotations_for(n * k * 2) - 1)]

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
