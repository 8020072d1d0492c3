"""For Nsight Compute: the plain small-M launch ``nvfp4_gemm`` takes at one token on [N, K]
permuted words (9216x7168 by default: one wave, PDL at the CTA start), once whole and once with
its main loop capped at 0 iterations (``NVFP4GemmSmallM.PROBE_MAX_STEPS``, the launch's fixed
part), between cudaProfilerStart/Stop. ``CUTE_KERNELS_PROFILE_CASES="n,k;n,k"`` replaces the
shape. ``CUTE_KERNELS_PROFILE_FUSED=1`` adds the fused op's one-token launch on a [2I = N, K]
gate_up weight after each shape's (issue 6's gap: the same loop a warp as the plain
kernel, 8-warp CTAs in two row groups). Under ncu the kernels run serialized: PDL's overlap is
gone, the kernel's own stalls and DRAM rate stay."""

import importlib
import os

import torch
from probe_inputs import (fp4_gemm_operands, gate_up_words, replaced_call,
                          switched_small_m_compilers)

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
CASES = [(9216, 7168)]
if os.environ.get("CUTE_KERNELS_PROFILE_CASES"):  # "n,k;n,k"
    CASES = [tuple(int(v) for v in case.split(","))
             for case in os.environ["CUTE_KERNELS_PROFILE_CASES"].split(";")]
alpha = torch.full((1,), 0.5, device="cuda")
runs = []
for n, k in CASES:
    weights, a, a_sf, out = fp4_gemm_operands(n, k, 1)

    def public(w, a=a, a_sf=a_sf, out=out):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    capped = replaced_call(public, GEMM, switched_small_m_compilers(
        "cap0", {"PROBE_MAX_STEPS": 0}))
    for call in (public, capped):
        call(weights[0])  # compile and warm up
        runs.append((f"{n}x{k} M=1 {'whole' if call is public else 'cap 0'}", call, weights))
    if os.environ.get("CUTE_KERNELS_PROFILE_FUSED") == "1":
        gate_up = gate_up_words(n, k, True)

        def fused(w, a=a, a_sf=a_sf):
            nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, alpha)
        fused(gate_up[0])
        runs.append((f"fused {n}x{k} M=1", fused, gate_up))
torch.cuda.synchronize()
torch.cuda.profiler.start()
for label, call, weights in runs:
    print(label, flush=True)
    call(weights[1])
torch.cuda.synchronize()
torch.cuda.profiler.stop()
