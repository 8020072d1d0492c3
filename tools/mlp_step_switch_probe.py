"""Small-M launch switches (``NVFP4GemmSmallM`` class attributes, which the fused kernels
inherit) in a model's MLP step rather than in back-to-back calls of one GEMM: quantize x ->
fused gate_up -> down ``nvfp4_gemm``, each step's output the next step's input. Session 7 saw
PDL win on one GEMM and lose in the DeepSeek-V3 step (7168x18432 29.6 -> 34.9 us, the step
81.7 -> 95.8).

Measured: session 43 (H200 2026-12-02), the one-token PDL rule (``PDL_ONE_TOKEN``) in the
Qwen3.8 step at M = 1, rule / off: 51.77, 51.76 / 52.58, 52.38 us.

Session 43's first run (M = 4 / 8, the one-wave trigger at the CTA start in the down GEMM,
public / start): Qwen3.8 M = 4 58.29, 58.32 / 58.33, 58.36, M = 8 58.35, 58.27 / 58.29, 58.27;
DeepSeek-V3 M = 4 76.73, 76.72 / 76.78, 76.81, M = 8 77.40, 77.41 / 77.43, 77.39: even.

Session 43's second run (points 5-10: all three switches before the rules were narrowed,
public / new): Qwen3.8 M = 1 52.15, 52.28 / 53.46, 53.36; DeepSeek-V3 M = 1 70.97, 70.88 /
71.24, 71.20; TP4 (9216x7168 + 7168x4608) M = 1 28.24, 28.25 / 27.20, 27.24, M = 4 28.43,
28.37 / 28.01, 27.94; expert (4096x7168 + 7168x2048) M = 1 16.92, 16.95 / 16.79, 16.76, M = 4
19.11, 19.09 / 18.66, 18.65. Points 11-20: the landed rules against "off".

Session 44 (point 21, the fused one-token row groups' start trigger in the TP4 step at
M = 1, public / off): 27.44, 27.36 / 28.18, 28.17.

Per point, graph us per step (interleaved, two rounds): the public functions ("public") and the
same under each switch; the steps' outputs checked equal. One point per
CUTE_KERNELS_BENCH_SHAPES index; ``CUTE_KERNELS_BENCH_WARM=1`` compiles only."""

import importlib

import torch
from probe_inputs import (gate_up_words, permuted_weight_copies, print_forms, replaced_call,
                          switched_fused_small_m_compilers, switched_small_m_compilers)

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, nvfp4_quantize
from cute_kernels.bench.timing import select_shapes, warm_only

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
FUSED = importlib.import_module("cute_kernels.nvfp4_gemm_swiglu_quant")
MODELS = {"Qwen3.8": (5120, 17408), "DeepSeek-V3": (7168, 18432),
          "DeepSeek-V3 TP4": (7168, 4608), "DeepSeek-V3 expert": (7168, 2048)}
# switch name -> ({"gemm": NVFP4GemmSmallM attributes, "fused": NVFP4GemmSwigluQuantSmallM's})
START = {"start": {"gemm": {"ONE_WAVE_TRIGGER": "start"}}}
NEW = {"new": {"gemm": {"ONE_WAVE_TRIGGER": "start", "ONE_WAVE_STAGED": True},
               "fused": {"PDL_TRIGGER": "start"}}}
POINTS = [("Qwen3.8", 4, START), ("Qwen3.8", 8, START), ("DeepSeek-V3", 4, START),
          ("DeepSeek-V3", 8, START), ("Qwen3.8", 1, {"off": {"gemm": {"PDL_ONE_TOKEN": False}}}),
          ("Qwen3.8", 1, NEW), ("DeepSeek-V3", 1, NEW), ("DeepSeek-V3 TP4", 1, NEW),
          ("DeepSeek-V3 TP4", 4, NEW), ("DeepSeek-V3 expert", 1, NEW),
          ("DeepSeek-V3 expert", 4, NEW)]
# the landed rules (session 43) switched off: the public route against the launches before
OFF = {"off": {"gemm": {"ONE_WAVE_TRIGGER": "loop", "ONE_WAVE_STAGED": False},
               "fused": {"REGISTER_PDL_START": False}}}
POINTS += [(model, m, OFF) for model, ms in (("Qwen3.8", (1, 4)), ("DeepSeek-V3", (1, 4)),
                                             ("DeepSeek-V3 TP4", (1, 4, 8)),
                                             ("DeepSeek-V3 expert", (1, 4, 8)))
           for m in ms]
# session 44: the fused one-token row groups' trigger at the start (9216x7168: 2.2 CTAs an SM)
POINTS += [("DeepSeek-V3 TP4", 1, {"groups_off": {"fused": {"STAGED_GROUPS_START_CTAS": 0}}})]
G = 448 * 6 / 16  # activations of unit spread; the alphas keep them there


def switched(step, name: str, attrs: dict):
    """``step`` with the plain small-M kernel's ``attrs["gemm"]`` and the fused one's
    ``attrs["fused"]`` set."""
    if "gemm" in attrs:
        step = replaced_call(step, GEMM, switched_small_m_compilers(name, attrs["gemm"]))
    if "fused" in attrs:
        step = replaced_call(step, FUSED, switched_fused_small_m_compilers(name, attrs["fused"]))
    return step


for model, m, switches in select_shapes(POINTS):
    hidden, inter = MODELS[model]
    copies = list(zip(gate_up_words(2 * inter, hidden, True),
                      permuted_weight_copies(hidden, inter)))
    x = torch.randn(m, hidden, device="cuda").to(torch.bfloat16)
    y = torch.empty(m, hidden, device="cuda", dtype=torch.bfloat16)

    def step(w, x=x, y=y, hidden=hidden, inter=inter):
        (wg, wg_sf), (wd, wd_sf) = w
        q, q_sf = nvfp4_quantize(x, G)
        h, h_sf = nvfp4_gemm_swiglu_quant(q, q_sf, wg, wg_sf, 1 / (G * 100 * hidden**0.5), G)
        nvfp4_gemm(h, h_sf, wd, wd_sf, 1 / (G * 100 * inter**0.5), out=y)
        x.copy_(y)  # the next step's input

    calls = {"public": step}
    calls.update({name: switched(step, name, attrs) for name, attrs in switches.items()})
    start, outs = x.clone(), {}
    for name, call in calls.items():
        x.copy_(start)
        call(copies[0])
        torch.cuda.synchronize()
        outs[name] = y.clone()
    label = f"{model} MLP step {2 * inter}x{hidden} + {hidden}x{inter} M={m}"
    if not warm_only() and not all(torch.equal(o, outs["public"]) for o in outs.values()):
        print(f"{label}: the outputs DIFFER")
    x.copy_(start)
    print_forms(label, calls, copies)
    del copies, calls
