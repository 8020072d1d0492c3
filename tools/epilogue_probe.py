"""What the wgmma kernel's epilogue costs (session 22): the planned launch against the same
kernel with its output stores skipped (a runtime branch that is never taken: the ceiling of any
epilogue change) and with paired stores (lanes 4 apart trade one value so each stores two
adjacent weight rows of one token as one 4-byte word: half the store instructions and bounds
checks of ``NVFP4GemmLargeM._store``). Bit-identical outputs checked for "paired". One point per
CUTE_KERNELS_BENCH_SHAPES index; interleaved graphs, two rounds, the dequantization included."""

import cutlass
import cutlass.cute as cute
import torch
from probe_inputs import planned, weight_copies

from cute_kernels import jit, prepare_nvfp4_weight, reference
from cute_kernels.bench.timing import select_shapes, time_graphs_interleaved_us
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.nvfp4_gemm_large_m import (POW2_63, TILE_N, NVFP4GemmLargeM,
                                             compile_nvfp4_gemm_large_m, compile_tail,
                                             launch_large_m, stream_k_buffers)

POINTS = [("gemm", 4096, 7168, 1024), ("gemm", 7168, 2048, 1024), ("gemm", 9216, 7168, 256),
          ("gemm", 7168, 2048, 256), ("gemm", 36864, 7168, 1024)]


@cute.jit
def _skip_store(self, acc, tCcC, alpha, mD, m, row_tile, tok_tile, first_row):
    if alpha > cutlass.Float32(1e30):  # never: the MMAs stay, the stores go
        for i in cutlass.range(cute.size(acc), unroll_full=True):
            row, tok = tCcC[i]
            mD[first_row + tok + tok_tile * self.tile_m, row + row_tile * TILE_N] = (
                acc[i] * alpha).to(self.out_dtype)


def _bf16x2(lo, hi):
    from cutlass.cute.arch.nvvm_wrappers import inline_ptx
    return inline_ptx("cvt.rn.bf16x2.f32 {$w0}, {$r1}, {$r0};", write_only_types=[cutlass.Uint32],
                      read_only_args=[cutlass.Float32(lo), cutlass.Float32(hi)])


@cute.jit
def _paired_store(self, acc, tCcC, alpha, mD, m, row_tile, tok_tile, first_row):
    """acc[i], acc[i + 1] (i even) are (row r, token c) and (r, c + 1); the lane 4 away holds
    rows r ^ 1. Even rows store (r, r + 1) of token c, odd rows (r - 1, r) of token c + 1."""
    row0 = row_tile * TILE_N
    tok0 = tok_tile * self.tile_m
    mD32 = cute.recast_tensor(mD, cutlass.Uint32)
    s = cutlass.Float32(POW2_63) * alpha
    for i in cutlass.range(0, cute.size(acc), 2, unroll_full=True):
        row, tok = tCcC[i]
        row = row + row0
        tok = tok + tok0
        x0 = acc[i] * s
        x1 = acc[i + 1] * s
        odd = row % 2 == 1
        recv = cute.arch.shuffle_sync_bfly(cutlass.select_(odd, x0, x1), offset=4)
        lo = cutlass.select_(odd, recv, x0)
        hi = cutlass.select_(odd, x1, recv)
        t = tok + cutlass.select_(odd, 1, 0)
        r = row - cutlass.select_(odd, 1, 0)
        if r < self.n and t < m:
            mD32[first_row + t, r // 2] = _bf16x2(lo, hi)


VARIANTS = {"skip": _skip_store, "paired": _paired_store}


@jit.cached
def compile_variant(variant: str, *args):
    """``compile_nvfp4_gemm_large_m(*args)`` with ``NVFP4GemmLargeM._store`` replaced."""
    saved = NVFP4GemmLargeM._store
    NVFP4GemmLargeM._store = VARIANTS[variant]
    try:
        return compile_nvfp4_gemm_large_m.uncached(*args)
    finally:
        NVFP4GemmLargeM._store = saved


def launch_variant(variant, a_bf16, b, b_sf, alpha, out, launch):
    """``launch_large_m`` of a whole-tile or stream-K plan (one split) with the variant's store."""
    if variant == "main":
        launch_large_m(a_bf16, b, b_sf, alpha, out, **launch)
        return
    m, n, k = a_bf16.shape[0], b.shape[0], 8 * b.shape[1]
    tile_m = launch["config"][0]
    sms = launch.get("ctas_per_sm", 1) * 132
    tail = compile_tail(True, launch.get("ctas_per_sm", 1), launch.get("k_groups", 1))
    args = (a_bf16, b.view(torch.int32), b_sf.view(torch.int32).view(-1), alpha)
    if launch.get("stream_k"):
        compile_variant(variant, n, k, str(out.dtype), tile_m, 0, sms, 1, True,
                        launch.get("hybrid", False), *tail)(
            *args, out, *stream_k_buffers(m, n, tile_m, sms, out.device))
    else:
        assert launch.get("splits", 1) == 1
        compile_variant(variant, n, k, str(out.dtype), tile_m, 0, sms,
                        *((1, False, False) + tail if tail else ()))(*args, out)


for kind, n, k, m in select_shapes(POINTS):
    launch = planned(kind, n, k, m)
    print(f"{kind} {n}x{k} M={m}: {launch}", flush=True)
    alpha = torch.full((1,), 0.5, device="cuda")
    a, a_sf = reference.nvfp4_quantize(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                                       100.0)
    words = [(prepare_nvfp4_weight(b), s) for b, s in weight_copies(n, k)]
    outs = {}
    for v in ("main", "paired", "skip"):
        outs[v] = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        launch_variant(v, bf16_activations(a, a_sf, True), *words[0], alpha, outs[v], launch)
    same = torch.equal(outs["main"].view(torch.int16), outs["paired"].view(torch.int16))
    skipped = bool(outs["skip"].isnan().all())
    print(f"  paired output {'same bits' if same else 'DIFFERS'}; skip "
          f"{'stored nothing' if skipped else 'STORED'}", flush=True)
    out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    names = ("main", "skip", "paired")
    for _ in range(2):
        times = time_graphs_interleaved_us(
            [[lambda w=w, v=v: launch_variant(v, bf16_activations(a, a_sf, True), w[0], w[1],
                                              alpha, out, launch) for w in words]
             for v in names], 100)
        print(f"{kind} {n}x{k} M={m}: " + " ".join(f"{v}={t:.2f}" for v, t in zip(names, times)),
              flush=True)
