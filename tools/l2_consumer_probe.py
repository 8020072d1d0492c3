"""The 16-token stream-K launch with its weights resident in L2 (one weight copy, called over
and over), so that the stream is fast and the consumers bound the launch: an H100 stand-in
for the H200, whose 16-token launches are consumer-bound from DRAM (session 80: 9216x7168
M = 16 16.2 us real against 13.3 with the consumers stubbed; the H100 1.4 us apart).

Forms (``NVFP4GemmLargeM`` switches): ``real`` (the default: ``_mma_tile``'s loop);
``inflight`` (``INFLIGHT_MAX_TILE_M = 32``: the in-flight loop at up to 32 tokens);
``stub`` (consumers release at once, ``STUB_CONSUMERS``); ``no_decode`` (``STUB_DECODE``: the
wgmmas alone); ``early`` (``EARLY_RELEASE``: a stage released before the next decode);
``real_c2`` (two CTAs an SM: twice the consumer warps to hide the decode's
latency, 80 registers, no local memory; not in flight, where ptxas would serialize the
wgmmas: C7511, too few registers). Each from L2 (``_l2``: one copy) and,
for reference, from DRAM (``_dram``: the copies in turn). Then ``inflight``'s output against
``real``'s (the same bits expected), and the two-CTA form's (other stream-K cuts: agreeing,
``agrees``).

Session 82 (H100, 4096x14336 M = 16, from L2): the default loop 13.35 us, in flight 12.91,
stubbed 9.6, the wgmmas without the decode 10.1; two and four accumulators for a k-tile's
eight wgmmas (a probe switch then, removed) 13.63 / 13.23: the decode is the consumers' cost.
(``STUB_MMA`` is no decode-only form: without wgmmas ptxas drops the decode as well.)
Session 84 (H100, the same point): real 12.90, in flight 12.93, stubbed 9.65, no decode 10.10,
two CTAs an SM 15.14; removed since, as they lost: ``PREFETCH_WORDS`` (the in-flight loop
reading the next k-tile's words before the wait) 13.78, four consumer warpgroups 15.31
(``notes/prefetch-words.patch``, ``notes/four-consumers.patch``).

Graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import (agrees, launch_alone_inputs, print_variant_rounds, stream_k_calls,
                          switched_compiler)

from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m

# (N, K, M, token tile, K groups): 4096x14336 (29 MB of words and scales) and 6144x7168
# (25 MB) fit the H100's 50 MB L2 with room; 9216x7168 (37 MB) is issue 5's point
POINTS = [(4096, 14336, 16, 16, 2), (6144, 7168, 16, 16, 2), (9216, 7168, 16, 16, 2),
          (4096, 14336, 8, 8, 2), (4096, 14336, 32, 32, 2)]
FORMS = {"real": {}, "inflight": {"INFLIGHT_MAX_TILE_M": 32},
         "stub": {"STUB_CONSUMERS": True}, "real_c2": {},
         "no_decode": {"STUB_DECODE": True}, "early": {"EARLY_RELEASE": True}}
COMPILERS = {name: switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM, switches,
                                     f"compile_l2_{name}") if switches
             else compile_nvfp4_gemm_large_m for name, switches in FORMS.items()}
CTAS_PER_SM = {"real_c2": 2}

for n, k, m, tile_m, groups in select_shapes(POINTS):
    words, x, alpha = launch_alone_inputs(n, k, m, tile_m)
    outs = {name: torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            for name in FORMS}

    calls = stream_k_calls(x, alpha, outs, tile_m, groups, COMPILERS, CTAS_PER_SM)
    variants = {}
    for name in FORMS:
        variants[f"{name}_l2"] = (words[:1], calls[name])
        variants[f"{name}_dram"] = (words, calls[name])
    print_variant_rounds(f"gemm {n}x{k} M={m} {tile_m}-token stream-K, {groups} K groups, "
                         f"weights from L2 / DRAM", variants)
    if not warm_only():
        for name in ("real", "inflight", "real_c2", "early"):
            calls[name](words[0])
        for name in ("inflight", "early"):
            same = torch.equal(outs[name], outs["real"])
            print(f"  {name} against real: {'same bits' if same else 'DIFFERENT BITS'}",
                  flush=True)
        # (other stream-K cuts)
        ok = agrees(outs["real_c2"], outs["real"]) and not outs["real_c2"].isnan().any()
        print(f"  real_c2 against real: {'agrees' if ok else 'DISAGREES'}", flush=True)
    del words
    torch.cuda.empty_cache()
