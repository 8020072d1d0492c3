"""Small launches of the fused op's swapped kernel and its weight passes, for compute-sanitizer
(``tools/sanitize_probe.py`` imports it; alone: ``sanitize_script swapped_sanitize_probe``)."""

import torch

from cute_kernels import prepare_gate_up_weight, prepare_nvfp4_weight, reference
from cute_kernels.swiglu_quant_swapped import bf16_gate_up_weights, launch_swapped
from layouts import sf_padded_shape

for m, two_i, k, ctas in ((129, 512, 576, 3), (1, 256, 512, 0), (300, 2304, 1024, 5)):
    wq, wsf = reference.nvfp4_quantize(
        torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16), 100.0, swizzle=False)
    w, w_sf = prepare_gate_up_weight(wq, wsf)
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    out = torch.empty(m, two_i // 4, device="cuda", dtype=torch.uint8)
    out_sf = torch.empty(sf_padded_shape(m, two_i // 32), device="cuda", dtype=torch.uint8)
    alpha = torch.tensor([0.5], device="cuda")
    gs = torch.tensor([30.0], device="cuda")
    for weights in (w, prepare_nvfp4_weight(w)):
        w16 = bf16_gate_up_weights(weights, w_sf)
        launch_swapped(w16, a, a_sf, alpha, gs, out, out_sf, ctas=ctas)
    launch_swapped(w16, a, a_sf, alpha, gs, out, out_sf, ctas=ctas, stream_k=True)
    launch_swapped(w16, a, a_sf, alpha, gs, out, out_sf, splits=2)
    launch_swapped(w16, a, a_sf, alpha, gs, out, out_sf, ctas=ctas, quantizers=3)
torch.cuda.synchronize()
print("swapped fused probe ran")
