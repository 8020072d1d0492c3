"""Where the activation pass's cost goes in a chain of wgmma GEMM calls (session 87: on the H100
at 7168x2048 M = 256 the pass costs 1.4 us with NVFP4 tokens and 1.8 with bf16 ones, of ~14):
the kernel boundary it adds (the pass waits for the GEMM before it, the next GEMM for the pass)
or its reads and writes. Per point and kind of tokens ("w4a4": NVFP4, "w4a16": bf16), graph us
of back-to-back public calls (interleaved, two rounds): "public" (pass + GEMM), "alone" (the
GEMM on activations made before the capture), "tiny" (alone after a one-CTA copy of one
64-element row: the boundary without the work), "grid" (alone after the bf16 pass's grid
reading one row and writing the rest as zeros into a scratch buffer: the boundary and the
writes). Permuted words. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import fp4_gemm_operands, made_before, print_forms, replaced

from cute_kernels import nvfp4_gemm
from cute_kernels.arch import sm_count
from cute_kernels.bench.timing import select_shapes
from cute_kernels.reorder_k import reorder_k
from cute_kernels.unit_grid import spread_launch

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")

# (N, K, M)
POINTS = [(7168, 2048, 256), (7168, 2048, 64), (7168, 18432, 32), (9216, 7168, 16)]


def stand_ins(make, k: int) -> dict:
    """``bf16_activations`` stand-ins that answer from ``make`` after launching the stub."""
    def tiny(x, x_sf, k_order, rows=None, spread=False):
        reorder_k(TINY)
        return make(x, x_sf, k_order, rows)

    def grid(x, x_sf, k_order, rows=None, spread=False):
        out_rows = max(x.shape[0], rows or 0)
        launch = spread_launch(out_rows, k, sm_count(0)) if spread else ()
        reorder_k(ROW[k], out_rows, launch)
        return make(x, x_sf, k_order, rows)
    return {"tiny": tiny, "grid": grid}


TINY = torch.zeros(1, 64, device="cuda", dtype=torch.bfloat16)
ROW: dict = {}
alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    ROW[k] = x[:1].contiguous()
    make = made_before({}, GEMM.bf16_activations)
    calls = {}
    for kind, (acts, sf) in {"w4a4": (a, a_sf), "w4a16": (x, None)}.items():
        def public(w, acts=acts, sf=sf):
            nvfp4_gemm(acts, sf, w[0], w[1], alpha, out=out)
        calls[f"{kind}"] = public
        for name, stand_in in {"alone": make, **stand_ins(make, k)}.items():
            def form(w, public=public, stand_in=stand_in):
                with replaced(GEMM, {"bf16_activations": stand_in}):
                    public(w)
            for w in weights:  # (the activations made outside any capture)
                form(w)
            calls[f"{kind}_{name}"] = form
    print_forms(f"gemm {n}x{k} M={m}", calls, weights)
    del weights, calls
