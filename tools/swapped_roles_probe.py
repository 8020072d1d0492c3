"""Whether the operands' roles should swap where the weights have fewer rows than there are
tokens (session 53's lead for issue 6's 1024x7168 at M >= 1024). The wgmma kernels decode
their register operand (the weights) in the main loop and need the other one as bf16 in shared
memory, so NVFP4 activations first go through a pass that writes M x K bf16 (21 us of the
fused op's 94 at 1024x7168 M = 4096, session 46). Swapped, the activations' packed bytes are
the register operand and the pass writes the weights' N x K instead, whatever M is: the public
``nvfp4_gemm(w, w_sf, a, a_sf)`` computes exactly that product, transposed ([N, M]).

Variants, graph us, interleaved, two rounds, weight copies rotated past the L2 (the same
activations for all): "normal" (``nvfp4_gemm(a, a_sf, w_words, w_sf)``, the public route on
permuted words, its activation pass included), "swapped" (``nvfp4_gemm(w, w_sf, a, a_sf)`` on
the same weights' packed bytes: the pass on the weights, the [N, M] product), "fused" (the
fused op's public route on the gate_up form of a weight of this shape), "cublas" (bf16
x @ w^T) and "cublas_silu" (+ torch silu * up). The swapped product is checked against the
normal one (relative difference). ``CUTE_KERNELS_PROBE_PARTS=1``: also each GEMM without
its pass ("normal_alone", "swapped_alone": the bf16 operand made before, ``made_before``) and
both on whole 128-token tiles ("normal_whole128", "swapped_whole128": the plans at 2048 tokens
are stream-K, where the fused op's whole tiles ran faster). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib
import os

import torch
import torch.nn.functional as F
from probe_inputs import gate_up_words, made_before, print_variant_rounds, replaced, weight_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_nvfp4_weight, reference
from cute_kernels.bench.timing import rotations_for, select_shapes, warm_only

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
PARTS = os.environ.get("CUTE_KERNELS_PROBE_PARTS") == "1"
WHOLE128 = (128, 1, False, False)  # plain_plan's / packed_plan's (tile_m, splits, sk, hybrid)


def alone(call, made: dict):
    """``call`` with ``nvfp4_gemm``'s pass answered from ``made`` (no launch after the first)."""
    make = made_before(made, GEMM.bf16_activations)

    def run(w):
        with replaced(GEMM, {"bf16_activations": make}):
            return call(w)
    return run


def whole128(call):
    """``call`` with both plans forced onto whole 128-token tiles."""
    def run(w):
        with replaced(GEMM, {"plain_plan": lambda m, n, k: WHOLE128,
                             "packed_plan": lambda m, n, k: WHOLE128}):
            return call(w)
    return run


# (N, K, M): the fused shapes' [2I, K] weight
POINTS = [(1024, 7168, 4096), (1024, 7168, 16384), (1024, 7168, 2048), (1024, 7168, 1024),
          (1024, 7168, 512), (4096, 7168, 16384), (4096, 7168, 4096)]

for n, k, m in select_shapes(POINTS):
    x16 = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x16, 100.0)
    x = reference.nvfp4_dequantize(a, a_sf, 100.0, m, k, out_dtype=torch.bfloat16)
    packed = weight_copies(n, k)
    words = [(prepare_nvfp4_weight(b), s) for b, s in packed]
    gate_up = gate_up_words(n, k, True)
    w16 = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    w16s = [w16] + [w16.clone() for _ in range(rotations_for(n * k * 2) - 1)]

    def cublas_silu(w):
        y = x @ w.t()
        return F.silu(y[:, :n // 2]) * y[:, n // 2:]

    variants = {
        "normal": (words, lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], 0.5)),
        "swapped": (packed, lambda w: nvfp4_gemm(w[0], w[1], a, a_sf, 0.5)),
        "fused": (gate_up, lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)),
        "cublas": (w16s, lambda w: x @ w.t()),
        "cublas_silu": (w16s, cublas_silu),
    }
    if PARTS:
        normal, swapped = variants["normal"][1], variants["swapped"][1]
        variants["normal_alone"] = (words, alone(normal, {}))
        variants["swapped_alone"] = (packed, alone(swapped, {}))
        variants["normal_whole128"] = (words, whole128(normal))
        variants["swapped_whole128"] = (packed, whole128(swapped))
        for name in ("normal_alone", "swapped_alone"):  # every copy's operand made uncaptured
            copies, call = variants[name]
            for w in copies:
                call(w)
    if not warm_only():
        want = nvfp4_gemm(a, a_sf, words[0][0], words[0][1], 0.5).double()
        got = nvfp4_gemm(packed[0][0], packed[0][1], a, a_sf, 0.5).double().t()
        rel = ((want - got).norm() / want.norm()).item()
        print(f"{n}x{k} M={m}: swapped against normal, relative difference {rel:.2e}",
              flush=True)
    print_variant_rounds(f"{n}x{k} M={m}", variants)
    del variants, w16s, packed, words, gate_up
