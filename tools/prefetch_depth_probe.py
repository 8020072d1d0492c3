"""The wgmma kernel's weights before it waits for its activation pass: how much it prefetches
into L2 (``NVFP4GemmLargeM.PREFETCH_K``: 256 K elements since session 40, before that as many
k-tiles as the pipeline has stages, 5..8 of 64 or 128 K elements; the comment there has this
probe's figures), or how many k-tiles of weights it loads into their stages instead
(``WEIGHTS_BEFORE_WAIT``; since session 41 ``weights_before_wait``'s rule on stream-K launches
that trigger at two CTAs an SM). Session 40's first runs (k-tiles
prefetched, the plain GEMM alone): 12 / 24 / 48 lost 1-6 us everywhere, 1..2 gained 0.3-0.9
us at issue 5's pass-bound points, none lost 0.1-3 us.

Per point, graph us of back-to-back calls (interleaved, two rounds): the public route ("public")
and the same route with every wgmma launch on a variant of ``FORMS``: the rule before session
40 ("stages"), 128 / 384 K elements prefetched ("k128", "k384"; 64-token tiles of one K group a
stage keep the stages), or 0 / 2 / 4 / 8 k-tiles of weights loaded before the wait ("w0",
"w2", ...; at most the stages; "w0": L2 prefetch alone, the rule's launches too); or the
asynchronous stream-K fix-up ("async", ``ASYNC_FIXUP``; "sync": without it,
``stream_k_fixup`` alone; session 49); or ``wg_k_split``'s K group taken from the thread
index as before session 103 ("thread_group", ``UNIFORM_K_GROUP`` off; session 102's probe
timed the reverse). Their
outputs are checked equal to the public route's. One point per CUTE_KERNELS_BENCH_SHAPES
index; ``CUTE_KERNELS_PROBE_FORMS`` (names, comma-separated) times only those;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib
import os

import torch
from probe_inputs import (fp4_gemm_operands, fused_operands, gate_up_words,
                          launches_compiled_by, print_forms, replaced, replaced_call)

from cute_kernels import jit, nvfp4_gemm, nvfp4_gemm_swiglu_quant
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_large_m import NVFP4GemmLargeM, compile_nvfp4_gemm_large_m
from cute_kernels.swiglu_quant_large_m import compile_nvfp4_gemm_swiglu_quant_large_m

PLAIN = importlib.import_module("cute_kernels.nvfp4_gemm")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
# (op, N or 2I, K, M)
POINTS = [("gemm", 7168, 18432, 16), ("gemm", 9216, 7168, 16), ("gemm", 5120, 17408, 16),
          ("gemm", 4096, 7168, 16), ("gemm", 7168, 2048, 32), ("gemm", 7168, 2048, 64),
          ("gemm", 7168, 18432, 32), ("gemm", 7168, 18432, 64), ("gemm", 4096, 7168, 64),
          ("gemm", 36864, 7168, 16), ("gemm", 36864, 7168, 64), ("gemm", 34816, 5120, 32),
          ("gemm", 9216, 7168, 64), ("gemm", 4096, 7168, 256), ("gemm", 7168, 2048, 256),
          ("gemm", 9216, 7168, 256), ("gemm", 7168, 2048, 1024), ("gemm", 4096, 7168, 1024),
          ("fused", 4096, 7168, 64), ("fused", 4096, 7168, 256), ("fused", 9216, 7168, 16),
          ("fused", 36864, 7168, 16), ("fused", 36864, 7168, 64), ("fused", 1024, 7168, 1024),
          ("fused", 4096, 7168, 1024), ("gemm", 36864, 7168, 32), ("gemm", 34816, 5120, 16),
          ("fused", 36864, 7168, 32), ("fused", 34816, 5120, 16), ("fused", 9216, 7168, 64),
          ("gemm", 5120, 17408, 32), ("gemm", 5120, 17408, 64), ("gemm", 9216, 7168, 32),
          ("gemm", 34816, 5120, 64), ("fused", 9216, 7168, 32),
          # four K pieces of wg_k_split (the stream-K fix-up; session 103)
          ("gemm", 2048, 7168, 32), ("gemm", 2048, 7168, 64), ("gemm", 1024, 7168, 128),
          ("fused", 2048, 7168, 32)]
# a form's NVFP4GemmLargeM switches
FORMS = {"stages": (("PREFETCH_K", None),), "k128": (("PREFETCH_K", 128),),
         "k384": (("PREFETCH_K", 384),), "w0": (("WEIGHTS_BEFORE_WAIT", 0),),
         "w2": (("WEIGHTS_BEFORE_WAIT", 2),),
         "w4": (("WEIGHTS_BEFORE_WAIT", 4),), "w8": (("WEIGHTS_BEFORE_WAIT", 8),),
         "async": (("ASYNC_FIXUP", True),), "sync": (("ASYNC_FIXUP", False),),
         "thread_group": (("UNIFORM_K_GROUP", False),)}
CHOSEN = os.environ.get("CUTE_KERNELS_PROBE_FORMS", ",".join(FORMS)).split(",")


@jit.cached
def compile_plain(switches: tuple, *args):
    """``compile_nvfp4_gemm_large_m(*args)`` with ``NVFP4GemmLargeM``'s ``switches``."""
    with replaced(NVFP4GemmLargeM, dict(switches)):
        return compile_nvfp4_gemm_large_m.uncached(*args)


@jit.cached
def compile_fused(switches: tuple, *args):
    """``compile_nvfp4_gemm_swiglu_quant_large_m(*args)`` with ``switches`` likewise."""
    with replaced(NVFP4GemmLargeM, dict(switches)):
        return compile_nvfp4_gemm_swiglu_quant_large_m.uncached(*args)


def forced(module, compile_variant, switches: tuple):
    """``module``'s ``launch_large_m`` with every launch compiled by ``compile_variant``."""
    return launches_compiled_by(module, lambda *c: compile_variant(switches, *c))


alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for op, n, k, m in select_shapes(POINTS):
    if op == "gemm":
        weights, a, a_sf, out = fp4_gemm_operands(n, k, m)
        outs = (out,)
        module, compile_variant = PLAIN, compile_plain

        def public(w):
            nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=out)
    else:
        weights = gate_up_words(n, k, True)
        ops = fused_operands(n, k, m, True)
        a, a_sf, q, sf = (ops[x] for x in ("a", "a_sf", "q", "sf"))
        outs = (q, sf)
        module, compile_variant = FUSED, compile_fused

        def public(w):
            nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs, out=q, out_sf=sf)
    calls = {"public": public}
    for name in CHOSEN:
        calls[name] = replaced_call(public, module, forced(module, compile_variant, FORMS[name]))
    public(weights[0])
    expected = [o.clone() for o in outs]
    for name, call in calls.items():
        for o in outs:
            o.zero_()
        call(weights[0])
        torch.cuda.synchronize()
        if not all(torch.equal(o, e) for o, e in zip(outs, expected)):
            print(f"{op} {n}x{k} M={m}: {name} output DIFFERS from the public route's")
    print_forms(f"{op} {n}x{k} M={m}", calls, weights)
    del weights, calls
