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
from probe_inputs import (gate_up_words, permuted_weight_copies, print_forms, replaced_call,
                          switched_fused_small_m_compilers, switched_small_m_compilers)

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import select_shapes

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
POINTS = [("gemm", 9216, 7168), ("gemm", 36864, 7168), ("gemm", 5120, 17408),
          ("fused", 9216, 7168), ("fused", 36864, 7168), ("switches", 9216, 7168)]
CAPS = (0, 1, 2, 4)
# Session 43 (H200 2026-12-02, before its one-wave rules; us, two rounds alike): gemm
# 9216x7168 cap 0 / 1 / 2 / 4 / all 3.21 / 4.89 / 6.87 / 9.37 / 12.78, 36864x7168 8.36 /
# 13.17 / 19.38 / 29.25 / 42.04, 5120x17408 7.32 / 8.74 / 10.54 / 14.74 / 17.52; fused
# 9216x7168 3.12 / 5.18 / 7.03 / 9.80 / 13.88, 36864x7168 7.18 / 12.04 / 21.53 / 31.08 /
# 43.03. The "switches" point (9216x7168 on session 43's rules: PDL at the CTA start, held to
# the wave): the fixed part without that launch ("cap0_nopdl"), without the staged scale
# table, and the whole loop without the table. Measured (call 8): cap0 2.52 / cap0_nopdl
# 3.19 / cap0_notable 2.48 / notable 12.81 / all 12.22.
SWITCHES = {"cap0": {"PROBE_MAX_STEPS": 0},
            "cap0_nopdl": {"PROBE_MAX_STEPS": 0, "ONE_WAVE_STAGED": False},
            "cap0_notable": {"PROBE_MAX_STEPS": 0, "STAGED_SCALE_TABLE": False},
            "notable": {"STAGED_SCALE_TABLE": False}}


alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for kind, n, k in select_shapes(POINTS):
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    if kind != "fused":
        weights = permuted_weight_copies(n, k)
        out = torch.empty(1, n, device="cuda", dtype=torch.bfloat16)

        def public(w):
            nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
        switches = SWITCHES if kind == "switches" else {
            f"cap{c}": {"PROBE_MAX_STEPS": c} for c in CAPS}
        calls = {name: replaced_call(public, GEMM, switched_small_m_compilers(name, attrs))
                 for name, attrs in switches.items()}
    else:
        weights = gate_up_words(n, k, True)

        def public(w):
            nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs)
        calls = {f"cap{c}": replaced_call(public, FUSED, switched_fused_small_m_compilers(
            f"cap{c}", {"PROBE_MAX_STEPS": c})) for c in CAPS}
    calls["all"] = public
    print_forms(f"{kind} {n}x{k} M=1", calls, weights)
    del weights, calls
