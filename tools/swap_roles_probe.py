"""Session 37 (prepared): issue 6's last open rows, the fused op on 1024x7168 at M >= 1024
(0.87-0.98x cuBLAS + silu), lose to the NVFP4 activations' bf16 pass (session 31: the fused
kernel alone beats cuBLAS + silu 0.99 / 1.22 / 1.25x at M = 1024 / 4096 / 16384; the pass
takes 5.8 / 20.2 / 76.7 us). With 2I = 1024 the activations are the big operand, so swap the
roles: decode the activations (packed bytes, swizzled scales: the weights' own format) inside
the wgmma kernel as its register operand, and read the weights as bf16 (decoded once: 14.7 MB,
a constant). Each activation k-tile is then decoded once per weight tile of the launch's
token-tile width, 4..8 times in all: about the decode count of now (each weight k-tile once
per token tile), and no pass. This probe measures the GEMM that way through the public
function, with no new kernel: ``nvfp4_gemm(w_bf16, None, a, a_sf)`` is D^T [N, M] (the real
op would store D, or run the fused epilogue, from the same accumulators).

Per point, interleaved and settled (us): "public" (``nvfp4_gemm(a, a_sf, w, w_sf)``, the pass
and the GEMM), "alone" (the same launch with its bf16 activations made before the capture: the
GEMM without the pass), "swapped" (the weights as bf16, made and K-ordered before the capture;
the activations the decoded operand) and cuBLAS bf16 on the same shape. Permuted weight words
for "public"; the activations are packed bytes. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
import torch.nn.functional as F
from probe_inputs import made_before, permuted_weight_copies, replaced

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us, warm_only

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
PASS = GEMM.bf16_activations
# (N, K, M)
POINTS = [(1024, 7168, 1024), (1024, 7168, 4096), (1024, 7168, 16384), (2048, 7168, 4096),
          (4096, 7168, 4096)]


for n, k, m in select_shapes(POINTS):
    words = permuted_weight_copies(n, k)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    # the decoded weights stand in as any bf16 [N, K] (the timing does not see the values)
    w16 = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16) for _ in words]
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    out_t = torch.empty(n, m, device="cuda", dtype=torch.bfloat16)
    made = {}

    def ready(fn):
        def run():
            with replaced(GEMM, {"bf16_activations": made_before(made, PASS)}):
                fn()
        return run
    calls = {
        "public": [lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], 0.5, out=out) for w in words],
        "alone": [ready(lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], 0.5, out=out))
                  for w in words],
        "swapped": [ready(lambda w=w: nvfp4_gemm(w, None, a, a_sf, 0.5, out=out_t))
                    for w in w16],
        "cuBLAS": [lambda w=w: F.linear(x, w) for w in w16],
    }
    for name in ("alone", "swapped"):  # their operands made (and kernels compiled) first
        for call in calls[name]:
            call()
    times = time_graphs_interleaved_us(list(calls.values()))
    if not warm_only():
        print(f"gemm {n}x{k} M={m}: " + " ".join(f"{name}={t:.2f}"
                                                 for name, t in zip(calls, times)), flush=True)
    del words, w16, made
