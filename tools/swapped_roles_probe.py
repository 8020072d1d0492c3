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
normal one (relative difference). One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
import torch.nn.functional as F
from probe_inputs import gate_up_words, print_variant_rounds, weight_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_nvfp4_weight, reference
from cute_kernels.bench.timing import rotations_for, select_shapes, warm_only

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
    if not warm_only():
        want = nvfp4_gemm(a, a_sf, words[0][0], words[0][1], 0.5).double()
        got = nvfp4_gemm(packed[0][0], packed[0][1], a, a_sf, 0.5).double().t()
        rel = ((want - got).norm() / want.norm()).item()
        print(f"{n}x{k} M={m}: swapped against normal, relative difference {rel:.2e}",
              flush=True)
    print_variant_rounds(f"{n}x{k} M={m}", variants)
    del variants, w16s, packed, words, gate_up
