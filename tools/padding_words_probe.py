"""The fused small-M launches (not the balanced one: ``tools/fused_gap_probe.py`` times that)
with the scale padding past M as whole words (``NVFP4GemmSwigluQuantSmallM.PADDING_WORDS``,
session 89's default) against a byte a row ("bytepad": the switch off), and the out_scale
table of G (``EPILOGUE_TABLE``, since session 90 on launches of at most
``EPILOGUE_TABLE_MAX_CTAS`` CTAs) on none ("divide") and on every launch ("table"), on the
register and K-split paths the fused op routes 1..16 tokens to. Session 89 (H100, call 19,
before the table): bytepad 0.2-0.6 us slower everywhere but 4096x7168 M = 1 (0.2-0.4 faster,
noisy). Session 90 (H100, call 1, "table" then the switch on): the table 0.2-0.5 us faster but
at 36864x7168 M = 1 (0.36 slower: 1152 CTAs, a fill each).

Per point, graph us of back-to-back public calls (interleaved, two rounds): the public route
and the switch off, whose codes and scale bytes (padding included) are checked equal to the
public route's. Permuted words, NVFP4 activations. One point per CUTE_KERNELS_BENCH_SHAPES
index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import print_fused_small_m_switches

from cute_kernels.bench.timing import select_shapes

SWITCHES = {"bytepad": {"PADDING_WORDS": False}, "divide": {"EPILOGUE_TABLE": False},
            "table": {"EPILOGUE_TABLE_MAX_CTAS": 1 << 30}}
# (2I, K, M)
POINTS = [(9216, 7168, 2), (9216, 7168, 4), (9216, 7168, 8), (9216, 7168, 16),
          (36864, 7168, 1), (4096, 7168, 1), (1024, 7168, 1)]

for two_i, k, m in select_shapes(POINTS):
    print_fused_small_m_switches(two_i, k, m, SWITCHES)
