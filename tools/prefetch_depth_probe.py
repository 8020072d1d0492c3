"""How many weight k-tiles the wgmma GEMM prefetches into L2 before it waits for its activation
pass (``NVFP4GemmLargeM.PREFETCH_K_TILES``; default: the pipeline's stages, 5..8). Session 40
(``tools/spread_ctas_probe.py``): where the pass's CTAs go does not move the pass's cost (2.4 us
of 7168x18432 M = 16, public 30.24 / alone 27.87; 1.9 of 9216x7168 M = 16; 0.93 of 4096x7168
M = 16, issue 5's bars 29.2 / 14.6 / ~9.2 us). The GEMM's CTAs idle from their start until the
pass ends; in that time DRAM could bring more than the stages' bytes.

Per point, graph us of back-to-back calls (interleaved, two rounds): "public" (pass + GEMM),
"alone" (no pass), and the public route's launch with 12 / 24 / 48 k-tiles prefetched ("d12",
...; each CTA's first piece at most). The variants' outputs are checked equal to the public
route's. One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles
only."""

import functools

import torch
from probe_inputs import fp4_gemm_operands, print_forms, public_and_alone, replaced

from cute_kernels import jit
from cute_kernels.bench.timing import select_shapes
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm import launch_planned, small_m_regime
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m

# (N, K, M): the 16-token stream-K points, 4096x7168's cluster pairs, the 64-row tiles of
# 7168x2048, 7168x18432 past 16 tokens
POINTS = [(7168, 18432, 16), (9216, 7168, 16), (5120, 17408, 16), (4096, 7168, 16),
          (7168, 2048, 32), (7168, 2048, 64), (7168, 18432, 32), (7168, 18432, 64),
          (4096, 7168, 64)]
DEPTHS = (12, 24, 48)


@jit.cached
def compile_depth(depth: int, *args):
    """``compile_nvfp4_gemm_large_m(*args)`` prefetching ``depth`` k-tiles before the wait."""
    with replaced(NVFP4GemmLargeM, {"PREFETCH_K_TILES": depth}):
        return compile_nvfp4_gemm_large_m.uncached(*args)


alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    assert not small_m_regime(m, n, k, True, True), (n, k, m)
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    calls = public_and_alone(a, a_sf, alpha, out, weights)
    plan = plain_plan(m, n, k)
    for depth in DEPTHS:
        calls[f"d{depth}"] = lambda w, d=depth: launch_planned(
            a, a_sf, w[0], w[1], alpha, out, plan, wg_k_split=True,
            compile_fn=functools.partial(compile_depth, d))
    expected = out.clone()
    calls["public"](weights[0])
    torch.cuda.synchronize()
    expected.copy_(out)
    for depth in DEPTHS:
        out.fill_(float("nan"))
        calls[f"d{depth}"](weights[0])
        torch.cuda.synchronize()
        if not torch.equal(out.view(torch.int16), expected.view(torch.int16)):
            print(f"gemm {n}x{k} M={m}: d{depth} output DIFFERS from the public route's")
    print_forms(f"gemm {n}x{k} M={m}", calls, weights)
    del weights, calls
