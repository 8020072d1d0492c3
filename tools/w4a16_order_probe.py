"""W4A16 (bf16 activations) on packed weight bytes in the wgmma kernels: the decode in place
(``KOrder.IDENTITY``, the activations used as given) against ``KOrder.PAIRS`` (the cheaper
decode, paid for with ``reorder_k``'s copy of the activations, which also pads them to whole
token tiles), each on the public plan's launch. At M <= 16 also the public function, and on
permuted words the public function against their wgmma launch. (Session 28's byte order,
"bytes", lost to pairs at every point and is gone: ``notes/raw/s29-call2-w4a16.log``.) Graph
us, interleaved, two rounds; one point per CUTE_KERNELS_BENCH_SHAPES index."""

from probe_inputs import planned, print_variant_rounds, wgmma_point

from cute_kernels import nvfp4_gemm, prepare_nvfp4_weight
from cute_kernels.bench.timing import select_shapes
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

POINTS = [("gemm", 36864, 7168, 32), ("gemm", 36864, 7168, 64), ("gemm", 36864, 7168, 256),
          ("gemm", 36864, 7168, 1024), ("gemm", 9216, 7168, 64), ("gemm", 9216, 7168, 256),
          ("gemm", 4096, 7168, 64), ("gemm", 4096, 7168, 256), ("gemm", 7168, 18432, 64),
          ("gemm", 7168, 2048, 256), ("fused", 36864, 7168, 64), ("fused", 36864, 7168, 1024),
          ("gemm", 36864, 7168, 16), ("gemm", 34816, 5120, 16), ("gemm", 36864, 7168, 12),
          ("gemm", 7168, 18432, 16),
          # session 29: 4..8 tokens, where the small kernel's register path runs W4A16
          ("gemm", 36864, 7168, 8), ("gemm", 34816, 5120, 8), ("gemm", 7168, 18432, 8),
          ("gemm", 36864, 7168, 5), ("gemm", 9216, 7168, 8), ("gemm", 5120, 17408, 8),
          ("gemm", 36864, 7168, 4), ("gemm", 34816, 5120, 4), ("gemm", 7168, 18432, 4),
          ("gemm", 9216, 7168, 4), ("gemm", 5120, 17408, 4), ("gemm", 36864, 7168, 3),
          ("gemm", 4096, 7168, 8), ("gemm", 9216, 7168, 6)]

for kind, n, k, m in select_shapes(POINTS):
    plan = planned(kind, n, k, m)
    rows = -(-m // plan["config"][0]) * plan["config"][0]
    words, x, alpha, out, launch = wgmma_point(kind, n, k, m)

    def run(w, order):
        launch(w, bf16_activations(x, None, order, rows), k_order=order)
    calls = {"identity": (words, lambda w: run(w, KOrder.IDENTITY)),
             "pairs": (words, lambda w: run(w, KOrder.PAIRS))}
    if kind == "gemm" and m <= 16:
        calls["public"] = (words, lambda w: nvfp4_gemm(x, None, w[0], w[1], alpha, out=out))
        # permuted words: the public function against their wgmma launch
        permuted = [(prepare_nvfp4_weight(w), s) for w, s in words]
        calls["permuted public"] = (permuted, lambda w: nvfp4_gemm(x, None, w[0], w[1], alpha,
                                                                   out=out))
        calls["permuted wgmma"] = (permuted, lambda w: launch_large_m(
            bf16_activations(x, None, KOrder.PERMUTED, rows), w[0], w[1], alpha, out, **plan))
    print_variant_rounds(f"{kind} {n}x{k} M={m} W4A16 {plan}", calls)
    del words
