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

import importlib

import torch
from probe_inputs import (agrees, fp4_gemm_operands, print_forms, print_fused_small_m_switches,
                          replaced_call, switched_small_m_compilers)

from cute_kernels import nvfp4_gemm
from cute_kernels.bench.timing import select_shapes

UNDER = {"UNDER_STAGING": True}
OVER = {"UNDER_STAGING_MIN_ROW_GROUPS": 1 << 30}  # the rule off
RG2 = (1, 1, 8, 1, 1, 2)  # the fused 36864x7168 one-token config
# (kind, N or 2I, K, M)
POINTS = [("gemm", 36864, 7168, 1), ("gemm", 34816, 5120, 1), ("fused", 36864, 7168, 2),
          ("fused", 36864, 7168, 4), ("fused", 36864, 7168, 8), ("fused", 34816, 5120, 2)]


def print_row_group_forms(n: int, k: int, m: int) -> None:
    """The plain GEMM's public route, "under", "rg2" and "rg2under" at one point."""
    gemm = importlib.import_module("cute_kernels.nvfp4_gemm")
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    alpha = torch.full((1,), 0.5, device="cuda")

    def public(w):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    rg2 = {"small_m_config": lambda *args: RG2}
    calls = {"public": public,
             "under": replaced_call(public, gemm, switched_small_m_compilers("under", UNDER)),
             "rg2": replaced_call(public, gemm, {
                 **rg2, **switched_small_m_compilers("over", OVER)}),
             "rg2under": replaced_call(public, gemm, {
                 **rg2, **switched_small_m_compilers("under", UNDER)})}
    label = f"gemm {n}x{k} M={m}"
    public(weights[0])
    expected = out.clone()
    for name in list(calls)[1:]:
        out.fill_(float("nan"))
        calls[name](weights[0])
        torch.cuda.synchronize()
        if not agrees(out, expected):
            print(f"{label}: {name} output DIFFERS from the public route's")
    print_forms(label, calls, weights)


for kind, n, k, m in select_shapes(POINTS):
    if kind == "gemm":
        print_row_group_forms(n, k, m)
    else:
        print_fused_small_m_switches(n, k, m, {"under": UNDER})
