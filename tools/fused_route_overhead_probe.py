"""Why ``nvfp4_gemm_swiglu_quant``'s wgmma route costs more over its kernel than
``nvfp4_gemm``'s (``fused_large_m_probe``, H200 2026-11-30, permuted words, graph us: 9216x7168
M = 256 fused route 65.3 against its stream-K kernel alone on ready bf16 activations 60.0; the
plain GEMM's route 54.2 against 52.9). Per point: the activations' dequantization alone, each
kernel alone, the two back to back as the route launches them, and the route. Run it with and
without ``CUTE_KERNELS_DISABLE_PDL=1``. "fp32 pair": the plain GEMM as ``nvfp4_gemm`` plans it
(stream-K or whole tiles) writing fp32 pre-activations, then the split route's fp32 SwiGLU +
quantization kernel (this function's numerics, unlike the bf16 pair)."""

import torch
from probe_inputs import fused_operands, gate_up_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes, time_graph_us
from cute_kernels.constants import constant
from cute_kernels.large_m_plans import large_m_plan, stream_k_plan
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import launch_large_m as launch_plain
from cute_kernels.nvfp4_gemm_swiglu_quant import large_m_route
from cute_kernels.nvfp4_gemm_swiglu_quant import launch_large_m as launch_fused
from cute_kernels.nvfp4_quant import compile_nvfp4_quant, launch_config
from cute_kernels.permuted_fp4 import prepare_nvfp4_weight

POINTS = [(9216, 7168, 256), (1024, 7168, 1024)]
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")

for two_i, k, m in select_shapes(POINTS):
    i = two_i // 2
    weights = [(prepare_nvfp4_weight(w), s) for w, s in gate_up_copies(two_i, k)]
    ops = fused_operands(two_i, k, m, True)
    a, a_sf, x16, q, sf, h = (ops[n] for n in ("a", "a_sf", "x16", "q", "sf", "h"))
    route, plan = large_m_route(m, i, k)
    assert route == "stream_k", (route, plan)
    config = (plan, 0)

    pre = torch.empty(m, two_i, device="cuda", dtype=torch.float32)
    sk = stream_k_plan(m, two_i, k)
    plain_sk = sk is not None
    plain_config = (sk[0] if plain_sk else large_m_plan(m, two_i, k)[0], 0)
    quant = compile_nvfp4_quant(i, "torch.float32", True, False,
                                *launch_config(i, True, torch.device("cuda"), m,
                                               fp32_input=True))
    one = constant(1, torch.int32, torch.device("cuda"))

    def fp32_pair(w):
        launch_plain(bf16_activations(a, a_sf, True), w[0], w[1], alpha, pre, plain_config,
                     stream_k=plain_sk)
        quant(pre, gs, one, q, sf)

    def timed(fn):
        return time_graph_us([lambda w=w: fn(w) for w in weights], 20)

    def fused(w, x):
        launch_fused(x, w[0], w[1], alpha, gs, q, sf, config, True)

    line = {
        "dequant": timed(lambda w: bf16_activations(a, a_sf, True)),
        "fused kernel": timed(lambda w: fused(w, x16)),
        "dequant+fused": timed(lambda w: fused(w, bf16_activations(a, a_sf, True))),
        "route": timed(lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, out=q,
                                                         out_sf=sf)),
        "plain sk128 kernel": timed(lambda w: launch_plain(x16, w[0], w[1], alpha, h, (128, 0),
                                                           stream_k=True)),
        "plain route": timed(lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=h)),
        f"fp32 pair {plain_config[0]}{' sk' if plain_sk else ''}": timed(fp32_pair),
    }
    print(f"{two_i}x{k} M={m} fused {route} {plan}: "
          + " | ".join(f"{n} {us:.1f}" for n, us in line.items()), flush=True)
    del weights
