"""Small launches of every kernel, for compute-sanitizer (memcheck, racecheck) on the GPU."""

import importlib

import torch

from cute_kernels import reference
from cute_kernels.linear import bf16_gemv
from cute_kernels.nvfp4_dequant import nvfp4_dequantize

x = torch.randn(129, 96, device="cuda", dtype=torch.bfloat16)
q, sf = reference.nvfp4_quantize(x, 10.0)
nvfp4_dequantize(q, sf, 10.0)
nvfp4_dequantize(q, sf, 1.0)  # the unit-scale kernel: 1548 groups, a partial CTA
bf16_gemv(torch.randn(512, device="cuda", dtype=torch.bfloat16),
          torch.randn(1037, 512, device="cuda", dtype=torch.bfloat16))
torch.cuda.synchronize()
print("sanitize probe ran")

from cute_kernels.linear import fp8_gemv, fp8_linear  # noqa: E402

w8 = torch.randn(1037, 1024, device="cuda").to(torch.float8_e4m3fn)
fp8_gemv(torch.randn(1024, device="cuda").to(torch.float8_e4m3fn), w8, 0.5)
fp8_linear(torch.randn(1024, device="cuda", dtype=torch.bfloat16), w8, 0.1, 0.2)
torch.cuda.synchronize()
print("fp8 probe ran")

from cute_kernels.gdn_split import gdn_qkvzba_split  # noqa: E402
from cute_kernels.nvfp4_gemm import nvfp4_gemm  # noqa: E402
from cute_kernels.nvfp4_quant import (nvfp4_quantize, silu_mul_nvfp4_quant,  # noqa: E402
                                      silu_mul_nvfp4_quant_experts)

# NVFP4 GEMM small-M regime, both activation kinds, N and K tails (K = 576 = 2 steps + 64).
b, b_sf = reference.nvfp4_quantize(torch.randn(200, 576, device="cuda", dtype=torch.bfloat16), 50.0)
xa = torch.randn(7, 576, device="cuda", dtype=torch.bfloat16)
a, a_sf = reference.nvfp4_quantize(xa, 50.0)
nvfp4_gemm(a, a_sf, b, b_sf, 0.5)
nvfp4_gemm(xa, None, b, b_sf, 0.5)
nvfp4_quantize(torch.randn(129, 80, device="cuda", dtype=torch.bfloat16), 20.0)
silu_mul_nvfp4_quant(torch.randn(7, 160, device="cuda", dtype=torch.bfloat16), 20.0)
silu_mul_nvfp4_quant_experts(torch.randn(3, 37, 2048, device="cuda", dtype=torch.bfloat16),
                             torch.tensor([0, 37, 5], dtype=torch.int32, device="cuda"),
                             torch.full((3,), 20.0, device="cuda"))
hk, hv, d = 4, 12, 128
gdn_qkvzba_split(torch.randn(33, 2 * hk * d + 2 * hv * d, device="cuda", dtype=torch.bfloat16),
                 torch.randn(33, 2 * hv, device="cuda", dtype=torch.bfloat16), hk, hv, d, d)
torch.cuda.synchronize()
print("nvfp4 gemm / quant / gdn probe ran")

# NVFP4 GEMM large-M (wgmma) regime, both activation kinds, N tail; the fused gate_up GEMM +
# SwiGLU + quantization at small and large M (prepared interleaved weights, I = 128).
from cute_kernels.gate_up_weight import prepare_gate_up_weight  # noqa: E402
from cute_kernels.nvfp4_gemm_swiglu_quant import nvfp4_gemm_swiglu_quant  # noqa: E402

xl = torch.randn(129, 576, device="cuda", dtype=torch.bfloat16)
al, al_sf = reference.nvfp4_quantize(xl, 50.0)
nvfp4_gemm(al, al_sf, b, b_sf, 0.5)
nvfp4_gemm(xl, None, b, b_sf, 0.5)
from cute_kernels.permuted_fp4 import prepare_nvfp4_weight  # noqa: E402

