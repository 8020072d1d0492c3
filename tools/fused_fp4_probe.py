"""The fused op's wgmma routes with the activations converted in the kernel
(``converted_act_launch.launch_fused_converted``, built in session 38: NVFP4 decoded; the last
points bf16, reordered) against the public routes (the pass, then the same launch). Issue 6's
last open rows are 1024x7168 at M >= 1024 (0.87-0.98x cuBLAS + silu), where the pass is the
whole gap (session 31: 5.8 / 20.2 / 76.7 us at M = 1024 / 4096 / 16384); the small-M points
are issue 5's and 6's 1.5x-QuACK rows.
Where the public route has quantizer warps (whole tiles over more than one wave), the decode
takes those warps and the consumers quantize (the same bits).

Per point, a check that the codes and scale bytes equal the public route's, then graph us of
back-to-back calls (interleaved, two rounds): "public", "fp4", and "cuBLAS+silu" (bf16 GEMM on
bf16 weights + torch silu(gate) * up, as the swiglu suite). Permuted words. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
import torch.nn.functional as F
from probe_inputs import fused_operands, gate_up_words, print_forms

from cute_kernels import nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.converted_act_launch import launch_fused_converted

# (2I, K, M, NVFP4 activations; else bf16, reordered in the kernel)
POINTS = [(1024, 7168, 1024, True), (1024, 7168, 2048, True), (1024, 7168, 4096, True),
          (1024, 7168, 16384, True), (4096, 7168, 16, True), (4096, 7168, 64, True),
          (9216, 7168, 16, True), (9216, 7168, 1024, True), (36864, 7168, 1024, True),
          (4096, 7168, 16, False), (4096, 7168, 64, False), (9216, 7168, 16, False)]

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for two_i, k, m, fp4 in select_shapes(POINTS):
    weights = gate_up_words(two_i, k, True)
    ops = fused_operands(two_i, k, m, True)
    a, a_sf, q, sf = ops["a"], ops["a_sf"], ops["q"], ops["sf"]
    if not fp4:
        a, a_sf = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16), None
    # cuBLAS's bf16 weights rotate with the NVFP4 copies (each call past the L2 alike)
    w16 = {id(w[0]): torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16)
           for w in weights}
    x16 = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    i = two_i // 2

    def cublas(w):
        y = F.linear(x16, w16[id(w[0])])
        return F.silu(y[:, :i]) * y[:, i:]
    calls = {"public": lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, out=q,
                                                         out_sf=sf),
             "fp4": lambda w: launch_fused_converted(a, a_sf, w[0], w[1], alpha, gs, q, sf),
             "cuBLAS+silu": cublas}
    label = f"fused {'W4A4' if fp4 else 'W4A16'} {two_i}x{k} M={m}"
    calls["fp4"](weights[0])
    if not warm_only():
        calls["public"](weights[0])
        want = (q.clone(), sf.clone())
        calls["fp4"](weights[0])
        torch.cuda.synchronize()
        print(f"{label}: fp4 equals public: codes {torch.equal(q, want[0])}, scales "
              f"{torch.equal(sf, want[1])}", flush=True)
    print_forms(label, calls, weights)
    del weights, w16
