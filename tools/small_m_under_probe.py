"""The small-M kernel's ``UNDER_STAGING`` (each warp's second step loaded between the token
staging's loads and their decode) against the public routes at one token, plain and fused, on
the one-token launches that are not the balanced one.

Why: on the balanced launch the staging cost ~9% of a one-token launch, and issuing the second
step under it took 0.6-1.1 us of that where the warps walk five steps or more (H100, session 90,
``tools/staging_cost_probe.py``). These launches stage the token the same way. Session 91
(H100, call 1): it won from DRAM and from L2 nowhere; it won 4.5% on the fused 36864x7168 (two
row groups), now the rule there (``UNDER_STAGING_MIN_ROW_GROUPS``), so "public" is "under" at
that point and at the plain 36864x7168 (its new route).

Forms: "public" and "under" (the switch on), graph us of back-to-back public calls on permuted
words, interleaved, two rounds; the switched outputs are checked equal to the public route's.
``PROBE_L2=1``: one weight copy (the H100's stand-in for the H200's regime, where it fits the
L2). One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles
only."""

from probe_inputs import print_fused_small_m_switches, print_small_m_switches

from cute_kernels.bench.timing import select_shapes

SWITCHES = {"under": {"UNDER_STAGING": True}}
# (kind, N or 2I, K) at M = 1: the public one-token launches off the balanced grid
POINTS = [("gemm", 36864, 7168), ("gemm", 34816, 5120), ("gemm", 4096, 7168),
          ("gemm", 7168, 2048), ("fused", 36864, 7168), ("fused", 34816, 5120),
          ("fused", 4096, 7168), ("fused", 1024, 7168)]

for kind, n, k in select_shapes(POINTS):
    if kind == "gemm":
        print_small_m_switches(n, k, 1, SWITCHES)
    else:
        print_fused_small_m_switches(n, k, 1, SWITCHES)