nvfp4_gemm(xl, None, prepare_nvfp4_weight(b), b_sf, 0.5)  # W4A16 reordered (``reorder_k``)
# the activations' passes on their spread grids (under a triggering GEMM): NVFP4 in both K
# orders and the bf16 reordering copy, rows past M zeroed
from cute_kernels.k_order import KOrder  # noqa: E402
from cute_kernels.nvfp4_dequant import bf16_activations  # noqa: E402

for k_order in (KOrder.IDENTITY, KOrder.PERMUTED):
    bf16_activations(al, al_sf, k_order, 192, spread=True)
bf16_activations(xl, None, KOrder.PERMUTED, 192, spread=True)
wgu, wgu_sf = reference.nvfp4_quantize(torch.randn(256, 576, device="cuda", dtype=torch.bfloat16),
                                       50.0, swizzle=False)
wp, wp_sf = prepare_gate_up_weight(wgu, wgu_sf)
for rows in (3, 129):
    xs = torch.randn(rows, 576, device="cuda", dtype=torch.bfloat16)
    nvfp4_gemm_swiglu_quant(xs, None, wp, wp_sf, 0.5, 30.0)
    q_s, q_sf = reference.nvfp4_quantize(xs, 50.0)
    nvfp4_gemm_swiglu_quant(q_s, q_sf, wp, wp_sf, 0.5, 30.0)
# stream-K: tiles cut into pieces across CTAs (54 units on 54 CTAs, then on 5), plain and fused
from cute_kernels.nvfp4_gemm_large_m import launch_large_m as launch_gemm_large  # noqa: E402
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_large_m as launch_fused_large  # noqa: E402

one = torch.ones(1, device="cuda")
for cfg in ((64, 0), (64, 0, 5)):
    launch_gemm_large(xl, b, b_sf, one, torch.empty(129, b.shape[0], device="cuda"), cfg,
                      stream_k=True)
    launch_fused_large(xl, wp, wp_sf, one, torch.full((1,), 30.0, device="cuda"),
                       torch.empty(129, 64, device="cuda", dtype=torch.uint8),
                       torch.empty(256 * 8, device="cuda", dtype=torch.uint8), cfg, stream_k=True)
# the fused kernel on split-K pieces ("pieces"): 6 tiles x 3 splits of 3 k-tiles
launch_fused_large(xl, wp, wp_sf, one, torch.full((1,), 30.0, device="cuda"),
                   torch.empty(129, 64, device="cuda", dtype=torch.uint8),
                   torch.empty(256 * 8, device="cuda", dtype=torch.uint8), (64, 0), splits=3)
# the staged epilogue (bf16 out, N % 8 == 0): whole tiles walked in turn by few CTAs (one
# buffer a 16-token tile, eight a 256-token one), stream-K, two CTAs an SM
for cfg, sk, cps in (((16, 0, 3), False, 1), ((256, 0, 2), False, 1), ((64, 0, 5), True, 1),
                     ((128, 0), True, 1), ((32, 0, 7), False, 2)):
    launch_gemm_large(xl, b, b_sf, one, torch.empty(129, b.shape[0], device="cuda",
                                                    dtype=torch.bfloat16), cfg,
                      stream_k=sk, ctas_per_sm=cps)
# ... fp32 out through it: whole tiles, and split-K (stream-K pieces: 3 splits of 3 k-tiles)
launch_gemm_large(xl, b, b_sf, one, torch.empty(129, b.shape[0], device="cuda"), (128, 0, 1))
launch_gemm_large(xl, b, b_sf, one, torch.empty(129, b.shape[0], device="cuda"), (64, 0), 3)
# the scattered K pieces (``SCATTER_PIECES``): fp32 16-token shares, bf16 32-token shares,
# the fused kernel's 64-token shares, and a grid shorter than tiles x splits (the fallback)
launch_gemm_large(xl, b, b_sf, one, torch.empty(129, b.shape[0], device="cuda"), (64, 0), 4)
for cfg in ((128, 0), (128, 0, 3)):
    launch_gemm_large(xl, b, b_sf, one, torch.empty(129, b.shape[0], device="cuda",
                                                    dtype=torch.bfloat16), cfg, 4)
