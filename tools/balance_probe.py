"""Is the one-token small kernel bound by its busiest SMs? At 9216x7168 M = 1 the plain GEMM
runs 576 CTAs of one 16-row tile (``_permuted_w4a4_config``'s (1, 1, 4, 1)), 4.36 an SM: 48
SMs stream five tiles, 84 four. If an SM's stream rate (not the DRAM) sets the time, the
five-tile SMs set it (5 / 4.36 = 1.15x the even share), and a weight whose tiles divide evenly
streams each byte faster. Likewise the fused kernel's 288 two-tile CTAs (2.18 an SM: 24 SMs
with three).

Per point, graph us of the public functions at M = 1 (permuted words, NVFP4 activations) on
row counts around 9216 whose tiles fill the SMs evenly (8448: four tiles an SM, 10560: five)
or not (9216, 9504: 4.5), K = 7168, and the fused kernel on 2I = 8448 / 9216 / 11264 / 12672
(2 / 2.18 / 2.67 / 3 CTAs an SM). One kind per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import gate_up_words, permuted_weight_copies, print_forms

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import select_shapes, warm_only

K = 7168
# the fused kernel's 2I a multiple of 128: 8448 two CTAs an SM, 11264 2.67, 12672 three
POINTS = ([("gemm", n) for n in (8448, 9216, 9504, 10560)]
          + [("fused", n) for n in (8448, 9216, 11264, 12672)])
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
a, a_sf = reference.nvfp4_quantize(torch.randn(1, K, device="cuda", dtype=torch.bfloat16), 100.0)
for kind, n in select_shapes(POINTS):
    if kind == "gemm":
        weights = permuted_weight_copies(n, K)
        out = torch.empty(1, n, device="cuda", dtype=torch.bfloat16)
        call = lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    else:
        weights = gate_up_words(n, K, True)
        call = lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs)
    weight_bytes = n * K * 9 // 16
    label = f"{kind} {n}x{K} M=1 ({weight_bytes / 1e6:.1f} MB)"
    if warm_only():
        call(weights[0])
        torch.cuda.synchronize()
        continue
    print_forms(label, {"public": call}, weights)
    del weights
