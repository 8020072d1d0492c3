"""The small-M GEMM at M = 1 (W4A4) with the weights in ``permuted_fp4``'s bit-permuted layout
(6 masks + 5 shifts per word of 8 codes instead of 8 + 8) against the standard layout, same
config (the default where it has no K split, else (2, 1, 4, 1)). The outputs must be equal bit
for bit. Graph us, 200 calls per graph, weights rotated past the L2.
CUTE_KERNELS_BENCH_SHAPES picks shapes."""

import torch
from probe_inputs import weight_copies

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.nvfp4_gemm import launch_small_m, small_m_config
from cute_kernels.permuted_fp4 import permute_fp4_words

alpha = torch.full((1,), 0.5, device="cuda")
for n, k in select_shapes([(36864, 7168), (7168, 18432), (34816, 5120), (9216, 7168),
                           (5120, 17408), (4096, 7168), (7168, 2048)]):
    config = small_m_config(1, n, k)
    config = config[:4] if len(config) == 4 else (2, 1, 4, 1)
    weights = weight_copies(n, k)
    permuted = [(permute_fp4_words(w[0]), w[1]) for w in weights]
    a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    want = torch.empty(1, n, device="cuda", dtype=torch.float32)
    got = torch.empty_like(want)
    launch_small_m(a, a_sf, weights[0][0], weights[0][1], alpha, want, config)
    launch_small_m(a, a_sf, permuted[0][0], permuted[0][1], alpha, got, config, permuted=True)
    out = torch.empty(1, n, device="cuda", dtype=torch.bfloat16)
    std = time_graph_us([lambda w=w: launch_small_m(a, a_sf, w[0], w[1], alpha, out, config)
                         for w in weights])
    perm = time_graph_us([lambda w=w: launch_small_m(a, a_sf, w[0], w[1], alpha, out, config,
                                                     permuted=True) for w in permuted])
    roof = n * k * 9 // 16 / 4.25e6
    print(f"{n}x{k} M=1 {config}: standard {std:.2f} us ({roof / std:.0%}), permuted "
          f"{perm:.2f} us ({roof / perm:.0%}); outputs equal: {torch.equal(got, want)}",
          flush=True)
    del weights, permuted
