"""Session 37 (prepared): W4A16 small-M tile configs at 4 and 8 tokens on the smaller weights,
where the W4A16 small kernel is slow (session 36's suite, packed bytes: 4096x7168 M = 4 / 8
12.88 / 14.31 us against 8.84 at M = 1; 7168x2048 M = 8 10.67 against 7.68 at M = 16 on the
wgmma launch). Past two tokens (``PLAIN_X_SMEM_TOKENS``) its whole-K configs take the register
path, each warp loading 8 token lanes of bf16 per step (``_stage_two_tokens``' note: 29.6 us at
9216x7168 M = 4 against 14.3 staged at M = 1); K splits stage whole 8-token tiles in shared
memory where their K slice fits (``staged_tokens``: 7168x2048 from 2 splits, 4096x7168 from
4), and wider CTAs (row tiles 2 / 4) read the activations fewer times. Per point, graph us
of the default (starred) against whole-K and split configs, permuted words (the models'
layout); ``w4a16_spread_probe`` times the wgmma launch at the same points. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import permuted_weight_copies, time_small_m_configs

from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm import small_m_config

POINTS = [(4096, 7168, 4), (4096, 7168, 8), (7168, 2048, 4), (7168, 2048, 8)]
CONFIGS = [(1, 1, 4, 1), (2, 1, 4, 1), (4, 1, 4, 1), (2, 1, 8, 1), (4, 1, 8, 1),
           (1, 1, 4, 1, 2), (2, 1, 4, 1, 2), (1, 1, 4, 1, 4), (2, 1, 4, 1, 4)]

alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    words = permuted_weight_copies(n, k)
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    default = small_m_config(m, n, k, False, True)
    configs = [default] + [c for c in CONFIGS if c != default]
    times = time_small_m_configs(x, None, words, alpha, out, configs, k)
    print(f"W4A16 permuted {n}x{k} M={m}: " + " ".join(
        f"{''.join(map(str, c))}{'*' if c == default else ''}={t:.2f}"
        for c, t in times.items()), flush=True)
    del words
