"""Programmatic dependent launch (PDL) in the small-M kernels: M = 1 and 8 of ``nvfp4_gemm``
(W4A4) on the seven shapes and M = 1 of ``nvfp4_gemm_swiglu_quant`` on three, graph us (200
back-to-back calls per graph, as the suites time them). Run once as is and once with
CUTE_KERNELS_DISABLE_PDL=1 (its kernels compile under their own cache keys) and compare.
CUTE_KERNELS_BENCH_SHAPES picks GEMM shapes."""

import os

import torch
from probe_inputs import gate_up_copies, weight_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import select_shapes, time_graph_us


def time_gemms(tag: str) -> None:
    """One line per selected GEMM shape: ``nvfp4_gemm`` W4A4 at M = 1 and 8."""
    for n, k in select_shapes([(7168, 18432), (5120, 17408), (36864, 7168), (34816, 5120),
                               (9216, 7168), (4096, 7168), (7168, 2048)]):
        weights = weight_copies(n, k)
        line = []
        for m in (1, 8):
            a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                           dtype=torch.bfloat16), 100.0)
            us = time_graph_us([lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], 0.5)
                                for w in weights])
            line.append(f"M={m} {us:.2f}")
        print(f"{tag} gemm {n}x{k}: " + " ".join(line), flush=True)
        del weights


def time_fused(tag: str) -> None:
    """``nvfp4_gemm_swiglu_quant`` W4A4 at M = 1 on three gate_up shapes."""
    for two_i, k in ((1024, 7168), (4096, 7168), (36864, 7168)):
        weights = gate_up_copies(two_i, k)
        a, a_sf = reference.nvfp4_quantize(torch.randn(1, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        us = time_graph_us([lambda w=w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)
                            for w in weights])
        print(f"{tag} fused {two_i}x{k}: M=1 {us:.2f}", flush=True)
        del weights


if __name__ == "__main__":
    disabled = os.environ.get("CUTE_KERNELS_DISABLE_PDL", "0") not in ("", "0")
    time_gemms("no PDL" if disabled else "PDL")
    if "CUTE_KERNELS_BENCH_SHAPES" not in os.environ:
        time_fused("no PDL" if disabled else "PDL")
