"""``nvfp4_gemm_swiglu_quant`` (gate_up GEMM + SwiGLU + NVFP4 quantization in one kernel) against
the paths it replaces, on the issue's shapes, M = 1 .. 16384:

* ``unfused pair``: ``nvfp4_gemm`` (bf16 out) + ``silu_mul_nvfp4_quant``, the question SGLang's
  reviewer asked (is there an M where the fused kernel loses to it?);
* ``cuBLAS+silu``: bf16 GEMM on bf16 weights + torch ``silu(gate) * up``;
* ``QuACK+silu+quant`` (M <= 64, where QuACK is installed): QuACK ``gemm_w4a16`` NVFP4 + torch
  silu*mul + our quantization.

NVFP4 activations (W4A4), weights in random NVFP4, rotated past the L2; each point twice: the
packed weights, and ``prepare_nvfp4_weight``'s permuted words (the models' layout; row
"permuted", its pair on the same words). Bytes = packed weights + scales, so at M = 1 the
"% copy" column is the fraction of the weight-stream roofline. The fused kernel and the pair
are timed in turn (``time_graphs_interleaved_us``): separate runs of
the two drifted by up to 3% (H200, 2026-11-30), as much as the margins in question. From
M = 256 (compute-bound) the permuted fused op and cuBLAS + silu are also timed each in its own
steady state under the power cap ("sustained", ``timing.time_sustained_us``). From M = 256
the permuted fused op on bf16 activations too ("fused W4A16", against cuBLAS + silu on the same
activations): the prefill path where the activations are not quantized.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from .. import reference
from ..nvfp4_gemm import nvfp4_gemm
from ..nvfp4_gemm_swiglu_quant import nvfp4_gemm_swiglu_quant
from ..nvfp4_quant import silu_mul_nvfp4_quant
from ..permuted_fp4 import prepare_nvfp4_weight
from .nvfp4_gemm_suite import _quack
from .report import Row
from .timing import (SUSTAINED_MIN_M, rotations_for, select_ms, select_shapes, time_graph_us,
                     time_graphs_interleaved_us, time_sustained_us)

SHAPES = [(36864, 7168), (9216, 7168), (1024, 7168), (4096, 7168), (34816, 5120)]  # 2I x K
MS = [1, 8, 16, 64, 256, 512, 1024, 2048, 4096, 16384]  # issue 6: every M >= 256
W4A16_MIN_M = 256  # from here also the fused op on bf16 activations ("fused W4A16")


def _calls_per_graph(m: int) -> int:
    return 200 if m <= 64 else (20 if m <= 1024 else 4)


def run(quick: bool = False, sweep: bool = False, **_) -> list[Row]:
    rows = []
    for two_i, k in select_shapes(SHAPES[:2] if quick else SHAPES):
        i = two_i // 2
        wbytes = two_i * k // 2 + two_i * k // 16
        w16 = torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16)
        copies = [reference.nvfp4_quantize(w16, 100.0) for _ in range(rotations_for(wbytes))]
        permuted = [(prepare_nvfp4_weight(b), s) for b, s in copies]
        w16s = [w16] + [w16.clone() for _ in range(rotations_for(two_i * k * 2) - 1)]
        quack = _quack(copies, two_i, k)
        for m in select_ms(MS[:4] if quick else MS):
            if m * k * two_i > 2**40:
                continue
            x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            a, a_sf = reference.nvfp4_quantize(x, 100.0)
            per_graph = _calls_per_graph(m)

            def unfused(w):
                silu_mul_nvfp4_quant(nvfp4_gemm(a, a_sf, w[0], w[1], 0.5), 30.0)

            def cublas(w):
                y = x @ w.t()
                return F.silu(y[:, :i]) * y[:, i:]

            def fused(ws):
                return [lambda w=w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)
                        for w in ws]

            # the pair is the comparison the fused kernel must never lose: timed in turn
            fused_us, pair_us, fused_p_us, pair_p_us = time_graphs_interleaved_us(
                [fused(copies), [lambda w=w: unfused(w) for w in copies],
                 fused(permuted), [lambda w=w: unfused(w) for w in permuted]], per_graph)
            comps = {
                "unfused pair": pair_us,
                "cuBLAS+silu": time_graph_us([lambda w=w: cublas(w) for w in w16s], per_graph),
            }
            if quack is not None and m <= 64:
                def quack_path(q):
                    silu_mul_nvfp4_quant(q(x), 30.0)
                try:
                    comps["QuACK+silu+quant"] = time_graph_us(
                        [lambda q=q: quack_path(q) for q in quack], per_graph)
                except Exception as e:  # noqa: BLE001 - report, keep measuring
                    print(f"QuACK path failed at M={m} {two_i}x{k}: {e}")
            rows.append(Row("swiglu", "nvfp4_gemm_swiglu_quant", f"M={m} 2I={two_i} K={k}",
                            fused_us, bytes=wbytes,
                            flops=2 * m * two_i * k, comparators=comps))
            comps_p = dict(comps, **{"unfused pair": pair_p_us})
            rows.append(Row("swiglu", "nvfp4_gemm_swiglu_quant permuted",
                            f"M={m} 2I={two_i} K={k}", fused_p_us, bytes=wbytes,
                            flops=2 * m * two_i * k, comparators=comps_p))
            if m >= W4A16_MIN_M:  # bf16 activations (prefill): the same x cuBLAS takes
                w4a16_us = time_graph_us(
                    [lambda w=w: nvfp4_gemm_swiglu_quant(x, None, w[0], w[1], 0.5, 30.0)
                     for w in permuted], per_graph)
                rows.append(Row("swiglu", "fused W4A16 permuted", f"M={m} 2I={two_i} K={k}",
                                w4a16_us, flops=2 * m * two_i * k,
                                comparators={"cuBLAS+silu": comps["cuBLAS+silu"]}))
            if m >= SUSTAINED_MIN_M:  # compute-bound: the power cap's steady state too
                fused_s, cublas_s = time_sustained_us(
                    [fused(permuted), [lambda w=w: cublas(w) for w in w16s]], per_graph)
                rows.append(Row("swiglu", "fused permuted sustained", f"M={m} 2I={two_i} K={k}",
                                fused_s, flops=2 * m * two_i * k,
                                comparators={"cuBLAS+silu sustained": cublas_s}))
        del copies, permuted, w16s, w16
    return rows
