"""``nvfp4_gemm`` where ``fitted_tiles``' model keeps whole 128-token tiles under 1024 tokens
on 9216x7168 (577..640 and 801..896 tokens: 2.7 and 3.8 waves), against the fitted launches
it weighs (session 69 call 2: the fused kernel at 9216x7168 M = 600 took whole 128 116.7 us,
stream-K 160 112.4 and stream-K 208 109.6, where the model put stream-K 208 6% above whole
128). Permuted words, NVFP4 activations, graph us in two rounds, cuBLAS bf16 in the same
run; a launch refused or whose output disagrees with the plan's is named and left out
(``probe_inputs.print_plans_against_plan``). One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import print_plans_against_plan

from cute_kernels.bench.timing import select_shapes
from cute_kernels.fitted_tiles import token_tile_widths
from cute_kernels.large_m_plans import plain_plan

POINTS = [(9216, 7168, 600), (9216, 7168, 640), (9216, 7168, 820), (9216, 7168, 880)]


def launches(m: int) -> dict:
    """The fitted launches the model weighs at M tokens, and stream-K 128, by name."""
    named = {"sk128": (128, 1, True, False)}
    for width in token_tile_widths(m):
        if width not in (128, 256):
            named[f"w{width}"] = (width, 1, False, False)
            named[f"sk{width}"] = (width, 1, True, False)
    return named


for n, k, m in select_shapes(POINTS):
    print_plans_against_plan(n, k, m, launches(m),
                             f"gemm {n}x{k} M={m} plan {plain_plan(m, n, k)}")
