"""``nvfp4_gemm``'s fitted token tiles past 1024 tokens: the plan with ``fitted_launch``
asked up to 2048 tokens (``fitted_tiles.FITTED_MAX_M``, 1024) against today's plan and cuBLAS
bf16 (``probe_inputs.print_old_and_new_plans``: graph us in two rounds, permuted words, NVFP4
activations; a disagreement between the plans' outputs is named), at 1025..2048-token points
where it changes the plan, on every issue 5 shape: whole fitted tiles for 128 / 256-token plans
and stream-K fitted tiles on the long-K weights. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import plan_with, print_old_and_new_plans, replaced

from cute_kernels import fitted_tiles, large_m_plans
from cute_kernels.bench.timing import select_shapes

POINTS = [(7168, 18432, 1083), (7168, 18432, 1136), (7168, 18432, 1295), (7168, 18432, 1560),
          (5120, 17408, 1030), (5120, 17408, 1295), (5120, 17408, 1560), (5120, 17408, 1931),
          (36864, 7168, 1030), (36864, 7168, 1136), (36864, 7168, 1295), (36864, 7168, 1560),
          (36864, 7168, 1931), (34816, 5120, 1100), (34816, 5120, 1295), (34816, 5120, 1560),
          (34816, 5120, 1825), (9216, 7168, 1030), (9216, 7168, 1295), (9216, 7168, 1613),
          (4096, 7168, 1136), (4096, 7168, 1560), (7168, 2048, 1083), (7168, 2048, 1613)]


def fitted_to_2048(m: int, n: int, k: int):
    """``fitted_launch`` (uncached) with ``FITTED_MAX_M`` at 2048."""
    with replaced(fitted_tiles, {"FITTED_MAX_M": 2048}):
        return fitted_tiles.fitted_launch.__wrapped__(m, n, k)


for n, k, m in select_shapes(POINTS):
    print_old_and_new_plans(n, k, m, large_m_plans.plain_plan(m, n, k),
                            plan_with(large_m_plans, "fitted_launch", fitted_to_2048, m, n, k))
