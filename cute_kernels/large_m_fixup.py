"""The wgmma kernels' stream-K fix-up (``NVFP4GemmLargeM``'s, the fused kernel's too): a mixin
with what a CTA does with a piece of a tile cut over K once its main loop ends. Either
``stream_k``'s fix-up: each cut piece stores its partial sums and counts in on the tile's
counter, and the last to arrive adds them in piece order and runs the epilogue
(``stream_k_fixup``; ``scatter_fixup`` where every CTA takes a share of the tile). Or the
asynchronous one (``ASYNC_FIXUP``): the head piece (k-tile 0) always finishes the tile, from
the other pieces that warp ``FIXUP_WARP`` of the producer warpgroup gathered into shared memory
(``_fixup_warp``), and the other pieces store theirs (``_async_piece``). With ``wg_k_split``
warpgroup 0 (K group 0) holds a piece's sums.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute

from .stream_k import (add_gathered, gather_pieces, release_tail, scatter_fixup, store_late,
                       store_tail, stream_k_fixup, tile_cut, whole_range)


class StreamKFixup:
    """The stream-K fix-up methods of ``NVFP4GemmLargeM`` (it sets ``k_tiles``, ``lanes``,
    ``splits``, ``fixup_threads``, ``fixup_slots``, ``piece_words``, ``async_fixup``,
    ``late_pieces``, ``wg_k_split``, ``pdl``, and gives ``_k_group`` and the walk over the
    pieces: ``_whole_tiles``, ``_stream_range``, ``_stream_piece``)."""

    @cute.jit
    def _piece_fixup(self, acc, ctid, cut, streamk, sFlag, gather):
        """A stream-K piece's fix-up, ``cut`` = (its tile, first unit, first k-tile in the
        tile, k-tiles, whole tiles, stream-K tiles): the asynchronous one where the launch
        has it and the tile's pieces fit, ``stream_k_fixup`` otherwise, nothing for a whole
        tile; returns whether this CTA finishes the tile (``acc`` then holds its sums)."""
        piece, u, kt0, count, whole, sk_tiles = cut
        last = cutlass.Boolean(True)
        gathers = cutlass.Boolean(False)  # the asynchronous fix-up takes the tile
        pieces = cutlass.Int32(0)
        if cutlass.const_expr(self.async_fixup):
            if count != self.k_tiles:
                _, pieces = tile_cut(piece - whole, self.k_tiles, sk_tiles)
                gathers = pieces - 1 <= self.fixup_slots
            if gathers:
                if cutlass.const_expr(self.wg_k_split):
                    last = cutlass.Boolean(False)
                late = None  # ``late_pieces``: (tile, k-tiles, tiles, counters, late base)
                if cutlass.const_expr(self.late_pieces):
                    late = (piece - whole, self.k_tiles, sk_tiles, streamk[1], whole + sk_tiles)
                if self._holds_piece(ctid):
                    last = self._async_piece(acc, ctid, gather, streamk, kt0, pieces, late)
        if not gathers and count != self.k_tiles:
            if self._holds_piece(ctid):
                # (with lanes, the lane's tiles: ``piece`` // lanes of sk_tiles // lanes)
                last = stream_k_fixup(acc, (piece - whole) // self.lanes,
                                      u - whole * self.k_tiles, self.k_tiles,
                                      sk_tiles // self.lanes, ctid, *streamk, sFlag, piece,
                                      threads=self.fixup_threads,
                                      head_check=self.splits == 1, lanes=self.lanes)
        return last

    @cute.jit
    def _scattered_fixup(self, acc, ctid, cut, streamk, sFlag, gather):
        """``scatter``: the CTA's share of its tile (``scatter_fixup``) where the grid is
        exactly tiles x splits CTAs, one piece each; otherwise (more tiles than that at this
        M) ``_piece_fixup``: -1 where it finishes the whole tile, -2 where it does not."""
        share = cutlass.Int32(-2)
        if cute.arch.grid_dim()[0] == cut[5] * self.splits:
            share = scatter_fixup(acc, ctid, self.splits, *streamk)
        else:
            if self._piece_fixup(acc, ctid, cut, streamk, sFlag, gather):
                share = cutlass.Int32(-1)
        return share

    def _holds_piece(self, ctid):
        """Whether consumer thread ``ctid`` holds a stream-K piece's sums, the ``fixup_threads``
        (with ``wg_k_split`` warpgroup 0 holds the piece, else both warpgroups)."""
        if cutlass.const_expr(not self.wg_k_split):
            return cutlass.Boolean(True)
        # K group 0: warp-uniform under ``UNIFORM_K_GROUP``, so the fix-up's spin loops behind
        # it leave the main loop's stage counters in uniform registers
        # (``tools/wgmma_uniform_check.py``)
        return self._k_group(ctid) == 0

    @cute.jit
    def _async_piece(self, acc, ctid, gather, streamk, kt0, pieces, late=None):
        """The asynchronous fix-up of a cut piece (from k-tile ``kt0`` of a tile of ``pieces``)
        by the ``fixup_threads`` holding it; returns whether it finished the tile: the head
        adds the other pieces (``add_gathered``), any other piece is stored (``store_tail``;
        with ``late``, ``_piece_fixup``'s, a whole range's to the late region instead)."""
        last = cutlass.Boolean(kt0 == 0)
        if kt0 == 0:
            add_gathered(acc, pieces, *gather, ctid, threads=self.fixup_threads, late=late)
        else:
            if cutlass.const_expr(late is not None):
                if self._goes_late(late[0], late[2]):
                    store_late(acc, ctid, late[3], late[4], threads=self.fixup_threads)
                else:
                    store_tail(acc, ctid, streamk[0], threads=self.fixup_threads)
            else:
                store_tail(acc, ctid, streamk[0], threads=self.fixup_threads)
        return last

    @cute.jit
    def _goes_late(self, tile, sk_tiles):
        """``late_pieces``: whether this CTA's first piece, in stream-K ``tile`` of
        ``sk_tiles``, is its whole range (the late region's, not the workspace's); the one rule
        of its consumers (``_async_piece``) and its fix-up warp (``_fixup_warp``)."""
        return whole_range(cute.arch.block_idx()[0], tile, self.k_tiles, sk_tiles)

    def _fixup_warp_free(self) -> bool:
        """Whether warp ``FIXUP_WARP`` of the producer warpgroup is idle (``_side_warps``)."""
        return True

    @cute.jit
    def _fixup_warp(self, tok_tiles, streamk, gather):
        """``async_fixup``, warp ``FIXUP_WARP``: the stream-K pieces of this CTA's range that
        the asynchronous fix-up takes, as ``_consume`` walks them: its first piece if a tail
        (``release_tail``), its last if a head (``gather_pieces``, lane 0). Whole tiles and
        tiles of too many pieces need nothing here."""
        if cutlass.const_expr(self.pdl):
            cute.arch.griddepcontrol_wait()  # the counters may still be the last launch's
        whole, sk_tiles = self._whole_tiles(tok_tiles)
        u, end = self._stream_range(whole, sk_tiles)
        piece, kt0, count, _, _ = self._stream_piece(u, end, tok_tiles)
        _, pieces = tile_cut(piece - whole, self.k_tiles, sk_tiles)
        if kt0 != 0 and pieces - 1 <= self.fixup_slots:
            goes_late = cutlass.Boolean(False)  # (a late piece: no store to wait for, no flag)
            if cutlass.const_expr(self.late_pieces):
                goes_late = self._goes_late(piece - whole, sk_tiles)
            if not goes_late:
                release_tail(piece - whole, self.k_tiles, sk_tiles, streamk[1], piece,
                             threads=self.fixup_threads)
        # the last piece: from the last tile's start or the range's, whichever is later
        last_tile = (end - 1) // self.k_tiles
        u = cutlass.max(u, last_tile * self.k_tiles)
        piece, kt0, count, _, _ = self._stream_piece(u, end, tok_tiles)
        _, pieces = tile_cut(piece - whole, self.k_tiles, sk_tiles)
        if kt0 == 0 and count != self.k_tiles and pieces - 1 <= self.fixup_slots:
            if cute.arch.lane_idx() == 0:
                gather_pieces(piece - whole, self.k_tiles, sk_tiles, *streamk, piece,
                              *gather, self.piece_words, self.late_pieces)
