"""Which work a CTA of the wgmma kernels takes (``NVFP4GemmLargeM``'s, the fused kernel's
too): a mixin with the walk over the output tiles that the producer warp and the consumer
warpgroups both follow. Whole tiles go over the persistent grid with a CTA stride, in bands of
``group`` token tiles; in stream-K the (tile, k-tile) units after them are shared out evenly
and cut into pieces at tile ends; with ``pair_pieces`` two CTAs of a cluster take a tile's two
K halves.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute


class TileWalk:
    """The tile walk of ``NVFP4GemmLargeM`` (it sets ``group``, ``row_tiles``, ``k_tiles``,
    ``stream_k``, ``hybrid``, ``lanes``, ``band`` and ``pair_pieces``)."""

    @cute.jit
    def _tile_coords(self, tile, tok_tiles):
        """(row tile, token tile) of linear tile ``tile``: bands of ``group`` token tiles, token
        tile fastest inside a band (the last band may be narrower)."""
        band_size = self.group * self.row_tiles
        band = tile // band_size
        r = tile - band * band_size
        width = cutlass.min(self.group, tok_tiles - band * self.group)
        return r // width, band * self.group + r % width

    @cute.jit
    def _first_piece(self, tok_tiles):
        """(row tile, token tile, first k-tile, k-tiles) of this CTA's first piece (k-tiles 0:
        none), as ``_produce`` walks them."""
        whole, sk_tiles = self._whole_tiles(tok_tiles)
        tile = cute.arch.block_idx()[0]
        row_tile = cutlass.Int32(0)
        tok_tile = cutlass.Int32(0)
        kt0 = cutlass.Int32(0)
        count = cutlass.Int32(0)
        if cutlass.const_expr(self.pair_pieces):
            row_tile, tok_tile, kt0 = self._pair_piece(tile, tok_tiles)
            count = cutlass.Int32(self.k_tiles // 2)
        elif tile < whole:
            row_tile, tok_tile = self._tile_coords(tile, tok_tiles)
            count = cutlass.Int32(self.k_tiles)
        if cutlass.const_expr(self.stream_k):
            if tile >= whole:
                u, end = self._stream_range(whole, sk_tiles)
                if u < end:
                    _, kt0, count, row_tile, tok_tile = self._stream_piece(u, end, tok_tiles)
        return row_tile, tok_tile, kt0, count

    @cute.jit
    def _whole_tiles(self, tok_tiles):
        """(W, S): linear tiles ``0 .. W - 1`` are taken whole, over the persistent grid with a
        CTA stride; the S after them are cut in stream-K. Without stream-K every tile is
        whole; in stream-K none, or with ``hybrid`` all but the last one to
        two waves' worth (CUTLASS's data-parallel + stream-K hybrid)."""
        tiles = tok_tiles * self.row_tiles
        if cutlass.const_expr(not self.stream_k):
            return tiles, 0
        whole = cutlass.Int32(0)
        if cutlass.const_expr(self.hybrid):
            ctas = cute.arch.grid_dim()[0]
            whole = cutlass.max(tiles // ctas - 1, 0) * ctas
        return whole, tiles - whole

    @cute.jit
    def _stream_range(self, first, sk_tiles):
        """Stream-K: this CTA's units ``[c U / P, (c + 1) U / P)`` of the U = sk_tiles x
        k_tiles (tile, k-tile) units from tile ``first`` on, P CTAs (64-bit products: U P
        passes 2^31 at large M)."""
        units = sk_tiles * self.k_tiles
        c = cute.arch.block_idx()[0]
        ctas = cute.arch.grid_dim()[0]
        if cutlass.const_expr(self.lanes > 1):  # (whole tiles: none) one lane's tiles
            units = units // self.lanes
            c = c // self.lanes
            ctas = ctas // self.lanes
        base = first * self.k_tiles
        start = cutlass.Int32(cutlass.Int64(c) * cutlass.Int64(units) // cutlass.Int64(ctas))
        end = cutlass.Int32(cutlass.Int64(c + 1) * cutlass.Int64(units) // cutlass.Int64(ctas))
        return base + start, base + end

    @cute.jit
    def _stream_piece(self, u, end, tok_tiles):
        """(tile, first k-tile, k-tiles, row tile, token tile) of the piece that starts at unit
        ``u``: up to the end of the tile or of the CTA's range. The producer and the consumers
        walk the same pieces."""
        tile = u // self.k_tiles
        kt0 = u - tile * self.k_tiles
        if cutlass.const_expr(self.lanes > 1):
            # (units of the CTA's lane: ``tile`` counts its (token tile, band row) tiles; the
            # tile's counter and number ``tile * lanes + lane``)
            lane = cute.arch.block_idx()[0] % self.lanes
            row_tile, tok_tile = lane, tile
            if cutlass.const_expr(self.band > 1):
                tok_tile = tile // self.band
                row_tile = (tile - tok_tile * self.band) * self.lanes + lane
            tile = tile * self.lanes + lane
        else:
            row_tile, tok_tile = self._tile_coords(tile, tok_tiles)
        return tile, kt0, cutlass.min(self.k_tiles - kt0, end - u), row_tile, tok_tile

    @cute.jit
    def _pair_piece(self, cta, tok_tiles):
        """``pair_pieces``: (row tile, token tile, first k-tile) of CTA ``cta``'s piece: K half
        ``cta % 2`` of linear tile ``cta // 2``. The producer and the consumers take the same."""
        row_tile, tok_tile = self._tile_coords(cta // 2, tok_tiles)
        return row_tile, tok_tile, (cta % 2) * (self.k_tiles // 2)
