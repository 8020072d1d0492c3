"""The wgmma routes' activation pass alone (``bf16_activations``): packed-order (unit-scale
kernel) against permuted-K, graph us and TB/s of codes + scales + bf16 out, with the copy
bandwidth of the same run."""

import torch

from cute_kernels import reference
from cute_kernels.bench.ceilings import copy_bandwidth_tbs
from cute_kernels.bench.timing import time_graphs_interleaved_us
from cute_kernels.nvfp4_dequant import bf16_activations

copy_tbps = copy_bandwidth_tbs(256 << 20, "torch")
print(f"torch copy_ 256 MiB: {copy_tbps:.2f} TB/s")
for m, k in ((256, 18432), (1024, 18432), (1024, 7168), (4096, 7168), (4096, 18432)):
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    for p in (False, True):
        ref = bf16_activations(a, a_sf, p)
        assert torch.equal(ref, bf16_activations(a, a_sf, p))
    us = time_graphs_interleaved_us([[lambda p=p: bf16_activations(a, a_sf, p)]
                                     for p in (False, True)], 50)
    nbytes = m * k // 2 + m * k // 16 + 2 * m * k
    tb = [nbytes / u / 1e6 for u in us]
    print(f"activations M={m} K={k}: unit scale {us[0]:.2f} us ({tb[0]:.2f} TB/s, "
          f"{tb[0] / copy_tbps:.0%} of copy) | permuted-K {us[1]:.2f} us ({tb[1]:.2f} TB/s, "
          f"{tb[1] / copy_tbps:.0%})", flush=True)
