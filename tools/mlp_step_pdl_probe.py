"""The one-token PDL rule (``SmallMLaunchRules.PDL_ONE_TOKEN``) in a model's MLP step rather
than in back-to-back calls of one GEMM (how session 42 measured it): the Qwen3.8-27B NVFP4 MLP
at one token, quantize x -> fused gate_up (34816x5120) -> down ``nvfp4_gemm`` (5120x17408, a
K split in three: the rule triggers it at the CTA start), each step's output the next step's
input. Session 7 saw PDL win on one GEMM and lose in the DeepSeek-V3 step (7168x18432 29.6 ->
34.9 us, the step 81.7 -> 95.8).

Graph us per step (interleaved, two rounds): the public functions ("rule") and the same with
the rule off ("off"); the steps' outputs checked equal. ``CUTE_KERNELS_BENCH_WARM=1``
compiles only."""

import importlib

import torch
from probe_inputs import (gate_up_words, permuted_weight_copies, print_forms, replaced_call,
                          switched_small_m_compilers)

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, nvfp4_quantize
from cute_kernels.bench.timing import warm_only

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
HIDDEN, INTER = 5120, 17408
G = 448 * 6 / 16  # activations of unit spread; the alphas keep them there
gate_up = gate_up_words(2 * INTER, HIDDEN, True)
down = permuted_weight_copies(HIDDEN, INTER)
copies = list(zip(gate_up, down))
x = torch.randn(1, HIDDEN, device="cuda").to(torch.bfloat16)
y = torch.empty(1, HIDDEN, device="cuda", dtype=torch.bfloat16)


def step(w):
    (wg, wg_sf), (wd, wd_sf) = w
    q, q_sf = nvfp4_quantize(x, G)
    h, h_sf = nvfp4_gemm_swiglu_quant(q, q_sf, wg, wg_sf, 1 / (G * 100 * HIDDEN**0.5), G)
    nvfp4_gemm(h, h_sf, wd, wd_sf, 1 / (G * 100 * INTER**0.5), out=y)
    x.copy_(y)  # the next step's input


calls = {"rule": step,
         "off": replaced_call(step, GEMM, switched_small_m_compilers(
             "off", {"PDL_ONE_TOKEN": False}))}
start = x.clone()
outs = {}
for name, call in calls.items():
    x.copy_(start)
    call(copies[0])
    torch.cuda.synchronize()
    outs[name] = y.clone()
if not warm_only() and not torch.equal(outs["rule"], outs["off"]):
    print("Qwen3.8 MLP M=1: the outputs DIFFER")
x.copy_(start)
print_forms(f"Qwen3.8 MLP step {2 * INTER}x{HIDDEN} + {HIDDEN}x{INTER} M=1", calls, copies)
