"""The small-M kernel's shared-memory weight ring (``prefetch`` = p >= 2; the
``nvfp4_gemm_small_m`` docstring): ``cp.async`` copies a warp's next p K steps of raw codes and
scales into p slots of its own, laid out [slot, warp, 16-byte chunk, lane] so that a lane's
16-byte reads are free of bank conflicts, and the main loop takes each slot into the same
registers the register path loads. A mixin of ``NVFP4GemmSmallM``; the balanced launch
(``nvfp4_gemm_balanced``) uses it too.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass.cute.nvgpu import cpasync
from cutlass.memory import SmemAllocator

from .small_m_rules import K_ALIGN


def ring_copies(scale_dtype) -> tuple:
    """The cp.async atoms ``_issue_step_ring`` copies with: 16-byte code pieces, 4-byte scale
    words."""
    return (cute.make_copy_atom(cpasync.CopyG2SOp(), cutlass.Int32, num_bits_per_copy=128),
            cute.make_copy_atom(cpasync.CopyG2SOp(), scale_dtype, num_bits_per_copy=32))


class WeightRing:
    """The ring methods of ``NVFP4GemmSmallM`` (it sets ``ring_slots``, ``ring_chunks``,
    ``ring_scales``, ``warps``, ``rt``, ``jt``, ``x_tokens``, ``x_words``, ``a_fp4``, ``k``,
    ``k_tail``, ``n``, ``steps_per_warp``, and gives ``tile_row`` and ``_compute_step``)."""

    def _ring(self, scale_dtype):
        """The shared-memory ring of ``prefetch`` >= 2 (see the module docstring): 16-byte code
        chunks [slot, warp, chunk, lane, 4 words] and scale words [slot, warp, word, lane, 4]."""
        smem = SmemAllocator()
        shape = (self.ring_slots, self.warps, self.ring_chunks, 32, 4)
        chunks = smem.allocate_tensor(cutlass.Int32, cute.make_ordered_layout(
            shape, order=(4, 3, 2, 1, 0)), byte_alignment=128)
        shape = (self.ring_slots, self.warps, self.ring_scales, 32, 4)
        scales = smem.allocate_tensor(scale_dtype, cute.make_ordered_layout(
            shape, order=(4, 3, 2, 1, 0)), byte_alignment=128)
        return chunks, scales

    def _ring_slot(self, ring, slot, warp, lane):
        """One lane's view of a ring slot, shaped like the register buffer ``_load_step``
        fills: (codes [2 rt, 8], scales [2 rt, 4], x codes [jt, x_words], x scales [jt, 4]),
        the activation parts only where the ring holds them (not staged); a lane's
        consecutive chunks are 32 x 4 words apart, its scale words 32 x 4 bytes."""
        chunks, scales = ring
        c = chunks[slot, warp, None, lane, None].iterator
        sc = scales[slot, warp, None, lane, None].iterator
        weights = (cute.make_tensor(c, cute.make_layout((2 * self.rt, (4, 2)),
                                                        stride=(256, (1, 128)))),
                   cute.make_tensor(sc, cute.make_layout((2 * self.rt, 4), stride=(128, 1))))
        if self.x_tokens:
            return weights
        xc = self.x_words // 4
        return weights + (
            cute.make_tensor(c + 4 * self.rt * 128, cute.make_layout(
                (self.jt, (4, xc)), stride=(xc * 128, (1, 128)))),
            cute.make_tensor(sc + 2 * self.rt * 128, cute.make_layout((self.jt, 4),
                                                                      stride=(128, 1))))

    @cute.jit
    def _issue_step_ring(self, loader, step, where, ring, slot, warp, lane, copies):
        """``cp.async`` of one K step into ring slot ``slot``. Codes go by quad: copy ``h`` of
        lane q moves 16-byte piece 4h + q of the quad's row segment (whole 32-byte sectors per
        instruction; a lane's own two pieces would be half sectors, fetched twice from L2) to
        the chunk of the lane that decodes it. Scales: each lane its own 4 bytes."""
        mA, mASF, mB, mBSF, a_sf_layout, b_sf_layout = loader
        g, lane_q, block, tok0, m = where
        wide, narrow = copies
        chunks, scales = ring
        c = chunks[slot, warp, None, None, None]  # [chunk, lane, 4 words]
        sc = scales[slot, warp, None, lane, None]  # [scale word, 4 bytes], this lane's
        last_col = self.k // K_ALIGN - 1

        def pieces(mQ, row, first_chunk, per_lane):  # per_lane 16-byte pieces per lane slice
            for h in cutlass.range_constexpr(per_lane):
                owner = (4 * h + lane_q) // per_lane
                piece = (4 * h + lane_q) % per_lane
                col = step * 4 + owner
                if cutlass.const_expr(self.k_tail):
                    col = cutlass.min(col, last_col)  # lanes past K: any slice
                src = cute.local_tile(mQ, (1, 4), (row, col * per_lane + piece))[0, None]
                dst = c[first_chunk + piece, 4 * g + owner, None]
                cute.copy(wide, cute.zipped_divide(src, (4,)), cute.zipped_divide(dst, (4,)))

        def scale_word(sf_layout, mSF, row, word):
            col = step * 4 + lane_q
            if cutlass.const_expr(self.k_tail):
                col = cutlass.min(col, last_col)
            off = cute.crd2idx((row, col * 4), sf_layout)  # 4 scales, contiguous and aligned
            cute.copy(narrow, cute.zipped_divide(cute.local_tile(mSF, (4,), (off // 4,)), (4,)),
                      cute.zipped_divide(sc[word, None], (4,)))

        for t in cutlass.range_constexpr(2 * self.rt):
            row = cutlass.min(self.tile_row(block, t // 2) + (t % 2) * 8 + g, self.n - 1)
            pieces(mB, row, 2 * t, 2)
            scale_word(b_sf_layout, mBSF, row, t)
        for j in cutlass.range_constexpr(0 if self.x_tokens else self.jt):
            tok = cutlass.min(tok0 + j * 8 + g, m - 1)
            pieces(mA, tok, 4 * self.rt + j * (self.x_words // 4), self.x_words // 4)
            if cutlass.const_expr(self.a_fp4):
                scale_word(a_sf_layout, mASF, tok, 2 * self.rt + j)
    @cute.jit
    def _ring_prologue(self, loader, where, span, warp, lane):
        """The ring (``prefetch`` >= 2) and the copies of the warp's first p steps (steps past
        the last: clamped, unused); returns (ring, copy atoms) for ``_ring_loop``."""
        ring = self._ring(loader[3].element_type)
        copies = ring_copies(loader[3].element_type)
        for p in cutlass.range_constexpr(self.ring_slots):
            self._issue_step_ring(loader, span[0] + warp + p * self.warps, where, ring, p, warp,
                                  lane, copies)
            cute.arch.cp_async_commit_group()
        return ring, copies

    @cute.jit
    def _ring_loop(self, loader, where, span, ring_and_copies, buf, warp, lane, lane_q, acc, wp,
                   xp, sX, g):
        """The main loop with ``prefetch`` = p >= 2: p steps in flight through a ring of p
        slots per warp. Each iteration commits one copy group (empty past the last step), so
        ``wait_group(p - 1)`` means "this iteration's step has landed" for this lane's copies;
        a warp barrier then shows every lane the pieces the others copied, and a second one,
        after the slot is read into registers, frees it for the refill."""
        ring, copies = ring_and_copies
        step0, end = span
        slots = self.ring_slots
        for i in cutlass.range(self.steps_per_warp, unroll=1):
            step = step0 + warp + i * self.warps
            slot = i % slots
            self._ring_take(ring, slot, warp, lane, buf)
            if step + slots * self.warps < end:
                self._issue_step_ring(loader, step + slots * self.warps, where, ring, slot,
                                      warp, lane, copies)
            cute.arch.cp_async_commit_group()
            if step < end:
                self._compute_step(buf, step, lane_q, acc, wp, xp, sX, g, step - step0)

    @cute.jit
    def _ring_take(self, ring, slot, warp, lane, buf):
        """Ring slot ``slot`` into the registers ``buf`` once it has landed: this lane's copies
        (the oldest of ``ring_slots`` commit groups), then the warp's (a barrier); a second
        barrier after the read frees the slot for its refill."""
        cute.arch.cp_async_wait_group(self.ring_slots - 1)
        cute.arch.sync_warp()
        # zip stops at the weights when the activations are staged
        for src, dst in zip(self._ring_slot(ring, slot, warp, lane), buf):
            cute.autovec_copy(src, dst)
        cute.arch.sync_warp()
