"""What the activations' bf16 pass costs the public ops at the points still open on the
small shapes (session 26's suites, settled timing): ``nvfp4_gemm`` 4096x7168 and 7168x2048
at M = 256 (0.87 / 0.84x cuBLAS), 4096x7168 at M = 32 / 64 (0.90 / 0.95x QuACK), and
``nvfp4_gemm_swiglu_quant`` 1024x7168 at M = 256 / 1024 (0.94 / 0.85x cuBLAS + silu; since
session 31 also M = 4096 / 16384, 0.97 / 0.98x).

Per point, interleaved and settled, 200 calls a graph (us): "public" (the op as planned),
"ready" (the same op with ``bf16_activations`` answering from a buffer filled before the
capture: the GEMM kernels alone, everything else as planned), "pass" (``bf16_activations``
alone, as the op calls it) and cuBLAS bf16 (+ torch silu * up for the fused op). public -
ready is what the pass costs the op (with what PDL hides); it bounds what decoding the
activations inside the GEMM's grid (``nvfp4-gemm-next.md`` item 00c) could win. Permuted
words. One point per CUTE_KERNELS_BENCH_SHAPES index."""

import importlib

import torch
import torch.nn.functional as F
from probe_inputs import gate_up_words, replaced

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import (rotations_for, select_shapes,
                                       time_graphs_interleaved_us, warm_only)
from cute_kernels.nvfp4_dequant import bf16_activations

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
POINTS = [("gemm", 4096, 7168, 256), ("gemm", 7168, 2048, 256), ("gemm", 4096, 7168, 64),
          ("gemm", 4096, 7168, 32), ("fused", 1024, 7168, 256), ("fused", 1024, 7168, 1024),
          ("gemm", 9216, 7168, 256),
          # session 31: the fused op's last rows under cuBLAS + silu (0.97 / 0.98x)
          ("fused", 1024, 7168, 4096), ("fused", 1024, 7168, 16384)]


def ready_activations(a, a_sf):
    """(``bf16_activations`` that hands back the buffer it made on its first call for the
    arguments asked, the dict of those buffers by (permuted, rows))."""
    made = {}

    def answer(a_, a_sf_, permuted=False, rows=None, spread=False):
        if (permuted, rows) not in made:
            made[(permuted, rows)] = bf16_activations(a, a_sf, permuted, rows)
        return made[(permuted, rows)]
    return answer, made


for op, n, k, m in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    if op == "gemm":
        def call(w):
            return nvfp4_gemm(a, a_sf, w[0], w[1], 0.5)
    else:
        def call(w):
            return nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)
    answer, made = ready_activations(a, a_sf)

    def ready(w):
        with replaced(GEMM, {"bf16_activations": answer}), \
                replaced(FUSED, {"bf16_activations": answer}):
            return call(w)
    ready(words[0])  # fills the ready buffer (and compiles) outside any capture
    if len(made) != 1:
        print(f"{op} {n}x{k} M={m}: the op asked bf16_activations for {list(made)}: skipped")
        continue
    (permuted, rows), = made  # the one form the op asked for
    variants = {"public": [lambda w=w: call(w) for w in words],
                "ready": [lambda w=w: ready(w) for w in words],
                "pass": [lambda: bf16_activations(a, a_sf, permuted, rows)]}
    w16 = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
           for _ in range(1 if warm_only() else rotations_for(n * k * 2))]
    if op == "gemm":
        variants["cublas"] = [lambda w=w: x @ w.t() for w in w16]
    else:
        i = n // 2

        def cublas_silu(w):
            y = x @ w.t()
            return F.silu(y[:, :i]) * y[:, i:]
        variants["cublas+silu"] = [lambda w=w: cublas_silu(w) for w in w16]
    names = list(variants)
    for _ in range(2):
        times = time_graphs_interleaved_us([variants[v] for v in names], 200)
        print(f"{op} {n}x{k} M={m} (activations rows {rows}): "
              + " ".join(f"{v}={t:.2f}" for v, t in zip(names, times)), flush=True)
