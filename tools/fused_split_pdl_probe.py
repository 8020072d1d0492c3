"""The fused op where session 30's in-launch split-K made the unfused pair faster (its
``nvfp4_gemm`` splits K): 4096x7168 at 33..127 tokens (the fused kernel in stream-K) and
1024x7168 at 128..512 (the fp32 split route). Variants, graph us, permuted words, NVFP4
activations: "route" (the public op), "split" (the fp32 split route forced:
``split_route_plan``'s GEMM into fp32, then the fp32 quantizer), "split_trigger" (the same with
the quantizer's early PDL trigger, off in ``launch_config`` for fp32 inputs), "pieces" (the
fused kernel on the split plan's launch: stream-K on tiles x splits CTAs), "pair"
(``nvfp4_gemm`` + ``silu_mul_nvfp4_quant``). One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

from probe_inputs import fused_operands, gate_up_words, print_variant_rounds, replaced

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_quant import launch_config, silu_mul_nvfp4_quant
from cute_kernels.swiglu_split_route import split_route_plan

SWIGLU = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
SPLIT = importlib.import_module("cute_kernels.swiglu_split_route")

POINTS = [(4096, 7168, 64), (4096, 7168, 48), (4096, 7168, 96), (1024, 7168, 256),
          (1024, 7168, 512), (4096, 7168, 128), (1024, 7168, 128), (4096, 7168, 33)]


def triggered(*args, **kwargs):
    config = launch_config(*args, **kwargs)
    return (*config[:9], True, *config[10:])  # (trigger)


for two_i, k, m in select_shapes(POINTS):
    i = two_i // 2
    ops = fused_operands(two_i, k, m, True)
    a, a_sf = ops["a"], ops["a_sf"]
    words = gate_up_words(two_i, k, True)
    split = ("split", split_route_plan(m, i, k))

    def fused(w, route=None, trigger=False):
        patches = {} if route is None else {"large_m_route": lambda *args: route}
        with replaced(SWIGLU, patches), replaced(SPLIT, {"launch_config": triggered}
                                                 if trigger else {}):
            return nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], 0.5, 30.0)

    variants = {"route": (words, lambda w: fused(w)),
                "split": (words, lambda w: fused(w, split)),
                "split_trigger": (words, lambda w: fused(w, split, True)),
                "pieces": (words, lambda w: fused(w, ("pieces", split[1][:2]))),
                "pair": (words, lambda w: silu_mul_nvfp4_quant(nvfp4_gemm(a, a_sf, w[0], w[1],
                                                                          0.5), 30.0))}
    label = f"fused {two_i}x{k} M={m}: route {SWIGLU.large_m_route(m, i, k)}, split {split}"
    print_variant_rounds(label, variants)
