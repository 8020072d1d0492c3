"""The small-N shapes at M = 16..256, where ``nvfp4_gemm`` is furthest from cuBLAS (H200
2026-11-30: 4096x7168 M = 64 29.5 us against 17.6, 7168x2048 M = 64 17.6 against 10.4): the
public route against every large-M launch of the same W4A4 call (the activation dequantization
included, as the route pays it): whole tiles of 64 / 128 / 256 tokens, split K in 2, 4 and 8
with 64- and 128-token tiles, stream-K with 64 and 128, and cuBLAS bf16, on permuted weight
words (the models' layout; activations permuted-K). The small-M regime and the plans were set
before split-K and stream-K existed for these shapes. Graph us (weights rotated past the L2);
the fastest launch per point last. CUTE_KERNELS_BENCH_SHAPES picks entries of POINTS."""

import torch
from probe_inputs import fp4_gemm_operands

from cute_kernels import nvfp4_gemm
from cute_kernels.bench.timing import rotations_for, select_shapes, time_graph_us
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import launch_large_m

POINTS = [(n, k, m) for n, k in [(4096, 7168), (7168, 2048), (9216, 7168)]
          for m in (16, 32, 64, 128, 256)]
alpha = torch.full((1,), 0.5, device="cuda")

for n, k, m in select_shapes(POINTS):
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    k_tiles = k // 64
    launches = {"route": lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)}
    for t in (64, 128, 256):
        launches[f"whole{t}"] = lambda w, t=t: launch_large_m(
            bf16_activations(a, a_sf, True), w[0], w[1], alpha, out, (t, 0))
    for t in (64, 128):
        for s in (2, 4, 8):
            if k_tiles % s == 0:
                launches[f"split{s}x{t}"] = lambda w, t=t, s=s: launch_large_m(
                    bf16_activations(a, a_sf, True), w[0], w[1], alpha, out, (t, 0), s)
        launches[f"sk{t}"] = lambda w, t=t: launch_large_m(
            bf16_activations(a, a_sf, True), w[0], w[1], alpha, out, (t, 0), stream_k=True)
    times = {name: time_graph_us([lambda w=w, f=f: f(w) for w in weights], 50)
             for name, f in launches.items()}
    w16 = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
           for _ in range(rotations_for(n * k * 2))]
    x16 = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    times["cuBLAS"] = time_graph_us([lambda w=w: torch.nn.functional.linear(x16, w)
                                     for w in w16], 50)
    best = min((v, name) for name, v in times.items() if name not in ("route", "cuBLAS"))
    print(f"{n}x{k} M={m}: " + " | ".join(f"{name} {v:.1f}" for name, v in times.items())
          + f" | best launch {best[1]} {best[0]:.1f}", flush=True)
    del weights, w16
