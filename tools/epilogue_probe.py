"""The wgmma kernel's epilogue on the H200 (session 22): the planned launch with the staged
epilogue (``NVFP4GemmLargeM._staged_store``, the default for 16-bit outputs with N % 8 == 0)
against the fragment's own 2-byte stores ("direct", the epilogue before session 22) and
against no stores at all ("skip": a runtime branch never taken, the ceiling of any epilogue).
Bit-identical outputs of staged and direct are checked. One point per
CUTE_KERNELS_BENCH_SHAPES index; interleaved graphs, two rounds, the dequantization included."""

import functools

import cutlass
import cutlass.cute as cute
import torch
from probe_inputs import permuted_weight_copies, planned, replaced

from cute_kernels import jit, reference
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import (TILE_N, NVFP4GemmLargeM,
                                             compile_nvfp4_gemm_large_m, launch_large_m)

POINTS = [("gemm", 4096, 7168, 1024), ("gemm", 7168, 2048, 1024), ("gemm", 9216, 7168, 256),
          ("gemm", 7168, 2048, 256), ("gemm", 36864, 7168, 1024), ("gemm", 36864, 7168, 256),
          ("gemm", 5120, 17408, 256), ("gemm", 4096, 7168, 256), ("gemm", 34816, 5120, 256),
          ("gemm", 7168, 18432, 256), ("gemm", 9216, 7168, 64), ("gemm", 36864, 7168, 32),
          ("gemm", 7168, 2048, 64)]


@cute.jit
def _skip_store(self, acc, tCcC, alpha, mD, m, row_tile, tok_tile, first_row):
    if alpha > cutlass.Float32(1e30):  # never: the MMAs stay, the stores go
        for i in cutlass.range(cute.size(acc), unroll_full=True):
            row, tok = tCcC[i]
            mD[first_row + tok + tok_tile * self.tile_m, row + row_tile * TILE_N] = (
                acc[i] * alpha).to(self.out_dtype)


def _direct(self) -> bool:
    return False


VARIANTS = {"direct": {"_staged_epilogue": _direct},
            "skip": {"_staged_epilogue": _direct, "_store": _skip_store}}


@jit.cached
def compile_variant(variant: str, *args):
    """``compile_nvfp4_gemm_large_m(*args)`` with ``NVFP4GemmLargeM``'s methods replaced."""
    with replaced(NVFP4GemmLargeM, VARIANTS[variant]):
        return compile_nvfp4_gemm_large_m.uncached(*args)


def launch_variant(variant, a_bf16, b, b_sf, alpha, out, launch):
    """``launch_large_m`` of the plan with the variant's kernel ("staged": the default)."""
    compile_fn = (compile_nvfp4_gemm_large_m if variant == "staged"
                  else functools.partial(compile_variant, variant))
    launch_large_m(a_bf16, b, b_sf, alpha, out, **launch, compile_fn=compile_fn)


for kind, n, k, m in select_shapes(POINTS):
    launch = planned(kind, n, k, m)
    print(f"{kind} {n}x{k} M={m}: {launch}", flush=True)
    alpha = torch.full((1,), 0.5, device="cuda")
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    words = permuted_weight_copies(n, k)
    outs = {}
    for v in ("staged", "direct", "skip"):
        outs[v] = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        launch_variant(v, bf16_activations(a, a_sf, True), *words[0], alpha, outs[v], launch)
    same = torch.equal(outs["staged"].view(torch.int16), outs["direct"].view(torch.int16))
    skipped = bool(outs["skip"].isnan().all())
    print(f"  staged output {'same bits as direct' if same else 'DIFFERS'}; skip "
          f"{'stored nothing' if skipped else 'STORED'}", flush=True)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    names = ("staged", "direct", "skip")
    for _ in range(2):
        times = time_graphs_interleaved_us(
            [[lambda w=w, v=v: launch_variant(v, bf16_activations(a, a_sf, True), w[0], w[1],
                                              alpha, out, launch) for w in words]
             for v in names], 100)
        print(f"{kind} {n}x{k} M={m}: " + " ".join(f"{v}={t:.2f}" for v, t in zip(names, times)),
              flush=True)
