"""W4A16's activation pass, ``reorder_k``'s copy, with its unit's 8 words as 4 sixteen-byte
loads (``ReorderK.WIDE_LOADS``, session 87) against the 8 four-byte loads before. The pass runs
between two GEMMs of a chain (it waits for the one before, the next waits for it): issue 5's
open W4A16 rows take it (7168x2048 M = 256 at 0.87x cuBLAS against W4A4's 0.90x; 7168x18432
M = 16..64 at 1.35-1.46x QuACK; 9216x7168 and 5120x17408 M = 8 / 16 at 54-57% of the
roofline). Per point, graph us of back-to-back public calls (interleaved, two rounds):
"wide" (the tree), "narrow" (the four-byte loads), "w4a4" (NVFP4 activations: the dequantize
pass instead), permuted words. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import fp4_gemm_operands, print_forms, replaced_call, switched_compiler

from cute_kernels import nvfp4_gemm
from cute_kernels.bench.timing import select_shapes
from cute_kernels.reorder_k import ReorderK, compile_reorder_k

REORDER = importlib.import_module("cute_kernels.reorder_k")
NARROW = switched_compiler(compile_reorder_k, ReorderK, {"WIDE_LOADS": False},
                           "compile_reorder_k_narrow")

# (N, K, M)
POINTS = [(7168, 2048, 256), (7168, 18432, 16), (7168, 18432, 64), (9216, 7168, 16),
          (5120, 17408, 8), (7168, 2048, 64), (4096, 7168, 32)]

alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)

    def wide(w):
        nvfp4_gemm(x, None, w[0], w[1], alpha, out=out)

    calls = {"wide": wide,
             "narrow": replaced_call(wide, REORDER, {"compile_reorder_k": NARROW}),
             "w4a4": lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)}
    wide(weights[0])
    want = out.clone()
    calls["narrow"](weights[0])
    assert torch.equal(out, want), f"{n}x{k} M={m}: narrow loads differ from wide"
    print_forms(f"w4a16 {n}x{k} M={m}", calls, weights)
    del weights, calls
