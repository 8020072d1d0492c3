"""Does the fused op's register prefetch pay on packed weight words (``prepare_gate_up_weight``'s
default) at 2..16 tokens on every shape? Session 27's ``packed_small_m_probe`` had it win at
4096x7168 M = 9 / 12 / 16 (14.2-14.9 -> 11.7-11.9 us, the pair 12.5-12.6) and 36864x7168
M = 8 (51.6 -> 48.6, the pair 50.0); the rule then left it off there (session 5's
measurement, before the operand and loop changes of sessions 12-15).

Per shape (one per CUTE_KERNELS_BENCH_SHAPES index) and M in 2, 4, 8, 12, 16: the rule's config
and the same with the prefetch toggled, packed words, NVFP4 activations; with
CUTE_KERNELS_PROBE_BF16=1 bf16 activations (W4A16) instead, with CUTE_KERNELS_PROBE_PERMUTED=1
permuted words (the rule then asked for them). Graph us, 50 calls a graph, weights rotated past
the L2."""

import os

import torch
from probe_inputs import gate_up_words, time_fused_small_m_configs

from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
SHAPES = [(36864, 7168), (9216, 7168), (4096, 7168), (34816, 5120), (1024, 7168)]
TOKENS = [2, 4, 8, 12, 16]
BF16 = os.environ.get("CUTE_KERNELS_PROBE_BF16") == "1"
PERMUTED = os.environ.get("CUTE_KERNELS_PROBE_PERMUTED") == "1"
LAYOUT = "permuted" if PERMUTED else "packed"

for two_i, k in select_shapes(SHAPES):
    words = gate_up_words(two_i, k, PERMUTED)
    for m in TOKENS:
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        a, a_sf = (x, None) if BF16 else reference.nvfp4_quantize(x, 100.0)
        rule = swiglu_small_m_config(m, two_i // 2, k, PERMUTED, not BF16)
        toggled = (*rule[:3], 1 - rule[3], *rule[4:])
        times = time_fused_small_m_configs(a, a_sf, words, alpha, gs, [rule, toggled])
        if warm_only():
            continue
        on, off = (rule, toggled) if rule[3] else (toggled, rule)
        kind = "W4A16" if BF16 else "W4A4"
        print(f"fused {two_i}x{k} {LAYOUT} {kind} M={m}: rule {rule} {times[rule]:.2f} | "
              f"prefetch on {times[on]:.2f} off {times[off]:.2f} "
              f"(on/off {times[on] / times[off]:.3f})", flush=True)
    del words
