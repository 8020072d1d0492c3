"""Lane columns (``nvfp4_gemm_small_m``'s module docstring, ``LANE_COLUMNS``) against the public
routes at one and two NVFP4 tokens: the weights' block scales on the sums instead of the
operands, 16 packed multiplies a block and row tile replaced by 2 fmas at one token.

Why it may win: the one-token loop is bound by its own instruction issue (ncu, session 9),
and lane columns take its main loop from 278 to 213 SASS instructions a step (9216x7168,
(1, 1, 4, 1); 36864x7168 303 -> 213), the K split's (5120x17408) from 556 to 449, the paired
loop's (7168x18432) from 495 to 365, the fused op's (9216x7168) from 278 to 214 and the
balanced launch's from 272 to 208, at the CTAs an SM the launches use (CPU, nvdisasm,
session 71). Issue 5's open M = 1 points: 9216x7168 12.25 us (11.67 asked), 5120x17408 17.62
(15.76); issue 6's fused 9216x7168 13.62 (11.67).

Forms: "public" (``nvfp4_gemm`` / ``nvfp4_gemm_swiglu_quant`` as routed), "lanes" (the same
with ``LANE_COLUMNS`` on: the routes pass ``lane_columns`` to the compile functions, so each
form has its own compiled kernels), and at the balanced points "wWcC" / "wWcC+lanes" (the
balanced launch, ``tools/balanced_probe.py``'s), and where the public launch is one row tile
of staged tokens "public+paired" / "lanes+paired" (``PAIRED_ONE_ROW_TILE``: the paired-step
loop there, no buffer copy; 9216x7168 278 -> 258 SASS instructions a step, with lane
columns 213 -> 191). Graph us of back-to-back calls on permuted
words, interleaved, two rounds; then each form's output against the public one's (plain:
relative norm of the difference of the bf16 outputs, both one rounding of fp32 sums added in
other orders, so ~1e-3 at most; fused: the share of codes that differ). One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import functools
import importlib

import torch
from probe_inputs import (gate_up_words, permuted_weight_copies, replaced_call,
                          switched_fused_small_m_compilers, switched_small_m_compilers,
                          time_forms_against_public)

from cute_kernels import nvfp4_gemm, nvfp4_gemm_small_m, nvfp4_gemm_swiglu_quant, reference
from cute_kernels.bench.timing import select_shapes
from cute_kernels.nvfp4_gemm_balanced import launch_one_token_balanced
from cute_kernels.swiglu_quant_balanced import launch_swiglu_quant_balanced
from layouts import sf_padded_shape

ON = {"LANE_COLUMNS": True}
PAIRED = {"PAIRED_ONE_ROW_TILE": True}
# (kind, N or 2I, K, M, balanced forms (K warps, CTAs an SM), whether the public launch is one
# row tile of staged tokens (then "paired" forms: ``PAIRED_ONE_ROW_TILE``)): issue 5's and
# 6's one-token shapes first, then two tokens where they are staged (the paired loop, the split)
POINTS = [
    ("gemm", 9216, 7168, 1, [(4, 4)], True),
    ("gemm", 5120, 17408, 1, [(8, 2)], False),
    ("fused", 9216, 7168, 1, [(8, 2)], True),
    ("gemm", 7168, 18432, 1, [], False),
    ("gemm", 36864, 7168, 1, [], True),
    ("gemm", 34816, 5120, 1, [], True),
    ("gemm", 4096, 7168, 1, [], True),
    ("gemm", 7168, 2048, 1, [], True),
    ("fused", 36864, 7168, 1, [], True),
    ("fused", 34816, 5120, 1, [], False),
    ("fused", 4096, 7168, 1, [], False),
    ("fused", 1024, 7168, 1, [], False),
    ("gemm", 7168, 18432, 2, [], False),
    ("gemm", 5120, 17408, 2, [], False),
]
gemm_module = importlib.import_module("cute_kernels.nvfp4_gemm")
fused_module = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")


def switched(call, lanes: bool, paired: str = ""):
    """``call``, with lane columns on where ``lanes``, and its small-M kernels compiled with
    ``PAIRED_ONE_ROW_TILE`` on where ``paired`` ("gemm" or "fused": whose compile functions)."""
    if paired == "gemm":
        call = replaced_call(call, gemm_module, switched_small_m_compilers("paired1", PAIRED))
    elif paired == "fused":
        call = replaced_call(call, fused_module,
                             switched_fused_small_m_compilers("paired1", PAIRED))
    return replaced_call(call, nvfp4_gemm_small_m, ON) if lanes else call


def gemm_forms(n, k, m, forms, paired, a, a_sf):
    """(weights, calls, outputs) of a plain point; each form writes its own bf16 output."""
    outs, calls = {}, {}
    for lanes, pair in ((False, ""), (True, "")) + (((False, "gemm"), (True, "gemm"))
                                                    if paired else ()):
        name = ("lanes" if lanes else "public") + ("+paired" if pair else "")
        outs[name] = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        calls[name] = switched(functools.partial(
            lambda w, o: nvfp4_gemm(a, a_sf, w[0], w[1], alpha, out=o), o=outs[name]), lanes,
            pair)
        if pair:
            continue
        for warps, per_sm in forms:
            name = f"w{warps}c{per_sm}" + ("+lanes" if lanes else "")
            outs[name] = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            calls[name] = switched(functools.partial(
                lambda w, o, warps, per_sm: launch_one_token_balanced(
                    a, a_sf, w[0], w[1], alpha, o, warps, per_sm),
                o=outs[name], warps=warps, per_sm=per_sm), lanes)
    return permuted_weight_copies(n, k), calls, outs


def fused_forms(two_i, k, m, forms, paired, a, a_sf):
    """(weights, calls, outputs) of a fused point; each form writes its own codes."""
    i = two_i // 2
    outs = {}

    def buffers(name):
        outs[name] = torch.empty(m, i // 2, device="cuda", dtype=torch.uint8)
        return outs[name], torch.empty(sf_padded_shape(m, i // 16), device="cuda",
                                       dtype=torch.uint8)
    calls = {}
    for lanes, pair in ((False, ""), (True, "")) + (((False, "fused"), (True, "fused"))
                                                    if paired else ()):
        name = ("lanes" if lanes else "public") + ("+paired" if pair else "")
        calls[name] = switched(functools.partial(
            lambda w, bufs: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs,
                                                    out=bufs[0], out_sf=bufs[1]),
            bufs=buffers(name)), lanes, pair)
        if pair:
            continue
        for warps, per_sm in forms:
            name = f"w{warps}c{per_sm}" + ("+lanes" if lanes else "")
            calls[name] = switched(functools.partial(
                lambda w, bufs, warps, per_sm: launch_swiglu_quant_balanced(
                    a, a_sf, w[0], w[1], alpha, gs, *bufs, warps, per_sm),
                bufs=buffers(name), warps=warps, per_sm=per_sm), lanes)
    return gate_up_words(two_i, k, True), calls, outs


alpha = torch.full((1,), 0.5, device="cuda")
gs = torch.full((1,), 30.0, device="cuda")
for kind, n, k, m, forms, paired in select_shapes(POINTS):
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    weights, calls, outs = (gemm_forms if kind == "gemm" else fused_forms)(n, k, m, forms,
                                                                          paired, a, a_sf)
    label = f"{kind} {n}x{k} M={m}"
    time_forms_against_public(label, calls, weights, outs, kind == "fused")
    del weights, calls, outs
