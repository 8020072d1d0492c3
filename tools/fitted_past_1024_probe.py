"""``nvfp4_gemm``'s fitted token tiles past 1024 tokens against the plan without them
(``fitted_tiles.FITTED_MAX_M`` at 1024, session 66's) and cuBLAS bf16
(``probe_inputs.print_old_and_new_plans``: graph us in two rounds, permuted words, NVFP4
activations; a disagreement between the plans' outputs is named), on every issue 5 shape.
Points 0..23 (session 67 call 3): ``fitted_launch`` asked up to 2048 tokens with stream-K
(``FITTED_STREAM_K_MAX_M`` at 2048), where it changes the plan. Points 24..39 (call 4): today's
plan (whole fitted tiles alone past 1024 tokens) where it differs from session 66's: the six
call 3 points whose stream-K pick became a whole one, then ten drawn from the 1025..2048-token
points the rule changes. Points 40..55 (prepared for session 68): past 2048 tokens, the plan
with ``FITTED_MAX_M`` at 4096 (whole tiles) against session 67's, drawn from the 2049..4096-token
points it changes. Points 56..67 (session 68 call 4): the hybrid on fitted widths
(``FITTED_HYBRID``) against whole fitted tiles, with the hybrid weighed in the model; 68..73
(call 5): the rule as landed. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import plan_with, print_old_and_new_plans, replaced

from cute_kernels import fitted_tiles, large_m_plans
from cute_kernels.bench.timing import select_shapes

STREAM_K_PAST_1024 = [
    (7168, 18432, 1083), (7168, 18432, 1136), (7168, 18432, 1295), (7168, 18432, 1560),
    (5120, 17408, 1030), (5120, 17408, 1295), (5120, 17408, 1560), (5120, 17408, 1931),
    (36864, 7168, 1030), (36864, 7168, 1136), (36864, 7168, 1295), (36864, 7168, 1560),
    (36864, 7168, 1931), (34816, 5120, 1100), (34816, 5120, 1295), (34816, 5120, 1560),
    (34816, 5120, 1825), (9216, 7168, 1030), (9216, 7168, 1295), (9216, 7168, 1613),
    (4096, 7168, 1136), (4096, 7168, 1560), (7168, 2048, 1083), (7168, 2048, 1613)]
WHOLE_PAST_1024 = [
    (5120, 17408, 1030), (5120, 17408, 1295), (5120, 17408, 1931), (36864, 7168, 1295),
    (34816, 5120, 1100), (34816, 5120, 1825), (7168, 18432, 1101), (7168, 18432, 1175),
    (5120, 17408, 1667), (5120, 17408, 2033), (36864, 7168, 1610), (34816, 5120, 1346),
    (9216, 7168, 1668), (4096, 7168, 1309), (7168, 2048, 1828), (34816, 5120, 1827)]
PAST_2048 = [
    (7168, 18432, 2988), (7168, 18432, 3633), (5120, 17408, 2406), (5120, 17408, 3810),
    (36864, 7168, 3339), (36864, 7168, 3852), (34816, 5120, 3222), (34816, 5120, 3555),
    (9216, 7168, 2448), (9216, 7168, 3378), (4096, 7168, 2175), (4096, 7168, 2427),
    (4096, 7168, 3720), (7168, 2048, 2211), (7168, 2048, 2640), (7168, 2048, 3828)]
# points 56..67 (session 68 call 4): the hybrid on fitted widths (``FITTED_HYBRID``) where it
# changes the plan: eight drawn from the 1025..4096-token points it changes (seeded), and four
# measured before on whole tiles: 7168x18432 M = 2988 (call 2: whole 240 1093.6 us, the
# 256-token hybrid 1035.8), 36864x7168 M = 3852 and 9216x7168 M = 3378 (call 2), 5120x17408
# M = 1667 (session 67: whole 192 392.2, the 256-token hybrid 398.4)
HYBRID_PAST_1024 = [
    (7168, 18432, 2988), (7168, 18432, 3927), (5120, 17408, 1667), (5120, 17408, 2635),
    (5120, 17408, 3897), (36864, 7168, 1614), (36864, 7168, 3852), (34816, 5120, 1814),
    (34816, 5120, 1900), (9216, 7168, 3378), (9216, 7168, 3226), (4096, 7168, 3564)]
# points 68..73 (session 68 call 5): the rule as landed (the model's whole pick in the hybrid
# where its last wave is at most ``FITTED_HYBRID_MAX_FILL`` full), drawn from the points it
# changes (seeded), last waves 52-64% full
HYBRID_RULE = [(5120, 17408, 1906), (36864, 7168, 3210), (34816, 5120, 2330), (9216, 7168, 3345),
               (4096, 7168, 3337), (7168, 18432, 3080)]
SESSION_67 = {"FITTED_MAX_M": 2048, "FITTED_HYBRID": False}
WHOLE = {"FITTED_HYBRID": False}
# (point, the old plan's ``fitted_tiles`` switches, the new one's)
POINTS = ([(p, {"FITTED_MAX_M": 1024}, {"FITTED_STREAM_K_MAX_M": 2048, "FITTED_HYBRID": False})
           for p in STREAM_K_PAST_1024]
          + [(p, {"FITTED_MAX_M": 1024}, SESSION_67) for p in WHOLE_PAST_1024]
          + [(p, SESSION_67, {"FITTED_MAX_M": 4096, **WHOLE}) for p in PAST_2048]
          + [(p, WHOLE, {"FITTED_HYBRID": True}) for p in HYBRID_PAST_1024 + HYBRID_RULE])


def fitted_with(switches: dict):
    """``fitted_launch`` (uncached) with ``fitted_tiles``' ``switches`` set."""
    def launch(m: int, n: int, k: int):
        with replaced(fitted_tiles, switches):
            return fitted_tiles.fitted_launch.__wrapped__(m, n, k)
    return launch


def plan_with_fitted(switches: dict, m: int, n: int, k: int) -> tuple:
    """``plain_plan`` with ``fitted_launch`` under ``switches``."""
    return plan_with(large_m_plans, "fitted_launch", fitted_with(switches), m, n, k)


for (n, k, m), old, new in select_shapes(POINTS):
    print_old_and_new_plans(n, k, m, plan_with_fitted(old, m, n, k),
                            plan_with_fitted(new, m, n, k))
