"""Where ``nvfp4_gemm_swiglu_quant``'s fp32 split route on the 64-row-tile GEMM (session 33's
route there, since replaced by ``half_group_route``) loses to the unfused pair (swiglu suite, H200 2026-12-01, session 34:
4096x7168 M = 64 fused 18.39 us against the pair's 16.7). Per point, graph us: the pair and the
public route as the suite times them, the fused kernel on half interleave groups launched as
``nvfp4_gemm`` launches the weight ("half": ``wg_k_split``, its K pieces through global memory
or in clusters of two, "pair"), then their pieces alone on ready inputs: the GEMM with bf16 and
with fp32 output (the same launch), ``silu_mul_nvfp4_quant`` on bf16 and the route's fp32
SwiGLU + quantization kernel, whose launch options (PDL trigger, loads) are varied; each
varied kernel also runs after the fp32 GEMM ("route ..."). (Session 34 call 4 had the fused
kernel in clusters of four CTAs here: 4096x7168 M = 64 25.5 us, two waves of clusters.) Usage:
python
tools/fused_wgk_route_probe.py (``CUTE_KERNELS_BENCH_SHAPES`` picks points)."""

import torch
from probe_inputs import fused_operands, gate_up_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, silu_mul_nvfp4_quant
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us
from cute_kernels.constants import constant
from cute_kernels.large_m_plans import plain_plan, wg_k_split_plan
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm import launch_planned
from cute_kernels.nvfp4_quant import compile_nvfp4_quant, launch_config
from cute_kernels.permuted_fp4 import prepare_nvfp4_weight
from cute_kernels.swiglu_quant_large_m import launch_large_m as launch_fused

POINTS = [(4096, 7168, 64), (4096, 7168, 32), (4096, 7168, 17), (4096, 7168, 128),
          (4096, 7168, 256), (1024, 7168, 256), (1024, 7168, 1024), (9216, 7168, 256)]
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
dev = torch.device("cuda")
one = constant(1, torch.int32, dev)


def quant_variants(i: int, m: int) -> dict:
    base = launch_config(i, True, dev, m, fp32_input=True)
    vecs, warps, ctas, prefetch, inter, encode, min_ctas, ring, early = base[:9]
    return {  # session 34 call 4 took 2 loads and the trigger, "fp32 q 2v trig" then
        "fp32 q": base,
        "fp32 q 4v": (4, warps, ctas, prefetch, inter, encode, min_ctas, ring, early, False),
    }


for two_i, k, m in select_shapes(POINTS):
    i = two_i // 2
    weights = [(prepare_nvfp4_weight(w), s) for w, s in gate_up_copies(two_i, k)]
    ops = fused_operands(two_i, k, m, True)
    a, a_sf, q, sf, h = (ops[n] for n in ("a", "a_sf", "q", "sf", "h"))
    pre = torch.randn(m, two_i, device="cuda", dtype=torch.float32)
    h.copy_(pre)
    plan = plain_plan(m, two_i, k)
    quants = {}
    for name, cfg in quant_variants(i, m).items():
        try:
            quants[name] = compile_nvfp4_quant(i, "torch.float32", True, False, *cfg)
        except Exception as e:  # noqa: BLE001 - report, keep measuring
            print(f"{name} {cfg}: {type(e).__name__}: {e}")

    def gemm32(w):
        launch_planned(a, a_sf, w[0], w[1], alpha, pre, plan, wg_k_split=True)

    pieces = {
        "pair": lambda w: silu_mul_nvfp4_quant(nvfp4_gemm(a, a_sf, w[0], w[1], 0.5), 30.0),
        "route": lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0),
        "gemm bf16": lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=h),
        "gemm fp32": gemm32,
        "silu bf16": lambda w: silu_mul_nvfp4_quant(h, 30.0),
    }
    wgk = wg_k_split_plan(m, two_i, k)
    if wgk is not None:  # session 34: the fused kernel on half interleave groups
        rows = -(-m // wgk[0]) * wgk[0]

        def half(w, splits, pairs):
            launch_fused(bf16_activations(a, a_sf, True, rows), w[0], w[1], alpha, gs, q, sf,
                         (wgk[0], 0), splits=splits, wg_k_split=True, pair_pieces=pairs)

        pieces[f"half p{wgk[1]}"] = lambda w: half(w, wgk[1], False)
        if wgk[1] == 2:
            pieces["half pair"] = lambda w: half(w, 1, True)
    for name, quant in quants.items():
        pieces[name] = lambda w, f=quant: f(pre, gs, one, q, sf)
        pieces["route " + name[5:]] = lambda w, f=quant: (gemm32(w), f(pre, gs, one, q, sf))
    times = time_graphs_interleaved_us(
        [[lambda w=w, f=f: f(w) for w in weights] for f in pieces.values()], 200)
    print(f"{two_i}x{k} M={m} plan {plan}: "
          + " | ".join(f"{n} {us:.2f}" for n, us in zip(pieces, times)), flush=True)
    del weights
