"""Staged activations at M = 3..8 (``nvfp4_gemm.PLAIN_X_SMEM_TOKENS``, 2 today): the small-M GEMM with
the CTA's tokens decoded (W4A4) or converted (W4A16) once into shared memory instead of per warp
and step, against the register path, at M = 4, 8 and 16 (16: two token tiles, which only the
split path stages). More shared memory per CTA (K / 256 steps x
528 bytes per token) means fewer CTAs per SM, so only K <= 7168; a K split of 2 or 3 (the
existing split path, which stages whole 8-token tiles up to 48 KB) keeps the slices small. Graph us (weights rotated past
the L2) and whether the outputs are bit-identical. CUTE_KERNELS_BENCH_SHAPES picks points."""

import sys

import torch
from probe_inputs import weight_copies

import cute_kernels.nvfp4_gemm  # noqa: F401  (the module; the package exports the function)
from cute_kernels import reference
from cute_kernels.bench.timing import select_shapes, time_graph_us

gemm_module = sys.modules["cute_kernels.nvfp4_gemm"]

alpha = torch.full((1,), 0.5, device="cuda")
POINTS = [(n, k, m) for n, k in [(36864, 7168), (9216, 7168), (4096, 7168), (7168, 2048)]
          for m in (4, 8, 16)]

for n, k, m in select_shapes(POINTS):
    weights = weight_copies(n, k)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    line = []
    for name, act, act_sf in (("W4A4", a, a_sf), ("W4A16", x, None)):
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        results = {}
        for x_max in (2, 8):
            gemm_module.PLAIN_X_SMEM_TOKENS = x_max
            gemm_module.PLAIN_STAGE_BYTES = 1 << 20
            got = gemm_module.nvfp4_gemm(act, act_sf, weights[0][0], weights[0][1], alpha)
            us = time_graph_us([lambda w=w: gemm_module.nvfp4_gemm(act, act_sf, w[0], w[1], alpha,
                                                                   out=out) for w in weights])
            results[x_max] = (us, got)
        same = torch.equal(results[2][1], results[8][1])
        gemm_module.PLAIN_X_SMEM_TOKENS = 2
        # a K split stages whole 8-token tiles where its slice fits 48 KB (the kernel as is)
        config = gemm_module.small_m_config(m, n, k, act_sf is not None)
        split = {}
        for s in (2, 3, 6):
            cfg = tuple(config[:4]) + (s,)
            split[s] = time_graph_us([lambda w=w, cfg=cfg: gemm_module.launch_small_m(
                act, act_sf, w[0], w[1], alpha, out, cfg) for w in weights])
        line.append(f"{name} registers {results[2][0]:.2f} staged {results[8][0]:.2f} "
                    f"(equal: {same}), split 2 / 3 / 6 (staged where it fits) "
                    + " / ".join(f"{split[s]:.2f}" for s in (2, 3, 6)))
    gemm_module.PLAIN_X_SMEM_TOKENS = 2
    print(f"{n}x{k} M={m}: " + " | ".join(line), flush=True)
    del weights
