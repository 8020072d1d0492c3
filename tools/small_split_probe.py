"""Split-K in the small-M GEMM (grid z over K, reduced in the same launch; with one token tile
per CTA it also stages the whole tile's activations, ``staged_tokens``): per shape and M, the
default config against split configs, W4A4, graph us (50 calls per graph). Configs that
do not fit are skipped. CUTE_KERNELS_BENCH_SHAPES picks shapes; prints one line per shape and
M (roofline: packed weight + scale bytes at 4.25 TB/s)."""

import torch
from probe_inputs import time_small_m_configs

from cute_kernels import reference
from cute_kernels.bench.timing import rotations_for, select_shapes, time_graph_us
from cute_kernels.nvfp4_gemm import small_m_config

alpha = torch.full((1,), 0.5, device="cuda")
SPLITS = {1: [(2, 1, 4, 1, s) for s in (2, 3, 4, 6)] + [(1, 1, 4, 1, s) for s in (2, 3, 4)],
          # jt = 1 with a split stages the whole 8-token tile where its K slice fits
          8: [(2, 1, 4, 1, s) for s in (2, 3, 4, 8)] + [(1, 1, 4, 1, 2), (1, 1, 4, 1, 4)],
          # splits whose K slice lets both token tiles be staged (7168: 7 splits, 18432: 16)
          16: [(2, 2, 4, 3, s) for s in (2, 3)] + [(2, 2, 4, 0, s) for s in (2, 3)]
          + [(2, 2, 4, 1, 7), (2, 2, 4, 0, 7), (2, 2, 4, 1, 16)]}
for n, k in select_shapes([(7168, 18432), (5120, 17408), (36864, 7168), (34816, 5120),
                           (9216, 7168), (4096, 7168), (7168, 2048)]):
    wbytes = n * k * 9 // 16
    plain = [reference.nvfp4_quantize(torch.randn(n, k, device="cuda", dtype=torch.bfloat16),
                                      100.0) for _ in range(rotations_for(wbytes))]
    for m in (1, 8, 16):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        times = time_small_m_configs(a, a_sf, plain, alpha, out,
                                     [small_m_config(m, n, k)] + SPLITS[m], k)
        first = next(iter(times))
        best = min(times, key=times.get)
        roof = wbytes / 4.25e6
        print(f"{n}x{k} M={m}: default {first} {times[first]:.1f} best {best} "
              f"{times[best]:.1f} ({roof / times[best]:.0%} roofline) | " + " ".join(
                  f"{''.join(map(str, c))}={t:.1f}" for c, t in times.items()), flush=True)
    del plain

# The fused gate_up + SwiGLU + quant kernel with K split (the tile's last CTA runs the
# epilogue), on the shapes whose fused grid has few row blocks (2I x K).
from cute_kernels.gate_up_weight import prepare_gate_up_weight  # noqa: E402
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m as launch_fused  # noqa: E402
from cute_kernels.nvfp4_gemm_swiglu_quant import swiglu_small_m_config  # noqa: E402

gs = torch.full((1,), 30.0, device="cuda")
FUSED_SPLITS = [(2, 1, 4, 1, s) for s in (2, 4, 7)] + [(2, 1, 8, 1, s) for s in (2, 4)]
try:  # CUTE_KERNELS_BENCH_SHAPES indexes this list too (warm-up processes 3.. skip it)
    fused_shapes = select_shapes([(1024, 7168), (4096, 7168), (9216, 7168)])
except IndexError:
    fused_shapes = []
for two_i, k in fused_shapes:
    i = two_i // 2
    wbytes = two_i * k * 9 // 16
    fused = [prepare_gate_up_weight(*reference.nvfp4_quantize(
        torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16), 100.0, swizzle=False))
        for _ in range(rotations_for(wbytes))]
    for m in (1, 8):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        q = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
        sf = torch.empty(128 * (i // 16), device="cuda", dtype=torch.uint8)
        times = {}
        for c in [swiglu_small_m_config(m, i, k)] + FUSED_SPLITS:
            times[c] = time_graph_us([lambda w=w, c=c: launch_fused(
                a, a_sf, w[0], w[1], alpha, gs, q, sf, c) for w in fused], 50)
        first = next(iter(times))
        best = min(times, key=times.get)
        print(f"fused {two_i}x{k} M={m}: default {first} {times[first]:.1f} best {best} "
              f"{times[best]:.1f} ({wbytes / 4.25e6 / times[best]:.0%} roofline) | " + " ".join(
                  f"{''.join(map(str, c))}={t:.1f}" for c, t in times.items()), flush=True)
    del fused
