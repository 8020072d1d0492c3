"""The fused op at 4..16 tokens on 4096x7168, permuted words: its small kernel against the fused
kernel on half-group cluster pairs of 16-token tiles with the trigger and the spread pass
(``_half_groups``, "pairs"), as ``nvfp4_gemm`` launches the [2I, K] weight at 9..16 NVFP4
tokens since session 36. Points 0..2 (session 37 call 1, NVFP4 activations at 9..16 tokens:
"public" was the small kernel, 11.30 us at M = 16 in session 36's suite; the pairs won and
are the public route since): M = 9, 12, 16. Points 3..6 (session 37, prepared): bf16
activations (W4A16) at 4..16 tokens, where the public route is the small kernel (session 30
had it ahead of the fp32 split route: M = 9 14.3 / 18.3 us, M = 16 15.8 / 18.5) and the pass
is ``reorder_k``'s copy, spread. Points 7..9 (prepared): 9216x7168 at 9..16 NVFP4 tokens,
where ``nvfp4_gemm`` has taken the 16-token stream-K launch with the trigger and the spread
pass since session 36 (M = 16 20.1 -> 19.2 us) and the fused op keeps its small kernel
(~20.6 us at M = 16 in session 27's suite, 1.05x the pair then: the pair has since gained
~0.9): "pairs" is there the fused kernel on that launch ("narrow", the route 36864x7168 takes
at 9..16 tokens) with the trigger and the spread pass, and "narrow" the same untriggered.
Points 10..13 (prepared): where the fused op already takes that route (36864x7168 and
34816x5120 at 16 tokens, 36864x7168 and 9216x7168 at 32 on 32-token tiles), untriggered
("public") against the trigger as ``nvfp4_gemm`` takes it on the same launch ("pairs": the
trigger, and the spread pass on 16-token tiles only, ``pdl_trigger_plan``). Points 14..17
(session 38, prepared): where ``narrow_pdl_plan`` now triggers the route, unmeasured: NVFP4
34816x5120 M = 32; W4A16 (``reorder_k``'s copy the pass) 36864x7168 M = 8, 9216x7168 M = 12,
34816x5120 M = 16. There "public" is the public route (triggered) and "narrow" untriggered.
On 36864x7168 and 34816x5120 at 16 tokens or fewer (more tiles than CTAs), "unspread" is the
trigger without the spread pass, as ``nvfp4_gemm``'s launch takes it since session 38.
At 17..32 tokens on weights of one CTA an SM (9216x7168 M = 32, point 13), "spread32" is the
trigger with the spread pass on the 32-token tiles, as ``nvfp4_gemm``'s launch takes it since
session 50 (prepared in session 50, unmeasured).
Per point, a check of the wgmma launch's codes and scales against the public route's (the same
h: equal but at rounding boundaries), then graph us of back-to-back calls (interleaved, two
rounds). One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles
only."""

import torch
from probe_inputs import fused_operands, gate_up_words, print_forms

from cute_kernels import nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.k_order import wgmma_k_order
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_swiglu_quant import _half_groups, large_m_route, route_launch
from cute_kernels.swiglu_quant_large_m import launch_large_m

# (2I, K, M, NVFP4 activations)
POINTS = [(4096, 7168, 9, True), (4096, 7168, 12, True), (4096, 7168, 16, True),
          (4096, 7168, 4, False), (4096, 7168, 8, False), (4096, 7168, 12, False),
          (4096, 7168, 16, False), (9216, 7168, 9, True), (9216, 7168, 12, True),
          (9216, 7168, 16, True), (36864, 7168, 16, True), (34816, 5120, 16, True),
          (36864, 7168, 32, True), (9216, 7168, 32, True),
          # 14..: where ``narrow_pdl_plan`` (session 38) triggers, unmeasured before
          (34816, 5120, 32, True), (36864, 7168, 8, False), (9216, 7168, 12, False),
          (34816, 5120, 16, False)]


def narrow(a, a_sf, w, w_sf, q, sf, trigger: bool, spread: bool = True,
           spread_max_tile: int = 16):
    """The fused kernel on ``nvfp4_gemm``'s 16- or 32-token stream-K launch ("narrow",
    ``large_m_route``'s tile), with the PDL trigger (and on tiles of at most
    ``spread_max_tile`` tokens the spread pass, unless not ``spread``) or without."""
    two_i, k, m = w.shape[0], w.shape[1] * 8, a.shape[0]
    tile = large_m_route(max(m, 9), two_i // 2, k)[1]
    config, stream_k, options = route_launch("narrow", tile, m, two_i, k)
    k_order = wgmma_k_order(w)
    a_bf16 = bf16_activations(a, a_sf, k_order, -(-m // tile) * tile,
                              spread=spread and trigger and tile <= spread_max_tile)
    launch_large_m(a_bf16, w, w_sf, alpha, gs, q, sf, config, stream_k=stream_k,
                   k_order=k_order, pdl_trigger=trigger, **options)


alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for two_i, k, m, fp4 in select_shapes(POINTS):
    weights = gate_up_words(two_i, k, True)
    ops = fused_operands(two_i, k, m, True)
    q, sf = ops["q"], ops["sf"]
    if fp4:
        a, a_sf = ops["a"], ops["a_sf"]
    else:
        a, a_sf = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16), None
    calls = {"public": lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, out=q,
                                                         out_sf=sf),
             "pairs": lambda w: _half_groups(a, a_sf, w[0], w[1], alpha, gs, q, sf)}
    if two_i != 4096:  # no 64-row tiles there: the stream-K launch
        calls["pairs"] = lambda w: narrow(a, a_sf, w[0], w[1], q, sf, True)
        calls["narrow"] = lambda w: narrow(a, a_sf, w[0], w[1], q, sf, False)
        if m <= 16 and two_i >= 32768:  # more tiles than CTAs: the trigger alone too
            calls["unspread"] = lambda w: narrow(a, a_sf, w[0], w[1], q, sf, True, False)
        if 16 < m <= 32 and two_i < 32768:  # one CTA an SM: the spread on 32-token tiles
            calls["spread32"] = lambda w: narrow(a, a_sf, w[0], w[1], q, sf, True, True, 32)
    label = f"fused {'W4A4' if fp4 else 'W4A16'} {two_i}x{k} M={m}"
    if not warm_only():
        calls["public"](weights[0])
        want = (q.clone(), sf.clone())
        calls["pairs"](weights[0])
        torch.cuda.synchronize()
        codes = (q != want[0]).float().mean().item()
        scales = (sf != want[1]).float().mean().item()
        print(f"{label}: pairs differ from public on {codes:.2e} of code bytes, "
              f"{scales:.2e} of scale bytes", flush=True)
    print_forms(label, calls, weights)
    del weights
