"""The fused cluster-pair kernel (``swiglu_small_m_pairs``: the quant block's amax exchanged
through distributed shared memory) at one and five tokens, NVFP4 and bf16 activations, a K
tail, for compute-sanitizer; ``sanitize_probe.py`` runs it too."""

import torch

from cute_kernels import prepare_gate_up_weight, reference
from cute_kernels.swiglu_small_m_pairs import launch_small_m_pairs
from layouts import sf_padded_shape

K, I = 1088, 192
one = torch.ones(1, device="cuda")
w, w_sf = prepare_gate_up_weight(*reference.nvfp4_quantize(
    torch.randn(2 * I, K, device="cuda", dtype=torch.bfloat16), 50.0, swizzle=False))
for m in (1, 5):
    x = torch.randn(m, K, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    mp, kbp = sf_padded_shape(m, I // 16)
    for act, act_sf in ((a, a_sf), (x, None)):
        launch_small_m_pairs(act, act_sf, w, w_sf, one, one,
                             torch.empty(m, I // 2, device="cuda", dtype=torch.uint8),
                             torch.empty(mp, kbp, device="cuda", dtype=torch.uint8))
torch.cuda.synchronize()
print("cluster-pairs probe ran")
