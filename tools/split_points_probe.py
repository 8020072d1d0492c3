"""The fused op's fp32 split route against the fused kernel itself where ``large_m_route``
takes the route (permuted words): the issue 6 points still slower than the unfused pair after
session 23 (9216x7168 M = 256 0.97x, 1024x7168 M = 1024 0.99x) were chosen for the route
before the fused kernel had its staged h and quantizer warps. Per point: the public function
("route"), the fused kernel on the route's own launch where it has no K split ("on_plan":
the plain GEMM's tiles, stream-K and CTAs per SM), on its stream-K launch at 128 and 256
tokens ("sk128", "sk256") and on whole tiles of ``large_m_config``'s width ("whole"), each
with ``quantizer_warps``' choice, and the unfused pair ("pair": ``nvfp4_gemm`` +
``silu_mul_nvfp4_quant``). Interleaved graphs, two rounds, graph us; one point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
from probe_inputs import fused_operands, gate_up_words

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us
from cute_kernels.large_m_plans import (fused_stream_k_options, large_m_config,
                                        plain_launch_options)
from cute_kernels.nvfp4_gemm_swiglu_quant import large_m_route, launch_large_m
from cute_kernels.nvfp4_quant import silu_mul_nvfp4_quant

POINTS = [(9216, 7168, 256), (9216, 7168, 192), (9216, 7168, 129), (1024, 7168, 1024),
          (1024, 7168, 512), (1024, 7168, 256), (4096, 7168, 256), (4096, 7168, 128)]


def launches(two_i: int, k: int, m: int) -> dict:
    """Name -> ``launch_large_m`` keyword arguments of the fused kernel's candidate launches."""
    route, plan = large_m_route(m, two_i // 2, k)
    found = {}
    if route == "split" and plan[1] == 1:  # (tile_m, splits, stream_k, hybrid)
        tile_m, _, stream_k, hybrid = plan
        found["on_plan"] = dict(config=(tile_m, 0), stream_k=stream_k, hybrid=hybrid,
                                **plain_launch_options(m, two_i, k, tile_m, stream_k))
    for tile_m in (128, 256):
        found[f"sk{tile_m}"] = dict(config=(tile_m, 0), stream_k=True,
                                    **fused_stream_k_options(m, two_i, k, tile_m))
    found["whole"] = dict(config=large_m_config(m, two_i, k), stream_k=False)
    return found


for two_i, k, m in select_shapes(POINTS):
    route, plan = large_m_route(m, two_i // 2, k)
    print(f"fused {two_i}x{k} M={m}: route {route} {plan}", flush=True)
    alpha = torch.full((1,), 0.5, device="cuda")
    gs = torch.full((1,), 30.0, device="cuda")
    ops = fused_operands(two_i, k, m, True)
    a, a_sf, x16, q, sf = ops["a"], ops["a_sf"], ops["x16"], ops["q"], ops["sf"]
    words = gate_up_words(two_i, k, True)
    variants = {"route": [lambda w=w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)
                          for w in words],
                # the interleaved words stand in for a plain [2I, K] weight: same bytes
                "pair": [lambda w=w: silu_mul_nvfp4_quant(nvfp4_gemm(a, a_sf, w[0], w[1], 0.5),
                                                          30.0) for w in words]}
    for name, launch in launches(two_i, k, m).items():
        variants[name] = [lambda w=w, launch=launch: launch_large_m(
            x16, w[0], w[1], alpha, gs, q, sf, **launch)
            for w in words]
    names = list(variants)
    for _ in range(2):
        times = time_graphs_interleaved_us([variants[v] for v in names], 20)
        print(f"fused {two_i}x{k} M={m}: " + " ".join(f"{v}={t:.2f}" for v, t in
                                                     zip(names, times)), flush=True)
