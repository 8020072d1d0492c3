"""The swapped kernel's cluster pairs for compute-sanitizer (memcheck, racecheck): an M tail on
two feature tiles, and 1024x7168 at 2048 tokens (64 pairs)."""

import torch

from cute_kernels import prepare_gate_up_weight, reference
from cute_kernels.swiglu_quant_swapped import bf16_gate_up_weights, launch_swapped
from layouts import sf_padded_shape

for m, two_i, k in ((129, 512, 1024), (2048, 1024, 7168)):
    raw = reference.nvfp4_quantize(torch.randn(two_i, k, device="cuda"), 100.0, swizzle=False)
    w, w_sf = prepare_gate_up_weight(*raw, permute=True)
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda"), 100.0)
    out = torch.empty(m, two_i // 4, device="cuda", dtype=torch.uint8)
    out_sf = torch.empty(sf_padded_shape(m, two_i // 32), device="cuda", dtype=torch.uint8)
    one = torch.ones(1, device="cuda")
    launch_swapped(bf16_gate_up_weights(w, w_sf), a, a_sf, one, one, out, out_sf,
                   pair_pieces=True)
torch.cuda.synchronize()
print("swapped pairs ran")
