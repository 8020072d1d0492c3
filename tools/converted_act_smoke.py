"""A first run of the wgmma kernels converting their activations in the kernel
(``converted_act``: NVFP4 decoded, bf16 reordered), form by form on small shapes, each against
the same launch on the pass's output (equal bits expected), printed as it goes so that a hang
names its form. Run under ``timeout`` before anything else touches these kernels."""

import torch

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.converted_act_launch import (compile_fused_fp4_act, compile_reorder_act_gemm,
                                              launch_fp4_act, with_act_scales)
from cute_kernels.gate_up_weight import prepare_gate_up_weight
from cute_kernels.k_order import wgmma_k_order
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import launch_large_m
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused

one = torch.full((1,), 0.5, device="cuda")
b, b_sf = reference.nvfp4_quantize(torch.randn(200, 1024, device="cuda", dtype=torch.bfloat16),
                                   50.0)
FORMS = [("whole 32", 7, (32, 0), {}), ("stream-K 16", 7, (16, 0), {"stream_k": True}),
         ("pairs 16 + trigger", 7, (16, 0), {"k_groups": 2, "wg_k_split": True,
                                             "pair_pieces": True, "pdl_trigger": True}),
         ("whole 128 x 2", 129, (128, 0), {}), ("whole 256", 300, (256, 0), {})]
for weights in (prepare_nvfp4_weight(b), b):
    order = wgmma_k_order(weights)
    for name, rows, config, options in FORMS:
        a, a_sf = reference.nvfp4_quantize(torch.randn(rows, 1024, device="cuda",
                                                       dtype=torch.bfloat16), 50.0)
        got = torch.full((rows, 200), float("nan"), device="cuda")
        launch_fp4_act(a, a_sf, weights, b_sf, one, got, config, k_order=order, **options)
        torch.cuda.synchronize()
        want = torch.empty(rows, 200, device="cuda")
        x16 = bf16_activations(a, a_sf, order, -(-rows // config[0]) * config[0])
        launch_large_m(x16, weights, b_sf, one, want, config, k_order=order, **options)
        print(f"gemm {name} {order.name}: equal {torch.equal(got, want)}", flush=True)
        x = torch.randn(rows, 1024, device="cuda", dtype=torch.bfloat16)
        got.fill_(float("nan"))
        launch_large_m(x, weights, b_sf, one, got, config, k_order=order,
                       compile_fn=compile_reorder_act_gemm, **options)
        torch.cuda.synchronize()
        launch_large_m(bf16_activations(x, None, order, -(-rows // config[0]) * config[0]),
                       weights, b_sf, one, want, config, k_order=order, **options)
        print(f"gemm W4A16 {name} {order.name}: equal {torch.equal(got, want)}", flush=True)

wgu, wgu_sf = reference.nvfp4_quantize(torch.randn(256, 1024, device="cuda",
                                                   dtype=torch.bfloat16), 50.0, swizzle=False)
wp, wp_sf = prepare_gate_up_weight(wgu, wgu_sf)
gs = torch.full((1,), 30.0, device="cuda")
for name, rows, config, options in [("whole 128", 129, (128, 0), {}),
                                    ("stream-K 64", 129, (64, 0, 5), {"stream_k": True})]:
    a, a_sf = reference.nvfp4_quantize(torch.randn(rows, 1024, device="cuda",
                                                   dtype=torch.bfloat16), 50.0)
    outs = [(torch.full((rows, 64), 0xFF, device="cuda", dtype=torch.uint8),
             torch.zeros(256 * 8, device="cuda", dtype=torch.uint8)) for _ in range(2)]
    order = wgmma_k_order(wp)
    launch_fused(a.view(torch.int32), wp, wp_sf, one, gs, *outs[0], config, k_order=order,
                 quantizers=0, compile_fn=with_act_scales(compile_fused_fp4_act, a_sf),
                 **options)
    torch.cuda.synchronize()
    x16 = bf16_activations(a, a_sf, order, 256)
    launch_fused(x16, wp, wp_sf, one, gs, *outs[1], config, k_order=order, quantizers=0,
                 **options)
    print(f"fused {name}: codes equal {torch.equal(outs[0][0], outs[1][0])}, scales equal "
          f"{torch.equal(outs[0][1], outs[1][1])}", flush=True)
print("smoke done")
