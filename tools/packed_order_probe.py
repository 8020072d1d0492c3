"""Packed weight bytes in the wgmma kernels decoded in ``KOrder.PAIRS`` (session 29: the
activations in the permuted words' order, each word's pairs taken by one multiply) against
the packed decode in place ("identity") and permuted words ("permuted", the models' layout),
each on the public plan's launch with its activation pass: graph us, interleaved, two rounds.
At M <= 16 also the public function on packed bytes. (Session 28's byte order, "bytes", lost
to pairs at every point and is gone: ``notes/raw/s29-call1-pairs.log``.) One point per CUTE_KERNELS_BENCH_SHAPES index."""

import torch
from probe_inputs import gate_up_copies, planned, print_variant_rounds, weight_copies

from cute_kernels import (nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_gate_up_weight,
                          prepare_nvfp4_weight, reference, restore_gate_up_weight)
from cute_kernels.bench.timing import select_shapes
from cute_kernels.k_order import KOrder
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import launch_large_m
from cute_kernels.nvfp4_gemm_swiglu_quant import large_m_route
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused
from layouts import sf_padded_shape

POINTS = [("gemm", 36864, 7168, 16), ("gemm", 34816, 5120, 16), ("gemm", 7168, 18432, 16),
          ("gemm", 5120, 17408, 16), ("gemm", 36864, 7168, 64), ("gemm", 9216, 7168, 64),
          ("gemm", 4096, 7168, 64), ("gemm", 36864, 7168, 256), ("fused", 36864, 7168, 16),
          ("fused", 34816, 5120, 16), ("fused", 36864, 7168, 64), ("fused", 34816, 5120, 64),
          ("fused", 36864, 7168, 1024), ("fused", 34816, 5120, 256), ("fused", 9216, 7168, 1000)]

for kind, n, k, m in select_shapes(POINTS):
    if kind == "fused" and large_m_route(m, n // 2, k)[0] == "split":
        print(f"{kind} {n}x{k} M={m}: the split route (no fused wgmma launch)", flush=True)
        continue
    plan = planned(kind, n, k, m)
    rows = -(-m // plan["config"][0]) * plan["config"][0]
    alpha = torch.full((1,), 0.5, device="cuda")
    gs = torch.full((1,), 30.0, device="cuda")
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    if kind == "gemm":
        packed = weight_copies(n, k)
        permuted = [(prepare_nvfp4_weight(b), s) for b, s in packed]
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)

        def run(w, order, **extra):
            launch_large_m(bf16_activations(a, a_sf, order, rows), w[0], w[1], alpha, out,
                           **plan, k_order=order, **extra)

        def public(w):
            nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    else:
        packed = gate_up_copies(n, k)
        permuted = [prepare_gate_up_weight(*restore_gate_up_weight(w, s), permute=True)
                    for w, s in packed]
        q = torch.empty(m, n // 4, device="cuda", dtype=torch.uint8)
        sf = torch.empty(sf_padded_shape(m, n // 32), device="cuda", dtype=torch.uint8)

        def run(w, order, **extra):
            launch_fused(bf16_activations(a, a_sf, order, rows), w[0], w[1], alpha, gs, q, sf,
                         **plan, k_order=order, **extra)

        def public(w):
            nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, out=q, out_sf=sf)
    variants = {"permuted": (permuted, lambda w: run(w, KOrder.PERMUTED)),
                "pairs": (packed, lambda w: run(w, KOrder.PAIRS)),
                "identity": (packed, lambda w: run(w, KOrder.IDENTITY))}
    if m <= 16:
        variants["public packed"] = (packed, public)
    print_variant_rounds(f"{kind} {n}x{k} M={m} {plan}", variants)
    del packed, permuted