launch_fused_large(xl, wp, wp_sf, one, torch.full((1,), 30.0, device="cuda"),
                   torch.empty(129, 64, device="cuda", dtype=torch.uint8),
                   torch.empty(256 * 8, device="cuda", dtype=torch.uint8), (128, 0), splits=2)
# the hybrid: 6 tiles on 2 CTAs, 4 whole and 2 in stream-K
launch_gemm_large(xl, b, b_sf, one, torch.empty(129, b.shape[0], device="cuda"), (64, 0, 2),
                  stream_k=True, hybrid=True)
# 32-token tiles (stream-K and whole), and two CTAs per SM
for cfg, sk, cps in (((32, 0), True, 1), ((32, 0, 7), False, 1), ((64, 0, 9), True, 2),
                     ((32, 0), False, 2)):
    launch_gemm_large(xl[:45], b, b_sf, one, torch.empty(45, b.shape[0], device="cuda"), cfg,
                      stream_k=sk, ctas_per_sm=cps)
# two 64-K groups a stage (K = 640: 5 stages of 128), stream-K on 7 CTAs and whole tiles
b640, b640_sf = reference.nvfp4_quantize(torch.randn(200, 640, device="cuda",
                                                     dtype=torch.bfloat16), 50.0)
x640 = torch.randn(45, 640, device="cuda", dtype=torch.bfloat16)
# (and with two CTAs per SM)
for cfg, sk, cps in (((32, 0, 7), True, 1), ((64, 0), False, 1), ((32, 0), True, 2)):
    launch_gemm_large(x640, b640, b640_sf, one, torch.empty(45, 200, device="cuda"), cfg,
                      stream_k=sk, k_groups=2, ctas_per_sm=cps)
b512_sf = reference.nvfp4_quantize(torch.randn(200, 512, device="cuda",
                                                dtype=torch.bfloat16), 50.0)[1]
# wg_k_split: 64-row tiles (200 rows: an odd last one, a tail), warpgroups on the K groups;
# whole tiles on 3 CTAs (the shared-memory sum reused across tiles), K pieces, stream-K
for cfg, kw in (((32, 0, 3), {}), ((64, 0), {"splits": 5}), ((16, 0, 7), {"stream_k": True})):
    launch_gemm_large(x640, b640, b640_sf, one, torch.empty(45, 200, device="cuda"), cfg,
                      k_groups=2, wg_k_split=True, **kw)
# (and two CTAs a tile summed through distributed shared memory: K = 512, two stages a half)
for cfg in ((32, 0), (16, 0)):
    launch_gemm_large(x640[:, :512].contiguous(), b640[:, :256].contiguous(), b512_sf, one,
                      torch.empty(45, 200, device="cuda"), cfg, k_groups=2, wg_k_split=True,
                      pair_pieces=True)
# 16-token tiles (three, 13 tokens of tail), stream-K with two K groups and two CTAs per SM
for cfg, sk, cps in (((16, 0, 7), True, 1), ((16, 0), True, 2), ((16, 0, 5), False, 1)):
    launch_gemm_large(x640, b640, b640_sf, one, torch.empty(45, 200, device="cuda"), cfg,
                      stream_k=sk, k_groups=2, ctas_per_sm=cps)
# 8-token tiles (45 tokens: six, 5 of tail; the staged epilogue's 64-chunk parts in bf16),
# stream-K with two K groups and the PDL trigger, shrunk, whole tiles
for cfg, sk, dt in (((8, 0), True, torch.bfloat16), ((8, 0, 5), True, torch.float32),
                    ((8, 0, 3), False, torch.bfloat16)):
    launch_gemm_large(x640, b640, b640_sf, one, torch.empty(45, 200, device="cuda", dtype=dt),
                      cfg, stream_k=sk, k_groups=2, pdl_trigger=sk)
