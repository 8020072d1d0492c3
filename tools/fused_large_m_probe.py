"""Where the fused gate_up + SwiGLU + quant kernel is slower than the unfused pair at large M
(swiglu suite, H200 2026-11-30: 0.94-0.98x at M = 256..16384 on four of five shapes): per
(2I, K, M), graph us, W4A4 as the suite times it:

* ``pair``: ``nvfp4_gemm`` + ``silu_mul_nvfp4_quant``, and its two parts alone;
* ``route``: ``nvfp4_gemm_swiglu_quant`` (whatever it takes);
* the fused wgmma kernel in stream-K with 128- and 256-token tiles, in the hybrid (whole
  waves, stream-K for the last one to two; from 512 tokens), and in whole tiles
  (``large_m_config``), each on the bf16 activations the route makes;
* the plain wgmma kernel with the same stream-K launch: the fused minus this is what the
  SwiGLU + quantization epilogue costs inside the kernel.

Each fused variant's codes are compared with the route's (fraction equal). CUTE_KERNELS_BENCH_SHAPES
picks points; CUTE_KERNELS_PROBE_PERMUTED=1 takes ``prepare_nvfp4_weight``'s permuted words (the
models' layout) and the activations in their K order. Session 17 added the points where the swiglu
suite (H200 2026-11-30) had the pair ahead: 9216x7168 M = 256 (64.6 / 59.9 us), 1024x7168
M = 1024 (39.5 / 37.7), and 64-token whole tiles ("whole64")."""

import os

import torch
from probe_inputs import fused_operands, gate_up_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.large_m_plans import large_m_config
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import launch_large_m as launch_plain
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_large_m as launch_fused
from cute_kernels.nvfp4_quant import silu_mul_nvfp4_quant
from cute_kernels.permuted_fp4 import prepare_nvfp4_weight

PERMUTED = os.environ.get("CUTE_KERNELS_PROBE_PERMUTED") == "1"

POINTS = [(36864, 7168, 256), (34816, 5120, 256), (9216, 7168, 1024), (1024, 7168, 256),
          (1024, 7168, 1024), (4096, 7168, 256), (4096, 7168, 1024), (4096, 7168, 4096),
          (9216, 7168, 256),
          # session 46: issue 6's 1024x7168 at M = 4096 / 16384 (indices 9, 10), where the
          # public op trails cuBLAS + silu by 1-2%; "pass" is the activations' decode alone
          (1024, 7168, 4096), (1024, 7168, 16384)]
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")

for two_i, k, m in select_shapes(POINTS):
    i = two_i // 2
    weights = gate_up_copies(two_i, k)
    if PERMUTED:
        weights = [(prepare_nvfp4_weight(w), s) for w, s in weights]
    per_graph = 20 if m <= 1024 else 4
    ops = fused_operands(two_i, k, m, PERMUTED)
    a, a_sf, x16, q, sf, h = (ops[n] for n in ("a", "a_sf", "x16", "q", "sf", "h"))
    want, _ = nvfp4_gemm_swiglu_quant(a, a_sf, weights[0][0], weights[0][1], alpha, gs)

    def timed(fn):
        return time_graph_us([lambda w=w: fn(w) for w in weights], per_graph)

    line = {
        "pair": timed(lambda w: silu_mul_nvfp4_quant(
            nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=h), gs)),
        "gemm": timed(lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=h)),
        "quant": timed(lambda w: silu_mul_nvfp4_quant(h, gs)),
        "route": timed(lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs,
                                                         out=q, out_sf=sf)),
        "pass": timed(lambda w: bf16_activations(a, a_sf, PERMUTED)),
    }
    variants = {f"sk{t}": ((t, 0), True, False) for t in (128, 256)}
    if m >= 512:
        variants["hy256"] = ((256, 0), True, True)
    variants["whole"] = (large_m_config(m, two_i, k), False, False)
    variants["whole64"] = ((64, 0), False, False)
    pieces = {"pieces128x2": ((128, 0), True, False)} if m <= 2048 else {}
    same = {}
    for name, (config, stream_k, hybrid) in (variants | pieces).items():
        def fused(w, config=config, stream_k=stream_k, hybrid=hybrid, name=name):
            launch_fused(x16, w[0], w[1], alpha, gs, q, sf, config, stream_k, hybrid,
                         splits=2 if name in pieces else 1)
        fused(weights[0])
        same[name] = (q == want).float().mean().item()
        line[name] = timed(fused)
    for t in (128, 256):
        line[f"plain sk{t}"] = timed(lambda w, t=t: launch_plain(
            x16, w[0], w[1], alpha, h, (t, 0), stream_k=True))
    print(f"{two_i}x{k} M={m}: " + " | ".join(f"{n} {us:.1f}" for n, us in line.items())
          + " | codes equal: " + " ".join(f"{n} {v:.4f}" for n, v in same.items()), flush=True)
    del weights
