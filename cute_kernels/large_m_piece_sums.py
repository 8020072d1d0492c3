"""How the wgmma kernels add a tile's K pieces inside one CTA or cluster (``NVFP4GemmLargeM``'s,
the fused kernel's too): a mixin. With ``wg_k_split`` the two consumer warpgroups multiply the
two K groups of each stage for the same 64-row tile, and warpgroup 0 adds warpgroup 1's sums
through shared memory (``_reduce_warpgroups``); with ``pair_pieces`` the two CTAs of a cluster
take a tile's two K halves and add them through distributed shared memory (``_pair_sum``,
``_pair_share_sum``). Both add in a fixed order: the same bits on every run.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline

# ``wg_k_split``: both consumer warpgroups' named barriers around the shared-memory sum of their
# accumulators (warpgroup 1's partial is in place / warpgroup 0 has read it)
REDUCE_FULL_BARRIER = 8
REDUCE_EMPTY_BARRIER = 9
PAIR_READ_BARRIER = 11  # the consumers: the pair's received sums are read (``recv_in_epilogue``)


class PieceSums:
    """The K piece sums of ``NVFP4GemmLargeM`` (it sets ``wg_k_split``, ``fixup_threads``,
    ``consumers``, ``k_tiles``, ``recv_in_epilogue``, and gives ``_mainloop``,
    ``_tile_decode``, ``_trigger_dependents``, ``_tile_epilogue`` and ``_pair_piece``)."""

    @cute.jit
    def _reduce_warpgroups(self, acc, ctid, sRed):
        """``wg_k_split``: warpgroup 0's ``acc`` (the ``fixup_threads``, K group 0) +=
        warpgroup 1's (K group 1, same fragment layout), through shared memory, element-major
        and thread-minor (no bank conflicts). The second barrier keeps warpgroup 1 from
        overwriting the partial before it is read; then warpgroup 1 goes on to its next tile
        while warpgroup 0 runs the epilogue. Nothing otherwise."""
        if cutlass.const_expr(self.wg_k_split):
            holders = self.fixup_threads
            ltid = ctid % holders
            if ctid >= holders:
                for i in cutlass.range_constexpr(cute.size(acc)):
                    sRed[i * holders + ltid] = acc[i]
            pipeline.NamedBarrier(barrier_id=REDUCE_FULL_BARRIER,
                                  num_threads=128 * self.consumers).arrive_and_wait()
            if ctid < holders:
                for i in cutlass.range_constexpr(cute.size(acc)):
                    acc[i] = acc[i] + sRed[i * holders + ltid]
            pipeline.NamedBarrier(barrier_id=REDUCE_EMPTY_BARRIER,
                                  num_threads=128 * self.consumers).arrive_and_wait()

    @cute.jit
    def _consume_pair(self, cta, tok_tiles, loop, decode, frags, read, release, ctid, sRed,
                      pair, tCcC, sEpi, scalars, outs):
        """``pair_pieces``: CTA ``cta``'s K half of tile ``cta // 2``, the warpgroups' sum, the
        pair's sum (``_pair_sum``) and, in the first CTA, the epilogue."""
        acc = loop[2]
        row_tile, tok_tile, _ = self._pair_piece(cta, tok_tiles)
        self._mainloop(*loop, self._tile_decode(decode, row_tile), frags, read, release,
                       self.k_tiles // 2)
        self._trigger_dependents()
        if cutlass.const_expr(self.wg_k_split):
            self._reduce_warpgroups(acc, ctid, sRed)
            if ctid < 128:
                self._pair_sum(acc, ctid, cta % 2, *pair)
            if cta % 2 == 0:
                self._tile_epilogue(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile)
        else:
            self._pair_share_sum(acc, ctid, cta % 2, *pair)
            self._tile_epilogue(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile,
                                (cta % 2, 2))

    @cute.jit
    def _pair_sum(self, acc, ctid, rank, sRecv, recv_bar):
        """``pair_pieces``, by warpgroup 0 of both CTAs with the piece's sums: the second CTA
        (``rank`` 1) stores its ``acc`` into the first's ``sRecv`` (16 bytes a thread and
        store, element-major, thread-minor: a warp's 512 contiguous bytes), completing on the
        first's ``recv_bar``; the first expects those bytes, waits and adds them (K half 0 +
        K half 1: the same order on every run)."""
        acc32 = cute.recast_tensor(acc, cutlass.Int32)
        quads = cute.size(acc) // 4
        if rank == 1:
            for j in cutlass.range_constexpr(quads):
                at = cute.make_ptr(cutlass.Int32, (sRecv.iterator + (j * 128 + ctid) * 4).toint(),
                                   cute.AddressSpace.smem, assumed_align=16)
                cute.arch.store_async_dsmem(
                    at, (acc32[4 * j], acc32[4 * j + 1], acc32[4 * j + 2], acc32[4 * j + 3]),
                    recv_bar, 0)
        else:
            if ctid == 0:
                cute.arch.mbarrier_arrive_and_expect_tx(recv_bar, 4 * cute.size(acc) * 128)
            cute.arch.mbarrier_wait(recv_bar, 0)
            for i in cutlass.range_constexpr(cute.size(acc)):
                acc[i] = acc[i] + sRecv[((i // 4) * 128 + ctid) * 4 + i % 4]

    @cute.jit
    def _pair_share_sum(self, acc, ctid, rank, sRecv, recv_bar):
        """``pair_pieces`` on 128-row tiles, by the 256 consumers of both CTAs: each stores the
        other CTA's token share of its sums (fragment elements [r E / 2, (r + 1) E / 2) for
        rank r, as ``stream_k.scatter_fixup``'s shares) into that CTA's ``sRecv`` (16 bytes a
        thread and store, element-major, thread-minor), completing on its ``recv_bar``, then
        waits for its own share's other half and adds it: K half 0 + K half 1, the same sum
        as ``stream_k_fixup``'s (the same bits)."""
        acc32 = cute.recast_tensor(acc, cutlass.Int32)
        half = cute.size(acc) // 2
        for other in cutlass.range_constexpr(2):
            if rank != other:
                for j in cutlass.range_constexpr(half // 4):
                    e = other * half + 4 * j
                    at = cute.make_ptr(cutlass.Int32,
                                       (sRecv.iterator + (j * 256 + ctid) * 4).toint(),
                                       cute.AddressSpace.smem, assumed_align=16)
                    cute.arch.store_async_dsmem(
                        at, (acc32[e], acc32[e + 1], acc32[e + 2], acc32[e + 3]), recv_bar,
                        other)
        if ctid == 0:
            cute.arch.mbarrier_arrive_and_expect_tx(recv_bar, 4 * half * 256)
        cute.arch.mbarrier_wait(recv_bar, 0)
        for mine in cutlass.range_constexpr(2):
            if rank == mine:
                for i in cutlass.range_constexpr(half):
                    got = sRecv[((i // 4) * 256 + ctid) * 4 + i % 4]
                    e = mine * half + i
                    acc[e] = acc[e] + got if mine == 0 else got + acc[e]
        if cutlass.const_expr(self.recv_in_epilogue):  # all read before the epilogue writes
            pipeline.NamedBarrier(barrier_id=PAIR_READ_BARRIER, num_threads=256).arrive_and_wait()
