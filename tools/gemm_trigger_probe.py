"""``NVFP4GemmLargeM.PDL_TRIGGER``: the wgmma kernels let the next launch start after each
tile's main loop (the next call's activation pass then launches under this call's epilogue
and exit). Session 34 measured the pass at 1.0-1.35 us of the small-M wgmma launches
(``wg_k_split_probe``, ``CUTE_KERNELS_PROBE_ALONE=1``: 7168x2048 M = 64 8.35 us public against
7.33 on ready activations). Per point, graph us of back-to-back calls as the suites time them
(interleaved, two rounds): the public route ("public") against the same launch compiled with
the trigger ("trigger"); for the fused op on 4096x7168 (``half_group_route``) likewise. One
point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import fused_operands, gate_up_copies, replaced, weight_copies

from cute_kernels import jit, nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_nvfp4_weight
from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us, warm_only
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm import launch_planned, small_m_regime
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m
from cute_kernels.nvfp4_gemm_swiglu_quant import _half_groups, half_group_route
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m

# (kind, N or 2I, K, M): the small weights' one-tile-a-CTA launches, then stream-K plans
POINTS = [("gemm", 4096, 7168, 64), ("gemm", 4096, 7168, 32), ("gemm", 7168, 2048, 64),
          ("gemm", 7168, 2048, 32), ("gemm", 4096, 7168, 128), ("gemm", 4096, 7168, 256),
          ("fused", 4096, 7168, 64), ("fused", 4096, 7168, 256), ("gemm", 9216, 7168, 64),
          ("gemm", 7168, 18432, 64)]


@jit.cached
def _gemm_with_trigger(*args):
    with replaced(NVFP4GemmLargeM, {"PDL_TRIGGER": True}):
        return compile_nvfp4_gemm_large_m.uncached(*args)


@jit.cached
def _fused_with_trigger(*args):
    with replaced(NVFP4GemmLargeM, {"PDL_TRIGGER": True}):
        return compile_nvfp4_gemm_swiglu_quant_large_m.uncached(*args)


alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for kind, n, k, m in select_shapes(POINTS):
    if kind == "gemm":
        assert not small_m_regime(m, n, k), (n, k, m)
        weights = [(prepare_nvfp4_weight(b), s) for b, s in weight_copies(n, k)]
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        a, a_sf = reference.nvfp4_quantize(x, 100.0)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        plan = plain_plan(m, n, k)
        calls = {
            "public": lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out),
            "trigger": lambda w: launch_planned(a, a_sf, w[0], w[1], alpha, out, plan,
                                                wg_k_split=True,
                                                compile_fn=_gemm_with_trigger),
        }
    else:
        assert half_group_route(m, n // 2, k), (n, k, m)
        weights = [(prepare_nvfp4_weight(w), s) for w, s in gate_up_copies(n, k)]
        ops = fused_operands(n, k, m, True)
        a, a_sf, q, sf = (ops[key] for key in ("a", "a_sf", "q", "sf"))
        calls = {
            "public": lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, out=q,
                                                        out_sf=sf),
            "trigger": lambda w: _half_groups(a, a_sf, w[0], w[1], alpha, gs, q, sf,
                                              compile_fn=_fused_with_trigger),
        }
    for fn in calls.values():  # compiles
        fn(weights[0])
    torch.cuda.synchronize()
    if warm_only():
        continue
    groups = [[lambda w=w, fn=fn: fn(w) for w in weights] for fn in calls.values()]
    for _ in range(2):
        times = time_graphs_interleaved_us(groups, 100)
        print(f"{kind} {n}x{k} M={m}: " + " ".join(
            f"{name}={t:.2f}" for name, t in zip(calls, times)), flush=True)
    del weights
