"""``nvfp4_gemm``'s launches at M >= 256 under sustained load (the power cap), each variant in
its own steady state.

Session 26 (``graph_order_probe``, ``nvidia-smi`` alongside): with 200 calls a graph back to
back our M = 256 GEMMs ran 10-25% slower than after a 50 ms idle gap (5120x17408 83 against
69 us, 7168x18432 111-116 against 93), the SM clock fell to ~1450-1650 MHz with the software
power cap engaged, and cuBLAS, timed after ours, kept 68 us: each graph inherits the clocks
the one before it left, so the interleaved probes cannot rank launches under the cap.
(Measured here: cuBLAS slows down too in its own steady state, 5120x17408 M = 256 78 us.)

Here every variant is timed by ``bench.timing.time_sustained_us`` (its graph replayed back to
back for ``SUSTAIN_WARM_MS``, then ~``SUSTAIN_TIMED_MS`` timed as one span); variants in turn,
two rounds, each printed. Variants: the plan, stream-K with 128- / 256-token tiles, whole
128 / 256-token tiles, cuBLAS bf16. (Session 26's call 3 ran this probe with its own loop,
a sync after each warm-up replay and 8 replays timed; the suites' helper came after it.) One
point per CUTE_KERNELS_BENCH_SHAPES index."""

import importlib

import torch
from probe_inputs import gate_up_words, gemm_on_plan

from cute_kernels import reference
from cute_kernels.bench.timing import rotations_for, select_shapes, time_sustained_us, warm_only

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
PLAN = GEMM.plain_plan
CALLS = 200
POINTS = [(5120, 17408, 256), (7168, 18432, 256), (9216, 7168, 256), (4096, 7168, 256),
          (34816, 5120, 256), (7168, 2048, 256), (36864, 7168, 256), (5120, 17408, 1024)]


for n, k, m in select_shapes(POINTS):
    plan = PLAN(m, n, k)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    words = gate_up_words(n, k, True)
    variants = {"plan": None, "sk128": (128, 1, True, False), "sk256": (256, 1, True, False),
                "whole128": (128, 1, False, False), "whole256": (256, 1, False, False)}
    calls = {name: [lambda w=w, p=p: gemm_on_plan(a, a_sf, w, p) for w in words]
             for name, p in variants.items()}
    if not warm_only():  # (a warm-up process only compiles: no cuBLAS weights)
        w16 = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
               for _ in range(rotations_for(n * k * 2))]
        calls["cublas"] = [lambda w=w: x @ w.t() for w in w16]
    for rnd in range(2):
        times = dict(zip(calls, time_sustained_us(list(calls.values()), CALLS, rounds=1)))
        if warm_only():
            break
        print(f"sustained {n}x{k} M={m} plan {plan} round {rnd}: "
              + " ".join(f"{name}={t:.2f}" for name, t in times.items()), flush=True)
