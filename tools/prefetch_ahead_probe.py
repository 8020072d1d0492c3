"""The wgmma kernels' producer prefetching weight k-tiles ahead of its stage loads into L2
(``NVFP4GemmLargeM.WEIGHT_PREFETCH_AHEAD`` = D: before loading k-tile kt of a piece into a
stage, a TMA prefetch of k-tile kt + D's weights), against the public route, at issue 5's
wgmma points of 16- to 64-token stream-K tiles and one wide-tile point.

Why: the same 16-token launch takes 20.3 us on an H100 and ~17.2 on the H200 at 9216x7168
M = 16: about 9 us plus the weight bytes at the card's copy rate, as if the stream and the
consumers' work did not overlap. Its pipeline holds 8 stages of 64 K (6.5 KB each, 36 KB of
weight and scale bytes an SM), under what an SM's share of the bandwidth needs in flight at
~1.5 us of loaded latency, and each weight box is 32 bytes of each of 128 rows. A prefetch D
k-tiles ahead keeps more weight bytes in flight without shared memory; deeper stages lost
in session 20 (10 against 8), before the asynchronous fix-up took the room beside them.

Per point: graph us of the public ``nvfp4_gemm`` and of the same planned launch
(``launch_planned``) compiled with D = 8 / 16 / 32, interleaved, two rounds; then the largest
difference of each output from the public one (a prefetch changes no sum: 0 expected). One
point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import permuted_weight_copies, print_variant_rounds, switched_compiler

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
AHEAD = (8, 16, 32)
COMPILERS = {d: switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM,
                                  {"WEIGHT_PREFETCH_AHEAD": d}, f"compile_large_m_ahead{d}")
             for d in AHEAD}
# (N, K, M, NVFP4 tokens): issue 5's open M <= 64 points, then a wide-tile point
POINTS = [(9216, 7168, 16, True), (5120, 17408, 16, True), (7168, 18432, 16, True),
          (7168, 18432, 32, True), (7168, 18432, 64, True), (9216, 7168, 8, False),
          (5120, 17408, 8, False), (9216, 7168, 256, True)]


def point(n: int, k: int, m: int, fp4: bool) -> None:
    words = permuted_weight_copies(n, k)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4 else (x, None)
    alpha = torch.full((1,), 0.5, device="cuda")
    names = ["public"] + [f"ahead{d}" for d in AHEAD]
    outs = {name: torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            for name in names}
    plan = plain_plan(m, n, k)
    assert not GEMM.small_m_regime(m, n, k, fp4, True), (n, k, m)

    def public(w):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=outs["public"])

    def ahead(d):
        def run(w):
            GEMM.launch_planned(a, a_sf, w[0], w[1], alpha, outs[f"ahead{d}"], plan,
                                wg_k_split=True, compile_fn=COMPILERS[d])
        return run
    calls = {"public": public, **{f"ahead{d}": ahead(d) for d in AHEAD}}
    label = f"gemm {n}x{k} M={m} {'W4A4' if fp4 else 'W4A16'} plan {plan}"
    print_variant_rounds(label, {name: (words, call) for name, call in calls.items()})
    if not warm_only():
        for call in calls.values():
            call(words[0])
        want = outs["public"].float()
        print("  max |public - form|: " + " ".join(
            f"{name}={(o.float() - want).abs().max().item():.3g}"
            for name, o in outs.items() if name != "public"), flush=True)


for n, k, m, fp4 in select_shapes(POINTS):
    point(n, k, m, fp4)
    torch.cuda.empty_cache()
