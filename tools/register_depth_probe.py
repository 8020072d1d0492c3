"""The register path with 2 / 3 K steps in flight a warp (``REGISTER_DEPTH``: that many + 1
register buffers taking turns, the loop unrolled so none is copied) against the public
double buffer (one step in flight). Session 43's fixed-part probe put 9216x7168 M = 1 at ~1.39
us an iteration against ~1.25 us of bytes at the copy rate, and session 44's ncu at 0.84
eligible warps a scheduler with long-scoreboard stalls the first reason (3.74 of 8.45
cycles an instruction): the loop waits on its loads. The cp.async ring (2 / 3 steps through
shared memory) lost by 50% (``tools/m1_ring_probe.py``). Here the steps stay in registers:
SASS (CPU) 257 instructions a step at depth 2 against 278 (no buffer copies), 96 registers
against 72 (5 CTAs of 4 warps an SM: 9216x7168's 576 CTAs still fit one wave), 128 at 3.

Per point, graph us of back-to-back public calls (permuted words, NVFP4 activations),
interleaved, two rounds; each switched output checked equal to the public one's (same
per-warp step order, so the same bits). One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import print_fused_small_m_switches, print_small_m_switches

from cute_kernels.bench.timing import select_shapes

SWITCHES = {"d2": {"REGISTER_DEPTH": 2}, "d3": {"REGISTER_DEPTH": 3}}
# The one-token configs of one row tile (96 registers at depth 2: their CTAs an SM unchanged)
# and, for the occupancy cost, 9216x7168 at four tokens (128 against ~80: 4 CTAs an SM where
# its grid needs 5) and the fused row groups (106 against 76: 2 CTAs of 8 warps an SM, its
# grid needs 3). 5120x17408's split two-tile one-token config takes 168 (3 an SM), not probed.
POINTS = [("gemm", 9216, 7168, 1), ("gemm", 36864, 7168, 1), ("gemm", 34816, 5120, 1),
          ("gemm", 4096, 7168, 1), ("gemm", 9216, 7168, 4), ("fused", 9216, 7168, 1)]
for kind, n, k, m in select_shapes(POINTS):
    probe = print_small_m_switches if kind == "gemm" else print_fused_small_m_switches
    probe(n, k, m, SWITCHES)