# the fused kernel on narrow tiles with two K groups a stage, one and two CTAs per SM, and on
# fused_stream_k_options' 64-token tiles (two CTAs, two K groups, 3 stages)
wgu640, wgu640_sf = reference.nvfp4_quantize(torch.randn(256, 640, device="cuda",
                                                         dtype=torch.bfloat16), 50.0,
                                             swizzle=False)
wp640, wp640_sf = prepare_gate_up_weight(wgu640, wgu640_sf)
for cfg, sk, cps in (((16, 0, 7), True, 1), ((32, 0), True, 2), ((16, 0, 5), False, 2),
                     ((64, 0), True, 2), ((64, 0, 9), False, 2)):
    launch_fused_large(x640, wp640, wp640_sf, one, torch.full((1,), 30.0, device="cuda"),
                       torch.empty(45, 64, device="cuda", dtype=torch.uint8),
                       torch.empty(128 * 8, device="cuda", dtype=torch.uint8), cfg, stream_k=sk,
                       ctas_per_sm=cps, k_groups=2)
# the fused kernel's quantization by the producer warps (quantizers): whole tiles, a few CTAs
# walking many (many handovers), stream-K (CTAs with none)
for cfg, sk, quantizers in (((256, 0), False, 3), ((128, 0, 3), False, 3), ((64, 0, 5), True, 3),
                            ((256, 0), True, 3), ((32, 0, 2), False, 1)):
    launch_fused_large(x640, wp640, wp640_sf, one, torch.full((1,), 30.0, device="cuda"),
                       torch.empty(45, 64, device="cuda", dtype=torch.uint8),
                       torch.empty(128 * 8, device="cuda", dtype=torch.uint8), cfg,
                       stream_k=sk, quantizers=quantizers)
# the fused kernel on half interleave groups (wg_k_split: 32 up + 32 gate rows a 64-row tile):
# whole tiles on 3 CTAs, K pieces, stream-K; two K halves in clusters of two (pair_pieces:
# K = 512, two stages a half), 16- and 32-token tiles of 45 tokens
for cfg, kw in (((32, 0, 3), {}), ((64, 0), {"splits": 5}), ((16, 0, 7), {"stream_k": True})):
    launch_fused_large(x640, wp640, wp640_sf, one, torch.full((1,), 30.0, device="cuda"),
                       torch.empty(45, 64, device="cuda", dtype=torch.uint8),
                       torch.empty(128 * 8, device="cuda", dtype=torch.uint8), cfg,
                       k_groups=2, wg_k_split=True, **kw)
wgu512, wgu512_sf = reference.nvfp4_quantize(torch.randn(256, 512, device="cuda",
                                                         dtype=torch.bfloat16), 50.0,
                                             swizzle=False)
wp512, wp512_sf = prepare_gate_up_weight(wgu512, wgu512_sf)
for cfg in ((16, 0), (32, 0)):
    launch_fused_large(x640[:, :512].contiguous(), wp512, wp512_sf, one,
                       torch.full((1,), 30.0, device="cuda"),
                       torch.empty(45, 64, device="cuda", dtype=torch.uint8),
                       torch.empty(128 * 8, device="cuda", dtype=torch.uint8), cfg,
                       k_groups=2, wg_k_split=True, pair_pieces=True)
# two K halves in clusters of two on 128-row tiles (pair_pieces without wg_k_split: each CTA
# sends the other's token share), plain fp32 (64-token tiles) and fused (128-token tiles)
launch_gemm_large(x640, b640, b640_sf, one, torch.empty(45, 200, device="cuda"), (64, 0),
                  pair_pieces=True)
launch_fused_large(x640, wp640, wp640_sf, one, torch.full((1,), 30.0, device="cuda"),
                   torch.empty(45, 64, device="cuda", dtype=torch.uint8),
                   torch.empty(128 * 8, device="cuda", dtype=torch.uint8), (128, 0),
                   pair_pieces=True)
# ... with the gate warpgroup behind (GATE_AHEAD off: uncached compiles)
from probe_inputs import replaced  # noqa: E402

