"""The fused kernel's one-token launches on row groups ((1, 1, 8, 1, 1, 2), staged activations)
with the PDL trigger at the CTA start instead of after the main loop: session 43 measured
9216x7168 13.92 -> 13.71 us but 36864x7168 43.58 -> 43.73 (and 4096x7168's (2, 1, 8, 1) 7.67
-> 9.85), so ``REGISTER_PDL_START`` leaves staged launches alone. Here the row-group launches
over 1.5 to 7.8 CTAs an SM (2I = 6144 .. 32768 at K = 5120 / 7168): is there a wave bound
under which the start wins?

Per point, graph us of back-to-back public calls at M = 1 (permuted words, NVFP4
activations), interleaved, two rounds; outputs checked equal. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import print_fused_small_m_switches

from cute_kernels.bench.timing import select_shapes

POINTS = [(two_i, k) for k in (7168, 5120) for two_i in (6144, 9216, 12288, 16384, 24576)]
for two_i, k in select_shapes(POINTS):
    print_fused_small_m_switches(two_i, k, 1, {"start": {"PDL_TRIGGER": "start"}})
