"""The 16-token stream-K launch with its weights resident in L2 (one weight copy, called over
and over), so that the stream is fast and the consumers bound the launch: an H100 stand-in
for the H200, whose 16-token launches are consumer-bound from DRAM (session 80: 9216x7168
M = 16 16.2 us real against 13.3 with the consumers stubbed; the H100 1.4 us apart).

Forms (``NVFP4GemmLargeM`` switches, ``stream_parts_probe``'s names): ``real``; ``inflight``
(``INFLIGHT_MAINLOOP``); ``acc2`` / ``acc4`` (``ACCUMULATORS``: the k-tile's wgmmas over two
/ four accumulators, not one chain of eight); ``inflight_acc2``; ``stub`` (consumers release
at once). Each from L2 (``_l2``: one copy) and, for reference, from DRAM (``_dram``: the
copies in turn). Session 82 call 5 (H100, 4096x14336 M = 16) had real 13.3 us from L2 against
9.6 stubbed, 9.8 without wgmmas (``STUB_MMA``) and 10.1 without the decode (``STUB_DECODE``):
each half fits under the stream, both do not. Then each form's output against ``real``'s:
the same bits for ``inflight``, the largest difference relative to the largest |real| for the
others (another order of the fp32 sums).

Graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import launch_alone_inputs, print_variant_rounds, switched_compiler

from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m)

# (N, K, M, token tile, K groups): 4096x14336 (29 MB of words and scales) and 6144x7168
# (25 MB) fit the H100's 50 MB L2 with room; 9216x7168 (37 MB) is issue 5's point
POINTS = [(4096, 14336, 16, 16, 2), (6144, 7168, 16, 16, 2), (9216, 7168, 16, 16, 2),
          (4096, 14336, 8, 8, 2), (4096, 14336, 32, 32, 2)]
FORMS = {"real": {}, "inflight": {"INFLIGHT_MAINLOOP": True}, "acc2": {"ACCUMULATORS": 2},
         "acc4": {"ACCUMULATORS": 4},
         "inflight_acc2": {"INFLIGHT_MAINLOOP": True, "ACCUMULATORS": 2},
         "stub": {"STUB_CONSUMERS": True}}
COMPILERS = {name: switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM, switches,
                                     f"compile_l2_{name}") if switches
             else compile_nvfp4_gemm_large_m for name, switches in FORMS.items()}

for n, k, m, tile_m, groups in select_shapes(POINTS):
    words, x, alpha = launch_alone_inputs(n, k, m, tile_m)
    outs = {name: torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            for name in FORMS}

    def form(name):
        return lambda w: launch_large_m(x, w[0], w[1], alpha, outs[name], (tile_m, 0),
                                        stream_k=True, k_groups=groups,
                                        k_order=KOrder.PERMUTED, pdl_trigger=True,
                                        compile_fn=COMPILERS[name])
    variants = {}
    for name in FORMS:
        variants[f"{name}_l2"] = (words[:1], form(name))
        variants[f"{name}_dram"] = (words, form(name))
    print_variant_rounds(f"gemm {n}x{k} M={m} {tile_m}-token stream-K, {groups} K groups, "
                         f"weights from L2 / DRAM", variants)
    if not warm_only():
        for name in FORMS:
            form(name)(words[0])
        want = outs["real"].float()
        for name in ("inflight", "acc2", "acc4", "inflight_acc2"):
            gap = (outs[name].float() - want).abs().max().item() / want.abs().max().item()
            print(f"  {name} against real: max difference / max |real| = {gap:.2e}",
                  flush=True)
    del words
    torch.cuda.empty_cache()
