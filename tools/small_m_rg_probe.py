"""Where the small-M kernel's ``UNDER_STAGING`` won on the H100 (session 91,
``tools/small_m_under_probe.py``): the fused 36864x7168 one-token launch, two row groups of
four K warps, 55.86 -> 53.35 us from DRAM, while the plain 36864x7168 / 34816x5120 one-token
launches (one row group of four warps) lost 0.3 / 1.4 us. Is it the two row groups?

Forms: the plain GEMM's public route and "under" (the switch), then the fused launch's config
(one row tile, 8 warps in two row groups) without and with it (``rg2``, ``rg2under``: since
session 91 the rule takes two row groups, so ``rg2`` turns it off); the fused op at 2..8
tokens, public and "under". Graph us, two rounds, interleaved; outputs checked against
the public route's (the row-group config may sum in another order: checked to agree). One point
per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import (print_fused_small_m_switches, print_small_m_forms,
                          switched_small_m_compilers)

from cute_kernels.bench.timing import select_shapes

UNDER = {"UNDER_STAGING": True}
OVER = {"UNDER_STAGING_MIN_ROW_GROUPS": 1 << 30}  # the rule off
RG2 = (1, 1, 8, 1, 1, 2)  # the fused 36864x7168 one-token config
# (kind, N or 2I, K, M)
POINTS = [("gemm", 36864, 7168, 1), ("gemm", 34816, 5120, 1), ("fused", 36864, 7168, 2),
          ("fused", 36864, 7168, 4), ("fused", 36864, 7168, 8), ("fused", 34816, 5120, 2)]


def row_group_forms() -> dict:
    """The forms past the public route: "under", "rg2" (the rule off) and "rg2under"."""
    rg2 = {"small_m_config": lambda *args: RG2}
    return {"under": switched_small_m_compilers("under", UNDER),
            "rg2": {**rg2, **switched_small_m_compilers("over", OVER)},
            "rg2under": {**rg2, **switched_small_m_compilers("under", UNDER)}}


for kind, n, k, m in select_shapes(POINTS):
    if kind == "gemm":
        print_small_m_forms(n, k, m, row_group_forms(), summation_order=True)
    else:
        print_fused_small_m_switches(n, k, m, {"under": UNDER})
