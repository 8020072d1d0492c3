"""The fused op on 1024x7168 (Kimi-K2.5's shared expert) at M = 2048 / 4096 / 16384, permuted
words: the public route (the activations' decode pass, then the fused kernel on whole tiles)
against the fused kernel decoding its own activations (``cute_kernels.decode_ahead``, the
same tile), with cuBLAS + torch silu*mul alongside (issue 6's comparator at M >= 256). Per
point: the codes and scales of the two fused forms compared (equal bits expected), then graph
us, interleaved, two rounds. Forms "nowait" (the producer does not wait for the counters)
and "nodecode" (the decoders only release the counters) time the parts; their sums are
wrong. One point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import torch
import torch.nn.functional as F
from probe_inputs import fused_operands, gate_up_words, print_forms, replaced

from cute_kernels import nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes, warm_only
from cute_kernels import jit
from cute_kernels.decode_ahead import (DecodeAhead, compile_fused_decode_ahead,
                                       launch_fused_decode_ahead)
from cute_kernels.nvfp4_gemm_swiglu_quant import large_m_route

POINTS = [(1024, 7168, 2048), (1024, 7168, 4096), (1024, 7168, 16384), (4096, 7168, 4096)]



def switched(name: str, attrs: dict):
    """``compile_fused_decode_ahead`` with ``DecodeAhead``'s ``attrs`` set, cached as
    ``name``."""
    def compile_switched(*args):
        with replaced(DecodeAhead, attrs):
            return compile_fused_decode_ahead.uncached(*args)
    compile_switched.__name__ = compile_switched.__qualname__ = name
    return jit.cached(compile_switched)


FORMS = {"nowait": switched("decode_ahead_nowait", {"PROBE_NO_WAIT": True}),
         "nodecode": switched("decode_ahead_nodecode", {"PROBE_NO_DECODE": True})}
alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for two_i, k, m in select_shapes(POINTS):
    i = two_i // 2
    route, plan = large_m_route(m, i, k)
    tile = plan[0]
    weights = gate_up_words(two_i, k, True)
    ops = fused_operands(two_i, k, m, True)
    a, a_sf, q, sf = ops["a"], ops["a_sf"], ops["q"], ops["sf"]
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    w16 = torch.randn(two_i, k, device="cuda", dtype=torch.bfloat16)

    def cublas(_):
        y = x @ w16.t()
        return F.silu(y[:, :i]) * y[:, i:]

    calls = {"public": lambda w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, out=q,
                                                         out_sf=sf),
             "ahead": lambda w: launch_fused_decode_ahead(a, a_sf, w[0], w[1], alpha, gs, q,
                                                          sf, tile),
             "cublas_silu": cublas}
    for name, fn in FORMS.items():
        calls[name] = lambda w, fn=fn: launch_fused_decode_ahead(a, a_sf, w[0], w[1], alpha, gs,
                                                                 q, sf, tile, compile_fn=fn)
    label = f"fused W4A4 {two_i}x{k} M={m} ({route} {tile})"
    if not warm_only():
        calls["public"](weights[0])
        want = (q.clone(), sf.clone())
        q.fill_(0xFF)
        sf.fill_(0xFF)
        calls["ahead"](weights[0])
        torch.cuda.synchronize()
        codes = (q != want[0]).float().mean().item()
        scales = (sf != want[1]).float().mean().item()
        print(f"{label}: ahead differs from public on {codes:.2e} of code bytes, "
              f"{scales:.2e} of scale bytes", flush=True)
    print_forms(label, calls, weights)
    del weights
