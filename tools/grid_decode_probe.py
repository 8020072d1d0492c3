"""Grid decode (``cute_kernels.grid_decode``, experimental) against the activations' bf16 pass,
on whole tiles: "public" (the op as routed), "pass" (``bf16_activations`` then
the same whole-tile launch as "grid"), "grid" (the launch decoding its own activations, loads
in registers), "ring{R}" (its loads through a shared-memory ring of R items a warp), and
"ready" (that launch on activations decoded before the capture: the GEMM alone, the ceiling).
The fused launches here ("pass", "grid", "ready") take no quantizer warps (grid decode holds
those warps); "public" takes them where CTAs have more than one tile (``one_tile_a_cta``).
Permuted words, interleaved graphs, two rounds, graph us; one point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import gate_up_words, weight_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_nvfp4_weight, reference
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us
from cute_kernels.grid_decode_launch import launch_fused_grid_decode, launch_large_m_grid_decode
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import launch_large_m
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused
from layouts import sf_padded_shape

# (op, N or 2I, K, M, tile_m, decode_ring items: the most that keep the stages): 128 whole
# tiles each but the last
POINTS = [("fused", 1024, 7168, 4096, 256, 3), ("fused", 1024, 7168, 1024, 64, 8),
          ("fused", 4096, 7168, 1024, 256, 3), ("gemm", 4096, 7168, 1024, 256, 6),
          # four waves (512 tiles): the decoders go wave by wave
          ("fused", 1024, 7168, 16384, 256, 3)]
ORDER = KOrder.PERMUTED

for op, n, k, m, tile_m, ring in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    rows = -(-m // tile_m) * tile_m
    ready = bf16_activations(a, a_sf, ORDER, rows)
    alpha = torch.full((1,), 0.5, device="cuda")
    if op == "gemm":
        words = [(prepare_nvfp4_weight(b), s) for b, s in weight_copies(n, k)]
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        public = lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], 0.5)  # noqa: E731
        launch = lambda act, w: launch_large_m(act, w[0], w[1], alpha, out, (tile_m, 0))  # noqa
        grid = lambda w, r=0: launch_large_m_grid_decode(  # noqa: E731
            a, a_sf, w[0], w[1], alpha, out, tile_m, decode_ring=r)
    else:
        words = gate_up_words(n, k, True)
        g = torch.full((1,), 30.0, device="cuda")
        q = torch.empty(m, n // 4, device="cuda", dtype=torch.uint8)
        sf = torch.empty(sf_padded_shape(m, n // 32), device="cuda", dtype=torch.uint8)
        public = lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)  # noqa: E731
        launch = lambda act, w: launch_fused(act, w[0], w[1], alpha, g, q, sf,  # noqa: E731
                                             (tile_m, 0), quantizers=0)
        grid = lambda w, r=0: launch_fused_grid_decode(  # noqa: E731
            a, a_sf, w[0], w[1], alpha, g, q, sf, tile_m, decode_ring=r)
    variants = {
        "public": [lambda w=w: public(w) for w in words],
        "pass": [lambda w=w: launch(bf16_activations(a, a_sf, ORDER, rows), w) for w in words],
        "grid": [lambda w=w: grid(w) for w in words],
        f"ring{ring}": [lambda w=w: grid(w, ring) for w in words],
        "ready": [lambda w=w: launch(ready, w) for w in words],
    }
    names = list(variants)
    for _ in range(2):
        times = time_graphs_interleaved_us([variants[v] for v in names],
                                           20 if m >= 16384 else 100)
        print(f"{op} {n}x{k} M={m} tile {tile_m}: "
              + " ".join(f"{v}={t:.2f}" for v, t in zip(names, times)), flush=True)
