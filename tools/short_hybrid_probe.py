"""``nvfp4_gemm``'s stream-K proper where its hybrid would stream too few k-tiles
(``PLAIN_STREAM_K_FOR_SHORT_HYBRID``: short K, whole 256-token tiles under 90% of two waves
or more): the plan with the rule off beside it on and cuBLAS bf16
(``probe_inputs.print_old_and_new_plans``). One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import plan_with, print_old_and_new_plans

from cute_kernels import large_m_plans
from cute_kernels.bench.timing import select_shapes

POINTS = [(7168, 2048, 1200), (7168, 2048, 2350), (7168, 2048, 2450), (7168, 2048, 3000),
          (7168, 2048, 4750), (4096, 2048, 3200), (4096, 2048, 6200), (2048, 2048, 4400),
          (1024, 2048, 9000)]

for n, k, m in select_shapes(POINTS):
    print_old_and_new_plans(n, k, m, plan_with(large_m_plans, "PLAIN_STREAM_K_FOR_SHORT_HYBRID",
                                               False, m, n, k),
                            large_m_plans.plain_plan(m, n, k))
