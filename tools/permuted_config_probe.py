"""Small-M tile configs on permuted weight words (the models' layout), W4A4, M = 1..16: the
configs were swept on packed weights (sessions 2-8), and the permuted decode changes the
balance of integer work and loads (5120x17408 M = 8 measured 26.99 us on permuted words against
24.94 packed with the same config, H200 2026-11-30). Per shape and M: the default against
whole-K configs (row tiles 1 / 2, 4 / 8 warps) and K splits of 2, 3, 4, 6; graph us, weights
rotated past the L2; configs that do not fit shared memory are skipped.
CUTE_KERNELS_BENCH_SHAPES picks shapes (one warm-up process each)."""

import torch
from probe_inputs import permuted_weight_copies, time_small_m_configs

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm import small_m_config

alpha = torch.full((1,), 0.5, device="cuda")
WHOLE = [(1, 1, 4, 1), (2, 1, 4, 1), (1, 1, 8, 1), (2, 1, 8, 1)]
SPLIT = [(rt, 1, 4, 1, s) for rt in (1, 2) for s in (2, 3, 4, 6)]
TILE16 = [(1, 2, 4, 1), (2, 2, 4, 0), (2, 2, 4, 3), (2, 2, 4, 0, 2), (2, 2, 4, 0, 3)]

for n, k in select_shapes([(7168, 18432), (5120, 17408), (36864, 7168), (34816, 5120),
                           (9216, 7168), (4096, 7168), (7168, 2048)]):
    words = permuted_weight_copies(n, k)
    roof = n * k * 9 // 16 / 4.25e6
    for m in (1, 4, 8, 16):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        default = small_m_config(m, n, k)
        configs = [default] + [c for c in (TILE16 if m > 8 else WHOLE + SPLIT) if c != default]
        times = time_small_m_configs(a, a_sf, words, alpha, out, configs, k)
        best = min(times, key=times.get)
        print(f"{n}x{k} M={m}: default {default} {times[default]:.2f} best {best} "
              f"{times[best]:.2f} ({roof / times[best]:.0%} roofline, "
              f"{times[default] / times[best]:.3f}x) | " + " ".join(
                  f"{''.join(map(str, c))}={t:.1f}" for c, t in times.items()), flush=True)
    del words
