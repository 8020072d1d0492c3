"""The wgmma (large-M) kernel alone, between cudaProfilerStart/Stop, for Nsight Compute
(``tools/sessions/session16_profile.sh``). Cases (N, K, M, token tile, stream-K): 36864x7168 at M = 32
with 32-token tiles (the decode-bound end: ~480 SM cycles a k-tile against ~210 of issue and
128 of tensor work), 9216x7168 at M = 256 with 128-token tiles in stream-K, and 36864x7168 at
M = 256 in whole 256-token tiles (the tensor-bound end, no stream-K fix-up). Bf16 activations,
permuted weight words. CUTE_KERNELS_PROFILE_CASES="n,k,m,tile,stream_k,splits;..." profiles
other launches (session 32: 7168x2048 at M = 64, whole 64-token tiles against two K pieces).
"""

import os

import torch

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

torch.manual_seed(0)
CASES = [(36864, 7168, 32, 32, True, 1), (9216, 7168, 256, 128, True, 1),
         (36864, 7168, 256, 256, False, 1)]
if os.environ.get("CUTE_KERNELS_PROFILE_CASES"):
    CASES = [tuple(int(v) for v in case.split(","))
             for case in os.environ["CUTE_KERNELS_PROFILE_CASES"].split(";")]
runs = []
for n, k, m, tile_m, stream_k, splits in CASES:
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16), 100.0)
    b = prepare_nvfp4_weight(b)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    alpha = torch.ones(1, device="cuda")
    args = (x, b, b_sf, alpha, out, (tile_m, 0))
    options = dict(stream_k=bool(stream_k), splits=splits)
    launch_large_m(*args, **options)  # compile and warm up
    runs.append((args, options))
torch.cuda.synchronize()
torch.cuda.profiler.start()
for args, options in runs:
    launch_large_m(*args, **options)
torch.cuda.synchronize()
torch.cuda.profiler.stop()
print("large-M profile probe ran")
