"""Session 37: W4A16 under the PDL trigger. Session 35's trigger (and session 36's rule) also
covers W4A16 launches, whose pass is ``reorder_k``'s reordering copy of the bf16 activations;
unspread, that copy launches under the triggering GEMM and piles onto the few free SMs as the
NVFP4 pass did (the suite's W4A16 4096x7168 on packed bytes went from 14.1 / 16.0 us at M = 32
/ 64 in session 33 to 16.7 / 21.1 in session 36). Per point, graph us of back-to-back calls
(interleaved, two rounds): the public route ("public": past 16 tokens the wgmma launch with the
copy now spread where it triggers; at 4..16 tokens, where W4A16 keeps the small kernel, that),
the wgmma launch by the rule ("wgmma": the copy spread), the same with the copy unspread
("unspread": session 36's route) and untriggered ("untriggered"). The 4..8-token points ask
whether W4A16 should leave the small kernel there too (4096x7168 M = 8 14.3 us, 7168x2048
M = 8 10.7, against 11.8 / 7.7 at M = 16 on the wgmma launch, session 36's suite). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import permuted_weight_copies, planned_forms, print_forms, weight_copies

from cute_kernels.bench.timing import select_shapes
from cute_kernels.large_m_plans import packed_plan, plain_plan

# (N, K, M, permuted words)
POINTS = [(4096, 7168, 32, False), (4096, 7168, 64, False), (4096, 7168, 128, False),
          (4096, 7168, 256, False), (4096, 7168, 32, True), (4096, 7168, 64, True),
          (7168, 2048, 64, False), (7168, 2048, 256, False), (4096, 7168, 17, False),
          (4096, 7168, 4, False), (4096, 7168, 8, False), (4096, 7168, 16, False),
          (7168, 2048, 4, False), (7168, 2048, 8, False), (7168, 2048, 16, False),
          (4096, 7168, 8, True), (7168, 2048, 8, True)]

alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m, permuted in select_shapes(POINTS):
    weights = permuted_weight_copies(n, k) if permuted else weight_copies(n, k)
    a = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    plan = plain_plan(m, n, k) if permuted else packed_plan(m, n, k)
    calls = planned_forms(a, None, alpha, out, plan,
                          {"wgmma": {}, "unspread": {"spread_pass": False},
                           "untriggered": {"pdl_trigger": False}})
    form = "permuted" if permuted else "packed"
    print_forms(f"W4A16 {form} {n}x{k} M={m} plan={plan}", calls, weights)
    del weights
