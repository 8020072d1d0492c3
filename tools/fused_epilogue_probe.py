"""What the fused kernel's SwiGLU + quantization epilogue costs: the planned fused launch
against the same kernel with its whole epilogue skipped ("skip": a runtime branch never taken,
the ceiling of any epilogue change), with the consumers quantizing ("staged": no quantizer
warps), with 3 or 2 quantizer warps ("quant3", "quant2"; ``quantizer_warps`` is the plan's
rule) and with 3 and the gate warpgroup behind ("behind": ``GATE_AHEAD`` off, the silu in the
gate warpgroup; session 23's default), the codes and scales
of the last four checked against main's bit for bit.
``CUTE_KERNELS_PROBE_VARIANTS`` ("main,skip,staged" unless set) picks the variants;
``CUTE_KERNELS_PROBE_PACKED=1`` takes standard (packed) weight words. One point per
CUTE_KERNELS_BENCH_SHAPES index; interleaved graphs, two rounds, the dequantization included.
(Session 22 / 23 measured the quantization in the accumulator fragments, "fragment", and
without the quantization, "noquant", with the kernel that still had it: notes/.)"""

import functools
import os


import cutlass
import cutlass.cute as cute
import torch
from probe_inputs import gate_up_words, planned, replaced

from cute_kernels import jit, reference
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.swiglu_quant_large_m import (NVFP4GemmSwigluQuantLargeM,
                                               compile_nvfp4_gemm_swiglu_quant_large_m,
                                               launch_large_m)
from layouts import sf_padded_shape

POINTS = [("fused", 36864, 7168, 1024), ("fused", 4096, 7168, 1024), ("fused", 34816, 5120, 256),
          ("fused", 4096, 7168, 1000), ("fused", 9216, 7168, 1000), ("fused", 36864, 7168, 300),
          ("fused", 34816, 5120, 1024)]
# CUTE_KERNELS_PROBE_PACKED=1: standard (packed) weight words instead of the permuted ones
PERMUTED = os.environ.get("CUTE_KERNELS_PROBE_PACKED", "0") != "1"
EPILOGUE = NVFP4GemmSwigluQuantLargeM._epilogue


@cute.jit
def _skip_epilogue(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile):
    if scalars[0][0] > cutlass.Float32(1e30):  # never
        EPILOGUE(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile)


# the class attributes a variant replaces, and its quantizer warps (None: the launch's rule)
VARIANTS = {"main": ({}, None),
            "skip": ({"_epilogue": _skip_epilogue}, None),
            "staged": ({}, 0),
            "quant3": ({}, 3),
            "quant2": ({}, 2),
            "behind": ({"GATE_AHEAD": False}, 3)}
CHECKED = ("staged", "quant3", "quant2", "behind")  # codes and scales checked against main's
NAMES = tuple(os.environ.get("CUTE_KERNELS_PROBE_VARIANTS", "main,skip,staged").split(","))


@jit.cached
def compile_variant(variant: str, *args):
    """``compile_nvfp4_gemm_swiglu_quant_large_m(*args)`` with the variant's attributes."""
    with replaced(NVFP4GemmSwigluQuantLargeM, VARIANTS[variant][0]):
        return compile_nvfp4_gemm_swiglu_quant_large_m.uncached(*args)


def launch_variant(variant, a_bf16, w, w_sf, alpha, gs, q, sf, launch):
    """``launch_large_m`` of the plan with the variant's kernel ("main": the default)."""
    attrs, quantizers = VARIANTS[variant]
    compile_fn = (functools.partial(compile_variant, variant) if attrs
                  else compile_nvfp4_gemm_swiglu_quant_large_m)
    launch_large_m(a_bf16, w, w_sf, alpha, gs, q, sf, **launch, compile_fn=compile_fn,
                   quantizers=quantizers)


for kind, n, k, m in select_shapes(POINTS):
    launch = planned(kind, n, k, m)
    print(f"{kind} {n}x{k} M={m}: {launch}{'' if PERMUTED else ' packed words'}", flush=True)
    alpha = torch.full((1,), 0.5, device="cuda")
    gs = torch.full((1,), 30.0, device="cuda")
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    words = gate_up_words(n, k, PERMUTED)
    q = torch.empty(m, n // 4, device="cuda", dtype=torch.uint8)
    sf = torch.empty(sf_padded_shape(m, n // 32), device="cuda", dtype=torch.uint8)
    names = NAMES
    checked = [v for v in names if v in CHECKED]
    if checked:
        got = {}
        for v in ["main"] + checked:
            qv = torch.full_like(q, 0xAB)
            sv = torch.full_like(sf, 0xAB)
            launch_variant(v, bf16_activations(a, a_sf, PERMUTED), *words[0], alpha, gs, qv, sv,
                           launch)
            got[v] = (qv, sv)
        for v in checked:
            same = all(torch.equal(x, y) for x, y in zip(got["main"], got[v]))
            print(f"  {v} codes and scales {'same bits as main' if same else 'DIFFER'}",
                  flush=True)
    for _ in range(2):
        times = time_graphs_interleaved_us(
            [[lambda w=w, v=v: launch_variant(v, bf16_activations(a, a_sf, PERMUTED), w[0], w[1],
                                              alpha, gs, q, sf, launch) for w in words]
             for v in names], 100)
        print(f"{kind} {n}x{k} M={m}: " + " ".join(f"{v}={t:.2f}" for v, t in zip(names, times)),
              flush=True)
