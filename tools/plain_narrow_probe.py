"""``nvfp4_gemm``'s 128-token tiles past the mid-M range (``plain_narrow_launch``): at each
point of issue 5's weights where the rule changes the launch, the plan with the rule off
beside the plan with it on and cuBLAS bf16 (``probe_inputs.print_old_and_new_plans``). One
point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import plan_with, print_old_and_new_plans

from cute_kernels import large_m_plans
from cute_kernels.bench.timing import select_shapes

WEIGHTS = [(7168, 18432), (5120, 17408), (9216, 7168), (4096, 7168), (7168, 2048),
           (36864, 7168), (34816, 5120)]
TOKENS = (300, 384, 513, 600, 700, 800, 900, 1024, 1100, 1300, 1536, 2048, 2100, 2500)


def plan_without_rule(m: int, n: int, k: int) -> tuple:
    return plan_with(large_m_plans, "PLAIN_NARROW_MAX_M", 0, m, n, k)


# where the rule changes the launch and session 64's first run of this probe had no point
# (indices 20..; the first 20 are what the rule now changes of session 64 call 2's 41):
# issue 5's weights and other model shapes
UNMEASURED = [(5120, 17408, 1600), (5120, 17408, 2350), (34816, 5120, 1600),
              (34816, 5120, 1850), (1024, 7168, 1500), (1024, 7168, 1700), (2048, 7168, 600),
              (2048, 7168, 800), (3072, 7168, 1350), (3072, 7168, 1900), (1536, 7168, 1000),
              (2560, 5120, 1600), (2560, 5120, 2300)]
POINTS = [(n, k, m) for n, k in WEIGHTS for m in TOKENS
          if large_m_plans.plain_plan(m, n, k) != plan_without_rule(m, n, k)] + UNMEASURED

for n, k, m in select_shapes(POINTS):
    print_old_and_new_plans(n, k, m, plan_without_rule(m, n, k), large_m_plans.plain_plan(m, n, k))
