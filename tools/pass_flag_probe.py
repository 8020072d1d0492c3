"""The activation pass's flag (``nvfp4_gemm.PASS_FLAG``, ``pass_flags``) against the default
wait on the pass launch's end, on ``nvfp4_gemm``'s wgmma routes that take a pass (permuted
words). Session 87 (H100, ``pass_boundary_probe.py``) put a kernel boundary between two GEMMs
of a chain at 0.65-1.35 us: most of the pass's cost at M <= 64.

Per point, graph us of back-to-back calls (interleaved, two rounds): "public" and "flag" on
NVFP4 tokens ("flag_poll1us": the GEMM polls every microsecond), "w4a16" and "w4a16_flag" on
bf16 tokens; first a line saying whether the flagged outputs equal the default's bit for bit.
Session 88 (H100): the flag lost 0.75-1.1 us at every point (polls every 32 ns, the count and
the flag in one line); since then they sit in lines of their own. The points: issue 5's open rows that take a pass
(7168x18432 M = 16 / 32 / 64, 5120x17408 M = 16, 9216x7168 M = 16, W4A16 7168x2048 M = 256)
and two met rows near their bars (4096x7168 M = 32, 7168x2048 M = 64). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (fp4_gemm_operands, launches_compiled_by, print_forms, replaced_call,
                          switched_compiler)

from cute_kernels import nvfp4_gemm
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm import small_m_regime
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m

# (N, K, M)
POINTS = [(7168, 18432, 16), (7168, 18432, 32), (7168, 18432, 64), (5120, 17408, 16),
          (9216, 7168, 16), (7168, 2048, 256), (4096, 7168, 32), (7168, 2048, 64)]

gemm = importlib.import_module("cute_kernels.nvfp4_gemm")
slow_polls = launches_compiled_by(gemm, switched_compiler(
    compile_nvfp4_gemm_large_m, NVFP4GemmLargeM, {"FLAG_POLL_NS": 1000},
    "compile_large_m_poll1us"))
alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    assert not small_m_regime(m, n, k, True, True), (n, k, m)
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    calls = {"public": lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)}
    calls["flag"] = replaced_call(calls["public"], gemm, {"PASS_FLAG": True})
    calls["flag_poll1us"] = replaced_call(calls["public"], gemm,
                                          {"PASS_FLAG": True} | slow_polls)
    calls["w4a16"] = lambda w: nvfp4_gemm(x, None, w[0], w[1], alpha, out=out)
    calls["w4a16_flag"] = replaced_call(calls["w4a16"], gemm, {"PASS_FLAG": True})
    if not warm_only():
        same = []
        for default, flagged in (("public", "flag"), ("w4a16", "w4a16_flag")):
            calls[default](weights[0])
            want = out.clone()
            out.fill_(float("nan"))
            calls[flagged](weights[0])
            same.append(torch.equal(out, want))
        print(f"gemm {n}x{k} M={m}: flagged bits equal NVFP4 {same[0]} W4A16 {same[1]}",
              flush=True)
    print_forms(f"gemm {n}x{k} M={m}", calls, weights)
    del weights, calls
