"""One token on the plain small kernel with programmatic dependent launch. Session 42's
balance probe put the one-token time at 9216x7168 at ~3.2 us plus the weight bytes at ~4.05
TB/s (8448 / 9216 / 10560 rows: 11.60 / 12.80 / 13.70 us): the fixed part (launch, first
loads, staging, the last CTAs' drain) is what keeps 9216x7168 (68%) and 5120x17408 (65%)
under issue 5's 75%. PDL overlaps part of it with the previous kernel; session 7's
``tools/pdl_probe.py`` (an older loop) measured the plain kernel at M = 1 within 0.3 us of no
PDL except 36864x7168 (-1.1) and 7168x18432 (+5.3, its paired loop now takes PDL anyway).

Per point, graph us of back-to-back ``nvfp4_gemm`` calls (interleaved, two rounds): the public
route, the same without the one-token PDL rule ("off"), and with PDL on, the first step's
weights loaded before the wait, triggered after the main loop ("loop") or at the CTA's start
("start"); outputs checked equal to the public route's. Permuted words, NVFP4 activations.
One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import print_small_m_switches

from cute_kernels.bench.timing import select_shapes

POINTS = [(9216, 7168), (5120, 17408), (4096, 7168), (2048, 7168), (5120, 6144), (1024, 7168),
          (7168, 2048), (36864, 7168), (34816, 5120), (5120, 5120), (4096, 4096)]
PDL = {"PDL": True, "PDL_LOAD_BEFORE_WAIT": True}
# "off": without ``PDL_ONE_TOKEN`` (session 42's rule from this probe's first run)
SWITCHES = {"off": {"PDL_ONE_TOKEN": False}, "loop": PDL,
            "start": {**PDL, "PDL_TRIGGER": "start"}}
for n, k in select_shapes(POINTS):
    print_small_m_switches(n, k, 1, SWITCHES)
