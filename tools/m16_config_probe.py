"""Small-M configs at 12 and 16 tokens (two token tiles) after session 14's operand change
(fewer instructions per step): the defaults against the register prefetch held to three CTAs
per SM ((2, 2, 4, 1), ``min_ctas``), which session 11 measured when it still ran two per SM.
Plain GEMM on the five >= 32 MB shapes and the fused kernel on its two big shapes, permuted
words, W4A4, graph us, weights rotated past the L2. CUTE_KERNELS_BENCH_SHAPES picks points."""

import torch
from probe_inputs import (gate_up_copies, time_fused_small_m_configs, time_small_m_configs,
                          weight_copies)

from cute_kernels import prepare_nvfp4_weight, reference
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm import small_m_config
from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
POINTS = [("gemm", 7168, 18432), ("gemm", 5120, 17408), ("gemm", 36864, 7168),
          ("gemm", 34816, 5120), ("gemm", 9216, 7168), ("fused", 36864, 7168),
          ("fused", 34816, 5120)]


def candidates(default, k):
    split = default[4:] if len(default) > 4 else ()
    return [default] + [c for c in ((2, 2, 4, 1, *split), (2, 2, 4, 0, *split), (1, 2, 4, 1))
                        if c != default]


for kind, n, k in select_shapes(POINTS):
    copies = weight_copies(n, k) if kind == "gemm" else gate_up_copies(n, k)
    words = [(prepare_nvfp4_weight(w), s) for w, s in copies]
    del copies
    for m in (12, 16):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        if kind == "gemm":
            default = small_m_config(m, n, k, True, True)
            out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            times = time_small_m_configs(a, a_sf, words, alpha, out, candidates(default, k), k)
        else:
            default = swiglu_small_m_config(m, n // 2, k, True)
            times = time_fused_small_m_configs(a, a_sf, words, alpha, gs, [
                c for c in candidates(default, k) if c[0] % 2 == 0])
        print(f"{kind} {n}x{k} M={m}: " + " ".join(
            f"{''.join(map(str, c))}{'*' if c == default else ''}={t:.2f}"
            for c, t in times.items()), flush=True)
    del words
