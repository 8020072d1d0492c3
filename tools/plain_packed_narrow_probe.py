"""``nvfp4_gemm`` on packed weight bytes at 9..16 NVFP4 tokens: the public route (the wgmma
kernel's 16-token stream-K launch where ``wgmma_from_9_tokens``, measured on permuted words)
against the small-M kernel (``small_m_config``'s packed config, and with the register
prefetch toggled). Session 27 found the fused op's wgmma route on packed words slower than its
small-M kernel there (36864x7168 M = 16: 71.8 against 64.1 us): does the plain GEMM's
(the unfused pair's) route lose alike? Graph us, 50 calls a graph, weights rotated past the
L2; one shape per CUTE_KERNELS_BENCH_SHAPES index. CUTE_KERNELS_PROBE_M ("12 16" unless set)
names the token counts: past 16 the public route is the wgmma kernel on every shape here, and
the small kernel's configs (``small_m_config``) say whether it should keep packed bytes."""

import os

import torch
from probe_inputs import time_small_m_configs, weight_copies

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes, time_graph_us, warm_only
from cute_kernels.nvfp4_gemm import small_m_config, small_m_regime

alpha = torch.full((1,), 0.5, device="cuda")
SHAPES = [(36864, 7168), (34816, 5120), (7168, 18432), (5120, 17408)]

for n, k in select_shapes(SHAPES):
    words = weight_copies(n, k)  # packed bytes, swizzled scales
    for m in map(int, os.environ.get("CUTE_KERNELS_PROBE_M", "12 16").split()):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        public = time_graph_us([lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
                                for w in words], 50)
        rule = small_m_config(m, n, k, True, False)
        configs = [rule, (*rule[:3], 1, *rule[4:]), (*rule[:3], 0, *rule[4:])]
        times = time_small_m_configs(a, a_sf, words, alpha, out, list(dict.fromkeys(configs)), k)
        if warm_only():
            continue
        route = "small" if small_m_regime(m, n, k, True) else "wgmma"
        print(f"gemm {n}x{k} packed M={m}: public ({route}) {public:.2f} | small-M "
              + " ".join(f"{''.join(map(str, c))}{'*' if c == rule else ''}={t:.2f}"
                         for c, t in times.items()), flush=True)
    del words
