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

START = {"start": {"ONE_WAVE_TRIGGER": "start"}}
STAGED = {"wave_loop": {"ONE_WAVE_STAGED": True},
          "wave_start": {"ONE_WAVE_STAGED": True, "ONE_WAVE_TRIGGER": "start"}}
FUSED = {"wave_loop": {"ONE_WAVE_STAGED": True, "ONE_WAVE_ALWAYS_PDL": True},
         "wave_start": {"ONE_WAVE_STAGED": True, "ONE_WAVE_ALWAYS_PDL": True,
                        "ONE_WAVE_TRIGGER": "start"},
         "start": {"PDL_TRIGGER": "start"}}
POINTS = [("gemm", 9216, 7168, 2, START), ("gemm", 9216, 7168, 4, START),
          ("gemm", 9216, 7168, 8, START), ("gemm", 4096, 7168, 4, START),
          ("gemm", 4096, 7168, 8, START), ("gemm", 7168, 18432, 4, START),
          ("gemm", 7168, 18432, 8, START), ("gemm", 5120, 17408, 4, START),
          ("gemm", 5120, 17408, 8, START), ("gemm", 7168, 2048, 12, START),
          ("gemm", 7168, 2048, 16, START),
          ("gemm", 9216, 7168, 1, STAGED), ("gemm", 4096, 7168, 1, STAGED),
          ("fused", 9216, 7168, 1, FUSED), ("fused", 9216, 7168, 4, FUSED),
          ("fused", 9216, 7168, 8, FUSED), ("fused", 4096, 7168, 1, FUSED),
          ("fused", 4096, 7168, 4, FUSED)]
for kind, n, k, m, switches in select_shapes(POINTS):
    (print_small_m_switches if kind == "gemm" else print_fused_small_m_switches)(
        n, k, m, switches)
