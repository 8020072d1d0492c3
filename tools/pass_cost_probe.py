"""What the activations' pass costs ``nvfp4_gemm``'s wgmma routes in a chain of calls, where
issue 5's bars are near (1.5x QuACK at M <= 64: 4096x7168 M = 16 1.46x, 7168x2048 M = 32 / 64
1.43 / 1.47x in session 38's suite; 7168x18432 M = 16..64 1.29-1.33x). Session 34 put the pass
at 1.0-1.35 us there; since then it launches under the GEMM before it (the PDL trigger, the
spread pass). Decoding the NVFP4 activations inside the wgmma kernel instead (no pass, one
launch boundary less a call) was measured slower in session 39 (branch ``converted-act``).

Per point, graph us of back-to-back calls (interleaved, two rounds): "public" (pass + GEMM),
"alone" (the same launches with the bf16 activations made before the capture: the GEMM with no
pass), and W4A16 ("w4a16": bf16 activations, ``reorder_k``'s copy the pass; "w4a16_alone"
without it; "w4a16_fp4_values" on the NVFP4 tokens' values as bf16, session 87). Permuted words,
NVFP4 activations. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import fp4_gemm_operands, print_forms, public_and_alone

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm import small_m_regime

# (N, K, M): the near misses, a stream-K point for scale, W4A16's M = 256 miss (session 87)
POINTS = [(4096, 7168, 16), (4096, 7168, 32), (4096, 7168, 64), (7168, 2048, 32),
          (7168, 2048, 64), (7168, 18432, 16), (7168, 18432, 32), (7168, 18432, 64),
          (9216, 7168, 16), (7168, 2048, 256)]

alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    assert not small_m_regime(m, n, k, True, True), (n, k, m)
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    calls = public_and_alone(a, a_sf, alpha, out, weights)
    calls["w4a16"] = lambda w: nvfp4_gemm(x, None, w[0], w[1], alpha, out=out)
    # W4A16 without its copy, and W4A16 on the NVFP4 tokens' values as bf16 (few significant
    # bits, as the dequantized operand): splits W4A16's gap over NVFP4 tokens (session 87:
    # 0.4 us at 7168x2048 M = 256) into the copy and the operand's bits
    calls["w4a16_alone"] = public_and_alone(x, None, alpha, out, weights)["alone"]
    x_fp4 = reference.nvfp4_dequantize(a, a_sf, 1.0, m, k, out_dtype=torch.bfloat16)
    calls["w4a16_fp4_values"] = lambda w: nvfp4_gemm(x_fp4, None, w[0], w[1], alpha, out=out)
    print_forms(f"gemm {n}x{k} M={m}", calls, weights)
    del weights, calls
