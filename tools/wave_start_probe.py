"""Session 43's lead: session 42's one-wave switch probe had 9216x7168 M = 4 / 8 at 14.14 /
14.21 us with the PDL trigger at the CTA start against 14.73 / 14.72 (trigger after the main
loop), past issue 5's 60% bar (14.70 us). Here the same switch at every one-wave launch of
the plain GEMM (``SmallMLaunchRules.ONE_WAVE_TRIGGER``), and two more at one token and in the
fused op: one staged token counted as one wave (``ONE_WAVE_STAGED``: held to the wave's CTAs
per SM, PDL), and the fused kernel (PDL always on, trigger after the loop, no cap) held to its
wave too (``ONE_WAVE_ALWAYS_PDL``).

Per point, graph us of back-to-back public calls (interleaved, two rounds): the public route
and each switch, whose outputs are checked equal to the public route's. Permuted words, NVFP4
activations. One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1``
compiles only."""

from probe_inputs import print_fused_small_m_switches, print_small_m_switches

from cute_kernels.bench.timing import select_shapes

# Session 43's first run (H200 2026-12-02, us, public / switch, two rounds): "start" won at
# every one-wave register launch: 9216x7168 M = 2 14.70, 14.78 / 14.16, 14.11, M = 4 14.80 /
# 14.22, M = 8 14.83, 14.71 / 14.35, 14.18; 4096x7168 M = 4 8.41 / 8.09, M = 8 8.42 / 8.10;
# 7168x18432 M = 4 26.95 / 26.44, M = 8 27.12 / 26.63; 5120x17408 (K split) M = 4 19.12 /
# 18.56, M = 8 19.22 / 18.63; 7168x2048 M = 12 6.31 / 5.50, M = 16 6.30 / 5.52. One staged
# token (wave_loop / wave_start): 9216x7168 12.73 / 13.01 / 12.13, 4096x7168 7.33 / 7.32 /
# 6.70. Fused (wave_loop / wave_start / start): 9216x7168 M = 1 13.92 / 13.87 / 13.84 / 13.71,
# M = 4 15.19 / 15.08 / 15.00 / 14.98, M = 8 15.31 / 15.24 / 15.08 / 15.07; 4096x7168 M = 1
# 7.67 / 7.76 / 7.77 / 9.85, M = 4 8.58 / 8.57 / 8.53 / 8.53. This run: the staged switch on
# the other one-token one-wave shapes, the trigger on more register launches, the fused
# trigger on more shapes.
START = {"start": {"ONE_WAVE_TRIGGER": "start"}}
STAGED = {"wave_start": {"ONE_WAVE_STAGED": True, "ONE_WAVE_TRIGGER": "start"}}
FUSED = {"start": {"PDL_TRIGGER": "start"}}
POINTS = [("gemm", 5120, 6144, 1, STAGED), ("gemm", 7168, 4608, 1, STAGED),
          ("gemm", 1024, 7168, 1, STAGED), ("gemm", 2048, 7168, 1, STAGED),
          ("gemm", 5120, 5120, 1, STAGED), ("gemm", 4096, 4096, 1, STAGED),
          ("gemm", 8192, 5120, 1, STAGED),
          ("gemm", 16384, 5120, 4, START), ("gemm", 5120, 6144, 4, START),
          ("gemm", 1024, 7168, 4, START), ("gemm", 7168, 4608, 4, START),
          ("gemm", 14336, 5120, 2, START),
          ("fused", 9216, 7168, 2, FUSED), ("fused", 4096, 7168, 2, FUSED),
          ("fused", 4096, 7168, 8, FUSED), ("fused", 36864, 7168, 1, FUSED),
          ("fused", 36864, 7168, 4, FUSED), ("fused", 34816, 5120, 1, FUSED),
          ("fused", 34816, 5120, 4, FUSED), ("fused", 2048, 7168, 1, FUSED),
          ("fused", 2048, 7168, 4, FUSED), ("fused", 1024, 7168, 1, FUSED),
          ("fused", 1024, 7168, 4, FUSED)]
for kind, n, k, m, switches in select_shapes(POINTS):
    (print_small_m_switches if kind == "gemm" else print_fused_small_m_switches)(
        n, k, m, switches)
