"""The wgmma (large-M) kernel alone, between cudaProfilerStart/Stop, for Nsight Compute
(``tools/session16_profile.sh``). Cases (N, K, M, token tile, stream-K): 36864x7168 at M = 32
with 32-token tiles (the decode-bound end: ~480 SM cycles a k-tile against ~210 of issue and
128 of tensor work), 9216x7168 at M = 256 with 128-token tiles in stream-K, and 36864x7168 at
M = 256 in whole 256-token tiles (the tensor-bound end, no stream-K fix-up). Bf16 activations,
permuted weight words."""

import torch

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

torch.manual_seed(0)
CASES = [(36864, 7168, 32, 32, True), (9216, 7168, 256, 128, True), (36864, 7168, 256, 256, False)]
runs = []
for n, k, m, tile_m, stream_k in CASES:
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 100.0)
    b = prepare_nvfp4_weight(b)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    alpha = torch.ones(1, device="cuda")
    args = (x, b, b_sf, alpha, out, (tile_m, 0))
    launch_large_m(*args, stream_k=stream_k)  # compile and warm up
    runs.append((args, stream_k))
torch.cuda.synchronize()
torch.cuda.profiler.start()
for args, stream_k in runs:
    launch_large_m(*args, stream_k=stream_k)
torch.cuda.synchronize()
torch.cuda.profiler.stop()
print("large-M profile probe ran")
