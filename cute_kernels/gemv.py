"""Decode GEMV (M = 1): ``y = x @ W^T (+ bias)`` for bf16/fp16, and ``y = (W @ x) * alpha`` for
e4m3 x and W (alpha an fp32 device scalar); fp32 accumulation.

At M = 1 a linear layer streams its weight once, so the kernel is a pure bandwidth problem:
each warp owns ``rows`` consecutive rows and walks K in 16-byte vectors (32 lanes x 8 bf16 or
16 fp8 elements = 256 or 512 elements a step), issuing ``rows * unroll`` independent 16-byte weight loads before the
first FMA so enough bytes are in flight to cover DRAM latency. x is re-read per warp from
L1/L2 (it is at most tens of KB). A butterfly shuffle reduces each row; lane 0 stores it.
Rows past N are clamped for the loads and skipped for the store, so any N works; K must be a
multiple of the step (checked by the caller).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream
from cutlass.memory import SmemAllocator

from . import jit
from .arch import compile_options
from .dtypes import torch_to_cutlass

VECTOR_BYTES = 16


def step_elements(itemsize: int) -> int:
    """K elements a warp covers per step: 32 lanes x one 16-byte vector each."""
    return 32 * VECTOR_BYTES // itemsize


STEP = step_elements(2)  # bf16/fp16


class Gemv:
    def __init__(self, n: int, k: int, dtype: type[cutlass.Numeric],
                 out_dtype: type[cutlass.Numeric], has_bias: bool, has_alpha: bool,
                 rows: int = 2, warps: int = 4, unroll: int = 4,
                 x_dtype: type[cutlass.Numeric] | None = None):
        self.vec = VECTOR_BYTES * 8 // dtype.width
        assert k % (32 * self.vec) == 0
        self.n, self.k, self.dtype, self.out_dtype = n, k, dtype, out_dtype
        self.has_bias, self.has_alpha = has_bias, has_alpha
        # x in a wider dtype than W (bf16 x, e4m3 W): quantize x in registers, x_q = e4m3(x / s).
        self.x_dtype = x_dtype or dtype
        self.quantize_x = self.x_dtype is not dtype
        self.rows, self.warps, self.unroll = rows, warps, unroll
        self.steps = k // (32 * self.vec)

    @cute.jit
    def __call__(self, mX: cute.Tensor, mW: cute.Tensor, mBias: cute.Tensor,
                 mAlpha: cute.Tensor, mXScale: cute.Tensor, mY: cute.Tensor, stream):
        rows_per_cta = self.rows * self.warps
        self.kernel(mX, mW, mBias, mAlpha, mXScale, mY).launch(
            grid=((self.n + rows_per_cta - 1) // rows_per_cta, 1, 1),
            block=(32 * self.warps, 1, 1),
            smem=self.k + 128 if self.quantize_x else 0,
            stream=stream,
        )

    @cute.jit
    def _quantize_x_to_smem(self, mX, x_scale):
        """x_q = e4m3(x / s) once per CTA into shared memory (K bytes), so the division is paid
        N / (rows * warps) times per element rather than N / rows (once per warp)."""
        smem = SmemAllocator()
        sX = smem.allocate_tensor(self.dtype, cute.make_layout((1, self.k), stride=(self.k, 1)),
                                  byte_alignment=16)
        tidx, _, _ = cute.arch.thread_idx()
        for c in cutlass.range(tidx, self.k // self.vec, 32 * self.warps):
            rIn = cute.make_rmem_tensor((1, self.vec), self.x_dtype)
            cute.autovec_copy(cute.local_tile(mX, (1, self.vec), (0, c)), rIn)
            rQ = cute.make_rmem_tensor((1, self.vec), self.dtype)
            # The e4m3 conversion saturates (satfinite), matching reference.fp8_quantize.
            rQ.store((rIn.load().to(cutlass.Float32) / x_scale).to(self.dtype))
            cute.autovec_copy(rQ, cute.local_tile(sX, (1, self.vec), (0, c)))
        cute.arch.sync_threads()
        return sX

    @cute.jit
    def _dot_step(self, mX, mW, first_row, step, acc):
        """acc[r] += x[step] . W[first_row + r, step] for this lane's vector, all loads first."""
        lane = cute.arch.lane_idx()
        kc = step * 32 + lane
        rX = cute.make_rmem_tensor((1, self.vec), self.dtype)
        cute.autovec_copy(cute.local_tile(mX, (1, self.vec), (0, kc)), rX)
        rW = [cute.make_rmem_tensor((1, self.vec), self.dtype) for _ in range(self.rows)]
        for r in cutlass.range_constexpr(self.rows):
            row = cutlass.min(first_row + r, self.n - 1)
            cute.autovec_copy(cute.local_tile(mW, (1, self.vec), (row, kc)), rW[r])
        xf = rX.load().to(cutlass.Float32)
        for r in cutlass.range_constexpr(self.rows):
            wf = rW[r].load().to(cutlass.Float32)
            s = acc[r]
            for j in cutlass.range_constexpr(self.vec):
                s = s + xf[0, j] * wf[0, j]
            acc[r] = s

    @cute.kernel
    def kernel(self, mX: cute.Tensor, mW: cute.Tensor, mBias: cute.Tensor, mAlpha: cute.Tensor,
               mXScale: cute.Tensor, mY: cute.Tensor):
        bidx, _, _ = cute.arch.block_idx()
        warp = cute.arch.warp_idx()
        lane = cute.arch.lane_idx()
        first_row = (bidx * self.warps + warp) * self.rows
        x_scale = mXScale[0]
        sX = mX
        if cutlass.const_expr(self.quantize_x):
            sX = self._quantize_x_to_smem(mX, x_scale)
        acc = cute.make_rmem_tensor((self.rows,), cutlass.Float32)
        acc.fill(0.0)
        full = self.steps // self.unroll
        for outer in cutlass.range(full, unroll=1):
            for u in cutlass.range_constexpr(self.unroll):
                self._dot_step(sX, mW, first_row, outer * self.unroll + u, acc)
        for u in cutlass.range_constexpr(self.steps - full * self.unroll):
            self._dot_step(sX, mW, first_row, full * self.unroll + u, acc)
        for r in cutlass.range_constexpr(self.rows):
            total = cute.arch.warp_reduction(acc[r], lambda a, b: a + b)
            row = first_row + r
            if lane == 0 and row < self.n:
                if cutlass.const_expr(self.has_alpha):
                    alpha = mAlpha[0]
                    if cutlass.const_expr(self.quantize_x):
                        alpha = x_scale * alpha  # input_scale * weight_scale
                    total = total * alpha
                if cutlass.const_expr(self.has_bias):
                    total = total + mBias[row].to(cutlass.Float32)
                mY[0, row] = total.to(self.out_dtype)


