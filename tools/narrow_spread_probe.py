"""Session 36: where the wgmma launch with the PDL trigger and the spread activation pass
(``pdl_trigger_plan``, ``spread_launch``) now stands against the small-M kernel at 9..16
tokens, and the spread pass on stream-K plans (the rule keeps them unspread: the first spread,
4 units a thread, lost at 7168x18432 M = 64). Per point, graph us of back-to-back calls
(interleaved, two rounds): the public route ("public"), the wgmma launch by the rule
(``launch_planned``, "wgmma"), with the spread pass ("spread") and without the PDL trigger
("untrig"; session 50, which added the 32- and 64-token points after the index 9). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import fp4_gemm_operands, planned_forms, print_forms

from cute_kernels.bench.timing import select_shapes
from cute_kernels.large_m_plans import plain_plan

POINTS = [(4096, 7168, 9), (4096, 7168, 12), (4096, 7168, 16), (7168, 2048, 16),
          (9216, 7168, 16), (5120, 17408, 16), (7168, 18432, 16), (7168, 18432, 64),
          (9216, 7168, 64), (36864, 7168, 64), (7168, 18432, 32), (5120, 17408, 32),
          (9216, 7168, 32), (5120, 17408, 64)]

alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    plan = plain_plan(m, n, k)
    calls = planned_forms(a, a_sf, alpha, out, plan,
                          {"wgmma": {}, "spread": {"spread_pass": True},
                           "untrig": {"pdl_trigger": False}})
    print_forms(f"gemm {n}x{k} M={m} plan={plan}", calls, weights)
    del weights
