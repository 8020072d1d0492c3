"""``nvfp4_gemm``'s plan with one of ``large_m_plans``' switches off beside the plan with it
as shipped, and cuBLAS bf16 (``probe_inputs.print_old_and_new_plans``), at each point's
(N, K, M, switch, value when off). One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import plan_with, print_old_and_new_plans

from cute_kernels import large_m_plans
from cute_kernels.bench.timing import select_shapes

SHORT_HYBRID = ("PLAIN_STREAM_K_FOR_SHORT_HYBRID", False)
PART_WAVE = ("PLAIN_PART_WAVE_MAX_FILL", 0.0)
# 0..8: session 64 call 4 (short K, whole 256-token tiles under 90% of two waves or more);
# 9..: the 128-token stream-K in lanes for whole 128-token tiles in part of a wave
POINTS = [(7168, 2048, 1200, *SHORT_HYBRID), (7168, 2048, 2350, *SHORT_HYBRID),
          (7168, 2048, 2450, *SHORT_HYBRID), (7168, 2048, 3000, *SHORT_HYBRID),
          (7168, 2048, 4750, *SHORT_HYBRID), (4096, 2048, 3200, *SHORT_HYBRID),
          (4096, 2048, 6200, *SHORT_HYBRID), (2048, 2048, 4400, *SHORT_HYBRID),
          (1024, 2048, 9000, *SHORT_HYBRID), (4096, 7168, 320, *PART_WAVE),
          (4096, 5120, 260, *PART_WAVE), (4096, 5120, 300, *PART_WAVE),
          (4096, 5120, 384, *PART_WAVE)]

for n, k, m, switch, off in select_shapes(POINTS):
    print_old_and_new_plans(n, k, m, plan_with(large_m_plans, switch, off, m, n, k),
                            large_m_plans.plain_plan(m, n, k))
