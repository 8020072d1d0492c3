"""The fused gate_up + SwiGLU + quant kernel on permuted weight words (the models' layout):
its small-M configs were swept on packed weights (session 4), and the swiglu suite of session
11 (H200 2026-11-30) saw two shapes where it loses to the unfused pair on permuted words:
4096x7168 M = 16 (15.76 us against 15.1; packed 14.33) and 1024x7168 M = 256 (26.70 against
23.6, stream-K against the pair's split K).

Part 1, M = 1 / 8 / 16 on every suite shape: the default config against a sweep (row tiles,
token tiles, warps, prefetch, K splits) and the pair (``nvfp4_gemm`` + ``silu_mul_nvfp4_quant``).
Part 2, the small weights at M = 128..1024: the public route, the fused kernel in stream-K, the
fp32 split route at the plain GEMM's plan, and the pair. Graph us, weights rotated past the L2.
CUTE_KERNELS_BENCH_SHAPES picks shapes (one warm-up process each)."""

import itertools

import torch
from probe_inputs import weight_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_nvfp4_weight, reference
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.large_m_plans import large_m_plan, stream_k_plan
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_swiglu_quant import (launch_large_m, launch_small_m,
                                                  swiglu_small_m_config)
from cute_kernels.nvfp4_quant import silu_mul_nvfp4_quant

from cute_kernels.swiglu_split_route import launch_split_route

alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")


def sweep(m: int, k: int) -> list:
    """Whole-K configs (row tiles 2 / 4, token tiles up to M's, 4 / 8 warps, prefetch 0 / 1),
    then K splits of 2..4 on two row tiles, one token tile, 4 warps."""
    tiles = [jt for jt in (1, 2) if jt <= -(-m // 8)]
    whole = list(itertools.product((2, 4), tiles, (4, 8), (0, 1)))
    return whole + [(2, 1, 4, 1 if m <= 8 else 0, s) for s in (2, 3, 4) if k // 64 >= 4 * s]


def buffers(m: int, i: int):
    q = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
    sf = torch.empty(-(-m // 128) * 128 * -(-i // 64) * 4, device="cuda", dtype=torch.uint8)
    return q, sf


for two_i, k in select_shapes([(36864, 7168), (9216, 7168), (1024, 7168), (4096, 7168),
                               (34816, 5120)]):
    i = two_i // 2
    words = [(prepare_nvfp4_weight(b), s) for b, s in weight_copies(two_i, k)]
    roof = two_i * k * 9 // 16 / 4.25e6

    def pair(a, a_sf):
        return [lambda w=w: silu_mul_nvfp4_quant(nvfp4_gemm(a, a_sf, w[0], w[1], 0.5), 30.0)
                for w in words]

    for m in (1, 8, 16):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        q, sf = buffers(m, i)
        default = swiglu_small_m_config(m, i, k)
        times = {}
        for c in [default] + [c for c in sweep(m, k) if c != default]:
            try:
                times[c] = time_graph_us([lambda w=w, c=c: launch_small_m(
                    a, a_sf, w[0], w[1], alpha, gs, q, sf, c) for w in words], 50)
            except ValueError as e:  # shared memory
                if "shared memory" not in str(e):
                    raise
        pair_us = time_graph_us(pair(a, a_sf), 50)
        best = min(times, key=times.get)
        print(f"small {two_i}x{k} M={m}: default {default} {times[default]:.2f} best {best} "
              f"{times[best]:.2f} ({roof / times[best]:.0%} roofline, "
              f"{times[default] / times[best]:.3f}x) pair {pair_us:.2f} | " + " ".join(
                  f"{''.join(map(str, c))}={t:.1f}" for c, t in times.items()), flush=True)
    if two_i > 4096:
        continue
    for m in (128, 256, 512, 1024):
        a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda",
                                                       dtype=torch.bfloat16), 100.0)
        q, sf = buffers(m, i)
        line = {"route": time_graph_us([lambda w=w: nvfp4_gemm_swiglu_quant(
            a, a_sf, w[0], w[1], 0.5, 30.0, out=q, out_sf=sf) for w in words], 20)}
        plan = stream_k_plan(m, two_i, k, fused=True)
        for t in (64, 128):
            line[f"sk{t}"] = time_graph_us([lambda w=w, t=t: launch_large_m(
                bf16_activations(a, a_sf, True), w[0], w[1], alpha, gs, q, sf, (t, 0),
                stream_k=True) for w in words], 20)
        tile_m, splits = large_m_plan(m, two_i, k)
        for s in sorted({splits, 2, 4}):
            line[f"split({tile_m},{s})"] = time_graph_us([lambda w=w, s=s: launch_split_route(
                a, a_sf, w[0], w[1], alpha, gs, q, sf, (tile_m, s, False, False))
                for w in words], 20)
        line["pair"] = time_graph_us(pair(a, a_sf), 20)
        print(f"large {two_i}x{k} M={m} (stream-K plan {plan}, GEMM plan ({tile_m},{splits})): "
              + " | ".join(f"{name} {us:.1f}" for name, us in line.items()), flush=True)
    del words
