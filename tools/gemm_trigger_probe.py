"""``NVFP4GemmLargeM``'s ``pdl_trigger`` (the consumers let the next launch start after their
first main loop) where ``launch_planned`` takes it: per point, graph us of back-to-back
``nvfp4_gemm`` calls as the suites time them (interleaved, two rounds), the public route
("public", the trigger by the rule) against the same launch without it ("untriggered").
Session 35 measured the first points with the trigger on every launch (7168x2048 M = 32 / 64
and stream-K plans gained 0.4-0.5 us; launches whose tiles are cut into a fixed number of K
pieces lost); these check the rule over the model shapes' other plans, large M included. One
point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import fp4_gemm_operands, planned_forms, print_forms

from cute_kernels.bench.timing import select_shapes
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm import small_m_regime

# (N, K, M): one-tile-a-CTA launches, stream-K plans, persistent whole tiles at large M
POINTS = [(7168, 2048, 32), (7168, 2048, 64), (7168, 2048, 128), (7168, 2048, 256),
          (7168, 2048, 1024), (7168, 2048, 4096), (4096, 7168, 256), (4096, 7168, 512),
          (4096, 7168, 1024), (4096, 7168, 4096), (9216, 7168, 32), (9216, 7168, 64),
          (9216, 7168, 128), (9216, 7168, 512), (9216, 7168, 4096), (7168, 18432, 32),
          (7168, 18432, 64), (7168, 18432, 256), (7168, 18432, 1024), (5120, 17408, 64),
          (5120, 17408, 256), (36864, 7168, 4096)]

alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    assert not small_m_regime(m, n, k), (n, k, m)
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    plan = plain_plan(m, n, k)
    calls = planned_forms(a, a_sf, alpha, out, plan, {"untriggered": {"pdl_trigger": False}})
    print_forms(f"gemm {n}x{k} M={m} plan={plan}", calls, weights)
    del weights
