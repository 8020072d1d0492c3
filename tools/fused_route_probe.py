"""The fused op's large-M routes through the public function, the activations' dequantization
included: ``large_m_route``'s choice ("route") against the fused kernel forced onto whole tiles
of 64 / 128 / 256 tokens ("whole64" ...) and onto its 128- / 256-token stream-K launch
("sk128", "sk256"), and the unfused pair ("pair": ``nvfp4_gemm`` + ``silu_mul_nvfp4_quant``);
"route_exact" and "pair_exact": both with the activations unpadded (M rows, the TMA filling
the last token tile's rows past M: ``bf16_activations``' ``rows`` ignored, as before session
24); "cublas_silu": cuBLAS bf16 + torch silu * mul (issue 6's comparator at M >= 256).
Session 24's ``split_points_probe`` (the kernel alone) had the fused kernel ahead of the fp32
split route and of the pair at 9216x7168 M = 129..256, 1024x7168 M = 1024 and 4096x7168
M = 256: this probe gives the rule its table. Permuted words, interleaved graphs, two rounds,
graph us; one point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1``
compiles only. "route_q0" (session 31): the route with the quantizer warps off (the
consumers quantize; ``quantizer_warps``). ``CUTE_KERNELS_PROBE_PIECES=1`` (session 46): also
the "pieces" route forced at 64- / 128- / 256-token tiles and 2..4 splits, cuBLAS alone, and
the public op on bf16 activations ("route_w4a16": a K-order copy instead of the NVFP4 decode
pass). ``CUTE_KERNELS_PROBE_PACKED=1`` (session 29): every
variant on packed weight bytes (``KOrder.PAIRS``), with the route on permuted words beside
("permuted route"): the plain GEMM's packed bytes wanted 256-token stream-K tiles at
129..256 tokens (``packed_plan``); does the fused op's?"""

import importlib
import os

import torch
import torch.nn.functional as F
from probe_inputs import (fused_operands, fused_routed, gate_up_words, replaced, same_bits,
                          unpadded)

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import (rotations_for, select_shapes,
                                       time_graphs_interleaved_us, warm_only)
from cute_kernels.nvfp4_gemm_large_m import H200_SMS
from cute_kernels.nvfp4_quant import silu_mul_nvfp4_quant

# the module, not the function the package exports under the same name
SWIGLU = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
SWQ = importlib.import_module("cute_kernels.swiglu_quant_large_m")
GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
PACKED = os.environ.get("CUTE_KERNELS_PROBE_PACKED") == "1"
PIECES = os.environ.get("CUTE_KERNELS_PROBE_PIECES") == "1"
ROUTE = SWIGLU.packed_route if PACKED else SWIGLU.large_m_route

POINTS = [(9216, 7168, 129), (9216, 7168, 160), (9216, 7168, 192), (9216, 7168, 224),
          (9216, 7168, 256), (9216, 7168, 320), (9216, 7168, 512), (9216, 7168, 1024),
          (4096, 7168, 129), (4096, 7168, 192), (4096, 7168, 256), (4096, 7168, 384),
          (4096, 7168, 512), (1024, 7168, 768), (1024, 7168, 1024), (1024, 7168, 2048),
          (36864, 7168, 129), (36864, 7168, 256), (34816, 5120, 129), (34816, 5120, 256),
          # session 27: issue 6's open 1024x7168 points against cuBLAS + silu (indices 20..22)
          (1024, 7168, 256), (1024, 7168, 4096), (1024, 7168, 16384)]


def forced_routes(two_i: int, m: int) -> dict:
    """Name -> the ``large_m_route`` answer a variant forces."""
    routes = {f"whole{t}": ("whole", (t, 0)) for t in (64, 128, 256)
              if t < 256 or m >= 256 or two_i >= 32768}
    routes.update({f"sk{t}": ("stream_k", t) for t in (128, 256)})
    if PIECES:  # session 46: the split-K stream-K launch ("pieces") at other tiles and splits
        for t, s in ((64, 2), (64, 4), (128, 2), (128, 3), (128, 4), (256, 2)):
            ctas = -(-m // t) * -(-two_i // SWIGLU.TILE_N) * s
            if ctas <= 2 * H200_SMS and (t < 256 or m >= 256):
                routes[f"pieces{t}x{s}"] = ("pieces", (t, s))
    return routes


def without_quantizers(call):
    """``call()`` with the fused kernel's quantizer warps off (the consumers quantize)."""
    with replaced(SWQ, {"quantizer_warps": lambda *args: 0}):
        return call()


def exact(call):
    """``call()`` with the activations unpadded (both public functions)."""
    with unpadded(SWIGLU, GEMM):
        return call()


for two_i, k, m in select_shapes(POINTS):
    print(f"fused {two_i}x{k} M={m}: route {ROUTE(m, two_i // 2, k)}", flush=True)
    ops = fused_operands(two_i, k, m, True)
    a, a_sf = ops["a"], ops["a_sf"]
    words = gate_up_words(two_i, k, not PACKED)
    # the interleaved words stand in for a plain [2I, K] weight: same bytes
    pair = lambda w: silu_mul_nvfp4_quant(nvfp4_gemm(a, a_sf, w[0], w[1], 0.5), 30.0)  # noqa
    variants = {"route": [lambda w=w: fused_routed(a, a_sf, w) for w in words],
                "route_exact": [lambda w=w: exact(lambda: fused_routed(a, a_sf, w))
                                for w in words],
                "route_q0": [lambda w=w: without_quantizers(lambda: fused_routed(a, a_sf, w))
                             for w in words],
                "pair": [lambda w=w: pair(w) for w in words],
                "pair_exact": [lambda w=w: exact(lambda: pair(w)) for w in words]}
    want = fused_routed(a, a_sf, words[0])
    for name, answer in forced_routes(two_i, m).items():
        variants[name] = [lambda w=w, answer=answer: fused_routed(a, a_sf, w, answer)
                          for w in words]
        got = fused_routed(a, a_sf, words[0], answer)
        if not same_bits(got, want):
            print(f"  {name}: codes or scales differ from the route's (rounding order)")
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    w16 = [torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16)
           for _ in range(1 if warm_only() else rotations_for(two_i * k * 2))]

    def cublas_silu(w):
        y = x @ w.t()
        return F.silu(y[:, :two_i // 2]) * y[:, two_i // 2:]

    variants["cublas_silu"] = [lambda w=w: cublas_silu(w) for w in w16]
    if PIECES:  # the GEMM alone, and the fused op on bf16 activations (a copy pass, not the decode)
        variants["cublas"] = [lambda w=w: x @ w.t() for w in w16]
        variants["route_w4a16"] = [lambda w=w: nvfp4_gemm_swiglu_quant(x, None, w[0], w[1], 0.5,
                                                                       30.0) for w in words]
    if PACKED:
        permuted = gate_up_words(two_i, k, True)
        variants["permuted route"] = [lambda w=w: fused_routed(a, a_sf, w) for w in permuted]
    names = list(variants)
    for _ in range(2):
        times = time_graphs_interleaved_us([variants[v] for v in names], 20)
        print(f"fused {two_i}x{k} M={m}: " + " ".join(f"{v}={t:.2f}" for v, t in
                                                     zip(names, times)), flush=True)
