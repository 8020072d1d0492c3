"""Why the fused op in stream-K measures ~10 us slower in ``bench swiglu`` (200 calls per graph)
than in ``tools/stream_k_probe.py`` (50, the kernel alone): per case the kernel alone and the
public function (activation dequantization, workspace and counters per call), each in graphs of
50 and of 200 calls. W4A4, us."""

import torch

from probe_inputs import gate_up_copies, weight_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import time_graph_us
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import launch_large_m as launch_plain
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_large_m as launch_fused

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for kind, n, k, m, tile in (("fused", 4096, 7168, 256, 256), ("fused", 1024, 7168, 1024, 256),
                            ("gemm", 9216, 7168, 256, 256)):
    w = gate_up_copies(n, k) if kind == "fused" else weight_copies(n, k)
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    x16 = bf16_activations(a, a_sf)
    if kind == "fused":
        q = torch.empty(m, n // 4, device="cuda", dtype=torch.uint8)
        sf = torch.empty((m + 127) // 128 * 128 * (n // 32), device="cuda", dtype=torch.uint8)
        kernel = [lambda c=c: launch_fused(x16, c[0], c[1], alpha, gs, q, sf, (tile, 0), True)
                  for c in w]
        public = [lambda c=c: nvfp4_gemm_swiglu_quant(a, a_sf, c[0], c[1], alpha, gs)
                  for c in w]
    else:
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        kernel = [lambda c=c: launch_plain(x16, c[0], c[1], alpha, out, (tile, 0), stream_k=True)
                  for c in w]
        public = [lambda c=c: nvfp4_gemm(a, a_sf, c[0], c[1], alpha) for c in w]
    row = [f"{name} {calls}: {time_graph_us(fn, calls):.1f}"
           for name, fn in (("kernel", kernel), ("public", public)) for calls in (50, 200)]
    print(f"{kind} {n}x{k} M={m}: " + " | ".join(row), flush=True)
    del w
