"""``nvfp4_gemm``'s plans where the session 63 sweep found it furthest under issue 5's 0.9x of
cuBLAS (300..1100 tokens): the plan beside forced whole tiles of 64 / 128 / 256 tokens, the
128- and 256-token stream-K and a K split of 2 on 128-token tiles, permuted words, NVFP4
activations, cuBLAS bf16 beside. A forced plan that raises is left out and named; each one's
output is checked against the plan's (a plan no test covers could be wrong, not just slow).
Graph us (``probe_inputs.print_plans_against_plan``), two rounds; one point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

from probe_inputs import print_plans_against_plan

from cute_kernels.bench.timing import select_shapes

FORCED = {"w64": (64, 1, False, False), "w128": (128, 1, False, False),
          "w256": (256, 1, False, False), "sk128": (128, 1, True, False),
          "sk256": (256, 1, True, False), "w128k2": (128, 2, False, False)}
POINTS = [(36864, 7168, 300), (34816, 5120, 300), (7168, 18432, 300), (7168, 18432, 600),
          (5120, 17408, 600), (4096, 7168, 300), (4096, 7168, 600), (7168, 2048, 300),
          (7168, 2048, 600), (9216, 7168, 1100), (5120, 17408, 1100), (7168, 2048, 3000),
          # whole 256-token tiles under 90% of their waves, no hybrid (its stream-K part short)
          (7168, 2048, 2450), (7168, 2048, 2800), (7168, 2048, 4750),
          # the mid-M model's whole 128-token tiles (M = 300: the 128-token stream-K 10% faster)
          (4096, 7168, 260), (4096, 7168, 384), (4096, 7168, 450),
          # the 128-token stream-K against whole 128-token tiles past four waves (M = 300:
          # 36864x7168 whole 247.1 / stream-K 253.6, 34816x5120 179.4 / 174.7)
          (36864, 7168, 260), (36864, 7168, 340), (36864, 7168, 384), (34816, 5120, 260),
          (34816, 5120, 340)]


for n, k, m in select_shapes(POINTS):
    print_plans_against_plan(n, k, m, FORCED, f"gemm {n}x{k} M={m}")
