"""The activations' pass spread over the SMs (``bf16_activations(spread=True)``: at most as
many CTAs an SM as its grid needs) with and without ``NVFP4GemmLargeM``'s ``pdl_trigger``.
Session 36's timeline (``tools/trigger_timeline.py``) found where the trigger loses: the next
call's pass launches under this GEMM, its CTAs pile onto the few SMs free then and on the first
that free up, and it runs 2-3x as long (4096x7168 M = 64 pair: 2.5 -> 6.4 us). Per point,
graph us of back-to-back ``nvfp4_gemm`` launches (``launch_planned``, interleaved, two rounds):
the public route and the four (trigger, spread) forms. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import fp4_gemm_operands, planned_forms, print_forms

from cute_kernels.bench.timing import select_shapes
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm import small_m_regime

# (N, K, M): the pairs and K pieces, one tile a CTA, stream-K, past 256 tokens
POINTS = [(4096, 7168, 32), (4096, 7168, 64), (4096, 7168, 128), (4096, 7168, 256),
          (4096, 7168, 512), (4096, 7168, 1024), (7168, 2048, 32), (7168, 2048, 64),
          (7168, 2048, 256), (9216, 7168, 64), (7168, 18432, 32), (7168, 18432, 64),
          (5120, 17408, 256), (9216, 7168, 256),
          # 14..: where session 36's rule (``pdl_trigger_plan``) takes both, unmeasured before
          (7168, 2048, 128), (7168, 2048, 512), (7168, 18432, 256), (4096, 7168, 17),
          (7168, 2048, 1024),
          # 19..: past 512 tokens, where no launch triggers (session 37, for a rule there)
          (7168, 2048, 2048), (4096, 7168, 2048), (9216, 7168, 1024), (7168, 18432, 1024),
          (5120, 17408, 1024), (36864, 7168, 1024), (34816, 5120, 1024),
          # 26..: stream-K with more tiles than CTAs at 16 / 32 tokens, where the fused op's
          # same launch gained with the trigger (session 38) and ``pdl_trigger_plan`` has none
          (36864, 7168, 16), (34816, 5120, 16), (36864, 7168, 32), (34816, 5120, 32),
          # 30..: the same weights on wider stream-K tiles at one CTA an SM (session 38)
          (36864, 7168, 64), (34816, 5120, 64), (36864, 7168, 128), (34816, 5120, 128),
          (36864, 7168, 256), (34816, 5120, 256)]
FORMS = {"plain": (False, False), "trigger": (True, False), "spread": (False, True),
         "both": (True, True)}

alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    assert not small_m_regime(m, n, k), (n, k, m)
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    plan = plain_plan(m, n, k)
    calls = planned_forms(a, a_sf, alpha, out, plan,
                          {name: {"pdl_trigger": t, "spread_pass": sp}
                           for name, (t, sp) in FORMS.items()})
    print_forms(f"gemm {n}x{k} M={m} plan={plan}", calls, weights)
    del weights
