"""The wgmma kernels' NVFP4 activations decoded in the kernel (``NVFP4GemmLargeM(act_fp4=True)``):
a mixin with the TMA loads, the shared memory and the decode of the activations' packed codes
and swizzled e4m3 scales into the bf16 operand tile that ``wgmma`` reads as B.

Without it the activations take a pass before the GEMM (``bf16_activations``): one more launch
a call, behind which the GEMM waits. Here the producer warp loads a stage's codes (the
[tile_m, 64] tile as 8 words a row and K group) and the 512-byte scale chunks of their 128-row
blocks with the weights, but on the stage's own barrier (``act_full``; the weights' bytes
land on the full barrier): the producer warpgroup's other three warps (``CONVERTERS`` threads,
idle otherwise) wait for the activations only, so their decode overlaps the weights' longer
trip from memory; they write the stage's bf16 tile and arrive on a second barrier of the
stage (``act_ready``), for which the consumers wait beside the full barrier. The consumers'
release of the stage still guards both: the producer refills it only after the consumers
used the tile the converters wrote from it.

The tile holds the activations in ``PERMUTED_K_ORDER``, as ``bf16_activations`` writes them
for permuted words and packed bytes (``KOrder.PAIRS``): unit (row, K group g, q) takes words
2q and 2q + 1 of the row's group, as the consumers' weight decode takes a weight row's
(``WeightDecode._decode_tile_words``), and their block-q scale; pair r of word 2q + b
(elements r and r + 4, ``e2m1x2_by_multiply``: packed bytes) goes to K slots
16 (2b + r // 2) + 8 (r % 2) + 2q and + 1. The values, ``e2m1 * sf`` by two exact bf16x2
products (``bf16(sf * 2^63)``, then ``2^63``), are the pass's bits.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline
from cutlass.cute.nvgpu import cpasync

from .device_mma import (BF16X2_POW2_63, POW2_63, STANDARD_HIGH_SHIFT, bf16x2_splat,
                         e2m1x2_by_multiply, in_register, mul_bf16x2, prmt)
from .large_m_decode import SF_CHUNK_WORDS

CONVERTERS = 96  # warps 1..3 of the producer warpgroup


class _ActReady:
    """The main pipeline as the consumers see it: a stage is theirs once its TMA bytes have
    landed (``consumer_wait``) and its bf16 tile is written (``act_ready``, the same phase)."""

    def __init__(self, mainloop, ready):
        self.mainloop, self.ready = mainloop, ready

    def consumer_wait(self, state):
        self.mainloop.consumer_wait(state)
        cute.arch.mbarrier_wait(self.ready + state.index, state.phase)

    def __getattr__(self, name):
        return getattr(self.mainloop, name)


class ConvertedAct:
    """The ``act_fp4`` methods of ``NVFP4GemmLargeM`` (it sets ``tile_m``, ``stage_k``,
    ``groups``, ``stages`` and ``k_tiles``)."""

    def _sf_blocks(self) -> int:
        """128-row scale blocks a token tile spans (two for 256-token tiles)."""
        return max(1, self.tile_m // 128)

    def _fp4_act_layouts(self):
        """(codes, scales) of the stages in shared memory: [tile_m, stage_k / 8] words row-major
        (unswizzled: a unit reads words of one row), and the stage's scale chunks (the K
        groups' chunks of each of the tile's 128-row blocks)."""
        codes = cute.make_ordered_layout((self.tile_m, self.stage_k // 8, self.stages),
                                         order=(1, 0, 2))
        scales = cute.make_layout((SF_CHUNK_WORDS * self.groups, 1, self._sf_blocks(),
                                   self.stages))
        return codes, scales

    def _fp4_act_tma(self, g2s, mA):
        """(TMA atom, tensor) of the codes and of the scales, ``mA`` = (codes int32 [M, K/8],
        scales int32 [pad128(M) * K/64]): the codes in [tile_m, stage_k / 8] boxes, the scales
        as chunks of the stage's K groups (128-row block b, k-tile t: chunk b * k_tiles + t)."""
        codes, scales = mA
        blocks = (codes.shape[0] + 127) // 128
        words = SF_CHUNK_WORDS * self.groups  # a stage's chunks of one 128-row block
        chunks = cute.make_tensor(scales.iterator, cute.make_layout(
            (words, self.k_tiles, blocks), stride=(1, words, words * self.k_tiles)))
        codes_layout, scales_layout = self._fp4_act_layouts()
        tma_q, tma_mq = cpasync.make_tiled_tma_atom(
            g2s, codes, cute.slice_(codes_layout, (None, None, 0)),
            (self.tile_m, self.stage_k // 8))
        tma_s, tma_ms = cpasync.make_tiled_tma_atom(
            g2s, chunks, cute.slice_(scales_layout, (None, None, None, 0)),
            (words, 1, self._sf_blocks()))
        return (tma_q, tma_mq), (tma_s, tma_ms)

    @cute.jit
    def _converted_act_smem(self, allocator, tidx, act_layout):
        """(loaded, scales, act_ready, act_full): what the converters read, codes and
        scales (``act_fp4``) or the staging tile in the operand tile's own swizzled layout and
        no scales (``act_reorder``); and two barriers a stage, of ``CONVERTERS`` arrivals and
        of the producer's one (initialized before the pipeline's start-up sync)."""
        scales = None
        if cutlass.const_expr(self.act_fp4):
            codes_layout, scales_layout = self._fp4_act_layouts()
            loaded = allocator.allocate_tensor(cutlass.Int32, codes_layout, 128)
            scales = allocator.allocate_tensor(cutlass.Int32, scales_layout, 128)
        else:
            loaded = allocator.allocate_tensor(cutlass.BFloat16, act_layout.outer, 1024,
                                               swizzle=act_layout.inner)
        ready = allocator.allocate_tensor(cutlass.Int64, cute.make_layout(self.stages),
                                          8).iterator
        full = allocator.allocate_tensor(cutlass.Int64, cute.make_layout(self.stages),
                                         8).iterator
        if tidx == 0:
            for s in cutlass.range_constexpr(self.stages):
                cute.arch.mbarrier_init(ready + s, CONVERTERS)
                cute.arch.mbarrier_init(full + s, 1)
        cute.arch.mbarrier_init_fence()
        return loaded, scales, ready, full

    @cute.jit
    def _arm_act_full(self, act, stage):
        """The producer, before a stage's activation loads: their barrier (``act_full``, one
        arrival and the bytes) for the converters, apart from the weights' (the stage's full
        barrier, for the consumers)."""
        bar = act[3] + stage
        with cute.arch.elect_one():
            cute.arch.mbarrier_arrive_and_expect_tx(bar, self.act_tx_bytes)
        return bar

    def _fp4_act_partitions(self, tma_act, mA, act):
        """(shared, global) TMA views of the codes and the scale chunks, as tuples."""
        codes, scales = act[0], act[1]
        tQs, tQg = cpasync.tma_partition(
            tma_act[0], 0, cute.make_layout(1), cute.group_modes(codes, 0, 2),
            cute.group_modes(cute.local_tile(mA[0], (self.tile_m, self.stage_k // 8),
                                             (None, None)), 0, 2))
        tSs, tSg = cpasync.tma_partition(
            tma_act[1], 0, cute.make_layout(1), cute.group_modes(scales, 0, 3),
            cute.group_modes(cute.local_tile(
                mA[1], (SF_CHUNK_WORDS * self.groups, 1, self._sf_blocks()),
                (None, None, None)), 0, 3))
        return (tQs, tSs), (tQg, tSg)

    def _load_fp4_act(self, tma_act, tAs, tAg, stage, tok_tile, kt, bar):
        """The producer's TMA loads of a stage's activations: ``tok_tile``'s codes at k-tile
        ``kt`` and the scale chunks of its 128-row blocks."""
        cute.copy(tma_act[0], tAg[0][None, tok_tile, kt], tAs[0][None, stage], tma_bar_ptr=bar)
        block = (tok_tile * self.tile_m) // 128 // self._sf_blocks()
        cute.copy(tma_act[1], tAg[1][None, 0, kt, block], tAs[1][None, stage], tma_bar_ptr=bar)

    def _converted_act_stages(self, mainloop, act):
        return _ActReady(mainloop, act[2])

    @cute.jit
    def _convert_activations(self, tok_tiles, sAct, act, ctid):
        """The converter warps (``ctid`` 0..95): every stage of this CTA's pieces, in the
        producer's order."""
        state = pipeline.make_pipeline_state(pipeline.PipelineUserType.Consumer, self.stages)
        self._walk_pieces(tok_tiles, self._convert_piece, (sAct, act, ctid), state)

    @cute.jit
    def _convert_piece(self, sAct, act, ctid, state, row_tile, tok_tile, kt0, count):
        """``count`` stages of one piece: wait for the activations' TMA bytes, write the bf16 tile, make it
        visible to ``wgmma`` (the async proxy) and arrive on the stage's ``act_ready``."""
        loaded, scales, ready, full = act
        scales8, sf_row = None, 0
        if cutlass.const_expr(self.act_fp4):
            scales8 = cute.recast_tensor(scales, cutlass.Float8E4M3FN)  # (e4m3 values)
            sf_row = (tok_tile * self.tile_m) % 128  # the tile's first row in its scale block
        for _ in cutlass.range(count, unroll=1):
            cute.arch.mbarrier_wait(full + state.index, state.phase)
            if cutlass.const_expr(self.act_fp4):
                self._convert_stage(sAct, loaded, scales8, sf_row, ctid, state.index)
            else:
                self._reorder_stage(sAct, loaded, ctid, state.index)
            cute.arch.fence_view_async_shared()
            cute.arch.mbarrier_arrive(ready + state.index)
            state.advance()
        return state

    @cute.jit
    def _each_unit(self, ctid, unit, args):
        """``unit(*args, row, g, b)`` on this converter thread's units of a stage: (row, K
        group g, half b), ``CONVERTERS`` threads at a time."""
        per_row = 2 * self.groups
        units = self.tile_m * per_row
        for j in cutlass.range_constexpr((units + CONVERTERS - 1) // CONVERTERS):
            u = ctid + j * CONVERTERS
            if u < units:
                unit(*args, u // per_row, (u % per_row) // 2, u % 2)

    @cute.jit
    def _convert_stage(self, sAct, codes, scales8, sf_row, ctid, stage):
        """``act_fp4``: the stage's units (``_each_unit``). Unit b writes the group's 16-byte
        chunks 4b .. 4b + 3 of the row whole (one 16-byte store each): chunk 4b + r holds, for
        q = 0..3, pair r of word 2q + b times its block-q scale (slots 8 (4b + r) + 2q and
        + 1: the module docstring's order)."""
        two63 = in_register(BF16X2_POW2_63)  # (an immediate operand does not assemble)
        self._each_unit(ctid, self._decode_unit, (sAct, codes, scales8, sf_row, stage, two63))

    @cute.jit
    def _decode_unit(self, sAct, codes, scales8, sf_row, stage, two63, row, g, b):
        r = row + sf_row  # the swizzled 128x4 atom: 16 bytes per 32 rows, 4 per block
        sf_at = g * 4 * SF_CHUNK_WORDS + (r % 32) * 16 + ((r % 128) // 32) * 4
        words = cute.make_rmem_tensor((4,), cutlass.Uint32)
        splats = cute.make_rmem_tensor((4,), cutlass.Uint32)
        for q in cutlass.range_constexpr(4):
            words[q] = cutlass.Uint32(codes[row, 8 * g + 2 * q + b, stage])
            sf = scales8[sf_at + q, 0, r // 128, stage].to(cutlass.Float32)
            splats[q] = bf16x2_splat(sf * cutlass.Float32(POW2_63))
        chunk = cute.make_rmem_tensor((4,), cutlass.Uint32)
        for p in cutlass.range_constexpr(4):
            for q in cutlass.range_constexpr(4):
                word = words[q]
                shifted = word >> cutlass.Uint32(STANDARD_HIGH_SHIFT)
                chunk[q] = mul_bf16x2(mul_bf16x2(e2m1x2_by_multiply(word, shifted, p),
                                                 splats[q]), two63)
            cute.autovec_copy(cute.recast_tensor(chunk, cutlass.BFloat16),
                              cute.local_tile(sAct[row, None, stage], (8,), (8 * g + 4 * b + p,)))

    @cute.jit
    def _reorder_stage(self, sAct, staging, ctid, stage):
        """``act_reorder``: the stage's units (``_each_unit``), as ``_convert_stage``'s but from
        bf16: unit b reads the row's 16-byte chunks 2q + b (elements 8 (2q + b) ..) of the
        staging tile and writes the operand tile's chunks 4b + p, each 32-bit pair q of chunk
        4b + p one byte permute (elements p and p + 4 of chunk 2q + b)."""
        self._each_unit(ctid, self._reorder_unit, (sAct, staging, stage))

    @cute.jit
    def _reorder_unit(self, sAct, staging, stage, row, g, b):
        src = cute.make_rmem_tensor((8, 4), cutlass.BFloat16)  # (element, chunk q)
        for q in cutlass.range_constexpr(4):
            cute.autovec_copy(cute.local_tile(staging[row, None, stage], (8,),
                                              (8 * g + 2 * q + b,)), src[None, q])
        words = cute.recast_tensor(src, cutlass.Uint32)  # (pair, chunk q)
        chunk = cute.make_rmem_tensor((4,), cutlass.Uint32)
        for p in cutlass.range_constexpr(4):
            # bytes of element p (low half) and p + 4 (high) of each source chunk
            selector = 0x5410 if p % 2 == 0 else 0x7632
            for q in cutlass.range_constexpr(4):
                chunk[q] = prmt(words[p // 2, q], words[2 + p // 2, q], selector)
            cute.autovec_copy(cute.recast_tensor(chunk, cutlass.BFloat16),
                              cute.local_tile(sAct[row, None, stage], (8,), (8 * g + 4 * b + p,)))
