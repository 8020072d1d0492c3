"""The unit-scale dequantize kernel (``bf16_activations``: global scale 1, bf16 out) against the
general one (the same inputs, global scale as a one-element tensor 1.0, which takes the division
path), at the wgmma kernels' activation sizes and at weight sizes. Graph us, TB/s of packed
codes + scales + bf16 out, and whether the two outputs are equal. CUTE_KERNELS_BENCH_SHAPES picks
points."""

import torch

from cute_kernels import reference
from cute_kernels.bench.timing import rotations_for, select_shapes, time_graph_us
from cute_kernels.nvfp4_dequant import nvfp4_dequantize

POINTS = [(256, 7168), (1024, 7168), (4096, 7168), (1024, 5120), (1024, 18432), (16384, 7168),
          (7168, 18432)]
one = torch.ones(1, device="cuda")

for m, k in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    q, sf = reference.nvfp4_quantize(x, 448 * 6 / x.abs().amax().float())
    nbytes = q.numel() + sf.numel() + 2 * m * k
    copies = [(q.clone(), sf.clone()) for _ in range(rotations_for(nbytes))]
    same = torch.equal(nvfp4_dequantize(q, sf, 1.0), nvfp4_dequantize(q, sf, one))
    general = time_graph_us([lambda c=c: nvfp4_dequantize(c[0], c[1], one) for c in copies])
    unit = time_graph_us([lambda c=c: nvfp4_dequantize(c[0], c[1], 1.0) for c in copies])
    print(f"M={m} K={k}: general {general:.2f} us ({nbytes / general / 1e6:.2f} TB/s), unit "
          f"{unit:.2f} us ({nbytes / unit / 1e6:.2f} TB/s); equal: {same}", flush=True)
