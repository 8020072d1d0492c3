"""The small-M kernel's register path with its scale table filled before the PDL wait
(``SmallMLaunchRules.TABLE_BEFORE_WAIT``) instead of after it, where the first weights are
loaded before the wait (one wave of register-path CTAs, short K). Issue 5's bar at 9216x7168
M = 4 / 8 (60% of the roofline) is 14.70 us; session 40's suite had 14.73 / 14.77.

Per point, graph us of back-to-back ``nvfp4_gemm`` calls (interleaved, two rounds): the public
route ("public") and the same with the table first ("table"), whose outputs are checked equal
to the public route's. Permuted words, NVFP4 activations. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import fp4_gemm_operands, print_forms, replaced_call, switched_compiler

from cute_kernels import nvfp4_gemm
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm import small_m_regime
from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM, compile_nvfp4_gemm_small_m
from cute_kernels.nvfp4_gemm_small_m_split import compile_nvfp4_gemm_small_m_split

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
# (N, K, M): the one-wave register-path points, 7168x2048's short K
POINTS = [(9216, 7168, 4), (9216, 7168, 8), (5120, 17408, 4), (5120, 17408, 8),
          (4096, 7168, 4), (4096, 7168, 8), (7168, 18432, 4), (7168, 18432, 8),
          (7168, 2048, 4), (7168, 2048, 8)]
TABLE_FIRST = {name: switched_compiler(fn, NVFP4GemmSmallM, {"TABLE_BEFORE_WAIT": True},
                                      name.replace("compile_", "compile_table_first_"))
               for name, fn in (("compile_nvfp4_gemm_small_m", compile_nvfp4_gemm_small_m),
                                ("compile_nvfp4_gemm_small_m_split",
                                 compile_nvfp4_gemm_small_m_split))}

alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    assert small_m_regime(m, n, k, True, True), (n, k, m)
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)

    def public(w):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    calls = {"public": public, "table": replaced_call(public, GEMM, TABLE_FIRST)}
    public(weights[0])
    expected = out.clone()
    out.zero_()
    calls["table"](weights[0])
    torch.cuda.synchronize()
    if not torch.equal(out, expected):
        print(f"gemm {n}x{k} M={m}: table output DIFFERS from the public route's")
    print_forms(f"gemm {n}x{k} M={m}", calls, weights)
    del weights, calls
