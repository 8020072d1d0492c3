"""NVFP4 GEMM, decode regime (small M): ``D[M, N] = alpha * A @ B^T`` with B = NVFP4 weights
[N, K/2] + swizzled scales, A = NVFP4 activations (or bf16, W4A16), on ``mma.sync`` tensor cores.

At small M the weight stream is everything, so the operands are swapped: 16 weight rows fill
the MMA's M and 8 tokens its N (m16n8k16). Each thread decodes its weights from global memory
straight into A-operand registers; no shared memory on the main path.

The K order inside a dot product is free as long as both operands agree. The kernel uses that
to make every load contiguous: in a 128-element K step, lane ``4g + q`` owns elements
``32q .. 32q + 31`` of rows ``g`` and ``g + 8`` (16 bytes of codes + 2 scale bytes each) and of
token ``g`` (its activations), and assigns them to the MMA's k slots in the fixed order
``device_mma.e2m1x2_raw`` produces. One step is 8 MMAs per 16-row tile and 8-token tile.

Warps of a CTA share the same rows and split K (step ``s`` goes to warp ``s % warps``); their
partial sums meet in shared memory at the end. The grid is (token tiles, row blocks), token
tiles fastest, so CTAs that read the same weights run together and share them through L2.
Rows past N and tokens past M are clamped for loads and skipped for stores; a K tail of 32 or
64 or 96 elements zeroes the lanes past K.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream
from cutlass.memory import SmemAllocator

from layouts import sf_tiled_layout

from . import jit
from .arch import compile_options
from .device_mma import (BF16X2_POW2_126, BF16X2_POW2_63, POW2_63, bf16_pair, bf16x2_splat,
                         e2m1x2_raw, in_register, mma_bf16_m16n8k16, mul_bf16x2)
from .dtypes import torch_to_cutlass

STEP = 128        # K elements per step: 4 lanes x 32
K_ALIGN = 32      # a lane's share of a step: two 16-element scale blocks


class NVFP4GemmSmallM:
    def __init__(self, n: int, k: int, a_fp4: bool, out_dtype: type[cutlass.Numeric],
                 row_tiles: int = 2, token_tiles: int = 1, warps: int = 4, unroll: int = 2):
        assert k % K_ALIGN == 0
        self.n, self.k, self.a_fp4, self.out_dtype = n, k, a_fp4, out_dtype
        self.kb = k // 16
        self.kb_padded = (self.kb + 3) // 4 * 4
        self.rt, self.jt, self.warps, self.unroll = row_tiles, token_tiles, warps, unroll
        self.steps = (k + STEP - 1) // STEP
        self.steps_per_warp = (self.steps + warps - 1) // warps
        self.stages = (self.steps_per_warp + unroll - 1) // unroll
        self.k_tail = k % STEP != 0
        self.acc_per_lane = row_tiles * token_tiles * 4

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mD: cute.Tensor, stream):
        m = mD.shape[0]
        rows_per_cta = 16 * self.rt
        tokens_per_cta = 8 * self.jt
        smem = 0
        if cutlass.const_expr(self.warps > 1):
            smem = self.warps * 32 * self.acc_per_lane * 4 + 128
        self.kernel(mA, mASF, mB, mBSF, mAlpha, mD).launch(
            grid=((m + tokens_per_cta - 1) // tokens_per_cta,
                  (self.n + rows_per_cta - 1) // rows_per_cta, 1),
            block=(32 * self.warps, 1, 1), smem=smem, stream=stream)

    # ---------------------------------------------------------------- loads (raw registers)
    @cute.jit
    def _load_codes_and_scales(self, mQ, sf_layout, mSF, row, step, lane_q, rQ, rS):
        """16 bytes of codes (4 words) and the 2 scales of one row's 32-element lane slice."""
        col = cutlass.min(step * 4 + lane_q, self.k // K_ALIGN - 1)  # lanes past K: any slice
        cute.autovec_copy(cute.local_tile(mQ, (1, 4), (row, col))[0, None], rQ)
        off = cute.crd2idx((row, col * 2), sf_layout)
        cute.autovec_copy(cute.local_tile(mSF, (2,), (off // 2,)), rS)

    @cute.jit
    def _load_bf16(self, mA, row, step, lane_q, rX):
        """32 bf16 activations (16 words) of one token's lane slice."""
        col = cutlass.min(step * 4 + lane_q, self.k // K_ALIGN - 1)
        cute.autovec_copy(cute.local_tile(mA, (1, 16), (row, col))[0, None], rX)

    @cute.jit
    def _load_stage(self, mA, mASF, mB, mBSF, a_sf_layout, b_sf_layout, it, warp, g, lane_q,
                    row0, tok0, m, bq, bs, xq, xs):
        """Every load of ``unroll`` K steps (stage ``it``) into registers, nothing else."""
        for u in cutlass.range_constexpr(self.unroll):
            step = cutlass.min(warp + (it * self.unroll + u) * self.warps, self.steps - 1)
            for t in cutlass.range_constexpr(2 * self.rt):
                row = cutlass.min(row0 + (t // 2) * 16 + (t % 2) * 8 + g, self.n - 1)
                self._load_codes_and_scales(mB, b_sf_layout, mBSF, row, step, lane_q,
                                            bq[u, t, None], bs[u, t, None])
            for j in cutlass.range_constexpr(self.jt):
                tok = cutlass.min(tok0 + j * 8 + g, m - 1)
                if cutlass.const_expr(self.a_fp4):
                    self._load_codes_and_scales(mA, a_sf_layout, mASF, tok, step, lane_q,
                                                xq[u, j, None], xs[u, j, None])
                else:
                    self._load_bf16(mA, tok, step, lane_q, xq[u, j, None])

    # ---------------------------------------------------------------- decode to MMA operands
    @cute.jit
    def _decode_fp4(self, rQ, rS, live, extra_pow2: bool, out):
        """16 bf16x2 pairs ``out[p]`` (p = 4 word + r) of e2m1 * scale * 2^-63, or, with
        ``extra_pow2``, * 2^63 (the activation side's factor). ``live`` is an all-ones or
        all-zero mask: lanes past K contribute exact zeros (codes and scales cleared)."""
        s = (bf16x2_splat(rS[0].to(cutlass.Float32) * cutlass.Float32(POW2_63)) & live,
             bf16x2_splat(rS[1].to(cutlass.Float32) * cutlass.Float32(POW2_63)) & live)
        for w in cutlass.range_constexpr(4):
            word = cutlass.Uint32(rQ[w]) & live
            for r in cutlass.range_constexpr(4):
                raw = e2m1x2_raw(word, r)
                if cutlass.const_expr(extra_pow2):
                    raw = mul_bf16x2(raw, in_register(BF16X2_POW2_126))
                out[4 * w + r] = mul_bf16x2(raw, s[w // 2])

    @cute.jit
    def _pairs_bf16(self, rX, live, out):
        """The same 16 pairs from bf16 activations, times 2^63."""
        for w in cutlass.range_constexpr(4):
            for r in cutlass.range_constexpr(4):
                lo = cutlass.Uint32(rX[4 * w + r // 2])
                hi = cutlass.Uint32(rX[4 * w + r // 2 + 2])
                pair = mul_bf16x2(bf16_pair(lo, hi, r), in_register(BF16X2_POW2_63))
                out[4 * w + r] = pair & live

    # ---------------------------------------------------------------- kernel
    @cute.kernel
    def kernel(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
               mAlpha: cute.Tensor, mD: cute.Tensor):
        tidx, _, _ = cute.arch.thread_idx()
        bx, by, _ = cute.arch.block_idx()
        warp = cute.arch.warp_idx()
        lane = cute.arch.lane_idx()
        g = lane // 4
        lane_q = lane - g * 4
        m = mD.shape[0]
        row0 = by * (16 * self.rt)
        tok0 = bx * (8 * self.jt)
        b_sf_layout = sf_tiled_layout((self.n + 127) // 128 * 128, self.kb_padded)
        a_sf_layout = b_sf_layout
        if cutlass.const_expr(self.a_fp4):
            a_sf_layout = sf_tiled_layout((m + 127) // 128 * 128, self.kb_padded)

        acc = cute.make_rmem_tensor((self.rt, self.jt, 4), cutlass.Float32)
        acc.fill(0.0)
        wp = cute.make_rmem_tensor((2 * self.rt, 16), cutlass.Uint32)  # weight pairs
        xp = cute.make_rmem_tensor((self.jt, 16), cutlass.Uint32)      # activation pairs

        # Register double buffering: stage it + 1 is in flight while stage it is decoded.
        xw = 4 if self.a_fp4 else 16
        def regs(shape, dtype):  # last mode contiguous, so each slice is one vector load
            return cute.make_rmem_tensor(cute.make_ordered_layout(shape, order=(2, 1, 0)), dtype)

        bufs = [(regs((self.unroll, 2 * self.rt, 4), cutlass.Int32),
                 regs((self.unroll, 2 * self.rt, 2), mBSF.element_type),
                 regs((self.unroll, self.jt, xw), cutlass.Int32),
                 regs((self.unroll, self.jt, 2), mBSF.element_type))
                for _ in range(2)]
        cur, nxt = bufs
        loader = (mA, mASF, mB, mBSF, a_sf_layout, b_sf_layout)
        where = (warp, g, lane_q, row0, tok0, m)
        self._load_stage(*loader, 0, *where, *cur)
        for it in cutlass.range(self.stages, unroll=1):
            if it + 1 < self.stages:
                self._load_stage(*loader, it + 1, *where, *nxt)
            for u in cutlass.range_constexpr(self.unroll):
                step = warp + (it * self.unroll + u) * self.warps
                if step < self.steps:
                    live = cutlass.Uint32(0xFFFFFFFF)
                    if cutlass.const_expr(self.k_tail):
                        live = cutlass.Uint32(0) - cutlass.Uint32(step * STEP + lane_q * 32 < self.k)
                    bq, bs, xq, xs = cur
                    for t in cutlass.range_constexpr(2 * self.rt):
                        self._decode_fp4(bq[u, t, None], bs[u, t, None], live, False, wp[t, None])
                    for j in cutlass.range_constexpr(self.jt):
                        if cutlass.const_expr(self.a_fp4):
                            self._decode_fp4(xq[u, j, None], xs[u, j, None], live, True,
                                             xp[j, None])
                        else:
                            self._pairs_bf16(xq[u, j, None], live, xp[j, None])
                    for t in cutlass.range_constexpr(self.rt):
                        for j in cutlass.range_constexpr(self.jt):
                            for kk in cutlass.range_constexpr(8):
                                d = mma_bf16_m16n8k16(
                                    (wp[2 * t, 2 * kk], wp[2 * t + 1, 2 * kk],
                                     wp[2 * t, 2 * kk + 1], wp[2 * t + 1, 2 * kk + 1]),
                                    (xp[j, 2 * kk], xp[j, 2 * kk + 1]),
                                    (acc[t, j, 0], acc[t, j, 1], acc[t, j, 2], acc[t, j, 3]))
                                for e in cutlass.range_constexpr(4):
                                    acc[t, j, e] = d[e]
            for src, dst in zip(nxt, cur):
                dst.store(src.load())

        if cutlass.const_expr(self.warps > 1):
            self._reduce_across_warps(acc, warp, lane)
        if warp == 0:
            alpha = mAlpha[0]
            for t in cutlass.range_constexpr(self.rt):
                for j in cutlass.range_constexpr(self.jt):
                    for e in cutlass.range_constexpr(4):
                        row = row0 + t * 16 + g + (e // 2) * 8
                        tok = tok0 + j * 8 + lane_q * 2 + e % 2
                        if row < self.n and tok < m:
                            mD[tok, row] = (acc[t, j, e] * alpha).to(self.out_dtype)

    @cute.jit
    def _reduce_across_warps(self, acc, warp, lane):
        """Warps 1.. write their partial sums to shared memory; warp 0 adds them."""
        smem = SmemAllocator()
        sAcc = smem.allocate_tensor(
            cutlass.Float32,
            cute.make_layout((self.warps, 32, self.acc_per_lane),
                             stride=(32 * self.acc_per_lane, 1, 32)),
            byte_alignment=16)
        if warp > 0:
            for i in cutlass.range_constexpr(self.acc_per_lane):
                sAcc[warp, lane, i] = acc[i // (4 * self.jt), (i // 4) % self.jt, i % 4]
        cute.arch.sync_threads()
        if warp == 0:
            for w in cutlass.range_constexpr(1, self.warps):
                for i in cutlass.range_constexpr(self.acc_per_lane):
                    t, j, e = i // (4 * self.jt), (i // 4) % self.jt, i % 4
                    acc[t, j, e] = acc[t, j, e] + sAcc[w, lane, i]


@jit.cached
def compile_nvfp4_gemm_small_m(n: int, k: int, a_dtype: str, out_dtype: str,
                               row_tiles: int = 2, token_tiles: int = 1, warps: int = 4,
                               unroll: int = 2):
    """Static N, K and tile config; M dynamic. ``a_dtype`` "fp4" (packed activations with
    swizzled scales) or "torch.bfloat16" (W4A16)."""
    a_fp4 = a_dtype == "fp4"
    cout = torch_to_cutlass(out_dtype)
    m = cute.sym_int()
    words = k // 8 if a_fp4 else k // 2
    a = make_fake_compact_tensor(cutlass.Int32, (m, words), stride_order=(1, 0), assumed_align=16)
    a_sf = make_fake_compact_tensor(cutlass.Float8E4M3FN, (cute.sym_int(),), assumed_align=16)
    b = make_fake_compact_tensor(cutlass.Int32, (n, k // 8), stride_order=(1, 0),
                                 assumed_align=16)
    b_sf = make_fake_compact_tensor(cutlass.Float8E4M3FN, (cute.sym_int(),), assumed_align=16)
    alpha = make_fake_compact_tensor(cutlass.Float32, (1,))
    d = make_fake_compact_tensor(cout, (m, n), stride_order=(1, 0), assumed_align=16)
    kernel = NVFP4GemmSmallM(n, k, a_fp4, cout, row_tiles, token_tiles, warps, unroll)
    return cute.compile(kernel, a, a_sf, b, b_sf, alpha, d,
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())
