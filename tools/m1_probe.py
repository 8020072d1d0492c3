"""Session 5: the small-M kernels' default configs at M = 1 (and the ring configs of long K at
M = 16), GEMM (W4A4) and fused gate_up + SwiGLU + quant, graph us with the suite's timer and
rotations. CUTE_KERNELS_BENCH_SHAPES picks shapes; prints one line per kernel."""

import torch

from cute_kernels import reference
from cute_kernels.bench.timing import rotations_for, select_shapes, time_graph_us
from cute_kernels.gate_up_weight import prepare_gate_up_weight
from cute_kernels.nvfp4_gemm import nvfp4_gemm
from cute_kernels.nvfp4_gemm_swiglu_quant import nvfp4_gemm_swiglu_quant

alpha = torch.full((1,), 0.5, device="cuda")  # tensors: a float would add a fill per call
gs = torch.full((1,), 30.0, device="cuda")
FUSED = {(36864, 7168), (34816, 5120), (9216, 7168), (4096, 7168)}
for n, k in select_shapes([(36864, 7168), (34816, 5120), (7168, 18432), (5120, 17408),
                           (9216, 7168), (4096, 7168), (7168, 2048)]):
    wbytes = n * k * 9 // 16
    plain = [reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                      100.0) for _ in range(rotations_for(wbytes))]
    for m in (1, 16) if k >= 16384 else (1,):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        us = time_graph_us([lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha) for w in plain])
        print(f"gemm {n}x{k} M={m}: {us:.1f} us, {wbytes / us / 1e6:.2f} TB/s", flush=True)
    del plain
    if (n, k) in FUSED:
        fused = [prepare_gate_up_weight(*reference.nvfp4_quantize(
            torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 100.0, swizzle=False))
            for _ in range(rotations_for(wbytes))]
        a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        us = time_graph_us([lambda w=w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs)
                            for w in fused])
        print(f"fused {n}x{k} M=1: {us:.1f} us, {wbytes / us / 1e6:.2f} TB/s", flush=True)
        del fused
