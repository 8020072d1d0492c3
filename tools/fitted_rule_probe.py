"""``nvfp4_gemm``'s plan with the fitted token tiles (``fitted_tiles.fitted_launch``, session
65) against the plan without them and cuBLAS bf16 (``probe_inputs.print_old_and_new_plans``:
graph us in two rounds, permuted words, NVFP4 activations; a disagreement between the plans'
outputs is named), at points where the rule changes the plan. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import plan_with, print_old_and_new_plans

from cute_kernels import large_m_plans
from cute_kernels.bench.timing import select_shapes

POINTS = [(7168, 18432, m) for m in (300, 450, 513, 800, 900)]
POINTS += [(5120, 17408, m) for m in (260, 450, 513, 800, 900)]
POINTS += [(36864, 7168, m) for m in (300, 384, 450, 600, 800, 900)]
POINTS += [(34816, 5120, m) for m in (300, 420, 513, 800, 900)]
POINTS += [(9216, 7168, m) for m in (300, 450, 513, 800, 900)]
POINTS += [(4096, 7168, m) for m in (513, 700, 800)]
POINTS += [(7168, 2048, m) for m in (300, 384, 420, 700, 900, 1024)]

for n, k, m in select_shapes(POINTS):
    print_old_and_new_plans(n, k, m, plan_with(large_m_plans, "fitted_launch",
                                               lambda *args: None, m, n, k),
                            large_m_plans.plain_plan(m, n, k))
