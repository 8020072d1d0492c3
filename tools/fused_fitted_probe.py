"""Fitted token tiles in the fused op (session 65, for issue 6): ``nvfp4_gemm_swiglu_quant`` on
its route ("route") against the fused kernel forced onto whole tiles ("w160", ...) and onto
stream-K ("sk160", ...) of the fitted widths, and against the unfused pair ``nvfp4_gemm`` +
``silu_mul_nvfp4_quant`` ("pair", whose GEMM takes the fitted tiles since session 65: at
36864x7168 M = 300 215 us against the fused op's ~261 in session 63). Each forced launch's
codes and scales are first compared with the route's (``probe_inputs.fused_route_and_answers``:
a difference is named). Permuted words, NVFP4 activations, graph
us in two rounds. One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1``
compiles only. Points 15..19 (session 67): past 1024 tokens (whole tiles alone there since
session 68; session 67 measured stream-K too); 20..23 (session 68): past 2048 tokens."""

import torch
from probe_inputs import (fused_route_and_answers, gate_up_words, print_variant_rounds,
                          unfused_pair)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes
from cute_kernels.fitted_tiles import FITTED_STREAM_K_MAX_M

# (2I, K, M, fitted widths): issue 6's shapes where the pair's GEMM takes fitted tiles
POINTS = [(36864, 7168, 300, (160,)), (34816, 5120, 300, (160,)), (9216, 7168, 300, (160,)),
          (4096, 7168, 600, (160, 224)), (36864, 7168, 800, (160,)),
          (34816, 5120, 513, (192,)), (9216, 7168, 513, (192,)), (1024, 7168, 1100, (224,))]
# session 66: 4096x7168 whole 128-token tiles in part of one wave against the 128-token
# stream-K (in lanes, as ``large_m_plans.plain_part_wave_lanes`` for the plain GEMM) and 160;
# points 11..14, fitted tiles under 257 tokens
POINTS += [(4096, 7168, m, (128, 160)) for m in (260, 300, 384)]
POINTS += [(36864, 7168, 160, (160,)), (36864, 7168, 200, (224,)), (34816, 5120, 200, (224,)),
           (9216, 7168, 160, (160,))]
# session 67, points 15..19: past 1024 tokens (``fitted_tiles.FITTED_MAX_M``), the widths
# ``fitted_launch`` takes there when asked up to 2048 tokens
POINTS += [(36864, 7168, 1136, (240,)), (34816, 5120, 1100, (160, 224)),
           (9216, 7168, 1295, (144,)), (4096, 7168, 1560, (208,)), (36864, 7168, 1560, (160,))]
# session 68, points 20..23: past 2048 tokens (``FITTED_MAX_M``), where the route keeps
# its launch, the widths ``fitted_launch`` takes there (whole, as the plain GEMM does since
# ``FITTED_MAX_M`` 4096: call 2 measured them faster than its old plans)
POINTS += [(36864, 7168, 3339, (240,)), (34816, 5120, 3222, (240,)), (9216, 7168, 2448, (224,)),
           (4096, 7168, 3720, (240,))]


for two_i, k, m, widths in select_shapes(POINTS):
    answers = {}
    for t in widths:
        answers[f"w{t}"] = ("whole", (t, 0))
        if m <= FITTED_STREAM_K_MAX_M:  # (past it whole fitted tiles alone, since session 67)
            answers[f"sk{t}"] = ("stream_k", t)
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    words = gate_up_words(two_i, k, True)
    variants = fused_route_and_answers(two_i, k, a, a_sf, words, answers)
    variants["pair"] = (words, unfused_pair(a, a_sf, two_i))
    print_variant_rounds(f"  {two_i}x{k} M={m}", variants)