@jit.cached
def compile_gemv(n: int, k: int, dtype: str, has_bias: bool, rows: int = 2, warps: int = 4,
                 unroll: int = 4, out_dtype: str | None = None, has_alpha: bool = False,
                 x_dtype: str | None = None):
    """Static N, K, dtypes; M is 1. ``dtype`` is W's (and x's unless ``x_dtype`` is given, which
    fuses x's e4m3 quantization); the output defaults to ``dtype``."""
    cdtype = torch_to_cutlass(dtype)
    cout = torch_to_cutlass(out_dtype or dtype)
    cx = torch_to_cutlass(x_dtype or dtype)
    x = make_fake_compact_tensor(cx, (1, k), stride_order=(1, 0), assumed_align=16)
    w = make_fake_compact_tensor(cdtype, (n, k), stride_order=(1, 0), assumed_align=16)
    bias = make_fake_compact_tensor(cout, (n,))
    alpha = make_fake_compact_tensor(cutlass.Float32, (1,))
    x_scale = make_fake_compact_tensor(cutlass.Float32, (1,))
    y = make_fake_compact_tensor(cout, (1, n), stride_order=(1, 0))
    kernel = Gemv(n, k, cdtype, cout, has_bias, has_alpha, rows, warps, unroll,
                  None if x_dtype is None else cx)
    return cute.compile(kernel, x, w, bias, alpha, x_scale, y,
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())
