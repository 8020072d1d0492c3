"""``nvfp4_gemm`` with bf16 activations (W4A16) at 3..8 tokens: does the small-M kernel's
register prefetch pay? Session 27 found it losing 2-10% for the fused op on permuted words over
64 Mi elements at 4 / 8 tokens (36864x7168 M = 4 51.7 us without, 54.3 with) while packed words
gained; the plain rule (``small_m_config``) keeps it on for both. Per shape (one per
CUTE_KERNELS_BENCH_SHAPES index), layout and M: the rule's config against the prefetch
toggled. Graph us, 50 calls a graph, weights rotated past the L2."""

import torch
from probe_inputs import time_small_m_configs, weight_copies

from cute_kernels import prepare_nvfp4_weight
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm import small_m_config, small_m_regime

alpha = torch.full((1,), 0.5, device="cuda")
SHAPES = [(36864, 7168), (34816, 5120), (7168, 18432), (5120, 17408), (9216, 7168)]

for n, k in select_shapes(SHAPES):
    packed = weight_copies(n, k)
    layouts = {"packed": packed, "permuted": [(prepare_nvfp4_weight(b), s) for b, s in packed]}
    for name, words in layouts.items():
        for m in (3, 4, 8):
            x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            permuted = name == "permuted"
            if not small_m_regime(m, n, k, False):  # since session 29: the wgmma kernel
                print(f"gemm {n}x{k} {name} W4A16 M={m}: the public route is the wgmma kernel")
            rule = small_m_config(m, n, k, False, permuted)
            toggled = (*rule[:3], 1 - rule[3], *rule[4:])
            times = time_small_m_configs(x, None, words, alpha, out, [rule, toggled], k)
            if warm_only():
                continue
            on, off = (rule, toggled) if rule[3] else (toggled, rule)
            print(f"gemm {n}x{k} {name} W4A16 M={m}: rule {rule} {times[rule]:.2f} | prefetch "
                  f"on {times[on]:.2f} off {times[off]:.2f} (on/off {times[on] / times[off]:.3f})",
                  flush=True)
    del packed, layouts
