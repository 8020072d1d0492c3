"""``nvfp4_gemm``'s fitted token tiles in steps of 16 from 129 tokens (session 66) against
session 65's rule (steps of 32 from 257 tokens) and cuBLAS bf16
(``probe_inputs.print_old_and_new_plans``: graph us in two rounds, permuted words, NVFP4
activations; a disagreement between the plans' outputs is named), at points where the rule
changes the plan: one tile of 144..208 tokens (points 0..6), 144 / 176 tokens past 256
(7..13), 208 (14, 15), 240 (16..19). One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import plan_with, print_old_and_new_plans

from cute_kernels import fitted_tiles, large_m_plans
from cute_kernels.bench.timing import select_shapes

POINTS = [(36864, 7168, 160), (36864, 7168, 200), (34816, 5120, 200), (7168, 18432, 180),
          (9216, 7168, 160), (5120, 17408, 160), (7168, 18432, 140)]
POINTS += [(7168, 18432, 400), (5120, 17408, 400), (36864, 7168, 545), (36864, 7168, 337),
           (34816, 5120, 513), (7168, 18432, 513), (5120, 17408, 513)]
POINTS += [(36864, 7168, 817), (34816, 5120, 801)]
POINTS += [(7168, 18432, 700), (36864, 7168, 900), (34816, 5120, 700), (5120, 17408, 900)]


def session_65_fitted(m: int, n: int, k: int):
    """Session 65's ``fitted_launch``: steps of 32, from 257 tokens."""
    return fitted_tiles.fitted_launch(m, n, k, step=32) if m >= 257 else None


for n, k, m in select_shapes(POINTS):
    print_old_and_new_plans(n, k, m, plan_with(large_m_plans, "fitted_launch",
                                               session_65_fitted, m, n, k),
                            large_m_plans.plain_plan(m, n, k))
