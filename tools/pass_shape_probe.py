"""The spread activation pass's shape (session 36): how many CTAs an SM it allows (``cap``)
and how many 64-element group units a thread takes (``groups``; the default 4 makes a CTA of
16384 elements, so 64 tokens of K = 7168 are 28 CTAs) under the routed PDL trigger. Per
point, graph us of back-to-back public calls (interleaved, two rounds): the rule's pass
("rule": cap from ``spread_ctas_per_sm``, 4 groups) against variants compiled here. One
point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import fp4_gemm_operands, fused_operands, gate_up_words, replaced

from cute_kernels import jit, nvfp4_gemm, nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us, warm_only
from cute_kernels.nvfp4_dequant import NVFP4DequantPermutedK, _compile_group_kernel

# (op, N or 2I, K, M)
POINTS = [("fused", 4096, 7168, 64), ("fused", 4096, 7168, 32), ("gemm", 4096, 7168, 64),
          ("gemm", 4096, 7168, 32), ("gemm", 7168, 2048, 32), ("gemm", 7168, 2048, 64),
          ("gemm", 7168, 2048, 256)]
VARIANTS = {"c1g2": (1, 2), "c1g1": (1, 1), "c2g4": (2, 4), "c2g2": (2, 2)}
dequant = importlib.import_module("cute_kernels.nvfp4_dequant")


@jit.cached
def compile_pass(k: int, cap: int, groups: int):
    """``NVFP4DequantPermutedK`` with ``groups`` units a thread, at most ``cap`` CTAs an SM."""
    cls = type("PermutedKPassProbe", (NVFP4DequantPermutedK,), {"GROUPS_PER_THREAD": groups})
    return _compile_group_kernel(cls(k, ctas_per_sm=cap))


def with_pass(fn, cap: int, groups: int):
    """``fn`` with the activation pass's launches on that variant."""
    def run(w):
        with replaced(dequant, {"compile_nvfp4_dequant_permuted_k":
                                lambda k, _cap=0: compile_pass(k, cap, groups)}):
            fn(w)
    return run


alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for op, n, k, m in select_shapes(POINTS):
    if op == "fused":
        weights = gate_up_words(n, k, True)
        ops = fused_operands(n, k, m, True)
        a, a_sf, q, sf = (ops[x] for x in ("a", "a_sf", "q", "sf"))

        def public(w):
            nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, out=q, out_sf=sf)
    else:
        weights, a, a_sf, out = fp4_gemm_operands(n, k, m)

        def public(w):
            nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    calls = {"rule": public}
    calls.update({name: with_pass(public, *v) for name, v in VARIANTS.items()})
    for fn in calls.values():  # compiles
        fn(weights[0])
    torch.cuda.synchronize()
    if warm_only():
        continue
    groups = [[lambda w=w, fn=fn: fn(w) for w in weights] for fn in calls.values()]
    for _ in range(2):
        times = time_graphs_interleaved_us(groups, 100)
        print(f"{op} {n}x{k} M={m}: " + " ".join(
            f"{name}={t:.2f}" for name, t in zip(calls, times)), flush=True)
    del weights
