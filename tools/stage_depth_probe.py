"""Pipeline depth of the wgmma kernel's 16- and 32-token stream-K launches at two K groups a
stage (``large_m_plans.stream_k_groups``): the launch alone (bf16 activations made once,
outside the timing) at the default stages (``GROUPED_STAGES``, 6) and deeper ones that keep
the asynchronous fix-up's slots, at issue 5's M = 16 and 32 points.

Why: on the H200 (session 80 calls 6 and 7) the stream with the consumers stubbed takes 13.3
us at 9216x7168 M = 16 and two K groups, the real launch 16.2: the consumers cost 2.9 us
where their issue work is ~130 ns a stage against ~290 ns of the stage's bytes. A consumer
holds its stage while it decodes and while the stage's wgmmas run, which leaves fewer of the
six stages loading; deeper rings keep more bytes in flight (the stubbed stream, which holds
none, gained nothing from depth).

Graph us, interleaved, two rounds; outputs compared with the default's (same K pieces: the
same bits). One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1``
compiles only."""

import torch
from probe_inputs import launch_alone_inputs, print_variant_rounds

from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

# (N, K, M, token tile, stages to try; 0: the kernel's choice)
POINTS = [(9216, 7168, 16, 16, (0, 8, 10, 12, 14)), (5120, 17408, 16, 16, (0, 8, 10, 12, 14)),
          (7168, 18432, 16, 16, (0, 8, 10, 12, 14)), (9216, 7168, 32, 32, (0, 8, 10)),
          (5120, 17408, 32, 32, (0, 8))]

for n, k, m, tile_m, depths in select_shapes(POINTS):
    words, x, alpha = launch_alone_inputs(n, k, m, tile_m)
    outs = {s: torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            for s in depths}

    def form(stages):
        return lambda w: launch_large_m(x, w[0], w[1], alpha, outs[stages], (tile_m, stages),
                                        stream_k=True, k_groups=2, k_order=KOrder.PERMUTED)
    print_variant_rounds(f"gemm {n}x{k} M={m} {tile_m}-token stream-K, two K groups, stages",
                         {f"s{s}": (words, form(s)) for s in depths})
    if not warm_only():
        want = outs[0].float()
        print("  against s0: " + " ".join(
            f"s{s}={((outs[s].float() - want).norm() / want.norm()).item():.1e}"
            for s in depths[1:]), flush=True)
    del words
    torch.cuda.empty_cache()
