"""The wgmma kernels' decoding main loop with one k-tile's wgmmas in flight while the next is
decoded (``NVFP4GemmLargeM.INFLIGHT_MAINLOOP``), against the public route, at issue 5's
wgmma points (16- to 64-token stream-K tiles, where the consumer chain of a k-tile is the
bound) and two wide-tile points.

Why: in the default loop ptxas puts each group's ``WARPGROUP.DEPBAR`` right after the next
stage's shared loads, before their decode (SASS, 9216x7168, 16-token stream-K tiles, CPU), so
a warpgroup decodes only once its wgmmas retired: decode and wgmma latency add up per k-tile.
The switch issues k-tile t, waits for t - 1 (``wait_group(1)``) and decodes t + 1 while t
runs; in its SASS the wait sits after the issue and the decode follows it (no serialized
wgmmas, no spills, 168 registers at launch as before). Sessions 18 and 20 measured one group in
flight slower (1-4% at M = 64 / 256, 7% on narrow tiles at two CTAs an SM); those were other
forms, before the stream-K fix-up and stage rules of today.

Per point: graph us of the public ``nvfp4_gemm`` and of the same planned launch
(``launch_planned``) compiled with the switch, interleaved, two rounds; then the largest
difference of the two outputs (the sums are added in the same order: 0 expected). One point
per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import permuted_weight_copies, print_variant_rounds, switched_compiler

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
INFLIGHT = switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM,
                             {"INFLIGHT_MAINLOOP": True}, "compile_large_m_inflight")
# (N, K, M, NVFP4 tokens): issue 5's open M <= 64 points, then two wide-tile points
POINTS = [(9216, 7168, 16, True), (5120, 17408, 16, True), (7168, 18432, 16, True),
          (7168, 18432, 32, True), (7168, 18432, 64, True), (9216, 7168, 8, False),
          (5120, 17408, 8, False), (7168, 18432, 8, False), (9216, 7168, 256, True),
          (5120, 17408, 1024, False)]


def point(n: int, k: int, m: int, fp4: bool) -> None:
    words = permuted_weight_copies(n, k)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4 else (x, None)
    alpha = torch.full((1,), 0.5, device="cuda")
    outs = {name: torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
            for name in ("public", "inflight")}
    plan = plain_plan(m, n, k)
    assert not GEMM.small_m_regime(m, n, k, fp4, True), (n, k, m)

    def public(w):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=outs["public"])

    def inflight(w):
        GEMM.launch_planned(a, a_sf, w[0], w[1], alpha, outs["inflight"], plan,
                            wg_k_split=True, compile_fn=INFLIGHT)
    label = f"gemm {n}x{k} M={m} {'W4A4' if fp4 else 'W4A16'} plan {plan}"
    print_variant_rounds(label, {"public": (words, public), "inflight": (words, inflight)})
    if not warm_only():
        public(words[0])
        inflight(words[0])
        gap = (outs["public"].float() - outs["inflight"].float()).abs().max().item()
        print(f"  max |public - inflight| = {gap:.3g}", flush=True)


for n, k, m, fp4 in select_shapes(POINTS):
    point(n, k, m, fp4)
    torch.cuda.empty_cache()
