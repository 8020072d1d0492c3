"""``nvfp4_gemm``'s wgmma launches at 129..1024 tokens through the public function (the
activations' dequantization included, padded to whole token tiles since session 24): the
plan (``plain_plan``, "plan") against the kernel forced onto whole tiles of 64 / 128 / 256
tokens ("whole64" ...) and onto stream-K with 128 / 256 ("sk128", "sk256"), and cuBLAS bf16
("cublas") in the same run; W4A16 through the plan ("w4a16": bf16 activations, their
K-permuting copy padded to whole token tiles since session 24) and with that copy unpadded
("w4a16_exact"): issue 5's M = 256 target (0.9x cuBLAS) was open on six of seven
shapes, and session 24's ``fused_route_probe`` found the fused kernel's fastest launch away
from its plan at such points. Session 25 added M = 1024 on the three shapes whose suite
times rose with session 24's plan there (``PLAIN_MID_M_MAX``). Permuted words, interleaved
graphs, two rounds, graph us; one point per CUTE_KERNELS_BENCH_SHAPES index;
``CUTE_KERNELS_BENCH_WARM=1`` compiles only; ``CUTE_KERNELS_PROBE_CALLS`` sets the calls
per graph (default 20). ``CUTE_KERNELS_PROBE_PACKED=1`` (session 29): every variant on packed
weight bytes (``KOrder.PAIRS``), with the plan on permuted words beside ("permuted plan"):
does packed bytes' costlier decode want other launches at 129..1024 tokens?"""

import importlib
import os

import torch
from probe_inputs import gate_up_words, gemm_on_plan, unpadded, weight_copies

from cute_kernels import nvfp4_gemm, reference
from cute_kernels.bench.timing import (rotations_for, select_shapes,
                                       time_graphs_interleaved_us, warm_only)

GEMM = importlib.import_module("cute_kernels.nvfp4_gemm")
# calls per graph: 20 here; the nvfp4_gemm suite's 200 (its default) timed 5120x17408 M = 256
# at 83.1 us where this probe had 71.5 (cuBLAS 68.2 / 69.3): a sustained load's clocks?
CALLS = int(os.environ.get("CUTE_KERNELS_PROBE_CALLS", "20"))
PACKED = os.environ.get("CUTE_KERNELS_PROBE_PACKED") == "1"
PLAN = GEMM.plain_plan

POINTS = [(7168, 18432, 256), (5120, 17408, 256), (36864, 7168, 256), (34816, 5120, 256),
          (9216, 7168, 256), (4096, 7168, 256), (7168, 2048, 256), (9216, 7168, 512),
          (4096, 7168, 512), (7168, 2048, 512), (9216, 7168, 129), (7168, 18432, 129),
          (7168, 18432, 1024), (5120, 17408, 1024), (7168, 2048, 1024)]


for n, k, m in select_shapes(POINTS):
    print(f"gemm {n}x{k} M={m}: plan {PLAN(m, n, k)}", flush=True)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    a, a_sf = reference.nvfp4_quantize(x, 100.0)
    words = weight_copies(n, k) if PACKED else gate_up_words(n, k, True)
    w16 = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
           for _ in range(1 if warm_only() else rotations_for(n * k * 2))]
    variants = {"plan": [lambda w=w: gemm_on_plan(a, a_sf, w) for w in words]}
    forced = {f"whole{t}": (t, 1, False, False) for t in (64, 128, 256)}
    forced.update({f"sk{t}": (t, 1, True, False) for t in (128, 256)})
    for name, plan in forced.items():
        variants[name] = [lambda w=w, plan=plan: gemm_on_plan(a, a_sf, w, plan) for w in words]
    variants["w4a16"] = [lambda w=w: nvfp4_gemm(x, None, w[0], w[1], 0.5) for w in words]
    def w4a16_exact(w):
        with unpadded(GEMM):
            return nvfp4_gemm(x, None, w[0], w[1], 0.5)

    variants["w4a16_exact"] = [lambda w=w: w4a16_exact(w) for w in words]
    if PACKED:
        permuted = gate_up_words(n, k, True)
        variants["permuted plan"] = [lambda w=w: gemm_on_plan(a, a_sf, w) for w in permuted]
    variants["cublas"] = [lambda w=w: x @ w.t() for w in w16]
    names = list(variants)
    for _ in range(2):
        times = time_graphs_interleaved_us([variants[v] for v in names], CALLS)
        print(f"gemm {n}x{k} M={m}: " + " ".join(f"{v}={t:.2f}" for v, t in
                                                zip(names, times)), flush=True)