from cute_kernels.swiglu_quant_large_m import (  # noqa: E402
    NVFP4GemmSwigluQuantLargeM, compile_nvfp4_gemm_swiglu_quant_large_m)

with replaced(NVFP4GemmSwigluQuantLargeM, {"GATE_AHEAD": False}):
    for cfg, sk in (((256, 0), False), ((128, 0, 3), False), ((64, 0, 5), True)):
        launch_fused_large(x640, wp640, wp640_sf, one, torch.full((1,), 30.0, device="cuda"),
                           torch.empty(45, 64, device="cuda", dtype=torch.uint8),
                           torch.empty(128 * 8, device="cuda", dtype=torch.uint8), cfg,
                           stream_k=sk, quantizers=3,
                           compile_fn=compile_nvfp4_gemm_swiglu_quant_large_m.uncached)
torch.cuda.synchronize()
print("large-M gemm / fused swiglu probe ran")

from cute_kernels.silu_mul import silu_mul  # noqa: E402

silu_mul(torch.randn(7, 2 * 136, device="cuda", dtype=torch.bfloat16))
torch.cuda.synchronize()
print("silu_mul probe ran")

# The small-M kernels' cp.async ring (prefetch >= 2): staged and register activations, K tail.
from cute_kernels.nvfp4_gemm import launch_small_m  # noqa: E402
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_small_m as launch_fused  # noqa: E402

one = torch.full((1,), 0.5, device="cuda")
for rows, config in ((1, (2, 1, 4, 3)), (7, (1, 2, 3, 2))):
    xr = torch.randn(rows, 576, device="cuda", dtype=torch.bfloat16)
    ar, ar_sf = reference.nvfp4_quantize(xr, 50.0)
    launch_small_m(ar, ar_sf, b, b_sf, one, torch.empty(rows, 200, device="cuda"), config)
    launch_small_m(xr, None, b, b_sf, one, torch.empty(rows, 200, device="cuda"), config)
    launch_fused(ar, ar_sf, wp, wp_sf, one, one, torch.empty(rows, 64, device="cuda",
                                                             dtype=torch.uint8),
                 torch.empty(128 * 8, device="cuda", dtype=torch.uint8), (2, 1, 4, 3))
torch.cuda.synchronize()
print("small-M ring probe ran")

# The small-M kernel with K split over grid z and the in-launch reduction (arrival counters).
# (13 tokens with one token tile per CTA: two staged 8-token tiles, the second partial)
for rows, config in ((1, (2, 1, 4, 1, 2)), (7, (1, 2, 3, 0, 3)), (13, (2, 1, 4, 1, 3))):
    xr = torch.randn(rows, 576, device="cuda", dtype=torch.bfloat16)
    ar, ar_sf = reference.nvfp4_quantize(xr, 50.0)
    launch_small_m(ar, ar_sf, b, b_sf, one, torch.empty(rows, 200, device="cuda"), config)
    launch_small_m(xr, None, b, b_sf, one, torch.empty(rows, 200, device="cuda"), config)
    if config[0] % 2 == 0:  # the fused kernel takes up + gate tile pairs
        launch_fused(ar, ar_sf, wp, wp_sf, one, one, torch.empty(rows, 64, device="cuda",
                                                                 dtype=torch.uint8),
                     torch.empty(128 * 8, device="cuda", dtype=torch.uint8), config)
torch.cuda.synchronize()
print("small-M split-K probe ran")

# Permuted weight words: small M (staged, register, split), the wgmma kernel (whole tiles and
# stream-K) with the permuted-K activations, and the fused kernel at small and large M.
from cute_kernels import prepare_nvfp4_weight  # noqa: E402
from cute_kernels.nvfp4_dequant import bf16_activations  # noqa: E402

