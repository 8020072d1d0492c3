"""Issue 5's near miss at 9216x7168 M = 4 / 8 (60% of the roofline is 14.70 us; sessions 40-42
measured 14.69-14.81): the small kernel's one-wave register path, (1, 1, 4, 1) with PDL, under
its launch switches (``SmallMLaunchRules``): the PDL trigger at the CTA's exit instead of
after its main loop ("exit"), the register path without the scale table ("no_table").

Per point, graph us of back-to-back ``nvfp4_gemm`` calls (interleaved, two rounds): the public
route and each switch, whose outputs are checked equal to the public route's. Permuted words,
NVFP4 activations. One point per CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1``
compiles only."""

import importlib

import torch
from probe_inputs import fp4_gemm_operands, print_forms, replaced, replaced_call

from cute_kernels import jit, nvfp4_gemm
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_small_m import NVFP4GemmSmallM, compile_nvfp4_gemm_small_m

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
POINTS = [(9216, 7168, 4), (9216, 7168, 8), (4096, 7168, 4), (4096, 7168, 8)]
SWITCHES = {"exit": {"PDL_TRIGGER": "exit"}, "no_table": {"REGISTER_SCALE_TABLE": False}}


def compiler(name, attrs):
    def compile_switched(*args):
        with replaced(NVFP4GemmSmallM, attrs):
            return compile_nvfp4_gemm_small_m.uncached(*args)
    compile_switched.__name__ = compile_switched.__qualname__ = f"compile_{name}"
    return jit.cached(compile_switched)


COMPILERS = {name: compiler(name, attrs) for name, attrs in SWITCHES.items()}
alpha = torch.full((1,), 0.5, device="cuda")
for n, k, m in select_shapes(POINTS):
    weights, a, a_sf, out = fp4_gemm_operands(n, k, m)

    def public(w):
        nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    calls = {"public": public}
    for name, fn in COMPILERS.items():
        calls[name] = replaced_call(public, GEMM, {"compile_nvfp4_gemm_small_m": fn})
    public(weights[0])
    expected = out.clone()
    for name in SWITCHES:
        out.zero_()
        calls[name](weights[0])
        torch.cuda.synchronize()
        if not torch.equal(out, expected):
            print(f"gemm {n}x{k} M={m}: {name} output DIFFERS from the public route's")
    print_forms(f"gemm {n}x{k} M={m}", calls, weights)
    del weights, calls
