"""The fused op's large-M launch choice on the CPU, one line per (shape, M, activations, weight
form): the swapped kernel's launch, or ``large_m_launch``'s route, config, stream-K, options,
pass spread, bf16 weights and the K order ``_large_m`` feeds (at every M, the small-M
regimes' tokens included, where the public op does not call it). A rule change or a refactor of
the choice diffs two runs: ``python tools/large_m_launch_table.py > before.txt`` (and after);
no GPU needed. Shapes and tokens: the issues' gate_up shapes, small test shapes, M = 17..16990
in steps (``CUTE_KERNELS_TABLE_SHAPES``: "2IxK,2IxK" to pick others)."""

import importlib
import os

import torch

from cute_kernels.k_order import KOrder, wgmma_k_order

FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
SHAPES = [(1024, 7168), (4096, 7168), (9216, 7168), (36864, 7168), (34816, 5120), (384, 7168),
          (2048, 7168), (640, 832), (384, 576)]
TOKENS = list(range(17, 700, 37)) + list(range(700, 17000, 97))


def line(two_i: int, k: int, m: int, a_fp4: bool, w_dtype: torch.dtype) -> str:
    head = f"{two_i}x{k} M={m} {'fp4' if a_fp4 else 'w16'} {str(w_dtype)[6:]}"
    if FUSED.swapped_pairs(m, two_i, k, a_fp4):
        return f"{head} swapped pair"
    swapped = FUSED.swapped_route(m, two_i, k, a_fp4)
    if swapped is not None:
        return f"{head} swapped {swapped}"
    launch = FUSED.large_m_launch(m, two_i, k, a_fp4, w_dtype)
    if launch.route == "split":
        return f"{head} split {launch.plan}"
    order = (KOrder.BF16 if launch.bf16_weights else
             wgmma_k_order(torch.empty(two_i, 1, dtype=w_dtype), 0 if a_fp4 else m,
                           launch.copied))
    return (f"{head} {launch.route} {launch.plan} config={launch.config} "
            f"stream_k={launch.stream_k} {sorted(launch.options.items())} "
            f"spread={launch.spread} order={order.name}")


def shapes() -> list:
    picked = os.environ.get("CUTE_KERNELS_TABLE_SHAPES")
    if not picked:
        return SHAPES
    return [tuple(int(v) for v in s.split("x")) for s in picked.split(",")]


for two_i, k in shapes():
    for m in TOKENS:
        for a_fp4 in (True, False):
            for w_dtype in (torch.uint8, torch.int32):
                print(line(two_i, k, m, a_fp4, w_dtype))
