"""Whether the one-token loop's DRAM access pattern costs time: the lean loads address the
weight codes as if stored tile-major (``NVFP4GemmSmallM.PROBE_TILED_CODES``: a warp step
reads one contiguous 2 KB run) against the row-major words (16 runs of 128 bytes, K / 2 bytes
apart; four warps on consecutive steps make 512 contiguous bytes a row). Same bytes and
instructions, wrong sums (the outputs are expected to differ). Session 44: more loads in
flight a warp made 9216x7168 M = 1 slower (the cp.async ring +50%, register depth 2 +10%),
so the loop's requests are not what it waits on; if the tiled addresses win, a tile-major
``prepare_nvfp4_weight`` layout is the lead.

Measured (H200 2026-12-02, session 44, row-major / tiled): 9216x7168 12.26 / 12.26,
36864x7168 42.56 / 41.40, 34816x5120 30.10 / 29.07, 4096x7168 6.69 / 6.56: 2.7-3.4% on the
many-wave grids, nothing at one wave.

Per point, graph us of back-to-back public calls at M = 1 (permuted words, NVFP4
activations), interleaved, two rounds. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import print_small_m_switches

from cute_kernels.bench.timing import select_shapes

POINTS = [(9216, 7168), (36864, 7168), (34816, 5120), (4096, 7168)]
for n, k in select_shapes(POINTS):
    print_small_m_switches(n, k, 1, {"tiled": {"PROBE_TILED_CODES": True}})
