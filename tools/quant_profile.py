"""The public quantizer at issue 4's open points (M = 4096, K = 5120 / 7168) and at one that
reaches the bar (M = 16384 K = 5120), one launch each after a warm-up, for Nsight Compute:

    ncu --profile-from-start off --section SpeedOfLight --section MemoryWorkloadAnalysis \\
        --section WarpStateStats --section SchedulerStats --section Occupancy \\
        python tools/quant_profile.py

(a first launch a shape compiles and warms; the profiler range holds one launch a shape and
nothing else)."""

import torch

from cute_kernels import reference
from cute_kernels.nvfp4_quant import nvfp4_quantize

SHAPES = [(4096, 5120), (4096, 7168), (16384, 5120)]
xs = [(torch.randn(m, k, device="cuda") * 4).to(torch.bfloat16) for m, k in SHAPES]
gs = [reference.nvfp4_global_scale(x).reshape(1) for x in xs]
outs = [nvfp4_quantize(x, g) for x, g in zip(xs, gs)]  # compile, warm, allocate
torch.cuda.synchronize()
torch.cuda.profiler.start()
for x, g, out in zip(xs, gs, outs):
    nvfp4_quantize(x, g, out=out)
torch.cuda.synchronize()
torch.cuda.profiler.stop()
print("quant profile ran")
