"""``nvfp4_gemm`` with its NVFP4 activations decoded in the wgmma kernel (``act_decode``) against
the routed activation pass, at issue 5's small-M wgmma points: graph us per call of the public
function, two rounds, "pass" (the route as committed) and "decode" (``ROUTE_MAX_M`` 64; the
launches ``act_decode_fits`` takes), their outputs checked equal. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import fp4_gemm_operands, print_forms, replaced_call

from cute_kernels import nvfp4_gemm
from cute_kernels.bench.timing import select_shapes, warm_only

DECODE = importlib.import_module("cute_kernels.act_decode")
PLAIN = importlib.import_module("cute_kernels.nvfp4_gemm")
# (N, K, M)
POINTS = [(9216, 7168, 16), (5120, 17408, 16), (7168, 18432, 16), (7168, 18432, 32),
          (7168, 18432, 64), (9216, 7168, 64), (9216, 7168, 12), (5120, 17408, 32),
          (4096, 7168, 16), (4096, 7168, 64), (9216, 7168, 32), (5120, 17408, 64)]

alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)

    def public(w):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    calls = {"pass": public, "decode": replaced_call(public, DECODE, {"ROUTE_MAX_M": 64})}
    outs = []
    for call in calls.values():
        out.fill_(float("nan"))
        call(weights[0])
        torch.cuda.synchronize()
        outs.append(out.clone())
    if not warm_only() and not torch.equal(outs[0], outs[1]):
        print(f"gemm {n}x{k} M={m}: decode output DIFFERS from the pass route's")
    print_forms(f"gemm {n}x{k} M={m} plan {PLAIN.plain_plan(m, n, k)}", calls, weights)
    del weights, calls
