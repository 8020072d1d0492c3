"""What a second activation K order for packed weight bytes would buy the wgmma kernel (session
28): its packed-bytes decode reads a row's whole 64-element group (2 x LDS.128) and four scales
to use one byte of each word, where the permuted words' decode reads two words and one scale.
With the activations in an order where thread q's MMA slots are packed bytes 8q..8q + 7, the
packed decode becomes the permuted one with each pair taken by a byte select
(``e2m1x2_from_byte``) instead of ``e2m1x2_permuted``. Its cost is timed here before the
plumbing is written: "bytes" is the permuted kernel with that extraction swapped in (on
permuted words: wrong products, the same instructions as the real thing), against "permuted"
(the models' layout) and "packed" (bytes as they are, today's decode), each on the public
plan's launch with its activation pass. One point per CUTE_KERNELS_BENCH_SHAPES index;
interleaved graphs, two rounds."""

import functools
import importlib

import cutlass
import torch
from probe_inputs import planned, replaced, weight_copies

from cute_kernels import jit, prepare_nvfp4_weight, reference
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us, warm_only
from cute_kernels.device_mma import e2m1x2_from_byte
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import compile_nvfp4_gemm_large_m, launch_large_m

large_m = importlib.import_module("cute_kernels.nvfp4_gemm_large_m")
POINTS = [(36864, 7168, 32), (36864, 7168, 64), (7168, 18432, 32), (34816, 5120, 64),
          (9216, 7168, 64), (4096, 7168, 64), (5120, 17408, 32), (36864, 7168, 256)]


def byte_pair(word, r: int):
    """Byte ``r`` of ``word`` as a bf16 pair: the byte-order decode's extraction."""
    return e2m1x2_from_byte(word, cutlass.Uint32(0x4440 + r))


@jit.cached
def compile_bytes(*args):
    """``compile_nvfp4_gemm_large_m(*args)`` with the permuted decode's pairs taken by bytes."""
    with replaced(large_m, {"e2m1x2_permuted": byte_pair}):
        return compile_nvfp4_gemm_large_m.uncached(*args)


def launch(variant, a, a_sf, w, alpha, out, plan, rows):
    """One GEMM as the public route runs it: the activation pass, then the wgmma kernel."""
    compile_fn = compile_bytes if variant == "bytes" else compile_nvfp4_gemm_large_m
    launch_large_m(bf16_activations(a, a_sf, variant != "packed", rows), w[0], w[1], alpha, out,
                   **plan, compile_fn=compile_fn)


for n, k, m in select_shapes(POINTS):
    plan = planned("gemm", n, k, m)
    rows = -(-m // plan["config"][0]) * plan["config"][0]
    alpha = torch.full((1,), 0.5, device="cuda")
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    packed = weight_copies(n, k)
    words = {"packed": packed, "permuted": [(prepare_nvfp4_weight(b), s) for b, s in packed]}
    words["bytes"] = words["permuted"]
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    names = ("permuted", "bytes", "packed")
    for v in names:
        launch(v, a, a_sf, words[v][0], alpha, out, plan, rows)
    if warm_only():
        continue
    torch.cuda.synchronize()
    for _ in range(2):
        times = time_graphs_interleaved_us(
            [[functools.partial(launch, v, a, a_sf, w, alpha, out, plan, rows)
              for w in words[v]] for v in names], 100)
        print(f"gemm {n}x{k} M={m} {plan}: " + " ".join(
            f"{v}={t:.2f}" for v, t in zip(names, times)), flush=True)
    del packed, words
