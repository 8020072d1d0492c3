"""``nvfp4_gemm`` W4A16 (bf16 activations, permuted words) at 5120x17408 M = 1024 (issue 5:
0.89x cuBLAS, 0.9x asked; its 256-token stream-K read in place) with the stream-K in lanes
forced (``large_m_plans.stream_k_lanes``' order: the CTAs of each lane walk the same
activation k-tiles together, so the L2 serves one read of them to every lane), beside the
public op ("plan": since session 80 ``wide_stream_k_lanes``' 8 lanes; before, plain ranges
on these 40 row tiles, over ``STREAM_K_LANES_MAX_ROW_TILES``), plain ranges forced ("l1")
and cuBLAS bf16.
Lanes divide the 40 row tiles: 4 (132 CTAs), 5 and 10 (130), 8 (128), 20 and 40 (120);
point 1, 7168x18432 (56 row tiles): 4 (132), 7 (126), 8 (128), 14 (126). NVFP4 tokens beside,
on the plan ("w4a4") and on plain ranges ("w4a4_l1"). Graph us, two rounds; outputs
compared. One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1``
compiles only."""

import importlib
import os

import torch
from probe_inputs import (agrees, bf16_weight_rotation, permuted_weight_copies,
                          print_variant_rounds, replaced)

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import select_shapes, warm_only

# the module (the package's ``nvfp4_gemm`` is the function): its name for the lanes rule
gemm_module = importlib.import_module("cute_kernels.nvfp4_gemm")
POINTS = [(5120, 17408, 1024, (1, 4, 5, 8, 10, 20, 40)),
          (7168, 18432, 1024, (1, 4, 7, 8, 14))]

for n, k, m, lanes in select_shapes(POINTS):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    words = permuted_weight_copies(n, k)
    outs = {name: torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            for name in ["plan"] + [f"l{lane}" for lane in lanes]}

    def forced(count):  # both lanes rules of the public launch answer ``count``
        return replaced(gemm_module, {"plain_stream_k_lanes": lambda *args: count,
                                      "wide_stream_k_lanes": lambda *args: count})

    def laned(count):
        def call(w):
            with forced(count):
                nvfp4_gemm(x, None, w[0], w[1], 0.5, out=outs[f"l{count}"])
        return call

    def plan(w):
        nvfp4_gemm(x, None, w[0], w[1], 0.5, out=outs["plan"])
    variants = {"plan": (words, plan)}
    variants.update({f"l{count}": (words, laned(count)) for count in lanes})
    keep = os.environ.get("CUTE_KERNELS_PROBE_VARIANTS")  # (as ``print_variant_rounds``)
    if keep:
        variants = {name: v for name, v in variants.items() if name in keep.split(",")}
    if not warm_only():
        for name, (_, call) in variants.items():
            call(words[0])
        bad = [name for name in variants if not agrees(outs[name], outs["plan"])]
        if bad:
            print(f"  DISAGREE with the plan: {bad}", flush=True)
    variants["w4a4"] = (words, lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], 0.5))

    def w4a4_ranges(w):  # NVFP4 tokens on plain ranges
        with forced(1):
            nvfp4_gemm(a, a_sf, w[0], w[1], 0.5)
    variants["w4a4_l1"] = (words, w4a4_ranges)
    variants["cublas"] = (bf16_weight_rotation(n, k), lambda w: x @ w.t())
    print_variant_rounds(f"gemm W4A16 {n}x{k} M={m} stream-K lanes", variants)
    del words, variants
    torch.cuda.empty_cache()
