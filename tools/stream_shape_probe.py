"""What the wgmma kernels' TMA stream at 16-token stream-K tiles depends on: the launch of
issue 5's M = 16 points alone (bf16 activations made once, outside the timing, so no pass),
with the consumers stubbed (``NVFP4GemmLargeM.STUB_CONSUMERS``: no decode, no wgmma; outputs
wrong) at one, two and four 64-K groups a stage (weight boxes of 32, 64 or 128 bytes a row;
four groups are probe-only) and several stage counts, beside the real launch at one, two
and four groups, whose outputs are then compared with one group's (relative norm of the
difference: the stream-K pieces cut K at other places, so fp32 roundings may differ).

Why: session 79's ``stub_consumers_probe`` (H100) timed the public route with the consumers
stubbed within 5-8% of the real one (9216x7168 M = 16 19.2 against 20.3 us, the bytes at the
copy rate 12.3): the producer's stream is the bound. Wider boxes (fewer, longer requests a
row) or deeper pipelines are the two shapes of that stream to tell apart. More stages than
the default may leave no room for the asynchronous fix-up (then ``stream_k_fixup`` runs).

Graph us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import launch_alone_inputs, print_variant_rounds, stub_consumers_compiler

from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import compile_nvfp4_gemm_large_m, launch_large_m

STUB = stub_consumers_compiler()
POINTS = [(9216, 7168, 16), (7168, 18432, 16)]
# name -> (stub, K groups, stages; 0: the kernel's choice)
FORMS = {"real_g1": (False, 1, 0), "real_g2": (False, 2, 0), "real_g4": (False, 4, 6),
         "stub_g1_s4": (True, 1, 4), "stub_g1_s8": (True, 1, 8), "stub_g1_s12": (True, 1, 12),
         "stub_g1_s16": (True, 1, 16), "stub_g2_s4": (True, 2, 4), "stub_g2_s6": (True, 2, 6),
         "stub_g2_s8": (True, 2, 8), "stub_g4_s4": (True, 4, 4), "stub_g4_s6": (True, 4, 6)}

for n, k, m in select_shapes(POINTS):
    words, x, alpha = launch_alone_inputs(n, k, m)
    outs = {name: torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            for name in FORMS}

    def form(name, stub, groups, stages):
        return lambda w: launch_large_m(
            x, w[0], w[1], alpha, outs[name], (16, stages), stream_k=True, k_groups=groups,
            k_order=KOrder.PERMUTED, compile_fn=STUB if stub else compile_nvfp4_gemm_large_m)
    calls = {name: form(name, *f) for name, f in FORMS.items()}
    print_variant_rounds(f"gemm {n}x{k} M={m} 16-token stream-K, GEMM alone",
                         {name: (words, call) for name, call in calls.items()})
    if not warm_only():
        for name in ("real_g1", "real_g2", "real_g4"):
            calls[name](words[0])
        want = outs["real_g1"].float()
        print("  against real_g1: " + " ".join(
            f"{name}={((outs[name].float() - want).norm() / want.norm()).item():.1e}"
            for name in ("real_g2", "real_g4")), flush=True)
    del words
    torch.cuda.empty_cache()
