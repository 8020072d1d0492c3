"""The fused kernel's one-token launches on row groups ((1, 1, 8, 1, 1, 2), staged activations)
with the PDL trigger at the CTA start instead of after the main loop: session 43 measured
9216x7168 13.92 -> 13.71 us but 36864x7168 43.58 -> 43.73 (and 4096x7168's (2, 1, 8, 1) 7.67
-> 9.85), so ``REGISTER_PDL_START`` leaves staged launches alone. Here the row-group launches
over 1.5 to 7.8 CTAs an SM (2I = 6144 .. 32768 at K = 5120 / 7168): is there a wave bound
under which the start wins?

Measured (H200 2026-12-02, session 44, public / start): the start wins up to 2.9 CTAs an SM
(K = 7168: 6144 11.7 -> 10.5, 9216 13.9 -> 13.7, 12288 15.3 -> 15.3), loses at 3.9 (16384
24.6 -> 24.9) and wins at 5.8 (24576 30.0 -> 29.6); K = 5120 alike. Landed as
``STAGED_GROUPS_START_CTAS`` = 3.

Per point, graph us of back-to-back public calls at M = 1 (permuted words, NVFP4
activations), interleaved, two rounds; outputs checked equal. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import print_fused_small_m_switches

from cute_kernels.bench.timing import select_shapes

POINTS = [(two_i, k) for k in (7168, 5120) for two_i in (6144, 9216, 12288, 16384, 24576)]
for two_i, k in select_shapes(POINTS):
    print_fused_small_m_switches(two_i, k, 1, {"start": {"PDL_TRIGGER": "start"}})
