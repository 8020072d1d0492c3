"""What the activations' pass costs ``nvfp4_gemm``'s wgmma routes in a chain of calls, where
issue 5's bars are near (1.5x QuACK at M <= 64: 4096x7168 M = 16 1.46x, 7168x2048 M = 32 / 64
1.43 / 1.47x in session 38's suite; 7168x18432 M = 16..64 1.29-1.33x). Session 34 put the pass
at 1.0-1.35 us there; since then it launches under the GEMM before it (the PDL trigger, the
spread pass). If the pass still costs ~1 us, the next step is decoding the NVFP4 activations
inside the wgmma kernel (its bf16 operand tile of 16..64 tokens written to shared memory by the
producer), with no pass and one launch boundary less a call.

Per point, graph us of back-to-back calls (interleaved, two rounds): "public" (pass + GEMM),
"alone" (the same launches with the bf16 activations made before the capture: the GEMM with no
pass), "fp4" (the same launch decoding the NVFP4 activations in the kernel,
``converted_act_launch.launch_planned_converted``, built in session 38: its bits are checked
against the public route's first), W4A16 ("w4a16": bf16 activations, ``reorder_k``'s copy the
pass) and "w4a16 reorder" (the same launch reordering the bf16 activations' K in the kernel,
no pass). Permuted words. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import fp4_gemm_operands, made_before, print_forms, replaced

from cute_kernels import nvfp4_gemm
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.converted_act_launch import launch_planned_converted
from cute_kernels.large_m_plans import plain_plan
from cute_kernels.nvfp4_gemm import small_m_regime

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
PASS = GEMM.bf16_activations
# (N, K, M): the near misses, then a stream-K point for scale
POINTS = [(4096, 7168, 16), (4096, 7168, 32), (4096, 7168, 64), (7168, 2048, 32),
          (7168, 2048, 64), (7168, 18432, 16), (7168, 18432, 32), (7168, 18432, 64),
          (9216, 7168, 16)]

alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    assert not small_m_regime(m, n, k, True, True), (n, k, m)
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
    x = (torch.randn(m, k, device="cuda") * 3).to(torch.bfloat16)
    made = {}

    def alone(w):
        with replaced(GEMM, {"bf16_activations": made_before(made, PASS)}):
            nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    for w in weights:  # the bf16 activations made (and the kernels compiled) before capture
        alone(w)
    plan = plain_plan(m, n, k)
    calls = {"public": lambda w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out),
             "alone": alone,
             "fp4": lambda w: launch_planned_converted(a, a_sf, w[0], w[1], alpha, out, plan),
             "w4a16": lambda w: nvfp4_gemm(x, None, w[0], w[1], alpha, out=out),
             "w4a16 reorder": lambda w: launch_planned_converted(x, None, w[0], w[1], alpha,
                                                                 out, plan)}
    for form, public in (("fp4", "public"), ("w4a16 reorder", "w4a16")):
        calls[form](weights[0])
        if not warm_only():
            got = out.clone()
            calls[public](weights[0])
            print(f"gemm {n}x{k} M={m}: {form} bits equal {public}: {torch.equal(got, out)}",
                  flush=True)
    print_forms(f"gemm {n}x{k} M={m}", calls, weights)
    del weights, made
