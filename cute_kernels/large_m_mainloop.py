"""The wgmma kernels' consumer main loop (``NVFP4GemmLargeM``'s, the fused kernel's too): a
mixin with the loop of a tile's k-tiles on one consumer warpgroup, in three forms.

- ``_mainloop``: two A fragments. The four wgmmas of k-tile t (one commit group) read fragment
  t % 2 while the thread decodes k-tile t + 1 into the other one (``WeightDecode``); then it
  waits for the group and releases the stage. (Rewriting one k16 slot while the other three
  wgmmas are in flight would overlap more, but ptxas then serializes every wgmma: C7513.) The
  other warpgroup's wgmmas fill the tensor core meanwhile. ptxas hoists the wait above the
  decode, so a warpgroup decodes only after its group retired.
- ``_mainloop_inflight``: one group kept in flight while the next k-tile decodes, in
  stream-K launches under the probe switch ``INFLIGHT_MAX_TILE_M`` (off: ``inflight_mainloop``).
- ``_mainloop_smem``: both operands in shared memory (``bf16_weights``).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass.cute.nvgpu import warpgroup

from .k_order import IN_PLACE_ORDERS


class DecodeMainloop:
    """The main-loop methods of ``NVFP4GemmLargeM`` (it sets ``tile_m``, ``k_order``,
    ``stream_k``, ``frag_groups``, ``ctas_per_sm``, ``bf16_weights``, the switches
    ``INFLIGHT_MAX_TILE_M``, ``EARLY_RELEASE`` and the ``STUB_*`` probes; ``WeightDecode``
    gives ``_decode_tile``, ``_load_tile_words`` and ``_convert_tile_words``)."""

    @cute.jit
    def _mainloop(self, mainloop, tiled_mma, acc, tCrB, decode, frags, read, release, count):
        """``count`` consecutive k-tiles into ``acc`` (zeroed first). The dynamic loop takes
        k-tiles in pairs (fragment 0, then 1) so that fragments are indexed statically; the
        last one or two k-tiles are unrolled, the last decodes nothing. ``count`` is static
        (``self.k_tiles``) except in stream-K, where the tail's parity is a runtime branch."""
        if cutlass.const_expr(self.bf16_weights):
            return self._mainloop_smem(mainloop, tiled_mma, acc, tCrB, frags, read, release,
                                       count)
        if cutlass.const_expr(self.inflight_mainloop()):
            return self._mainloop_inflight(mainloop, tiled_mma, acc, tCrB, decode, frags, read,
                                           release, count)
        acc.fill(0.0)
        if cutlass.const_expr(self.STUB_CONSUMERS):
            for _ in cutlass.range(count, unroll=1):
                mainloop.consumer_wait(read)
                read.advance()
                mainloop.consumer_release(release)
                release.advance()
            return read, release
        mainloop.consumer_wait(read)
        if cutlass.const_expr(not self.STUB_DECODE):
            self._decode_tile(*decode, read.index, frags[0])
        step = (mainloop, tiled_mma, acc, tCrB, decode)
        pairs = (count - 1) // 2
        for _ in cutlass.range(pairs, unroll=1):
            read, release = self._mma_tile(*step, read, release, frags[0], frags[1])
            read, release = self._mma_tile(*step, read, release, frags[1], frags[0])
        if count - 2 * pairs == 2:
            read, release = self._mma_tile(*step, read, release, frags[0], frags[1])
            read, release = self._mma_tile(*step, read, release, frags[1], None)
        else:
            read, release = self._mma_tile(*step, read, release, frags[0], None)
        return read, release

    @cute.jit
    def _mma_tile(self, mainloop, tiled_mma, acc, tCrB, decode, read, release, frag, nxt):
        """The k-tile's four wgmmas on ``frag`` (one commit group); meanwhile the next k-tile,
        if any (``nxt``), is decoded into the other fragment. Then the group retires and the
        stage is released. Returns the advanced states: the tracer threads loop-carried values
        through rebinds, not through mutation inside a helper."""
        read = self._issue_tile(tiled_mma, acc, tCrB, read, frag)
        # ``EARLY_RELEASE``: the stage goes back before the next k-tile's decode, whose
        # shared-memory reads still go out before the wait where the decode splits (words two
        # at a time), so that they overlap the wgmmas' tail
        early = self.EARLY_RELEASE and nxt is not None
        split = early and self.k_order not in IN_PLACE_ORDERS and not self.STUB_DECODE
        if cutlass.const_expr(nxt is not None):
            mainloop.consumer_wait(read)
        if cutlass.const_expr(split):
            loaded = self._load_tile_words(*decode, read.index)
        if cutlass.const_expr(early):
            release = self._retire_group(mainloop, release, 0)
        if cutlass.const_expr(split):
            self._convert_tile_words(loaded, cute.recast_tensor(nxt, cutlass.Uint32))
        elif cutlass.const_expr(nxt is not None and not self.STUB_DECODE):
            self._decode_tile(*decode, read.index, nxt)
        if cutlass.const_expr(not early):
            release = self._retire_group(mainloop, release, 0)
        return read, release

    def inflight_mainloop(self) -> bool:
        """Whether the decoding main loop keeps a k-tile's wgmmas in flight
        (``INFLIGHT_MAX_TILE_M``; not under the probe switches that change the loop). Only
        in stream-K launches (hybrid ones too), and not where ptxas would serialize its
        wgmmas, a wait after each (``testing.serialized_wgmmas``, session 83): launches of
        whole tiles alone (C7513: registers of the wgmmas in flight written before their
        wait, so ptxas finds; the cause is not known), two CTAs an SM or four K groups a
        warpgroup (C7511: two fragments and the group in flight do not fit the registers)."""
        return (self.tile_m <= self.INFLIGHT_MAX_TILE_M and self.stream_k
                and self.frag_groups <= 2 and self.ctas_per_sm == 1 and not (
                    self.bf16_weights or self.STUB_CONSUMERS or self.STUB_MMA
                    or self.STUB_DECODE or self.EARLY_RELEASE))

    @cute.jit
    def _mainloop_inflight(self, mainloop, tiled_mma, acc, tCrB, decode, frags, read, release,
                           count):
        """``_mainloop`` with k-tile t's wgmmas in flight while k-tile t + 1 is decoded into the
        other fragment: each step decodes, issues its group, then waits for the group before
        (``wait_group(1)``), whose fragment the next step overwrites, and releases its stage.
        The groups share the accumulator, which orders their wgmmas (PTX ISA, wgmma.fence):
        the sums are added in ``_mainloop``'s order."""
        acc.fill(0.0)
        mainloop.consumer_wait(read)
        self._decode_tile(*decode, read.index, frags[0])
        read = self._issue_tile(tiled_mma, acc, tCrB, read, frags[0])
        step = (mainloop, tiled_mma, acc, tCrB, decode)
        pairs = (count - 1) // 2
        for _ in cutlass.range(pairs, unroll=1):
            read, release = self._inflight_step(*step, read, release, frags[1])
            read, release = self._inflight_step(*step, read, release, frags[0])
        if count - 2 * pairs == 2:
            read, release = self._inflight_step(*step, read, release, frags[1])
        release = self._retire_group(mainloop, release, 0)
        return read, release

    @cute.jit
    def _issue_tile(self, tiled_mma, acc, tCrB, read, frag):
        """The wgmmas of the k-tile in ``read``'s stage on ``frag`` (one commit group);
        returns the advanced state."""
        stage = read.index
        tCrB, kb0 = tCrB  # the B blocks of the warpgroup's K groups start at kb0
        warpgroup.fence()
        if cutlass.const_expr(not self.STUB_MMA):
            for kb in cutlass.range_constexpr(cute.size(frag, mode=[2])):
                cute.gemm(tiled_mma, acc, frag[None, None, kb],
                          tCrB[None, None, kb0 + kb, stage], acc)
        warpgroup.commit_group()
        read.advance()
        return read

    @cute.jit
    def _inflight_step(self, mainloop, tiled_mma, acc, tCrB, decode, read, release, frag):
        """One step of ``_mainloop_inflight``: decode the k-tile in ``read``'s stage into
        ``frag`` (the group before is in flight), issue it, retire the group before and
        release its stage."""
        mainloop.consumer_wait(read)
        self._decode_tile(*decode, read.index, frag)
        read = self._issue_tile(tiled_mma, acc, tCrB, read, frag)
        release = self._retire_group(mainloop, release, 1)
        return read, release

    def _retire_group(self, mainloop, release, in_flight: int):
        """Wait until at most ``in_flight`` wgmma groups are pending, then release the oldest
        held stage; returns the advanced release state."""
        warpgroup.wait_group(in_flight)
        mainloop.consumer_release(release)
        release.advance()
        return release

    @cute.jit
    def _mainloop_smem(self, mainloop, tiled_mma, acc, tCrB, tCrA, read, release, count):
        """``_mainloop`` with both operands in shared memory (``bf16_weights``; ``tCrA``: the
        weights' descriptors, every stage): each k-tile's wgmmas are issued while the last
        k-tile's are in flight, whose stage is released once they retire."""
        acc.fill(0.0)
        read = self._mma_smem(mainloop, tiled_mma, acc, tCrB, tCrA, read)
        for _ in cutlass.range(count - 1, unroll=1):
            read = self._mma_smem(mainloop, tiled_mma, acc, tCrB, tCrA, read)
            release = self._retire_group(mainloop, release, 1)
        release = self._retire_group(mainloop, release, 0)
        return read, release

    @cute.jit
    def _mma_smem(self, mainloop, tiled_mma, acc, tCrB, tCrA, read):
        """The wgmmas of the k-tile in ``read``'s stage (one commit group, once it is full);
        returns the advanced state."""
        tCrB, kb0 = tCrB
        mainloop.consumer_wait(read)
        stage = read.index
        warpgroup.fence()
        for kb in cutlass.range_constexpr(cute.size(tCrA, mode=[2])):
            cute.gemm(tiled_mma, acc, tCrA[None, None, kb, stage],
                      tCrB[None, None, kb0 + kb, stage], acc)
        warpgroup.commit_group()
        read.advance()
        return read
