"""How long the wgmma kernels' TMA stream alone takes: the public route against the same
planned launch compiled with ``NVFP4GemmLargeM.STUB_CONSUMERS`` (the consumers wait for each
stage and release it at once: no decode, no wgmma; the fix-up and epilogue as they are; the
outputs are wrong), at issue 5's 16- to 64-token stream-K points and one wide-tile point.

Why: these launches run at ~9 us plus the weight bytes at the copy rate (H100 and H200
alike), and neither one k-tile's wgmmas in flight (``notes/inflight-mainloop.patch``: even)
nor weight prefetches ahead of the stages (``WEIGHT_PREFETCH_AHEAD``: 5-45% slower, H100
session 79) moved them. If the stub takes about the public time, the producer's stream (TMA
boxes of 32 bytes a row, the pipeline) is the bound, not the consumers' decode.

Graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import permuted_weight_copies, print_variant_rounds, stub_consumers_compiler

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes
from cute_kernels.large_m_plans import plain_plan

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
STUB = stub_consumers_compiler()
POINTS = [(9216, 7168, 16), (5120, 17408, 16), (7168, 18432, 16), (7168, 18432, 64),
          (9216, 7168, 256)]

for n, k, m in select_shapes(POINTS):
    words = permuted_weight_copies(n, k)
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    alpha = torch.full((1,), 0.5, device="cuda")
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    plan = plain_plan(m, n, k)
    calls = {
        "public": lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out),
        "stub": lambda w: GEMM.launch_planned(a, a_sf, w[0], w[1], alpha, out, plan,
                                              wg_k_split=True, compile_fn=STUB)}
    print_variant_rounds(f"gemm {n}x{k} M={m} W4A4 plan {plan}",
                         {name: (words, call) for name, call in calls.items()})
    del words
    torch.cuda.empty_cache()
