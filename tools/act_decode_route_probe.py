"""``nvfp4_gemm`` with its NVFP4 activations decoded in the wgmma kernel (``act_decode``) against
the routed activation pass, at issue 5's small-M wgmma points: graph us per call of the public
function, two rounds, "pass" (the route as committed) and "decode" (``ROUTE_MAX_M`` 64; the
launches ``act_decode_fits`` takes), their outputs checked equal; "decode8" / "decode16": the
same with ``ACT_DECODE_STAGES`` 8 / 16. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import fp4_gemm_operands, print_forms, replaced, replaced_call

from cute_kernels import jit, nvfp4_gemm
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m

DECODE = importlib.import_module("cute_kernels.act_decode")
PLAIN = importlib.import_module("cute_kernels.nvfp4_gemm")
# (N, K, M)
POINTS = [(9216, 7168, 16), (5120, 17408, 16), (7168, 18432, 16), (7168, 18432, 32),
          (7168, 18432, 64), (9216, 7168, 64), (9216, 7168, 12), (5120, 17408, 32),
          (4096, 7168, 16), (4096, 7168, 64), (9216, 7168, 32), (5120, 17408, 64)]



@jit.cached
def compile_stages(stages: int, *args):
    """``compile_nvfp4_gemm_large_m(*args)`` with ``ACT_DECODE_STAGES`` = ``stages``."""
    with replaced(NVFP4GemmLargeM, {"ACT_DECODE_STAGES": stages}):
        return compile_nvfp4_gemm_large_m.uncached(*args)


def staged(stages: int) -> dict:
    """``nvfp4_gemm``'s launches decoding in the kernel, compiled with ``stages``."""
    launch = PLAIN.launch_large_m

    def launch_variant(*args, **kwargs):
        kwargs["compile_fn"] = lambda *c: compile_stages(stages, *c)
        launch(*args, **kwargs)
    return {"launch_large_m": launch_variant}


alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)

    def public(w):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    decode = replaced_call(public, DECODE, {"ROUTE_MAX_M": 64})
    calls = {"pass": public, "decode": decode}
    for stages in (8, 16):
        calls[f"decode{stages}"] = replaced_call(decode, PLAIN, staged(stages))
    outs = []
    for call in calls.values():
        out.fill_(float("nan"))
        call(weights[0])
        torch.cuda.synchronize()
        outs.append(out.clone())
    for name, got in zip(calls, outs):
        if not warm_only() and not torch.equal(outs[0], got):
            print(f"gemm {n}x{k} M={m}: {name} output DIFFERS from the pass route's")
    print_forms(f"gemm {n}x{k} M={m} plan {PLAIN.plain_plan(m, n, k)}", calls, weights)
    del weights, calls
