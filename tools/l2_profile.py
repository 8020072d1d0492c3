"""Is the wgmma kernel bound by L2 -> SM bandwidth at M >= 256? Each 128-row weight tile
re-reads its token tile's bf16 activations from the L2, so the activations' L2 traffic is
N / 128 x M x K x 2 bytes whatever the token tile: ~1/64 byte per multiply-add, ~5.6 TB/s at
the bf16 matmul peak. For Nsight Compute (``tools/sessions/session19_l2.sh``): the plain GEMM's wgmma
launch as ``nvfp4_gemm`` plans it (permuted words, NVFP4 activations: the dequantize kernel
runs first), then cuBLAS bf16 on the same shape, between cudaProfilerStart/Stop.
``CUTE_KERNELS_PROFILE_CASES="n,k,m;n,k,m"`` replaces the cases."""

import os

import torch

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm import launch_planned

torch.manual_seed(0)
CASES = [(9216, 7168, 256), (36864, 7168, 256), (7168, 18432, 256), (7168, 18432, 1024)]
if os.environ.get("CUTE_KERNELS_PROFILE_CASES"):  # "n,k,m;n,k,m"
    CASES = [tuple(int(v) for v in case.split(","))
             for case in os.environ["CUTE_KERNELS_PROFILE_CASES"].split(";")]
runs = []
for n, k, m in CASES:
    b, b_sf = reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    b = prepare_nvfp4_weight(b)
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    alpha = torch.ones(1, device="cuda")
    plan = plain_plan(m, n, k)
    print(f"{n}x{k} M={m}: plan {plan}", flush=True)
    args = (a, a_sf, b, b_sf, alpha, out, plan)
    launch_planned(*args)  # compile and warm up
    x16 = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    w16 = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    runs.append((args, x16, w16))
torch.cuda.synchronize()
torch.cuda.profiler.start()
for args, x16, w16 in runs:
    launch_planned(*args)
    torch.mm(x16, w16.t())
torch.cuda.synchronize()
torch.cuda.profiler.stop()
