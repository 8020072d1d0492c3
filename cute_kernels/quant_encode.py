"""The quantizer's block encoding (``NVFP4Quant``'s): a mixin with how a lane's loaded elements
become e4m3 block scales and packed e2m1 codes. 16-bit inputs (``cmp``): packed |max| and
``device_fp4.encode8``'s comparisons against the scale byte's eight thresholds, from a per-CTA
table; fp32 inputs (the fused op's split route) and ``encode="fma"``: the product with the
reciprocal of the scale, from a per-CTA table, and ``e2m1_encode_total``. Both give the
reference's bits.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass.memory import SmemAllocator

from .device_fp4 import RECIPROCAL_TABLE_SIZE as TABLE_SIZE
from .device_fp4 import (THRESHOLD_ENTRIES, THRESHOLD_WORDS, DeviceOps, abs_max_pair, div6,
                         e2m1_encode_total, encode8, fill_reciprocal_table,
                         fill_threshold_table)
from .device_silu import silu_mul_fast
from .reference import FP4_BLOCK

BLOCK = FP4_BLOCK  # elements per scale factor
VEC = 8  # bf16/fp16 elements per 16-byte load: half a block
BLOCKS_PER_STEP = 16  # one 16-byte load per lane covers 32 x 8 elements = 16 blocks


class BlockEncode:
    """The block encoding of ``NVFP4Quant`` (it sets ``dtype``, ``silu``, ``vecs``,
    ``warps``, ``cmp``, and gives ``_widen``, ``_tile``, ``_in_row`` and
    ``_block_scale_store``)."""

    @cute.jit
    def _reciprocal_table(self, g: cutlass.Float32, tidx):
        """The per-CTA ``device_fp4.fill_reciprocal_table`` of ``G``: a block's out_scale is
        then one lookup of its scale byte instead of two IEEE divisions (~20 instructions)."""
        table = SmemAllocator().allocate_tensor(cutlass.Float32, cute.make_layout(TABLE_SIZE),
                                                byte_alignment=16)
        fill_reciprocal_table(table, g, tidx, 32 * self.warps)
        cute.arch.sync_threads()
        return table

    @cute.jit
    def _threshold_table(self, g: cutlass.Float32, tidx):
        """The per-CTA ``device_fp4.fill_threshold_table`` of ``G``: [128, 8] Uint32, a row per
        scale byte (sign bit dropped), read with two 16-byte loads."""
        table = SmemAllocator().allocate_tensor(
            cutlass.Uint32, cute.make_ordered_layout((THRESHOLD_ENTRIES, THRESHOLD_WORDS),
                                                     order=(1, 0)), byte_alignment=16)
        fill_threshold_table(table, g, tidx, 32 * self.warps, self.dtype is cutlass.BFloat16)
        cute.arch.sync_threads()
        return table

    @cute.jit
    def _quantize(self, mQ: cute.Tensor, sSF: cute.Tensor, g: cutlass.Float32,
                  table: cute.Tensor, ex, row, kb0, half, regs):
        if cutlass.const_expr(self.cmp):
            self._quantize_cmp(mQ, sSF, g, table, ex, row, kb0, half, regs)
        else:
            self._quantize_fma(mQ, sSF, g, table, ex, row, kb0, half, regs)

    @cute.jit
    def _quantize_cmp(self, mQ: cute.Tensor, sSF: cute.Tensor, g: cutlass.Float32,
                      table: cute.Tensor, ex, row, kb0, half, regs):
        """16-bit inputs: packed |max| (two elements per instruction), the block scales split
        over the lane pair, then ``device_fp4.encode8`` against the scale byte's thresholds."""
        is_bf16 = self.dtype is cutlass.BFloat16
        ops = DeviceOps(is_bf16)
        # 1. The elements as 16-bit pairs (SiLU*mul: h in fp32, rounded to the dtype).
        words = []
        for i in cutlass.range_constexpr(self.vecs):
            if cutlass.const_expr(self.silu):
                rX = cute.make_rmem_tensor((VEC,), cutlass.Float32)
                rU = cute.make_rmem_tensor((VEC,), cutlass.Float32)
                self._widen(regs[0][i, None], rX)
                self._widen(regs[1][i, None], rU)
                for j in cutlass.range_constexpr(VEC):
                    rX[j] = silu_mul_fast(rX[j], rU[j])
                rHd = cute.make_rmem_tensor((VEC,), self.dtype)
                rHd.store(rX.load().to(self.dtype))
                rW = cute.recast_tensor(rHd, cutlass.Uint32)
            else:
                rW = cute.recast_tensor(regs[0][i, None], cutlass.Uint32)
            words.append([rW[k] for k in range(VEC // 2)])
        # 2. Block maxima: 3 packed max per load, then per pair of loads one PRMT pair, one
        #    max, one shuffle and one max: both lanes hold (amax 2j, amax 2j + 1).
        m = [ops.hmax(ops.hmax(w[0], w[1]), ops.hmax(w[2], w[3])) for w in words]
        npairs = self.vecs // 2
        am = []
        for j in cutlass.range_constexpr(npairs):
            p = abs_max_pair(m[2 * j], m[2 * j + 1], ops)
            am.append(ops.hmax(p, cute.arch.shuffle_sync_bfly(p, offset=1)))
        # 3. Scale bytes. With 2+ pairs, lane `half` converts pairs 2t + half and the lane pair
        #    swaps them (one shuffle per 4 blocks); with one pair both lanes convert it.
        split = npairs >= 2
        mine = []
        for t in cutlass.range_constexpr(npairs // 2 if split else 1):
            a2 = am[0]
            if cutlass.const_expr(split):
                a2 = cutlass.Uint32(cutlass.select_(half == 1, am[2 * t + 1], am[2 * t]))
            a2 = a2 & cutlass.Uint32(0x7FFF7FFF)
            rA = cute.make_rmem_tensor((2,), cutlass.Float32)
            if cutlass.const_expr(is_bf16):
                rA[0] = (a2 << cutlass.Uint32(16)).bitcast(cutlass.Float32)
                rA[1] = (a2 & cutlass.Uint32(0xFFFF0000)).bitcast(cutlass.Float32)
            else:
                rH16 = cute.make_rmem_tensor((2,), cutlass.Float16)
                cute.recast_tensor(rH16, cutlass.Uint32)[0] = a2
                rA.store(rH16.load().to(cutlass.Float32))
            rPre = cute.make_rmem_tensor((2,), cutlass.Float32)
            for e in cutlass.range_constexpr(2):
                rPre[e] = g * div6(rA[e])
            rSF = cute.make_rmem_tensor((2,), cutlass.Float8E4M3FN)
            rSF.store(rPre.load().to(cutlass.Float8E4M3FN))  # cvt.rn.satfinite: NaN -> 0x7F
            mine.append(cutlass.Uint32(cute.recast_tensor(rSF, cutlass.Uint16)[0]))
        sel = cutlass.Uint32(cutlass.select_(half == 1, cutlass.Uint32(0x1054),
                                             cutlass.Uint32(0x5410)))
        bytes4 = []  # scale bytes of blocks 4t .. 4t + 3 (or 0, 1)
        for t in cutlass.range_constexpr(len(mine)):
            if cutlass.const_expr(split):
                other = cute.arch.shuffle_sync_bfly(mine[t], offset=1)
                bytes4.append(ops.prmt_dyn(mine[t], other, sel))
            else:
                bytes4.append(mine[t])
            # this lane's scale bytes: blocks 4t + 2 half + e (split) or block `half`
            for e in cutlass.range_constexpr(2 if split else 1):
                if cutlass.const_expr(split):
                    bi = 4 * t + 2 * half + e
                    byte = cutlass.Uint8((mine[t] >> cutlass.Uint32(8 * e)) & cutlass.Uint32(0xFF))
                else:
                    bi = half
                    byte = cutlass.Uint8((mine[t] >> (cutlass.Uint32(8) * cutlass.Uint32(half)))
                                         & cutlass.Uint32(0xFF))
                self._block_scale_store(sSF, row, kb0 + BLOCKS_PER_STEP * bi, ex, byte)
        # 4. Codes: each load against its block's thresholds (row = scale byte & 0x7F).
        for i in cutlass.range_constexpr(self.vecs):
            kb = kb0 + BLOCKS_PER_STEP * i
            if self._in_row(kb):
                idx = (bytes4[i // 4] >> cutlass.Uint32(8 * (i % 4))) & cutlass.Uint32(0x7F)
                rT = cute.make_rmem_tensor((THRESHOLD_WORDS,), cutlass.Uint32)
                cute.autovec_copy(table[cutlass.Int32(idx), None], rT)
                word = encode8(words[i], [rT[k] for k in range(THRESHOLD_WORDS)], ops)
                gQ = cute.recast_tensor(self._tile(mQ, ex, row, kb * 2 + half, VEC // 2),
                                        cutlass.Uint32)
                gQ[0] = word

    @cute.jit
    def _quantize_fma(self, mQ: cute.Tensor, sSF: cute.Tensor, g: cutlass.Float32,
                      table: cute.Tensor, ex, row, kb0, half, regs):
        # 1. (SiLU*mul: h,) block maxima of the loaded registers.
        rH = cute.make_rmem_tensor((self.vecs, VEC), cutlass.Float32)
        amax = cute.make_rmem_tensor((self.vecs,), cutlass.Float32)
        for i in cutlass.range_constexpr(self.vecs):
            rX = cute.make_rmem_tensor((VEC,), cutlass.Float32)
            self._widen(regs[0][i, None], rX)
            if cutlass.const_expr(self.silu):
                rU = cute.make_rmem_tensor((VEC,), cutlass.Float32)
                self._widen(regs[1][i, None], rU)
                rHd = cute.make_rmem_tensor((VEC,), self.dtype)
                for j in cutlass.range_constexpr(VEC):
                    rX[j] = silu_mul_fast(rX[j], rU[j])
                rHd.store(rX.load().to(self.dtype))
                self._widen(rHd, rX)
            a = cute.math.abs(rX[0])
            rH[i, 0] = rX[0]
            for j in cutlass.range_constexpr(1, VEC):
                a = cute.arch.fmax(a, cute.math.abs(rX[j]), nan=True)
                rH[i, j] = rX[j]
            amax[i] = cute.arch.fmax(a, cute.arch.shuffle_sync_bfly(a, offset=1), nan=True)

        # 2. Scales. Lane `half` of the pair converts blocks 2j + half, looks their out_scale
        #    up in the table and hands it to the other lane.
        nj = self.vecs // 2
        rPre = cute.make_rmem_tensor((nj,), cutlass.Float32)
        for j in cutlass.range_constexpr(nj):
            a = cutlass.Float32(cutlass.select_(half == 1, amax[2 * j + 1], amax[2 * j]))
            rPre[j] = g * div6(a)
        rSF = cute.make_rmem_tensor((nj,), cutlass.Float8E4M3FN)
        rSF.store(rPre.load().to(cutlass.Float8E4M3FN))  # cvt.rn.satfinite: NaN -> 0x7F
        sf_b = rSF.load().bitcast(cutlass.Uint8)
        scale = cute.make_rmem_tensor((self.vecs,), cutlass.Float32)
        for j in cutlass.range_constexpr(nj):
            byte = sf_b[j]
            s = table[cutlass.Int32(byte)]
            other = cute.arch.shuffle_sync_bfly(s, offset=1)
            scale[2 * j] = cutlass.Float32(cutlass.select_(half == 1, other, s))
            scale[2 * j + 1] = cutlass.Float32(cutlass.select_(half == 1, s, other))
            self._block_scale_store(sSF, row, kb0 + BLOCKS_PER_STEP * (2 * j + half), ex, byte)

        # 3. Codes: element 2t in the low nibble of byte t; one 4-byte store per load. No
        #    branch on the scale: e2m1_encode_total is exact for every product, including the
        #    NaN of 0 * inf when a scale is 0, NaN or inf.
        for i in cutlass.range_constexpr(self.vecs):
            kb = kb0 + BLOCKS_PER_STEP * i
            if self._in_row(kb):
                word = cutlass.Uint32(0)
                for j in cutlass.range_constexpr(VEC):
                    word = word + (e2m1_encode_total(rH[i, j] * scale[i]) << (4 * j))
                gQ = cute.recast_tensor(self._tile(mQ, ex, row, kb * 2 + half, VEC // 2),
                                        cutlass.Uint32)
                gQ[0] = word
