"""The wgmma kernels' producer warp (``NVFP4GemmLargeM``'s, the fused kernel's too): a mixin
with the TMA loads that fill the pipeline's stages, per k-tile the activation tile, the packed
(or bf16) weight boxes and their scale chunk on one barrier, over the pieces that
``large_m_schedule.TileWalk`` hands the CTA; and under PDL what it does before the wait for
the previous launch: the first piece's weights prefetched into L2, or loaded into their
stages (``weights_first``).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline


class TileProducer:
    """The producer of ``NVFP4GemmLargeM`` (it sets ``stages``, ``stage_k``, ``groups``,
    ``tile_m``, ``tile_n``, ``k_tiles``, ``pdl``, ``pdl_trigger``, ``ctas_per_sm``,
    ``bf16_weights``, ``stream_k``, ``pair_pieces``, ``STUB_SKIP``, and gives ``_w_box_k``
    and the tile walk)."""

    # PDL: how much of its first piece's weights (K elements, whole k-tiles, at least one) a
    # CTA prefetches into L2 before it waits for the activation pass; None, and 64-token tiles
    # of one K group a stage: as many k-tiles as the pipeline has stages (5..8, the rule
    # before session 40). More is not better: the prefetches go through the TMA unit ahead of
    # the first loads after the wait. H200 2026-12-02 (``tools/prefetch_depth_probe.py``,
    # graph us, stages / 256 / 384 K): nvfp4_gemm 7168x18432 M = 16 30.30 / 29.43 / 29.44, M = 32
    # 32.80 / 31.98 / 32.16, 9216x7168 M = 16 19.41 / 18.90 / 19.07, 5120x17408 M = 16 23.71 /
    # 22.77 / 22.90, 4096x7168 M = 16 9.49 / 9.19 / 9.18, 7168x2048 M = 32 7.06 / 6.64 / 6.75,
    # M = 64 7.60 / 7.20 / 7.33, M = 256 14.24 / 13.91 / 14.01, 9216x7168 M = 256 51.94 / 50.92
    # / 51.56; the fused op 36864x7168 M = 16 50.23 / 48.97 / 49.43, 1024x7168 M = 1024 32.93 /
    # 32.39 / 32.80; 0.4 faster to 0.1 slower at the other 14 points (M = 16..1024), except
    # 64-token stream-K tiles of one K group: 9216x7168 M = 64 24.61 / 25.51 / 24.74 (7168x18432
    # even, 36864x7168 69.44 / 69.12 / 69.32). 12 / 24 / 48 k-tiles lost 1-6 us everywhere.
    PREFETCH_K = 256
    # PDL: k-tiles of its first piece whose weights and scales a CTA loads into their stages
    # before the wait, not into L2 (after the wait only the activations' bytes of those stages
    # are left to arrive; at most the stages): None, ``weights_before_wait``'s rule; a number,
    # that many (0: none; the probe's forms).
    WEIGHTS_BEFORE_WAIT = None
    # The rule's k-tiles on stream-K launches that trigger at two CTAs an SM (more tiles than
    # CTAs: the plain GEMM's 16- and 32-token tiles on the largest weights, ``pdl_trigger_plan``).
    # H200 2026-12-02, session 41, ``tools/prefetch_depth_probe.py``, graph us, L2 prefetch / 2
    # / 4 / 8 k-tiles into the stages: 36864x7168 M = 16 48.16 / 47.20 / 46.93 / 47.17,
    # 34816x5120 M = 32 39.80 / 38.83 / 38.66 / 38.89. Elsewhere the stages lost 0.1-2.4 us
    # (9216x7168 M = 16 18.87 / 20.03 / 20.05 / 20.09; the fused op 36864x7168 M = 64 68.46 /
    # 70.86 / 71.44 / 71.45) or gained under 0.8 us (4096x7168 M = 1024 74.87 / 74.14; whole
    # 256-token tiles, untriggered).
    TRIGGER_PAIR_WEIGHTS_BEFORE_WAIT = 4

    @cute.jit
    def _produce(self, mainloop, tok_tiles, tma_act, tAs, tAg, tma_w, tWs, tWg, tma_sf, tSs,
                 tSg):
        state = pipeline.make_pipeline_state(pipeline.PipelineUserType.Producer, self.stages)
        loads = (mainloop, tma_act, tAs, tAg, tma_w, tWs, tWg, tma_sf, tSs, tSg)
        whole, sk_tiles = self._whole_tiles(tok_tiles)
        tile = cute.arch.block_idx()[0]
        if cutlass.const_expr(self.weights_first()):
            # the first piece, its first weights loaded before the PDL wait; the loops below
            # take the pieces after it
            state, tile, first_units = self._produce_first_piece(loads, state, tok_tiles,
                                                                 whole, tile)
            if cutlass.const_expr(self.pair_pieces):
                whole = cutlass.Int32(0)
        elif cutlass.const_expr(self.pair_pieces):
            pair_row, pair_tok, pair_kt0 = self._pair_piece(tile, tok_tiles)
            state = self._produce_piece(*loads, state, pair_row, pair_tok, pair_kt0,
                                        self.k_tiles // 2)
            whole = cutlass.Int32(0)  # (no persistent loop)
        while tile < whole:
            row_tile, tok_tile = self._tile_coords(tile, tok_tiles)
            state = self._produce_piece(*loads, state, row_tile, tok_tile, 0, self.k_tiles)
            tile += cute.arch.grid_dim()[0]
        if cutlass.const_expr(self.stream_k):
            u, end = self._stream_range(whole, sk_tiles)
            if cutlass.const_expr(self.weights_first()):
                u += first_units
            while u < end:
                _, kt0, count, row_tile, tok_tile = self._stream_piece(u, end, tok_tiles)
                state = self._produce_piece(*loads, state, row_tile, tok_tile, kt0, count)
                u += count
        mainloop.producer_tail(state)

    @cute.jit
    def _prefetch_first_weights(self, tok_tiles, tma_w, tWg, tma_sf, tSg):
        """PDL, before the wait: the weight and scale k-tiles of this CTA's first piece that
        the pipeline's stages take first, into L2 (a prefetch into the coherent L2, whatever
        the previous kernel writes; the activations, its output, are loaded after the wait)."""
        row_tile, _, kt0, count = self._first_piece(tok_tiles)
        for i in cutlass.range(cutlass.min(count, self.prefetch_k_tiles()), unroll=1):
            for box in self._w_boxes(row_tile):
                cute.prefetch(tma_w, tWg[None, box, kt0 + i])
            cute.prefetch(tma_sf, tSg[None, 0, self._sf_chunk(row_tile, kt0 + i)])

    def weights_before_wait(self) -> int:
        """``WEIGHTS_BEFORE_WAIT`` where a probe sets it; otherwise
        ``TRIGGER_PAIR_WEIGHTS_BEFORE_WAIT`` on stream-K launches that trigger at two CTAs an
        SM, none elsewhere."""
        if self.WEIGHTS_BEFORE_WAIT is not None:
            return self.WEIGHTS_BEFORE_WAIT
        if self.stream_k and self.pdl_trigger and self.ctas_per_sm == 2:
            return self.TRIGGER_PAIR_WEIGHTS_BEFORE_WAIT
        return 0

    def weights_first(self) -> bool:
        """Whether the producer loads its first weights into the stages before the PDL wait
        (``weights_before_wait``) instead of prefetching them into L2."""
        return self.pdl and self.weights_before_wait() > 0 and not self.bf16_weights

    @cute.jit
    def _produce_first_piece(self, loads, state, tok_tiles, whole, tile):
        """``weights_first``: this CTA's first piece, the weights and scales of its
        first k-tiles (as many, at most the stages) loaded into their stages before the PDL
        wait and the activations' parts after it; returns (the producer's state, the next
        whole tile, the first piece's stream-K units: 0 if it was a whole tile or a pair's).
        ``whole``: ``_whole_tiles``' first count; ``tile``: this CTA's."""
        mainloop, tma_act, tAs, tAg = loads[:4]
        row_tile, tok_tile, kt0, count = self._first_piece(tok_tiles)
        first_units = cutlass.Int32(0)
        if cutlass.const_expr(self.stream_k):
            if tile >= whole:
                first_units = count
        if cutlass.const_expr(not self.pair_pieces):
            if tile < whole:
                tile += cute.arch.grid_dim()[0]
        ready = cutlass.min(count, min(self.weights_before_wait(), self.stages))
        for i in cutlass.range(ready, unroll=1):
            mainloop.producer_acquire(state)
            self._copy_weights(*loads[4:], mainloop.producer_get_barrier(state), state.index,
                               row_tile, kt0 + i)
            mainloop.producer_commit(state)
            state.advance()
        cute.arch.griddepcontrol_wait()
        # the same stages from the pipeline's start: their full barriers expect these bytes too
        acts = pipeline.make_pipeline_state(pipeline.PipelineUserType.Producer, self.stages)
        for i in cutlass.range(ready, unroll=1):
            if cutlass.const_expr("act" not in self.STUB_SKIP):
                cute.copy(tma_act, tAg[None, tok_tile, kt0 + i], tAs[None, acts.index],
                          tma_bar_ptr=mainloop.producer_get_barrier(acts))
            acts.advance()
        state = self._produce_piece(*loads, state, row_tile, tok_tile, kt0 + ready,
                                    count - ready)
        return state, tile, first_units

    def prefetch_k_tiles(self) -> int:
        """The weight k-tiles ``_prefetch_first_weights`` asks for (``PREFETCH_K``)."""
        if self.PREFETCH_K is None or (self.tile_m == 64 and self.groups == 1):
            return self.stages
        return max(1, self.PREFETCH_K // self.stage_k)

    @cute.jit
    def _produce_piece(self, mainloop, tma_act, tAs, tAg, tma_w, tWs, tWg, tma_sf, tSs, tSg,
                       state, row_tile, tok_tile, kt0, count):
        """TMA loads of k-tiles ``kt0 .. kt0 + count - 1`` of one output tile."""
        for i in cutlass.range(count, unroll=1):
            kt = kt0 + i
            mainloop.producer_acquire(state)
            bar = mainloop.producer_get_barrier(state)
            if cutlass.const_expr("act" not in self.STUB_SKIP):
                cute.copy(tma_act, tAg[None, tok_tile, kt], tAs[None, state.index],
                          tma_bar_ptr=bar)
            self._copy_weights(tma_w, tWs, tWg, tma_sf, tSs, tSg, bar, state.index, row_tile,
                               kt)
            mainloop.producer_commit(state)
            state.advance()
        return state

    @cute.jit
    def _copy_weights(self, tma_w, tWs, tWg, tma_sf, tSs, tSg, bar, stage, row_tile, kt):
        """The TMA copies of weight k-tile ``kt`` of ``row_tile`` and its scales into ``stage``,
        completing on ``bar``."""
        boxes = self._w_boxes(row_tile)
        if cutlass.const_expr("weights" in self.STUB_SKIP):
            pass
        elif cutlass.const_expr(len(boxes) == 1):
            cute.copy(tma_w, tWg[None, row_tile, kt], tWs[None, stage], tma_bar_ptr=bar)
        else:  # stage s holds boxes s * len(boxes) ..
            for j in cutlass.range_constexpr(len(boxes)):
                cute.copy(tma_w, tWg[None, boxes[j], kt], tWs[None, stage * len(boxes) + j],
                          tma_bar_ptr=bar)
        if cutlass.const_expr(not self.bf16_weights and "scales" not in self.STUB_SKIP):
            cute.copy(tma_sf, tSg[None, 0, self._sf_chunk(row_tile, kt)], tSs[None, stage],
                      tma_bar_ptr=bar)

    def _w_box_rows(self) -> int:
        """Weight rows a TMA box: the tile's (a subclass may load a tile in several boxes,
        ``_w_boxes``)."""
        return self.tile_n

    def _w_box_layout(self, w_layout):
        """The weight stages as TMA boxes of ``_w_box_rows`` rows: (rows, words, box)."""
        if self._w_box_rows() == self.tile_n:
            return w_layout
        return cute.make_ordered_layout(
            (self._w_box_rows(), self._w_box_k(), self.stages * self.tile_n
             // self._w_box_rows()), order=(1, 0, 2))

    def _w_boxes(self, row_tile) -> list:
        """The ``_w_box_rows``-row boxes of weights that make up ``row_tile``, in tile row
        order: the tile itself."""
        return [row_tile]

    def _sf_chunk(self, row_tile, kt):
        """The scale chunk (512 bytes a K group: 128 rows x 4 blocks) of k-tile ``kt`` of
        ``row_tile``'s rows; 64-row tiles (``wg_k_split``) share their 128-row chunk."""
        if cutlass.const_expr(self.tile_n == 64):
            row_tile = row_tile // 2
        return row_tile * self.k_tiles + kt
