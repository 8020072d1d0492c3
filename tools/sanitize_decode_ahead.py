"""Launches of the fused kernel decoding its own activations (``cute_kernels.decode_ahead``)
for compute-sanitizer's memcheck and racecheck: one row tile and one chunk on 4 CTAs, rows
past M over two chunks, and a persistent grid (more tiles than CTAs)."""

import torch

from cute_kernels import prepare_gate_up_weight, reference
from cute_kernels.decode_ahead import launch_fused_decode_ahead
from layouts import sf_padded_shape

alpha = torch.full((1,), 0.25, device="cuda")
gs = torch.full((1,), 40.0, device="cuda")
for i, k, m, tile_m, sms in [(64, 192, 77, 256, 4), (512, 1024, 300, 128, 132),
                             (256, 512, 520, 128, 3)]:
    w = torch.randn(2 * i, k, device="cuda", dtype=torch.bfloat16)
    packed, sf = reference.nvfp4_quantize(w, 100.0, swizzle=False)
    words, w_sf = prepare_gate_up_weight(packed, sf, permute=True)
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    q = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
    out_sf = torch.empty(sf_padded_shape(m, i // 16), device="cuda", dtype=torch.uint8)
    launch_fused_decode_ahead(a, a_sf, words, w_sf, alpha, gs, q, out_sf, tile_m, sms)
    torch.cuda.synchronize()
print("probe ran", flush=True)
