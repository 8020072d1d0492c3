"""Where the 16-token stream-K launch's fixed cost goes: the launch with no loads and stubbed
consumers (``STUB_CONSUMERS``, ``STUB_SKIP`` of every stream: the launch, the pipeline's
barriers, the stream-K fix-up and the epilogue alone; outputs wrong) at 9216 rows and K =
7168 / 3584 / 1792 / 896 (30 / 15 / 7 / 3-4 stages a CTA at two K groups: a line through them
splits a per-stage cost from a fixed one), one K group at 7168, whole tiles (72 CTAs, no
fix-up) at 7168, and a one-tile launch (128 x 256); beside the real launch and the stubbed
stream with its loads at 9216x7168.

Why: session 80 (``tools/stream_parts_probe.py``) read 7.1 us for that bare launch at
9216x7168 M = 16 on the H200 and on the H100 alike, against 16.2 (H200) for the real one:
the stream itself ran near the copy's rate on top of it (13.4 stubbed with its loads).

Graph us, interleaved, two rounds. ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import (bare_launch_compiler, launch_alone_inputs, print_variant_rounds,
                          stub_consumers_compiler)

from cute_kernels.bench.timing import select_shapes
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import compile_nvfp4_gemm_large_m, launch_large_m

COMPILERS = {"real": compile_nvfp4_gemm_large_m, "stub": stub_consumers_compiler(),
             "bare": bare_launch_compiler()}
# (N, K, {variant: (compiler, config, stream_k, K groups)})
POINTS = [
    (9216, 7168, {"real_g2": ("real", (16, 0), True, 2), "stub_g2": ("stub", (16, 0), True, 2),
                  "bare_g2": ("bare", (16, 0), True, 2), "bare_g1": ("bare", (16, 0), True, 1),
                  "bare_whole_g2": ("bare", (16, 0), False, 2)}),
    (9216, 3584, {"bare_g2": ("bare", (16, 0), True, 2), "stub_g2": ("stub", (16, 0), True, 2)}),
    (9216, 1792, {"bare_g2": ("bare", (16, 0), True, 2), "stub_g2": ("stub", (16, 0), True, 2)}),
    (9216, 896, {"bare_g2": ("bare", (16, 0), True, 2), "stub_g2": ("stub", (16, 0), True, 2)}),
    (128, 256, {"bare_g2": ("bare", (16, 0), True, 2), "real_g2": ("real", (16, 0), True, 2)}),
]

for n, k, variants in select_shapes(POINTS):
    words, x, alpha = launch_alone_inputs(n, k, 16)
    out = torch.empty((16, n), device="cuda", dtype=torch.bfloat16)

    def form(compiler, config, stream_k, groups):
        return lambda w: launch_large_m(x, w[0], w[1], alpha, out, config, stream_k=stream_k,
                                        k_groups=groups, k_order=KOrder.PERMUTED,
                                        pdl_trigger=True, compile_fn=COMPILERS[compiler])
    print_variant_rounds(f"gemm {n}x{k} M=16 16-token tiles, skeleton",
                         {name: (words, form(*v)) for name, v in variants.items()})
    del words
    torch.cuda.empty_cache()
