"""The fused op's swapped kernel (``swiglu_quant_swapped``: NVFP4 activations as the register
operand, the weights through the pass) against its normal route where tokens outnumber the
weight's rows (session 53's lead for issue 6's 1024x7168 at M >= 2048).

Variants, graph us, interleaved, two rounds, gate_up weight copies rotated past the L2 (the
same activations for all): "public" (the public op as it routes now), "normal" (the public op
with the swapped route off, ``SWAPPED``), "swapped" (the swapped launch, its weight pass
included, forced at every point, whole tiles), "swapped_sk" / "swapped_split2" (the same in
stream-K / in two K pieces a tile), "swapped_q3" (whole tiles, three quantizer warps),
"swapped_alone" (the kernel on bf16 weights made before),
"cublas" (bf16 x @ w^T) and "cublas_silu" (+ torch silu * up). The swapped result is checked
against the normal one (equal code and scale bytes). One point per CUTE_KERNELS_BENCH_SHAPES
index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib
import os

import torch
import torch.nn.functional as F
from probe_inputs import fused_operands, gate_up_words, print_variant_rounds, replaced

from cute_kernels import nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import rotations_for, select_shapes, warm_only
from cute_kernels.swiglu_quant_swapped import bf16_gate_up_weights, launch_swapped

FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
PERMUTE = os.environ.get("CUTE_KERNELS_PROBE_PACKED") != "1"  # the models' permuted words

# (2I, K, M)
POINTS = [(1024, 7168, 4096), (1024, 7168, 16384), (1024, 7168, 2048), (1024, 7168, 3072),
          (1024, 7168, 8192), (1024, 7168, 1024), (4096, 7168, 16384), (4096, 7168, 8192),
          (9216, 7168, 16384), (1024, 7168, 4000), (1024, 7168, 512)]

for two_i, k, m in select_shapes(POINTS):
    ops = fused_operands(two_i, k, m, False)
    a, a_sf, q, sf = ops["a"], ops["a_sf"], ops["q"], ops["sf"]
    x = ops["x16"]
    gate_up = gate_up_words(two_i, k, PERMUTE)
    alpha = torch.tensor([0.5], device="cuda")
    gs = torch.tensor([30.0], device="cuda")
    w16 = torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16)
    w16s = [w16] + [w16.clone() for _ in range(rotations_for(two_i * k * 2) - 1)]
    made = {}

    def public(w):
        nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, q, sf)

    def normal(w):
        with replaced(FUSED, {"SWAPPED": False}):
            nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, q, sf)

    def swapped(w):
        launch_swapped(bf16_gate_up_weights(w[0], w[1]), a, a_sf, alpha, gs, q, sf)

    def swapped_sk(w):
        launch_swapped(bf16_gate_up_weights(w[0], w[1]), a, a_sf, alpha, gs, q, sf,
                       stream_k=True)

    def swapped_split2(w):
        launch_swapped(bf16_gate_up_weights(w[0], w[1]), a, a_sf, alpha, gs, q, sf, splits=2)

    def swapped_q3(w):
        launch_swapped(bf16_gate_up_weights(w[0], w[1]), a, a_sf, alpha, gs, q, sf,
                       quantizers=3)

    def swapped_alone(w):
        key = w[0].data_ptr()
        if key not in made:
            made[key] = bf16_gate_up_weights(w[0], w[1])
        launch_swapped(made[key], a, a_sf, alpha, gs, q, sf)

    def cublas_silu(w):
        y = x @ w.t()
        return F.silu(y[:, :two_i // 2]) * y[:, two_i // 2:]

    for w in gate_up:  # every copy's bf16 weights made uncaptured
        swapped_alone(w)
    variants = {"public": (gate_up, public), "normal": (gate_up, normal),
                "swapped": (gate_up, swapped), "swapped_sk": (gate_up, swapped_sk),
                "swapped_split2": (gate_up, swapped_split2), "swapped_q3": (gate_up, swapped_q3),
                "swapped_alone": (gate_up, swapped_alone),
                "cublas": (w16s, lambda w: x @ w.t()), "cublas_silu": (w16s, cublas_silu)}
    if not warm_only():
        swapped(gate_up[0])
        got, got_sf = q.clone(), sf.clone()
        normal(gate_up[0])
        print(f"{two_i}x{k} M={m}: swapped against normal, codes equal "
              f"{(got == q).float().mean().item():.6f}, scale bytes equal "
              f"{(got_sf == sf).float().mean().item():.6f}", flush=True)
    print_variant_rounds(f"{two_i}x{k} M={m}", variants)
    del variants, w16s, gate_up
