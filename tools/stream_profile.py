"""The 16-token stream-K launch at 9216x7168 M = 16 (two K groups, the PDL trigger, as the
public op launches it) real, with its consumers stubbed (``STUB_CONSUMERS``) and bare (no
loads either), beside our fp8 GEMV of the same bytes, one launch each after a warm-up, for
Nsight Compute (``tools/sessions/session82_ncu.sh``):

    ncu --profile-from-start off --section SpeedOfLight --metrics sm__cycles_active.min,\\
        sm__cycles_active.max,sm__cycles_active.avg python tools/stream_profile.py

Why: the stubbed stream reads 9216x7168's bytes in 16.35 us on the H100 (session 81), the fp8
GEMV in 14.5, a copy of them in 14.25. The per-SM active cycles (min / avg / max against the
elapsed) tell whether the static stream-K split leaves SMs idle while the slowest finish (as
ncu found for the quantizer, issue 4, session 77), or whether every SM streams slower."""

import torch
from probe_inputs import bare_launch_compiler, launch_alone_inputs, stub_consumers_compiler

from cute_kernels import fp8_gemv
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import compile_nvfp4_gemm_large_m, launch_large_m

N, K, M = 9216, 7168, 16
COMPILERS = {"real": compile_nvfp4_gemm_large_m, "stub": stub_consumers_compiler(),
             "bare": bare_launch_compiler()}

words, x, alpha = launch_alone_inputs(N, K, M, 16)
out = torch.empty((M, N), device="cuda", dtype=torch.bfloat16)
calls = [lambda c=c: launch_large_m(x, words[0][0], words[0][1], alpha, out, (16, 0),
                                    stream_k=True, k_groups=2, k_order=KOrder.PERMUTED,
                                    pdl_trigger=True, compile_fn=c)
         for c in COMPILERS.values()]
gemv_k = 4096  # the same bytes (weights + scales) as an fp8 [N', 4096] weight
w8 = torch.randn(N * K * 9 // 16 // gemv_k, gemv_k, device="cuda").to(torch.float8_e4m3fn)
x8 = torch.randn(gemv_k, device="cuda").to(torch.float8_e4m3fn)
a8 = torch.full((), 0.5, device="cuda")
calls.append(lambda: fp8_gemv(x8, w8, a8))
for call in calls:  # compile, warm, allocate
    call()
torch.cuda.synchronize()
torch.cuda.profiler.start()
for call in calls:  # real, stub, bare, gemv8
    call()
torch.cuda.synchronize()
torch.cuda.profiler.stop()
print("stream profile ran: real, stub, bare, fp8 GEMV", flush=True)
