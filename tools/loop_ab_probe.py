"""The small-M main loop before and after one change, through the public functions on the
models' layout (permuted words), W4A4 unless noted: one line per point and M, graph us
(weights rotated past the L2). Run once per package version (``tools/ab_loop.sh`` alternates
them); CUTE_KERNELS_BENCH_SHAPES picks entries of POINTS, LOOP_POINTS=few a subset. Inputs
come from a fixed seed, so LOOP_HASH_FILE=F (one line per point: a digest of the first call's
outputs) shows whether two versions compute the same bits. (Session
12's variant runs patched class attributes of the loop, since removed: commit history.)"""

import hashlib
import os

import torch
from probe_inputs import gate_up_copies, weight_copies

from cute_kernels import nvfp4_gemm, nvfp4_gemm_swiglu_quant, prepare_nvfp4_weight, reference
from cute_kernels.bench.timing import select_shapes, time_graph_us

GEMMS = [(7168, 18432), (5120, 17408), (36864, 7168), (34816, 5120), (9216, 7168),
         (4096, 7168), (7168, 2048)]
FUSED = [(36864, 7168), (34816, 5120), (9216, 7168), (4096, 7168), (1024, 7168)]
# "few": the points that moved most in session 12; "staged": the staged path's (M <= 2)
if os.environ.get("LOOP_POINTS") in ("few", "staged"):
    GEMMS = [(7168, 18432), (5120, 17408), (36864, 7168), (34816, 5120), (9216, 7168),
             (7168, 2048)]
    FUSED = [(36864, 7168), (34816, 5120), (9216, 7168)]
MS = {"few": (1, 8), "staged": (1, 16)}.get(os.environ.get("LOOP_POINTS"), (1, 4, 8, 16))
if os.environ.get("LOOP_MS"):  # "2,4": these token counts instead
    MS = tuple(int(m) for m in os.environ["LOOP_MS"].split(","))
POINTS = ([("gemm", n, k, True) for n, k in GEMMS] + [("fused", n, k, True) for n, k in FUSED]
          + [("fused", 36864, 7168, False)])  # the DeepSeek-V3 MLP's gate_up: bf16 x
if os.environ.get("LOOP_W4A16") == "1":  # bf16 activations at LOOP_MS on the weights whose
    # 9..16 tokens take the wgmma kernel in stream-K
    POINTS += [("gemm", n, k, False) for n, k in [(7168, 18432), (5120, 17408), (9216, 7168)]]
torch.manual_seed(0)
HASH_FILE = os.environ.get("LOOP_HASH_FILE")
alpha = torch.full((1,), 0.5, device="cuda")


def digest(out) -> str:
    """The bits of a kernel's output (a tensor, or the fused kernel's pair)."""
    h = hashlib.sha1()
    for t in (out if isinstance(out, tuple) else (out,)):
        h.update(bytes(t.contiguous().view(torch.uint8).flatten().cpu().tolist()))
    return h.hexdigest()[:16]


gs = torch.full((1,), 30.0, device="cuda")

for kind, n, k, fp4 in select_shapes(POINTS):
    copies = weight_copies(n, k) if kind == "gemm" else gate_up_copies(n, k)
    words = [(prepare_nvfp4_weight(w), s) for w, s in copies]
    del copies
    for m in (MS if fp4 or kind == "gemm" else (1,)):
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        a, a_sf = reference.nvfp4_quantize(x, 100.0) if fp4 else (x, None)
        if kind == "gemm":
            calls = [lambda w=w: nvfp4_gemm(a, a_sf, w[0], w[1], alpha) for w in words]
        else:
            calls = [lambda w=w: nvfp4_gemm_swiglu_quant(a, a_sf, w[0], w[1], alpha, gs)
                     for w in words]
        us = time_graph_us(calls, 100, 9)
        label = f"{kind} {n}x{k} {'W4A4' if fp4 else 'W4A16'} M={m}"
        print(f"{label}: {us:.2f}", flush=True)
        if HASH_FILE:
            with open(HASH_FILE, "a") as f:
                print(f"{label} {digest(calls[0]())}", file=f)
    del words
