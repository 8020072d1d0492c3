"""The small-M kernel's staged activations (``x_tokens`` > 0; the ``nvfp4_gemm_small_m``
docstring): before its main loop the CTA decodes the activations of its first ``x_tokens``
tokens over its own K steps into shared memory, already in MMA-operand order, so the main loop
takes each block's activation pairs with two 16-byte shared loads. A mixin of
``NVFP4GemmSmallM``; the balanced launch (``nvfp4_gemm_balanced``) stages through it too.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass.memory import SmemAllocator

from .device_mma import FP4_OPERAND_POW2, in_register, mul_bf16x2

STAGING_BATCH = 4  # blocks a thread and staging pass, their loads in flight together
X_ZERO_WORDS = 128  # one staged step of zeros, read by the token lanes past the staged tokens
# Lane columns (the ``nvfp4_gemm_small_m`` docstring): the staged fp4 activations are e2m1 *
# scale * 2^64 (at least 2^54, at most 2688 * 2^64), so a raw weight (e2m1 * 2^-126, at least
# 2^-127) times one is at least 2^-73; the sums, times the weights' plain block scales, carry
# 2^(64 - 126), taken off at the end (``LANE_SUM_SCALE``).
LANE_COLUMNS_POW2 = 64
# the staging's bf16x2 factor from its decode's 2^-8 (``FP4_OPERAND_POW2``) to 2^64
BF16X2_LANE_ACTIVATIONS = ((127 + LANE_COLUMNS_POW2 - FP4_OPERAND_POW2) << 7) * 0x10001


class ActivationStaging:
    """The staging methods of ``NVFP4GemmSmallM`` (it sets ``x_tokens``, ``x_token_words``,
    ``split_steps``, ``kb``, ``a_fp4``, ``jt``, ``lean_staged``, ``scale_table``,
    ``lane_columns``, ``PROBE_NO_STAGING``, and gives ``cta_threads``, ``_scale_table``,
    ``_lane_token`` and the block decodes ``_decode_fp4_block`` and ``_pairs_bf16_block``)."""

    def _block_at(self, i, m, tok0, step0):
        """Staging item ``i``: (token in the CTA's tile, block index from the CTA's first step,
        clamped row, clamped absolute block); tokens past M and blocks past K read any row and
        block (``live`` zeroes them)."""
        blocks = self.split_steps * 16
        tok = i // blocks
        kbi = i - tok * blocks
        return (tok, kbi, cutlass.min(tok0 + tok, m - 1),
                cutlass.min(step0 * 16 + kbi, self.kb - 1))

    @cute.jit
    def _stage_activations(self, mA, mASF, a_sf_layout, m, tok0, step0, between=None):
        """Decode the activations of tokens tok0 .. tok0 + x_tokens - 1 (the CTA's token tile)
        of the CTA's K steps into shared memory, laid out
        [token, step, block, lane_q, 8 pairs]: exactly the xp registers the register path
        builds (same decode, same K permutation), zeros past K and for tokens past M. Four
        16-element scale blocks per thread and pass, their loads issued together; the whole CTA,
        then a barrier. ``between``: called once the pass's loads are out, before their decode
        (``_stage_around``; only where ``staging_in_one_pass``)."""
        smem, sX, sXw, table = self._staged_buffers()
        tid = cute.arch.thread_idx()[0]
        blocks = self.split_steps * 16  # per token, the K tail's blocks included
        words = 2 if self.a_fp4 else 8  # one block: 16 codes or 16 bf16
        total = self.x_tokens * blocks
        threads = self.cta_threads()
        batch = STAGING_BATCH
        rQ = cute.make_rmem_tensor(cute.make_ordered_layout((batch, words), order=(1, 0)),
                                   cutlass.Int32)
        rS = cute.make_rmem_tensor((batch, 1), mASF.element_type)
        pairs = cute.make_rmem_tensor((8,), cutlass.Uint32)

        rounds = (total + batch * threads - 1) // (batch * threads)
        if cutlass.const_expr(between is not None):
            if cutlass.const_expr(self.PROBE_NO_STAGING):
                between()
            else:
                self._stage_around(mA, mASF, a_sf_layout, m, tok0, step0, sX, smem, between,
                                   (batch, words, total, threads, tid), (rQ, rS, pairs))
            rounds = 0
        elif cutlass.const_expr(self.PROBE_NO_STAGING):
            rounds = 0
        for o in cutlass.range(rounds, unroll=1):
            for r in cutlass.range_constexpr(batch):
                self._load_staged_block(mA, mASF, a_sf_layout, m, tok0, step0, words,
                                        cutlass.min(tid + (batch * o + r) * threads, total - 1),
                                        rQ[r, None], rS[r, None])
            for r in cutlass.range_constexpr(batch):
                i = tid + (batch * o + r) * threads
                if i < total:
                    tok, step, b, q = self._decode_staged_block(m, tok0, step0, i, rQ[r, None],
                                                                rS[r, None], pairs)
                    cute.autovec_copy(pairs, sX[tok, step, b, q, None])
        cute.arch.sync_threads()
        return sX, sXw, table

    @cute.jit
    def _staged_buffers(self):
        """The staging's shared memory: (allocator, staged view [token, step, block, lane_q,
        8 pairs], its words, the scale table or None), the zero step past the staged words
        (``lean_staged``) filled by the first threads (ordered by the staging's barrier)."""
        smem = SmemAllocator()
        staged = self.x_tokens * self.x_token_words
        zero_words = X_ZERO_WORDS if self.lean_staged else 0
        sXw = smem.allocate_tensor(cutlass.Uint32, cute.make_layout(staged + zero_words),
                                   byte_alignment=16)
        table = None
        if cutlass.const_expr(self.scale_table):
            table = self._scale_table(smem)
        sX = cute.make_tensor(sXw.iterator, cute.make_layout(
            (self.x_tokens, self.split_steps, 4, 4, 8),
            stride=(self.x_token_words, 128, 32, 8, 1)))
        tid = cute.arch.thread_idx()[0]
        if tid < zero_words:
            sXw[staged + tid] = cutlass.Uint32(0)
        return smem, sX, sXw, table

    @cute.jit
    def _load_staged_block(self, mA, mASF, a_sf_layout, m, tok0, step0, words, i, rq, rs):
        """Staging item ``i``'s loads: its block's words into ``rq`` (and its scale into
        ``rs`` for NVFP4 tokens)."""
        _, _, row, kbc = self._block_at(i, m, tok0, step0)
        # this block's words only (a dynamic index into a lane slice would spill)
        cute.autovec_copy(cute.local_tile(mA, (1, words), (row, kbc))[0, None], rq)
        if cutlass.const_expr(self.a_fp4):
            rs[0] = mASF[cute.crd2idx((row, kbc), a_sf_layout)]

    @cute.jit
    def _decode_staged_block(self, m, tok0, step0, i, rq, rs, pairs):
        """Staging item ``i``'s loaded block into ``pairs`` (MMA-operand order; zeros past K
        and M); returns its staged place (token, step, block, lane quad position)."""
        tok, kbi, _, _ = self._block_at(i, m, tok0, step0)
        step, q, b = kbi // 16, (kbi // 4) % 4, kbi % 4
        live = cutlass.Uint32(0) - cutlass.Uint32((step0 * 16 + kbi < self.kb)
                                                  & (tok0 + tok < m))
        if cutlass.const_expr(self.a_fp4):
            self._decode_fp4_block(rq, rs, 0, live, True, pairs)
            if cutlass.const_expr(self.lane_columns):  # 2^-8 -> 2^64, exact
                for p in cutlass.range_constexpr(8):
                    pairs[p] = mul_bf16x2(pairs[p], in_register(BF16X2_LANE_ACTIVATIONS))
        else:
            self._pairs_bf16_block(rq, 0, live, pairs)
        return tok, step, b, q

    @cute.jit
    def _stage_around(self, mA, mASF, a_sf_layout, m, tok0, step0, sX, smem, between, sizes,
                      regs):
        """``_stage_activations``' single pass with ``between`` called once its loads are out.
        No block's loads or decode sit in a branch: a slot past the last block decodes the last
        block again into its warp's scratch words, so that ptxas cannot sink those loads into
        the store's branch, behind ``between``'s (it did: session 90, NVFP4 tokens)."""
        batch, words, total, threads, tid = sizes
        assert total <= batch * threads, "the staging takes one pass (staging_in_one_pass)"
        rQ, rS, pairs = regs
        live_slots = min(batch, -(-total // threads))  # slots some thread has a block in
        own_scratch = self._warp_scratch(smem, tid)
        for r in cutlass.range_constexpr(live_slots):
            self._load_staged_block(mA, mASF, a_sf_layout, m, tok0, step0, words,
                                    cutlass.min(tid + r * threads, total - 1), rQ[r, None],
                                    rS[r, None])
        between()
        for r in cutlass.range_constexpr(live_slots):
            i = tid + r * threads
            tok, step, b, q = self._decode_staged_block(m, tok0, step0, cutlass.min(i, total - 1),
                                                        rQ[r, None], rS[r, None], pairs)
            dst = cutlass.select_(i < total, sX[tok, step, b, q, None].iterator.toint(),
                                  own_scratch)
            self._store_staged(pairs, dst)

    @cute.jit
    def _warp_scratch(self, smem, tid):
        """``staging_scratch_bytes``' words, 8 a warp (a staging slot past the last block stores
        its decode there): the shared address of thread ``tid``'s warp's."""
        scratch = smem.allocate_tensor(cutlass.Uint32, cute.make_layout(self.cta_threads() // 4),
                                       byte_alignment=16)
        return scratch.iterator.toint() + (tid // 32) * 32

    @cute.jit
    def _store_staged(self, pairs, dst):
        """A decoded block's 8 words to the 16-byte aligned shared address ``dst``."""
        cute.autovec_copy(pairs, cute.make_tensor(
            cute.make_ptr(cutlass.Uint32, dst, cute.AddressSpace.smem, assumed_align=16),
            cute.make_layout(8)))

    @cute.jit
    def _staged_views(self, sXw, g, lane_q):
        """Per token tile j, this lane's (shared address of its step-0 slice, bytes per step)
        in the staged activations: token lanes past the staged tokens read the zero step
        instead (stride 0), so the main loop loads without a predicate or a zero fill."""
        base = sXw.iterator.toint()
        views = []
        for j in cutlass.range_constexpr(self.jt):
            tok, live = self._lane_token(j, g, lane_q)
            row = base + (tok * self.x_token_words + lane_q * 8) * 4
            zero = base + (self.x_tokens * self.x_token_words + lane_q * 8) * 4
            views.append((cutlass.select_(live, row, zero),
                          cutlass.select_(live, cutlass.Int32(128 * 4), cutlass.Int32(0))))
        return views
