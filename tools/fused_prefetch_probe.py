"""The fused gate_up + SwiGLU + quant kernel at 2..8 tokens on big permuted weights: its rule
(``swiglu_small_m_config``) runs them without the register prefetch (session 4, packed words:
36864x7168 M = 8 57.5 us against 60.0 with it), while the plain GEMM's register path with the
prefetch now takes 45.6 us on the same weights at M = 8 against the fused 50.3 (session 12).
Per shape and M: the rule's config, the same with prefetch 1, with 8 warps, and the pair
(``nvfp4_gemm`` + ``silu_mul_nvfp4_quant``). Graph us, weights rotated past the L2.
CUTE_KERNELS_BENCH_SHAPES picks shapes; FUSED_PACKED=1 times packed weights (whose rule still
runs big weights without the prefetch) instead of permuted words."""

import os

import torch
from probe_inputs import gate_up_copies, time_fused_small_m_configs

from cute_kernels import nvfp4_gemm, prepare_nvfp4_weight, reference
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config
from cute_kernels.nvfp4_quant import silu_mul_nvfp4_quant

PERMUTED = os.environ.get("FUSED_PACKED") != "1"
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")

for two_i, k, fp4 in select_shapes([(36864, 7168, True), (34816, 5120, True),
                                    (9216, 7168, True), (36864, 7168, False)]):
    i = two_i // 2
    words = [(prepare_nvfp4_weight(w) if PERMUTED else w, s)
             for w, s in gate_up_copies(two_i, k)]
    roof = two_i * k * 9 // 16 / 4.23e6
    for m in (2, 4, 8):
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4 else (x, None)
        rule = swiglu_small_m_config(m, i, k, PERMUTED)
        configs = [rule, (*rule[:3], 1, *rule[4:]), (rule[0], rule[1], 8, 1, *rule[4:])]
        times = time_fused_small_m_configs(a, a_sf, words, alpha, gs,
                                           list(dict.fromkeys(configs)))
        pair = time_graph_us([lambda w=w: silu_mul_nvfp4_quant(
            nvfp4_gemm(a, a_sf, w[0], w[1], 0.5), 30.0) for w in words], 50)
        best = min(times, key=times.get)
        print(f"fused {two_i}x{k} {'W4A4' if fp4 else 'W4A16'} "
              f"{'permuted' if PERMUTED else 'packed'} M={m}: rule {rule} "
              f"{times[rule]:.2f} best {best} {times[best]:.2f} ({roof / times[best]:.0%} "
              f"roofline) pair {pair:.2f} | "
              + " ".join(f"{''.join(map(str, c))}={t:.2f}" for c, t in times.items()),
              flush=True)
    del words