bw = prepare_nvfp4_weight(b)
wpw = prepare_nvfp4_weight(wp)
for rows in (1, 7, 129):
    xr = torch.randn(rows, 576, device="cuda", dtype=torch.bfloat16)
    ar, ar_sf = reference.nvfp4_quantize(xr, 50.0)
    nvfp4_gemm(ar, ar_sf, bw, b_sf, 0.5)
    nvfp4_gemm(xr, None, bw, b_sf, 0.5)
    nvfp4_gemm_swiglu_quant(ar, ar_sf, wpw, wp_sf, 0.5, 30.0)
launch_small_m(ar[:13], ar_sf, bw, b_sf, one, torch.empty(13, 200, device="cuda"), (2, 1, 4, 1, 3))
launch_gemm_large(bf16_activations(al, al_sf, True), bw, b_sf, one,
                  torch.empty(129, 200, device="cuda"), (64, 0, 5), stream_k=True)
torch.cuda.synchronize()
print("permuted weights probe ran")

# The paired-step loop (two row tiles, staged tokens, >= 16 steps a warp): one warp over 17
# steps (a row block past N = 200, a K tail, the last iteration half past the end).
bp, bp_sf = reference.nvfp4_quantize(torch.randn(200, 4160, device="cuda",
                                                 dtype=torch.bfloat16), 50.0)
for rows, config in ((1, (2, 1, 1, 1)), (2, (2, 1, 1, 1))):
    xr = torch.randn(rows, 4160, device="cuda", dtype=torch.bfloat16)
    ar, ar_sf = reference.nvfp4_quantize(xr, 50.0)
    for weights in (bp, prepare_nvfp4_weight(bp)):
        launch_small_m(ar, ar_sf, weights, bp_sf, one, torch.empty(rows, 200, device="cuda"),
                       config)
        launch_small_m(xr, None, weights, bp_sf, one, torch.empty(rows, 200, device="cuda"),
                       config)
torch.cuda.synchronize()
print("paired-step probe ran")

# Whole row blocks (N = 256): the small-M loads from per-thread bases (``row_offsets``), with
# and without a K tail, staged tokens with the zero step for the lanes past them, the register
# path, a K split; plain (packed and permuted, both activation kinds) and fused.
for kf in (512, 576):
    bf, bf_sf = reference.nvfp4_quantize(torch.randn(256, kf, device="cuda",
                                                     dtype=torch.bfloat16), 50.0)
    for weights in (bf, prepare_nvfp4_weight(bf)):
        for rows, config in ((1, (2, 1, 4, 1)), (2, (1, 1, 8, 1)), (5, (2, 1, 4, 1)),
                             (1, (2, 1, 4, 1, 2))):
            xr = torch.randn(rows, kf, device="cuda", dtype=torch.bfloat16)
            ar, ar_sf = reference.nvfp4_quantize(xr, 50.0)
            launch_small_m(ar, ar_sf, weights, bf_sf, one, torch.empty(rows, 256, device="cuda"),
                           config)
            launch_small_m(xr, None, weights, bf_sf, one, torch.empty(rows, 256, device="cuda"),
                           config)
            if config[0] % 2 == 0:
                launch_fused(ar, ar_sf, weights, bf_sf, one, one,
                             torch.empty(rows, 64, device="cuda", dtype=torch.uint8),
                             torch.empty(128 * 8, device="cuda", dtype=torch.uint8), config)
                launch_fused(xr, None, weights, bf_sf, one, one,
                             torch.empty(rows, 64, device="cuda", dtype=torch.uint8),
                             torch.empty(128 * 8, device="cuda", dtype=torch.uint8), config)
torch.cuda.synchronize()
print("whole row blocks probe ran")
# the launches that load weights before the PDL wait
importlib.import_module("sanitize_weights_first")
# the small-M kernels with row groups
importlib.import_module("sanitize_row_groups")
# the asynchronous stream-K fix-up
importlib.import_module("sanitize_async_fixup")
# the balanced one-token launch (pieces met by a fix-up warp)
importlib.import_module("sanitize_balanced")
# lane columns (the weights' block scales on the sums at one or two staged tokens)
importlib.import_module("sanitize_lane_columns")

import swapped_sanitize_probe  # noqa: E402,F401  (the fused op's swapped kernel)
