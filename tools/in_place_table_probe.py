"""The in-place decode of permuted words (``KOrder.PERMUTED_IDENTITY``, W4A16) at 256-token
tiles with its four scale splats a row and K group converted (the default) or looked up in
the 256-entry shared table (``NVFP4GemmLargeM.IN_PLACE_SCALE_TABLE``), on the public route's
launch, beside the public function. Graph us, interleaved, two rounds; one point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import (gate_up_words, permuted_weight_copies, planned, print_variant_rounds,
                          switched_compiler)

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m)
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused
from layouts import sf_padded_shape

POINTS = [("fused", 1024, 7168, 4096), ("gemm", 4096, 7168, 1024), ("gemm", 5120, 17408, 1024),
          ("fused", 4096, 7168, 1024)]
TABLE = {"IN_PLACE_SCALE_TABLE": True}
PLAIN_TABLE = switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM, TABLE,
                                "compile_in_place_table")
FUSED_TABLE = switched_compiler(compile_nvfp4_gemm_swiglu_quant_large_m, NVFP4GemmLargeM, TABLE,
                                "compile_fused_in_place_table")
ORDER = KOrder.PERMUTED_IDENTITY

for kind, n, k, m in select_shapes(POINTS):
    plan = planned(kind, n, k, m)
    alpha = torch.full((1,), 0.5, device="cuda")
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    if kind == "gemm":
        words = permuted_weight_copies(n, k)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)

        def run(w, fn):
            launch_large_m(x, w[0], w[1], alpha, out, **plan, k_order=ORDER, compile_fn=fn)

        def public(w):
            nvfp4_gemm(x, None, w[0], w[1], alpha, out=out)
        fns = (compile_nvfp4_gemm_large_m, PLAIN_TABLE)
    else:
        words = gate_up_words(n, k, True)
        gs = torch.full((1,), 30.0, device="cuda")
        q = torch.empty(m, n // 4, device="cuda", dtype=torch.uint8)
        sf = torch.empty(sf_padded_shape(m, n // 32), device="cuda", dtype=torch.uint8)

        def run(w, fn):
            launch_fused(x, w[0], w[1], alpha, gs, q, sf, **plan, k_order=ORDER, compile_fn=fn)

        def public(w):
            nvfp4_gemm_swiglu_quant(x, None, w[0], w[1], alpha, gs)
        fns = (compile_nvfp4_gemm_swiglu_quant_large_m, FUSED_TABLE)
    calls = {"convert": (words, lambda w: run(w, fns[0])),
             "table": (words, lambda w: run(w, fns[1])),
             "public": (words, public)}
    print_variant_rounds(f"{kind} {n}x{k} M={m} W4A16 in place {plan}", calls)
    del words
