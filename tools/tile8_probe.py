"""8-token tiles (wgmma N = 8, probe-only: ``token_tile_ok``) against the 16-token tiles the
plans take at 4 and 8 tokens, the stream-K launch alone (bf16 activations made once, outside
the timing) at one and two K groups a stage, on issue 5's W4A16 M = 4 / 8 points (9216x7168
~53%, 5120x17408 ~56% of the copy on the H200; 60% asked; NVFP4 tokens there take the small
kernel, the wgmma launch is the same).

Why: on the H200 the 16-token launch is bound by its consumers (session 80: 9216x7168 M = 16
at two K groups 16.2 us, 13.3 with them stubbed); on the H100 its wgmmas are half of that cost
(without them 17.83 us against 18.98). At up to 8 tokens half of each 16-token wgmma is
padding.

Graph us, interleaved, two rounds; each 8-token form's output against the 16-token one's at
the same K groups (the same K pieces: the same bits expected). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import launch_alone_inputs, print_variant_rounds

from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

POINTS = [(9216, 7168, 4), (9216, 7168, 8), (5120, 17408, 4), (5120, 17408, 8)]
FORMS = {"t16_g1": (16, 1), "t16_g2": (16, 2), "t8_g1": (8, 1), "t8_g2": (8, 2)}

for n, k, m in select_shapes(POINTS):
    words, x, alpha = launch_alone_inputs(n, k, m, 16)  # (rows to 16: both tiles fit)
    outs = {name: torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            for name in FORMS}

    def form(name, tile_m, groups):
        return lambda w: launch_large_m(x, w[0], w[1], alpha, outs[name], (tile_m, 0),
                                        stream_k=True, k_groups=groups,
                                        k_order=KOrder.PERMUTED)
    calls = {name: form(name, *f) for name, f in FORMS.items()}
    print_variant_rounds(f"gemm {n}x{k} M={m} stream-K, 16- / 8-token tiles, K groups",
                         {name: (words, call) for name, call in calls.items()})
    if not warm_only():
        for call in calls.values():
            call(words[0])
        print("  8 against 16 tokens: " + " ".join(
            f"g{g}={((outs[f't8_g{g}'].float() - outs[f't16_g{g}'].float()).norm()).item():.1e}"
            for g in (1, 2)), flush=True)
    del words
    torch.cuda.empty_cache()
