"""Where the fused op's small-M kernel should hand over to the fused wgmma kernel now that the
latter has stream-K: per 2I x K and M, the small-M kernel (``swiglu_small_m_config``) against
the wgmma kernel in stream-K with 64-token tiles, W4A4, graph us (the wgmma time includes the
activation dequantization, as the public route runs it). CUTE_KERNELS_BENCH_SHAPES picks
shapes; prints one line per shape and M."""

import torch

from probe_inputs import gate_up_copies

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_large_m, launch_small_m
from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for two_i, k in select_shapes([(36864, 7168), (34816, 5120), (9216, 7168), (4096, 7168),
                               (1024, 7168)]):
    i = two_i // 2
    fused = gate_up_copies(two_i, k)
    for m in (17, 24, 32, 48, 64):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        q = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
        sf = torch.empty(128 * (i // 16), device="cuda", dtype=torch.uint8)
        config = swiglu_small_m_config(m, i, k)
        small = time_graph_us([lambda w=w: launch_small_m(a, a_sf, w[0], w[1], alpha, gs, q, sf,
                                                          config) for w in fused], 50)
        wgmma = time_graph_us([lambda w=w: launch_large_m(
            bf16_activations(a, a_sf), w[0], w[1], alpha, gs, q, sf, (64, 0), True)
            for w in fused], 50)
        print(f"fused {two_i}x{k} M={m}: small {config} {small:.1f} | stream-K 64 {wgmma:.1f}",
              flush=True)
    del fused
