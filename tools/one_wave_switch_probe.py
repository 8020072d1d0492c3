"""Issue 5's near miss at 9216x7168 M = 4 / 8 (60% of the roofline is 14.70 us; sessions 40-42
measured 14.69-14.81): the small kernel's one-wave register path, (1, 1, 4, 1) with PDL, under
its launch switches (``SmallMLaunchRules``): the PDL trigger at the CTA's exit or start
instead of after its main loop ("exit", "start"), the register path without the scale table
("no_table").

Per point, graph us of back-to-back ``nvfp4_gemm`` calls (interleaved, two rounds): the public
route and each switch, whose outputs are checked equal to the public route's. Permuted words,
NVFP4 activations. One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1``
compiles only."""

from probe_inputs import print_small_m_switches

from cute_kernels.bench.timing import select_shapes

POINTS = [(9216, 7168, 4), (9216, 7168, 8), (4096, 7168, 4), (4096, 7168, 8)]
# session 42: "exit" and "no_table" lost (9216x7168 M = 4 14.61 / 15.11 / 15.25); "start"
# (the next kernel launched at the CTA start) not yet measured
SWITCHES = {"exit": {"PDL_TRIGGER": "exit"}, "no_table": {"REGISTER_SCALE_TABLE": False},
            "start": {"PDL_TRIGGER": "start"}}
for n, k, m in select_shapes(POINTS):
    print_small_m_switches(n, k, m, SWITCHES)
