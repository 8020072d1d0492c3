"""Pipeline stages of the wgmma kernel's launches as the public functions plan them (session
19's lead: two CTAs an SM of 16-token tiles ran 5% faster with 5 stages than with 8, one CTA
lost with 5 on some shapes and gained on 5120x17408 M = 32). Per point: the planned launch with
its stages as the kernel picks them ("auto"), then each stage count in STAGES (those that do
not fit shared memory are skipped), interleaved graphs, two rounds; permuted words, NVFP4
activations, the dequantization included. One point per CUTE_KERNELS_BENCH_SHAPES index (one
warm-up process each: ``tools/session20_stages.sh``)."""

import cutlass
from probe_inputs import time_wgmma_variants

from cute_kernels.bench.timing import select_shapes
from cute_kernels.large_m_plans import plain_launch_options, plain_plan
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM
from cute_kernels.nvfp4_gemm_swiglu_quant import NVFP4GemmSwigluQuantLargeM, large_m_route

STAGES = (3, 4, 5, 6, 7, 10)  # "auto" is 8 on one CTA an SM, 5 on two (NARROW_STAGES)
POINTS = [("gemm", 7168, 18432, 16), ("gemm", 7168, 18432, 32), ("gemm", 5120, 17408, 32),
          ("gemm", 9216, 7168, 32), ("gemm", 36864, 7168, 32), ("gemm", 34816, 5120, 32),
          ("gemm", 36864, 7168, 64), ("gemm", 34816, 5120, 64), ("gemm", 7168, 18432, 64),
          ("fused", 36864, 7168, 64), ("fused", 34816, 5120, 64), ("gemm", 9216, 7168, 256)]


def planned(kind, n, k, m):
    """The public route's launch_large_m keyword arguments (stages 0: the kernel's choice)."""
    if kind == "gemm":
        tile_m, splits, stream_k, hybrid = plain_plan(m, n, k)
        return dict(config=(tile_m, 0), splits=splits, stream_k=stream_k, hybrid=hybrid,
                    **plain_launch_options(m, n, k, tile_m, stream_k))
    route, plan = large_m_route(m, n // 2, k)
    if route == "narrow":
        return dict(config=(plan, 0), stream_k=True, **plain_launch_options(m, n, k, plan, True))
    assert route in ("stream_k", "whole"), route
    return dict(config=(plan, 0) if route == "stream_k" else plan, stream_k=route == "stream_k")


def fits(kind, n, k, launch, stages):
    """Whether ``stages`` fit the kernel's shared memory for this launch."""
    tile_m = launch["config"][0]
    opts = dict(stream_k=launch.get("stream_k", False), permuted=True,
                ctas_per_sm=launch.get("ctas_per_sm", 1), k_groups=launch.get("k_groups", 1))
    try:
        if kind == "gemm":
            NVFP4GemmLargeM(n, k, cutlass.BFloat16, tile_m, stages,
                            splits=launch.get("splits", 1), **opts)
        else:
            NVFP4GemmSwigluQuantLargeM(n // 2, k, tile_m, stages, **opts)
    except AssertionError:
        return False
    return True


for kind, n, k, m in select_shapes(POINTS):
    launch = planned(kind, n, k, m)
    variants = {"auto": launch}
    for stages in STAGES:
        if fits(kind, n, k, launch, stages):
            variants[f"st{stages}"] = dict(launch, config=(launch["config"][0], stages))
    print(f"{kind} {n}x{k} M={m}: {launch}", flush=True)
    time_wgmma_variants(kind, n, k, m, variants)
