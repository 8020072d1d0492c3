"""The fp32 split route of the fused op (``swiglu_split_route``) against the fused kernels
(the public function's route) and the unfused pair, where the fused wgmma grid is starved.
W4A4, graph us. CUTE_KERNELS_BENCH_SHAPES picks shapes; prints one line per shape and M."""

import torch

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_gate_up_weight, reference
from cute_kernels.bench.timing import rotations_for, select_shapes, time_graph_us
from cute_kernels.nvfp4_quant import silu_mul_nvfp4_quant
from cute_kernels.swiglu_split_route import launch_split_route, split_route_plan

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for two_i, k in select_shapes([(1024, 7168), (4096, 7168), (9216, 7168)]):
    i = two_i // 2
    wbytes = two_i * k * 9 // 16
    raw = [reference.nvfp4_quantize(torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16),
                                    100.0, swizzle=False) for _ in range(rotations_for(wbytes))]
    fused = [prepare_gate_up_weight(*r) for r in raw]
    plain = [reference.nvfp4_quantize(torch.randn(two_i, k, device="cuda",
                                                  dtype=torch.bfloat16), 100.0) for _ in raw]
    for m in (64, 128, 256, 1024, 4096, 16384):
        plan = split_route_plan(m, i, k)
        if plan is None:
            continue
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        q = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
        sf = torch.empty(((m + 127) // 128 * 128) * (i // 16), device="cuda", dtype=torch.uint8)
        t_fused = time_graph_us([lambda w=w: nvfp4_gemm_swiglu_quant(
            a, a_sf, w[0], w[1], alpha, gs, out=q, out_sf=sf) for w in fused], 50)
        t_split = time_graph_us([lambda w=w: launch_split_route(
            a, a_sf, w[0], w[1], alpha, gs, q, sf, plan) for w in fused], 50)
        t_pair = time_graph_us([lambda w=w: silu_mul_nvfp4_quant(
            nvfp4_gemm(a, a_sf, w[0], w[1], alpha), gs) for w in plain], 50)
        print(f"{two_i}x{k} M={m} plan {plan}: fused {t_fused:.1f} split route {t_split:.1f} "
              f"pair {t_pair:.1f} us", flush=True)
    del raw, fused, plain
