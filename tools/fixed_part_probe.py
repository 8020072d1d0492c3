"""What the one-token launch's fixed part is made of. Session 42's balance probe put the
plain GEMM at M = 1 at ~3.2 us plus the weight bytes at ~4.05 TB/s (8448 / 9216 / 10560 x 7168:
11.60 / 12.80 / 13.70 us); that part keeps 9216x7168 at 68% of the copy (issue 5 asks 75%).
Here the same launches (same grid, rules and registers) run at most 0 / 1 / 2 / 4 main-loop
iterations a warp (``NVFP4GemmSmallM.PROBE_MAX_STEPS``; 0: the first step's loads, the
staging, the scale table, the warps' sums and the stores only), beside the whole loop
("all"), so the time at 0 is the launch's fixed part and the slope the stream's cost a step.
The capped outputs miss K steps: timing only.

Per point, graph us of back-to-back public calls at M = 1 (permuted words, NVFP4
activations), interleaved, two rounds. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (gate_up_words, permuted_weight_copies, print_forms, replaced,
                          replaced_call, switched_small_m_compilers)

from cute_kernels import jit, nvfp4_gemm, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM
from cute_kernels.nvfp4_gemm_swiglu_quant import compile_nvfp4_gemm_swiglu_quant_small_m

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
POINTS = [("gemm", 9216, 7168), ("gemm", 36864, 7168), ("gemm", 5120, 17408),
          ("fused", 9216, 7168), ("fused", 36864, 7168)]
CAPS = (0, 1, 2, 4)


def fused_compiler(cap: int):
    """The fused small-M compile function with ``PROBE_MAX_STEPS`` = cap (its own cache key)."""
    def compile_capped(*args):
        with replaced(NVFP4GemmSmallM, {"PROBE_MAX_STEPS": cap}):
            return compile_nvfp4_gemm_swiglu_quant_small_m.uncached(*args)
    compile_capped.__name__ = compile_capped.__qualname__ = f"compile_fused_cap{cap}"
    return jit.cached(compile_capped)


alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for kind, n, k in select_shapes(POINTS):
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    if kind == "gemm":
        weights = permuted_weight_copies(n, k)
        out = torch.empty(1, n, device="cuda", dtype=torch.bfloat16)

        def public(w):
            nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
        calls = {f"cap{c}": replaced_call(public, GEMM, switched_small_m_compilers(
            f"cap{c}", {"PROBE_MAX_STEPS": c})) for c in CAPS}
    else:
        weights = gate_up_words(n, k, True)

        def public(w):
            nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs)
        calls = {f"cap{c}": replaced_call(public, FUSED, {
            "compile_nvfp4_gemm_swiglu_quant_small_m": fused_compiler(c)}) for c in CAPS}
    calls["all"] = public
    print_forms(f"{kind} {n}x{k} M=1", calls, weights)
    del weights, calls
