"""Where 7168x2048 (K = 2048, 32 k-tiles) loses to cuBLAS at 300..600 tokens (session 64:
23.6 us against 15.6 at M = 300): ``nvfp4_gemm`` on its plan and on forced whole 256- /
128-token tiles and the 128-token stream-K, each "public" (its activation pass included) and
"alone" (the same launches on bf16 activations made before: the GEMM kernel without its
pass), NVFP4 activations on permuted words, cuBLAS bf16 beside. Graph us
(``probe_inputs.print_forms``), two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (bf16_weight_rotation, forced_plan, gate_up_words, print_forms,
                          print_variant_rounds, public_and_alone)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, warm_only

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
PLANS = {"plan": None, "w256": (256, 1, False, False), "w128": (128, 1, False, False),
         "sk128": (128, 1, True, False)}
POINTS = [(7168, 2048, 300), (7168, 2048, 450), (7168, 2048, 600)]


def on_plan(call, plan):
    """``call`` with ``nvfp4_gemm``'s plan forced to ``plan`` (None: its own)."""
    def run(w):
        with forced_plan(plan):
            call(w)
    return run


for n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a4, a4_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    alpha = torch.full((1,), 0.5, device="cuda")
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    forms = public_and_alone(a4, a4_sf, alpha, out, words)
    calls = {f"{name}_{form}": on_plan(call, plan)
             for name, plan in PLANS.items() for form, call in forms.items()}
    if not warm_only():
        print(f"gemm {n}x{k} M={m} plan={GEMM.plain_plan(m, n, k)}", flush=True)
    print_forms("  ours", calls, words)
    print_variant_rounds("  cublas", {"cublas": (bf16_weight_rotation(n, k), lambda w: x @ w.t())})
