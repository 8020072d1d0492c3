"""Issue 6's open points past 256 tokens (session 68, for session 69): the fused op on its
route ("route") against the fused kernel forced onto other launches, the unfused pair
``nvfp4_gemm`` + ``silu_mul_nvfp4_quant`` ("pair") and cuBLAS bf16 + torch silu*mul
("cublas_silu"), where the fused op is behind one of those two:
- 9216x7168 M = 600, NVFP4 activations: 1% behind the pair (117.3 / 116.1 us, session 67; both
  on whole 128-token tiles);
- 1024x7168 M = 600: 2% behind cuBLAS + silu on NVFP4 activations (25.9 / 25.4, K pieces (128,
  3)), 8% on bf16 ones (27.7 / 25.6, session 66);
- 4096x7168 M = 1100, bf16 activations: 0.8% behind (101.5 / 100.7, session 68 call 2; whole
  144);
- 1024x7168 M = 1100 / 2100, bf16 activations: 0.81x / 0.83x (session 66; stream-K 128);
- points 6..10: the fused kernel's hybrid on fitted tiles, where the pair's GEMM takes it;
- points 11..16 (session 69 call 3): 9216x7168 at 640..880 tokens against fitted launches,
  and measured fused picks that the hybrid now takes;
- points 17..24 (call 4): ``FUSED_WHOLE_128_MIN_WAVES``'s launches against the route before;
- points 25..27 (call 5): where the pair stayed ahead, against other launches;
- points 28..30 (call 6): the rules as landed where unmeasured, against the route before.
Each forced launch's codes and scales are first compared with the route's, and one that the
op refuses is named and left out (``probe_inputs.fused_route_and_answers``). Permuted words,
graph us in two rounds. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import (bf16_weight_rotation, cublas_silu, fused_route_and_answers,
                          gate_up_words, print_variant_rounds, unfused_pair)

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes

FITTED_160_208 = {"w160": ("whole", (160, 0)), "sk160": ("stream_k", 160),
                  "w208": ("whole", (208, 0)), "sk208": ("stream_k", 208)}
SMALL_WEIGHT = {"sk128": ("stream_k", 128), "w128": ("whole", (128, 0)),
                "w64": ("whole", (64, 0)), "p2": ("pieces", (128, 2)),
                "p4": ("pieces", (128, 4))}
# (2I, K, M, NVFP4 activations, forced launches by name)
POINTS = [(9216, 7168, 600, True, {"w128": ("whole", (128, 0)), **FITTED_160_208}),
          (1024, 7168, 600, True, SMALL_WEIGHT), (1024, 7168, 600, False, SMALL_WEIGHT),
          (4096, 7168, 1100, False, {"sk144": ("stream_k", 144), "sk128": ("stream_k", 128),
                                     "w128": ("whole", (128, 0)), "w160": ("whole", (160, 0))}),
          (1024, 7168, 1100, False, SMALL_WEIGHT), (1024, 7168, 2100, False, SMALL_WEIGHT)]
# points 6..10: where ``nvfp4_gemm`` takes the hybrid on fitted tiles (``FITTED_HYBRID``, 2-4%
# faster than whole ones in session 68) the pair may pass the fused op on whole ones; the
# fused kernel's hybrid there (the route "hybrid", ``FUSED_FITTED_HYBRID``)
POINTS += [(two_i, k, m, a_fp4, {"hy240": ("hybrid", 240)})
           for two_i, k, m, a_fp4 in ((4096, 7168, 3564, True), (9216, 7168, 3226, True),
                                      (36864, 7168, 1614, True), (34816, 5120, 1900, True),
                                      (4096, 7168, 3564, False))]
# points 11..13 (session 69 call 3): 9216x7168 where the model keeps whole 128-token tiles
# (call 2 at M = 600: whole 128 116.7 us, stream-K 208 109.6), against the fitted launches
POINTS += [(9216, 7168, m, True, {"w128": ("whole", (128, 0)), **answers})
           for m, answers in ((640, {"sk160": ("stream_k", 160), "sk224": ("stream_k", 224)}),
                              (820, {"sk176": ("stream_k", 176), "sk208": ("stream_k", 208),
                                     "w176": ("whole", (176, 0))}),
                              (880, {"sk176": ("stream_k", 176), "sk224": ("stream_k", 224),
                                     "w176": ("whole", (176, 0))}))]
# points 14..16: measured fused picks (whole fitted tiles) that FUSED_FITTED_HYBRID now takes
# to the hybrid (call 2 measured it at points 6..10 only), and the plain GEMM's one hybrid loss
POINTS += [(two_i, k, m, True, {f"w{t}": ("whole", (t, 0))})
           for two_i, k, m, t in ((36864, 7168, 3339, 240), (34816, 5120, 1100, 160),
                                  (34816, 5120, 2330, 240))]
# points 17..24 (session 69 call 4): the fused op's best fitted launch in place of whole
# 128-token tiles from two waves (``FUSED_WHOLE_128_MIN_WAVES``, measured at 9216x7168 M = 600
# .. 880) where no point was measured, against the route before ("old")
POINTS += [(two_i, k, m, True, {"old": old})
           for two_i, k, m, old in ((9216, 7168, 890, ("whole", (128, 0))),
                                    (9216, 7168, 1130, ("whole", (256, 0))),
                                    (9216, 7168, 1380, ("stream_k", 256)),
                                    (5120, 17408, 1600, ("whole", (128, 0))),
                                    (7168, 18432, 850, ("whole", (128, 0))),
                                    (7168, 18432, 2930, ("stream_k", 256)),
                                    (7168, 2048, 800, ("whole", (128, 0))),
                                    (6144, 4096, 1300, ("whole", (128, 0))))]
# points 25..27 (session 69 call 5): where the pair stayed ahead after call 4 (9216x7168 M =
# 1130: 204.2 / 194.0, M = 1380: 237.1 / 233.7; the pair's GEMM on whole 128-token tiles) and
# 7168x18432 M = 2930 (the route stream-K 256 1368, the hybrid 240 1046, the pair 1014)
POINTS += [(9216, 7168, 1130, True, {"w128": ("whole", (128, 0)), "w144": ("whole", (144, 0)),
                                     "hy144": ("hybrid", 144), "w176": ("whole", (176, 0)),
                                     "sk176": ("stream_k", 176), "w192": ("whole", (192, 0))}),
           (9216, 7168, 1380, True, {"w128": ("whole", (128, 0)), "w144": ("whole", (144, 0)),
                                     "hy176": ("hybrid", 176), "w176": ("whole", (176, 0)),
                                     "w208": ("whole", (208, 0)), "sk160": ("stream_k", 160)}),
           (7168, 18432, 2930, True, {"w128": ("whole", (128, 0)), "hy240": ("hybrid", 240),
                                      "w240": ("whole", (240, 0)), "hy256": ("hybrid", 256)})]
# points 28..30 (session 69 call 6): the rules as landed where unmeasured, against the route
# before: 7168x2048 M = 2930 (32 k-tiles; stream-K 256 -> whole 128), 6144x4096 M = 1000
# (whole 128 -> whole 208), 9216x7168 M = 1130 on bf16 activations (whole 256 -> whole 128)
POINTS += [(7168, 2048, 2930, True, {"old": ("stream_k", 256)}),
           (6144, 4096, 1000, True, {"old": ("whole", (128, 0))}),
           (9216, 7168, 1130, False, {"old": ("whole", (256, 0))})]


for two_i, k, m, a_fp4, answers in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0) if a_fp4 else (x, None)
    words = gate_up_words(two_i, k, True)
    variants = fused_route_and_answers(two_i, k, a, a_sf, words, answers)
    variants["pair"] = (words, unfused_pair(a, a_sf, two_i))
    variants["cublas_silu"] = (bf16_weight_rotation(two_i, k), lambda w: cublas_silu(x, w))
    print_variant_rounds(f"  {two_i}x{k} M={m}", variants)
