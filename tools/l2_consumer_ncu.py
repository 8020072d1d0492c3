"""The 16-token stream-K launch at 4096x14336 M = 16 with its weights in L2 (one copy, warmed),
with ``_mma_tile``'s loop (the default), in flight (``INFLIGHT_MAX_TILE_M = 32``), without
wgmmas (``STUB_MMA``: ptxas drops the decode too) and without the decode (``STUB_DECODE``),
one launch each, for Nsight Compute's per-instruction stall samples
(``tools/sessions/session82_sixth.sh``):

    ncu --profile-from-start off --cache-control none --section SourceCounters -o R \\
        python tools/l2_consumer_ncu.py

Why: from L2 (``tools/l2_consumer_probe.py``, H100) the real launch takes 13.3 us, 12.9 in
flight, against 9.6 stubbed, 9.8 without wgmmas and 10.1 without the decode: the decode and
the wgmmas each fit under the stream, together they do not. Where the consumer warps stall
(at the group's wait, the HGMMAs, the stage's full barrier or the decode's shared loads) says
which of the two waits on the other."""

import torch
from probe_inputs import launch_alone_inputs, switched_compiler

from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_gemm_large_m import (NVFP4GemmLargeM, compile_nvfp4_gemm_large_m,
                                             launch_large_m)

N, K, M = 4096, 14336, 16
FORMS = {"real": {}, "inflight": {"INFLIGHT_MAX_TILE_M": 32}, "no_mma": {"STUB_MMA": True},
         "no_decode": {"STUB_DECODE": True}}
COMPILERS = [switched_compiler(compile_nvfp4_gemm_large_m, NVFP4GemmLargeM, switches,
                               f"compile_l2_{name}") if switches else compile_nvfp4_gemm_large_m
             for name, switches in FORMS.items()]

words, x, alpha = launch_alone_inputs(N, K, M, 16)
out = torch.empty((M, N), device="cuda", dtype=torch.bfloat16)
calls = [lambda c=c: launch_large_m(x, words[0][0], words[0][1], alpha, out, (16, 0),
                                    stream_k=True, k_groups=2, k_order=KOrder.PERMUTED,
                                    pdl_trigger=True, compile_fn=c)
         for c in COMPILERS]
for call in calls:
    for _ in range(3):  # compile, warm the L2
        call()
torch.cuda.synchronize()
torch.cuda.profiler.start()
for call in calls:  # real, inflight, no_mma, no_decode
    call()
    call()  # the second launch of each, after one that read the weights into L2
torch.cuda.synchronize()
torch.cuda.profiler.stop()
print("l2 consumer profile ran: real, inflight, no_mma, no_decode (two launches each)",
      flush=True)
