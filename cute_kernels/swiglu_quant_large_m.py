"""``nvfp4_gemm_swiglu_quant``'s large-M kernel (past ``swiglu_small_m_regime``):
``NVFP4GemmLargeM`` (TMA + wgmma, persistent) with its ``_epilogue`` replaced. Its CTA tile of
128 weight rows is exactly one interleave group: consumer warpgroup 0 accumulates the 64 up
rows of h columns ``64 t .. 64 t + 63``, warpgroup 1 their 64 gate rows, and a thread of each
holds the same (column, token) positions.

* h as token lines (``_h_lines``): the gate warpgroup writes ``silu(alpha * gate)``
  (``device_silu.silu_mul_fast``'s ex2/rcp.approx form; DESIGN.md's rule bounds the effect)
  into a shared fp32 buffer of tile_m lines of the 64 h columns, 16-byte chunks swizzled by
  token (``staged_line_bases``: conflict-free); after a named barrier the up warpgroup, whose
  fragment positions are the same, forms ``h = (alpha * up) * silu`` in its own slots.
* Quantization (``_quantize_item``): one (token, 16-column block) item at a time from its four
  chunks in one thread's registers (``device_fp4.quantize_block16``: amax, scale byte, the
  out_scale from a 256-entry table the up warpgroup fills once per CTA with the reference's
  two divisions, e2m1 codes); the thread stores the block's 8 code bytes and its scale byte;
  tokens past M are skipped. Who quantizes: on permuted words or packed bytes in the byte
  K order (``k_order``) with 128- / 256-token tiles
  (``quantizer_warps``) warps 1..3 of the producer warpgroup, which the consumers hand each
  tile's h to through two mbarriers before going on to the next tile's main loop, joined by
  the consumers on a CTA's last tile (32-item claims on a shared counter); else the 256
  consumer threads. The CTAs of the last token tile zero scale rows ``M .. pad128(M)`` of
  their blocks.
* Half interleave groups (``wg_k_split``, where ``nvfp4_gemm`` runs 64-row tiles on the [2I, K]
  weight): a 64-row CTA tile is 32 up rows and their 32 gate rows (two 32-row TMA boxes, the
  scale rows mapped accordingly, ``_sf_row``); the consumer warpgroups split each stage's K and
  warpgroup 0 ends up with the sums (K pieces summed through global memory, or two in a
  cluster of two CTAs, ``pair_pieces``), up in warps 0 and 1, gate in warps 2 and 3 at the same
  positions: h forms on 32-column lines and warpgroup 0 quantizes (``_half_group_epilogue``).
* Shared memory: the stages get what the 64 x tile_m x 4 B buffer leaves (tile_m = 128: 32 KB
  buffer, 8 stages as the plain kernel; 256: 64 KB buffer, 4 stages instead of 6).
* NVFP4 activations are first dequantized to bf16 (``bf16_activations``,
  exact), as ``nvfp4_gemm`` does at large M. One launch writes ``out`` and all of ``out_sf``,
  with no host sync: CUDA-graph capturable.
"""

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline
import torch
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from layouts import GATE_UP_GROUP

from . import jit
from .arch import compile_options
from .device_fp4 import RECIPROCAL_TABLE_SIZE, fill_reciprocal_table, quantize_block16
from .device_mma import POW2_63
from .device_silu import silu_mul_fast
from .fused_scales import BLOCK, scale_tile_at, zero_scale_padding
from .k_order import IN_PLACE_ORDERS, KOrder
from .large_m_epilogue import first_share, share_runs, staged_line_bases, staged_line_slot
from .nvfp4_gemm_large_m import (FIXUP_WARP, H200_SMS, SF_CHUNK_WORDS, TILE_K, TILE_N,
                                 NVFP4GemmLargeM, compile_tail, fake_stream_k_buffers,
                                 fake_weights, launch_ctas, operand_dims, operand_k_order,
                                 stream_k_buffers, weight_words)


class NVFP4GemmSwigluQuantLargeM(NVFP4GemmLargeM):
    """``NVFP4GemmLargeM`` on the [2I, K] prepared weight with ``_epilogue`` replaced (see the
    module docstring): static I, K and the tile config; M dynamic; bf16 activations."""

    # 8-token tiles (the plain kernel's at 4..8 tokens, ``TILE_8_MAX_M``), here and on the
    # fused op's narrow route (``large_m_route``); off: 16 tokens and up. On since session 82:
    # ``tests/test_fused_tile8.py`` passed on the GPU and ``tools/fused_tile8_probe.py`` gave
    # the same codes and scales, faster or level (H100 2026-12-05, public op, W4A16, graph us,
    # 16- / 8-token tiles): 36864x7168 M = 4 60.19 / 58.56, M = 8 59.95 / 58.42; 34816x5120
    # M = 4 43.10 / 43.16 (43.13 / 43.09 the second round), M = 8 42.69 / 41.56. Unmeasured on
    # the H200.
    TILE_8 = True

    # named barriers (0 is __syncthreads), each synced by both consumer warpgroups:
    GATE_FULL = 1    # silu(gate) is in shared memory
    H_READY = 2      # h is in shared memory (the consumers quantize)
    TABLE_READY = 3  # the reciprocal table is filled (and the quantizer warps' mbarriers)
    # (the base class's staged-store barriers 6, 7 are not used by this epilogue)
    QUANT_DONE = 6   # every consumer has read the tile's h / handed it over
    # With the quantizer warps: the gate warpgroup hands alpha * gate over through an mbarrier
    # and goes on, the up warpgroup forms silu and h (``_h_lines_gate_ahead``), so the
    # exchange's 256 MUFU a thread (~1.2 us a 256-token tile) may run while the gate
    # warpgroup's next wgmmas keep the tensor cores busy. The same bits; H200 2026-12-01,
    # ``tools/fused_epilogue_probe.py``, us, gate behind / ahead (two rounds): 36864x7168
    # M = 1024 727.2, 738.3 / 724.8, 734.6; 34816x5120 M = 1024 512.3, 515.4 / 509.7, 514.8;
    # 9216x7168 M = 1000 202.7, 202.5 / 201.3, 201.1; 34816x5120 M = 256 145.3, 146.5 /
    # 144.8, 147.2 (the epilogue skipped: 697.9, 485.4, 191.9, 135.5).
    GATE_AHEAD = True
    # The staged h and its quantization by whole 16-column blocks replaced the quantization in
    # the accumulator fragments (``quantize_block_pair``'s 18 shuffles a block pair), the same
    # bits: H200 2026-11-30, session 23, ``tools/fused_epilogue_probe.py``, us, fragments /
    # staged (consumers): 36864x7168 M = 1024 754.7, 764.5 / 739.1, 749.8; 34816x5120 M = 256
    # 154.3, 154.3 / 145.9, 146.0; 4096x7168 M = 1000 86.4, 86.2 / 83.3, 83.2; 9216x7168
    # M = 1000 208.7, 210.9 / 202.5, 204.9 (the quantizer warps: ``quantizer_warps``).
    # The "narrow" route's launches that trigger at two CTAs an SM keep the L2 prefetch alone
    # (the base class's rule loads weights before the PDL wait there): no gain. H200
    # 2026-12-02, session 41, ``tools/prefetch_depth_probe.py``, graph us, L2 prefetch / 2 / 4
    # k-tiles: 36864x7168 M = 16 48.88 / 48.99 / 49.58 (call 4: 48.15 / 47.89 / 48.41),
    # M = 32 51.93 / 52.10 / 52.38; 34816x5120 M = 16 36.26 / 35.94 / 36.88.
    TRIGGER_PAIR_WEIGHTS_BEFORE_WAIT = 0

    def __init__(self, i: int, k: int, tile_m: int = 128, stages: int = 0, sms: int = H200_SMS,
                 stream_k: bool = False, hybrid: bool = False,
                 k_order: KOrder = KOrder.IDENTITY, ctas_per_sm: int = 1, k_groups: int = 1,
                 quantizers: int = 0, splits: int = 1, wg_k_split: bool = False,
                 pair_pieces: bool = False, pdl_trigger: bool = False, lanes: int = 1):
        assert i % GATE_UP_GROUP == 0 and TILE_N == 2 * GATE_UP_GROUP
        # fitted token tiles in steps of 16 too: the staged h is tile_m token lines, the
        # quantization items and shares token-major (``fitted_tiles.FUSED_FITTED_STEP`` says
        # which steps the fused op takes)
        assert tile_m <= 128 or tile_m % 16 == 0, tile_m
        assert tile_m >= (8 if self.TILE_8 else 16), tile_m
        # ``quantizers`` (``quantizer_warps``): the staged h quantized by that many of the
        # producer warpgroup's idle warps 1..3 instead of by the consumers, who hand each
        # tile over through two mbarriers past the table (h full: 256 consumer arrivals; h
        # empty: one per quantizer thread) and go on to the next tile's main loop. One CTA an
        # SM (two leave the producer warpgroup 24 registers).
        assert quantizers in (0, 1, 2, 3) and (quantizers == 0 or ctas_per_sm == 1), (
            quantizers, ctas_per_sm)
        self.quantizers = quantizers
        # ``splits`` (stream-K only): a grid of tiles x splits CTAs, every tile in ``splits``
        # pieces, the last to arrive runs the fused epilogue (``NVFP4GemmLargeM``)
        # ``wg_k_split`` (``NVFP4GemmLargeM``'s, with two K groups; ``pair_pieces`` too): CTA
        # tiles of 64 weight rows, half an interleave group: 64-row tile t holds up rows
        # 32 (t % 2) .. + 31 of group t // 2 (TMA box 0) and their gate rows (box 1), h columns
        # 32 t .. 32 t + 31. Warpgroup 0 ends up with the tile's sums, up in warps 0 and 1 and
        # gate in warps 2 and 3 at the same (column, token) positions, and runs this epilogue
        # on lines of 32 h columns (``line_cols``) alone. The fused op then launches as
        # ``nvfp4_gemm`` does on the [2I, K] weight (``wg_k_split_plan``, ``wg_k_pairs``).
        assert not wg_k_split or quantizers == 0, (wg_k_split, quantizers)
        self.line_cols = GATE_UP_GROUP // 2 if wg_k_split else GATE_UP_GROUP
        super().__init__(2 * i, k, cutlass.Uint8, tile_m, stages, sms, splits,
                         stream_k=stream_k, hybrid=hybrid, k_order=k_order,
                         ctas_per_sm=ctas_per_sm, k_groups=k_groups, wg_k_split=wg_k_split,
                         pair_pieces=pair_pieces, pdl_trigger=pdl_trigger, lanes=lanes)
        self.i = i
        self.kb_out = i // BLOCK  # a multiple of 4: the scale buffer has no column padding

    def _epilogue_shares(self, splits: int) -> bool:
        """The scattered K pieces' shares: where the consumers quantize (not with quantizer
        warps or on half groups)."""
        return self.quantizers == 0 and not self.wg_k_split

    def _fixup_warp_free(self) -> bool:
        """The asynchronous fix-up's warp is idle unless all three side warps quantize."""
        return self.quantizers < FIXUP_WARP

    def _w_box_rows(self) -> int:
        """``wg_k_split``: the up and gate halves of a tile are boxes of 32 rows."""
        return GATE_UP_GROUP // 2 if self.wg_k_split else self.tile_n

    def _w_boxes(self, row_tile) -> list:
        """``wg_k_split``: 64-row tile t = (group t // 2, half t % 2) is 32-row boxes
        4 (t // 2) + t % 2 (up) and that + 2 (gate)."""
        if not self.wg_k_split:
            return [row_tile]
        up = 4 * (row_tile // 2) + row_tile % 2
        return [up, up + 2]

    def _sf_row(self, row_tile, row0):
        """``wg_k_split``: tile row r < 32 is row 32 (t % 2) + r of its 128-row scale chunk,
        r >= 32 (warps 2 and 3) row 64 + 32 (t % 2) + r - 32."""
        if not self.wg_k_split:
            return super()._sf_row(row_tile, row0)
        return (row_tile % 2) * 32 + (row0 // 32) * 32

    def epilogue_smem_bytes(self) -> int:
        """silu(gate) of the tile (64 rows x tile_m tokens, fp32; then h), then the reciprocal
        table; with ``quantizers`` then the handover (``_handover``: 32 bytes, 48 with
        ``GATE_AHEAD``)."""
        handover = (48 if self.GATE_AHEAD else 32) if self.quantizers else 0
        return (GATE_UP_GROUP * self.tile_m + RECIPROCAL_TABLE_SIZE) * 4 + handover

    def epilogue_scratch_words(self) -> int:
        """The silu(gate) / h buffer: written and read within a tile's epilogue (the table
        after it stays)."""
        return GATE_UP_GROUP * self.tile_m

    def _table(self, sEpi: cute.Tensor) -> cute.Tensor:
        return cute.make_tensor(sEpi.iterator + GATE_UP_GROUP * self.tile_m,
                                cute.make_layout(RECIPROCAL_TABLE_SIZE))

    def _handover(self, sEpi):
        """(h full, h empty, slots, gate full): two mbarriers past the table (three with
        ``GATE_AHEAD``), then the handed-over tile's row tile (-1: no more tiles), token tile
        and claim counter (``_claimed_quantize``)."""
        at = sEpi.iterator + GATE_UP_GROUP * self.tile_m + RECIPROCAL_TABLE_SIZE
        bars = cute.recast_ptr(at, dtype=cutlass.Int64)
        slots = cute.make_tensor(cute.recast_ptr(at + (6 if self.GATE_AHEAD else 4),
                                                 dtype=cutlass.Int32), cute.make_layout(3))
        return bars, bars + 1, slots, bars + 2

    @cute.jit
    def _epilogue_setup(self, ctid, sEpi, scalars):
        """The out_scale table of G, filled once by the up warpgroup for both (and the
        quantizer warps); with ``quantizers`` the handover's mbarriers, and a count of
        the tiles handed over (and the last one's coordinates) appended to ``scalars``."""
        if ctid < 128:
            fill_reciprocal_table(self._table(sEpi), scalars[1][0], ctid, 128)
        if cutlass.const_expr(self.quantizers > 0):
            full, empty, _, gate = self._handover(sEpi)
            if ctid == 0:
                cute.arch.mbarrier_init(full, 256)
                cute.arch.mbarrier_init(empty, 32 * self.quantizers)
                if cutlass.const_expr(self.GATE_AHEAD):
                    cute.arch.mbarrier_init(gate, 128)
                cute.arch.mbarrier_init_fence()
        pipeline.NamedBarrier(barrier_id=self.TABLE_READY,
                              num_threads=256 + 32 * self.quantizers).arrive_and_wait()
        if cutlass.const_expr(self.quantizers > 0):
            # (tiles handed over, the last one's row tile and token tile)
            handed = cute.make_rmem_tensor((3,), cutlass.Int32)
            handed.fill(0)
            scalars = scalars + (handed,)
        return scalars

    @cute.jit
    def _epilogue_finish(self, ctid, sEpi, scalars, outs):
        """With ``quantizers``: the consumers help quantize the last h handed over (it has no
        main loop after it to hide behind); once the quantizers are done with it, row tile
        -1 tells them to stop."""
        if cutlass.const_expr(self.quantizers > 0):
            full, empty, slots, _ = self._handover(sEpi)
            handed = scalars[2]
            if handed[0] > 0:
                # thread 0's reset of the claim counter at the handover before the claims
                pipeline.NamedBarrier(barrier_id=self.QUANT_DONE,
                                      num_threads=256).arrive_and_wait()
                self._claimed_quantize(sEpi, scalars[1][0], outs, slots, handed[1], handed[2])
            cute.arch.mbarrier_wait(empty, (handed[0] % 2) ^ 1)
            if ctid == 0:
                slots[0] = cutlass.Int32(-1)
            cute.arch.mbarrier_arrive(full)

    @cute.jit
    def _side_warps(self, warp, sEpi, scalars, outs):
        """With ``quantizers``: warps 1..quantizers quantize each handed-over h
        (``_claimed_quantize``) until row tile -1."""
        if cutlass.const_expr(self.quantizers > 0):
            if warp <= self.quantizers:
                pipeline.NamedBarrier(barrier_id=self.TABLE_READY,
                                      num_threads=256 + 32 * self.quantizers).arrive_and_wait()
                full, empty, slots, _ = self._handover(sEpi)
                gs = scalars[1][0]
                n = cutlass.Int32(0)
                row_tile = cutlass.Int32(0)
                while row_tile >= 0:
                    cute.arch.mbarrier_wait(full, n % 2)
                    row_tile = slots[0]
                    tok_tile = slots[1]
                    if row_tile >= 0:
                        self._claimed_quantize(sEpi, gs, outs, slots, row_tile, tok_tile)
                        cute.arch.mbarrier_arrive(empty)
                    n += 1

    @cute.jit
    def _claimed_quantize(self, sEpi, gs, outs, slots, row_tile, tok_tile):
        """The handed-over h (tile ``row_tile``, ``tok_tile``) quantized in 32-item claims of
        ``_staged_quantize``'s items: lane 0 of a warp adds 32 to the claim counter
        ``slots[2]``; until the tile's items run out."""
        mQ, mSF = outs
        tok0 = tok_tile * self.tile_m
        items = self.tile_m * (GATE_UP_GROUP // BLOCK)
        lane = cute.arch.lane_idx()
        where = self._quantize_where(sEpi, mSF, row_tile, tok0)
        first = cutlass.Int32(0)
        while first < items:
            got = cutlass.Int32(0)
            if lane == 0:
                got = cute.arch.atomic_add(slots.iterator + 2, cutlass.Int32(32), scope="cta")
            first = cute.arch.shuffle_sync(got, 0)
            if first + lane < items:
                self._quantize_item(where, gs, self._table(sEpi), mQ, first + lane)

    @cute.jit
    def __call__(self, mA: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mG: cute.Tensor, mQ: cute.Tensor, mSF: cute.Tensor,
                 stream):
        self._launch(mA, mB, mBSF, (mAlpha, mG), (mQ, mSF), stream)

    @cute.jit
    def _epilogue(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile, share=None):
        """Row tile ``row_tile`` is interleave group ``row_tile``: consumer warpgroup 0 holds the
        up rows of h columns ``64 row_tile ..``, warpgroup 1 their gate rows, in the same
        fragment positions. ``scalars`` = (alpha, G), ``outs`` = (packed [M, I/2], scale
        bytes). With ``quantizers`` the quantizer warps quantize the staged h
        (``_handed_over_h``), else the consumers (``_staged_epilogue_h``, which alone takes a
        ``share`` of the tile's tokens: ``NVFP4GemmLargeM._tile_epilogue``'s)."""
        if cutlass.const_expr(self.quantizers > 0):
            self._handed_over_h(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile)
        elif cutlass.const_expr(self.wg_k_split):
            self._half_group_epilogue(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile)
        else:
            self._staged_epilogue_h(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile,
                                    share)

    @cute.jit
    def _zero_scale_padding_of_last(self, mQ, mSF, wg_tid, row_tile, tok_tile):
        """The up warpgroup, on the last token tile: scale rows M .. pad128(M) of the row
        tile's blocks are zero."""
        if tok_tile * self.tile_m + self.tile_m >= mQ.shape[0]:
            blocks = self.line_cols // BLOCK  # one a warp
            if cutlass.const_expr(blocks == 4):
                zero_scale_padding(mSF, self.kb_out, mQ.shape[0], wg_tid % 32,
                                   row_tile * blocks + wg_tid // 32, 1)
            elif wg_tid < 32 * blocks:
                zero_scale_padding(mSF, self.kb_out, mQ.shape[0], wg_tid % 32,
                                   row_tile * blocks + wg_tid // 32, 1)

    @cute.jit
    def _staged_epilogue_h(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile,
                           share=None):
        """``_epilogue`` with the consumers quantizing: h as token lines
        (``_h_lines``: 64 fp32 = 256 bytes, 16-byte chunk c at slot c ^ (token % 8)), then all
        256 threads quantize (token, block) items with ``_staged_quantize``; of ``share``'s
        tokens only (its first share zeroes the scale padding)."""
        mQ, mSF = outs
        alpha = scalars[0][0]
        wg_tid = ctid % 128
        done = pipeline.NamedBarrier(barrier_id=self.QUANT_DONE, num_threads=256)
        h_ready = pipeline.NamedBarrier(barrier_id=self.H_READY, num_threads=256)
        done.arrive_and_wait()  # the previous tile's h is read by every thread
        self._h_lines(acc, tCcC, ctid, sEpi, alpha, share)
        if ctid < 128 and first_share(share):
            self._zero_scale_padding_of_last(mQ, mSF, wg_tid, row_tile, tok_tile)
        h_ready.arrive_and_wait()
        self._staged_quantize(sEpi, scalars[1][0], self._table(sEpi), mQ, mSF, ctid, row_tile,
                              tok_tile * self.tile_m, share=share)

    def _line_slots(self, tCcC, n_acc: int) -> list:
        """The shared-memory element of each fragment element v + 4 j in the tile's token
        lines of ``line_cols`` fp32 (``staged_line_bases``; j 8 tokens on)."""
        bases = staged_line_bases(tCcC, 4, line=self.line_cols)
        return [bases[e % 4] + e // 4 * 8 * self.line_cols for e in range(n_acc)]

    @cute.jit
    def _h_lines(self, acc, tCcC, ctid, sEpi, alpha, share=None):
        """h as token lines: the gate warpgroup writes silu(alpha * gate) to its fragment's
        line slots; after ``GATE_FULL`` the up warpgroup, whose fragment positions are the
        same, multiplies its own slots by alpha * up in place (no thread reads another's
        slot, so the lines need no barrier before they are rewritten). ``share``: of its
        tokens' elements only."""
        full = pipeline.NamedBarrier(barrier_id=self.GATE_FULL, num_threads=256)
        n_acc = cute.size(acc)
        slots = self._line_slots(tCcC, n_acc)
        runs = share_runs(share, n_acc)
        if ctid >= 128:
            for r in cutlass.range_constexpr(len(runs)):
                taken, first, end = runs[r]
                if taken:
                    self._store_silu_gate(acc, sEpi, slots, alpha, first, end)
            full.arrive_and_wait()
        else:
            full.arrive_and_wait()
            for r in cutlass.range_constexpr(len(runs)):
                taken, first, end = runs[r]
                if taken:
                    self._up_times_silu(acc, sEpi, slots, alpha, first, end)

    @cute.jit
    def _store_silu_gate(self, acc, sEpi, slots, alpha, first: int = 0, end: int = 0):
        """The gate threads' half of ``_h_lines``: silu(alpha * gate) into their line slots
        (of elements ``first`` .. ``end`` - 1; ``end`` 0: to the last)."""
        for e in cutlass.range_constexpr(first, end or cute.size(acc)):
            gate = acc[e] * cutlass.Float32(POW2_63) * alpha
            sEpi[slots[e]] = silu_mul_fast(gate, cutlass.Float32(1.0))

    @cute.jit
    def _up_times_silu(self, acc, sEpi, slots, alpha, first: int = 0, end: int = 0):
        """The up threads' half of ``_h_lines``: h = (alpha * up) * silu in place of the silu
        in the same slots (of elements ``first`` .. ``end`` - 1; ``end`` 0: to the last).
        Every load before the first store: the four bases are runtime values, so a store
        could alias a later load and would hold it back (~15 us at 36864x7168 M = 1024 when
        interleaved)."""
        end = end or cute.size(acc)
        for e in cutlass.range_constexpr(first, end):
            acc[e] = acc[e] * cutlass.Float32(POW2_63) * alpha * sEpi[slots[e]]
        for e in cutlass.range_constexpr(first, end):
            sEpi[slots[e]] = acc[e]

    @cute.jit
    def _h_lines_gate_ahead(self, acc, tCcC, ctid, sEpi, alpha, gate, parity):
        """``_h_lines`` with the silu moved to the up warpgroup (``GATE_AHEAD``): the gate
        warpgroup writes alpha * gate to its line slots, arrives on the ``gate`` mbarrier and
        goes on to the next tile's main loop; the up warpgroup waits for it (phase
        ``parity``), then forms h = (alpha * up) * silu(alpha * gate) in its own slots, the
        same arithmetic as ``_h_lines``, so the same bits."""
        n_acc = cute.size(acc)
        slots = self._line_slots(tCcC, n_acc)
        if ctid >= 128:
            for e in cutlass.range_constexpr(n_acc):
                sEpi[slots[e]] = acc[e] * cutlass.Float32(POW2_63) * alpha
            cute.arch.mbarrier_arrive(gate)
        else:
            cute.arch.mbarrier_wait(gate, parity)
            for e in cutlass.range_constexpr(n_acc):  # every load before the first store
                acc[e] = acc[e] * cutlass.Float32(POW2_63) * alpha * silu_mul_fast(
                    sEpi[slots[e]], cutlass.Float32(1.0))
            for e in cutlass.range_constexpr(n_acc):
                sEpi[slots[e]] = acc[e]

    @cute.jit
    def _handed_over_h(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile):
        """``_epilogue`` with ``quantizers``: once the quantizers are done with the
        previous h, h as token lines (``_h_lines``), the tile's coordinates, then every
        consumer thread arrives on h full and goes on."""
        mQ, mSF = outs
        handed = scalars[2]
        full, empty, slots, gate = self._handover(sEpi)
        cute.arch.mbarrier_wait(empty, (handed[0] % 2) ^ 1)
        if cutlass.const_expr(self.GATE_AHEAD):
            self._h_lines_gate_ahead(acc, tCcC, ctid, sEpi, scalars[0][0], gate, handed[0] % 2)
        else:
            self._h_lines(acc, tCcC, ctid, sEpi, scalars[0][0])
        if ctid < 128:
            self._zero_scale_padding_of_last(mQ, mSF, ctid, row_tile, tok_tile)
        self._hand_over(ctid, full, slots, handed, row_tile, tok_tile)

    @cute.jit
    def _hand_over(self, ctid, full, slots, handed, first, second):
        """The staged h handed to the quantizer warps: its coordinates (``first`` >= 0, the
        ones ``_claimed_quantize`` takes) and a reset claim counter in the slots, every
        consumer's arrival on h full, and the count and coordinates kept in ``handed``."""
        if ctid == 0:
            slots[0] = first
            slots[1] = second
            slots[2] = cutlass.Int32(0)
        cute.arch.mbarrier_arrive(full)
        handed[0] = handed[0] + 1
        handed[1] = first
        handed[2] = second

    @cute.jit
    def _half_group_epilogue(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile):
        """``_epilogue`` of ``wg_k_split``, by warpgroup 0 alone (the tile's sums): warps 2
        and 3 write silu(alpha * gate) to the line slots of their (column, token) positions,
        warps 0 and 1, whose up rows are the same positions, form h in place (as
        ``_h_lines``, the same arithmetic), then the 128 threads quantize the tile's
        (token, block) items (``_staged_quantize``)."""
        mQ, mSF = outs
        alpha = scalars[0][0]
        sync = pipeline.NamedBarrier(barrier_id=self.H_READY, num_threads=128)
        sync.arrive_and_wait()  # the previous tile's h is read by every thread
        n_acc = cute.size(acc)
        slots = self._line_slots(tCcC, n_acc)
        if ctid >= 64:
            self._store_silu_gate(acc, sEpi, slots, alpha)
        sync.arrive_and_wait()
        if ctid < 64:
            self._up_times_silu(acc, sEpi, slots, alpha)
        self._zero_scale_padding_of_last(mQ, mSF, ctid, row_tile, tok_tile)
        sync.arrive_and_wait()
        self._staged_quantize(sEpi, scalars[1][0], self._table(sEpi), mQ, mSF, ctid, row_tile,
                              tok_tile * self.tile_m, 128)

    @cute.jit
    def _staged_quantize(self, sEpi, gs, table, mQ, mSF, tid, row_tile, tok0,
                         threads: cutlass.Constexpr = 256, share=None):
        """Items ``tid`` + ``threads`` p of the staged h (``_quantize_item``) by the
        consumers (of ``share``'s tokens only: items are token-major)."""
        where = self._quantize_where(sEpi, mSF, row_tile, tok0)
        runs = share_runs(share, self.tile_m * (self.line_cols // BLOCK))
        for r in cutlass.range_constexpr(len(runs)):
            taken, first, end = runs[r]
            if taken:
                for p in cutlass.range_constexpr((end - first + threads - 1) // threads):
                    if tid + threads * p < end - first:
                        self._quantize_item(where, gs, table, mQ, first + tid + threads * p)

    def _quantize_where(self, sEpi, mSF, row_tile, tok0):
        """What ``_quantize_item`` needs of the tile: h as 16-byte chunks, its scale tile (and
        row offset), its first token and scale block."""
        sChunks = cute.make_tensor(sEpi.iterator, cute.make_layout(
            (self.tile_m * (self.line_cols // 4), 4), stride=(4, 1)))
        blocks = self.line_cols // BLOCK  # of the tile: its h columns' first is block kb0
        sSF, r0 = scale_tile_at(mSF, self.kb_out, tok0, row_tile * blocks, 2 * 128)
        return sChunks, sSF, r0, tok0, row_tile * blocks

    @cute.jit
    def _quantize_item(self, where, gs, table, mQ, item):
        """Item (token t, block b) = (item // 4, item % 4) of the staged h: the block's four
        16-byte chunks 4 b .. 4 b + 3 of the token's line, quantized
        (``quantize_block16``), its 8 code bytes and scale byte stored."""
        sChunks, sSF, r0, tok0, kb0 = where
        blocks = self.line_cols // BLOCK
        t = item // blocks
        b = item % blocks
        h = cute.make_rmem_tensor((16,), cutlass.Float32)
        for c in cutlass.range_constexpr(4):
            chunk = cute.make_rmem_tensor((1, 4), cutlass.Float32)
            slot = staged_line_slot(t, 4 * b + c, self.line_cols // 4)
            cute.autovec_copy(cute.local_tile(sChunks, (1, 4), (slot, 0)), chunk)
            for e in cutlass.range_constexpr(4):
                h[4 * c + e] = chunk[0, e]
        codes, byte = quantize_block16(h, gs, table)
        tok = tok0 + t
        if tok < mQ.shape[0]:
            gQ = cute.recast_tensor(cute.local_tile(mQ, (1, 8), (tok, kb0 + b)),
                                    cutlass.Uint64)
            gQ[0] = codes
            sSF[r0 + t, b] = byte


def fake_fused_tail(i: int) -> tuple:
    """The fused kernels' compiled arguments after the operands: alpha, out_global_scale,
    out uint8 [M, I/2] (M dynamic), out_sf bytes (flat) and the stream."""
    q = make_fake_compact_tensor(cutlass.Uint8, (cute.sym_int(), i // 2), stride_order=(1, 0),
                                 assumed_align=16)
    return (make_fake_compact_tensor(cutlass.Float32, (1,)),
            make_fake_compact_tensor(cutlass.Float32, (1,)), q,
            make_fake_compact_tensor(cutlass.Uint8, (cute.sym_int(),), assumed_align=16),
            make_fake_stream(use_tvm_ffi_env_stream=True))


@jit.cached
def compile_nvfp4_gemm_swiglu_quant_large_m(i: int, k: int, tile_m: int = 128, stages: int = 0,
                                            sms: int = H200_SMS, stream_k: bool = False,
                                            hybrid: bool = False,
                                            k_order: KOrder = KOrder.IDENTITY,
                                            ctas_per_sm: int = 1, k_groups: int = 1,
                                            quantizers: int = 0, splits: int = 1,
                                            wg_k_split: bool = False, pair_pieces: bool = False,
                                            pdl_trigger: bool = False, lanes: int = 1):
    """Static I (weights [2I, K/2]), K and tile config (as ``compile_nvfp4_gemm_large_m``,
    ``k_order``, ``ctas_per_sm``, ``k_groups``, ``splits``, ``wg_k_split`` and ``pair_pieces``
    too; ``quantizers`` as ``NVFP4GemmSwigluQuantLargeM``; ``lanes`` as ``NVFP4GemmLargeM``);
    M dynamic. Arguments of the compiled function: a bf16 [M' >= M, K], w int32 [2I, K/8],
    w_sf int32 [2I * K/64], alpha, out_global_scale, out uint8 [M, I/2], out_sf bytes (flat
    uint8); with ``stream_k`` then the workspace and counters of ``stream_k_buffers``."""
    # the activations' rows their own symbol: M or more (as ``compile_nvfp4_gemm_large_m``)
    a = make_fake_compact_tensor(cutlass.BFloat16, (cute.sym_int(), k), stride_order=(1, 0),
                                 assumed_align=16)
    b = fake_weights(2 * i, k, k_order)
    b_sf = make_fake_compact_tensor(cutlass.Int32, (2 * i // TILE_N * (k // TILE_K)
                                                    * SF_CHUNK_WORDS,), assumed_align=16)
    alpha, gs, q, sf, stream = fake_fused_tail(i)
    if stream_k:
        kernel = NVFP4GemmSwigluQuantLargeMStreamK(i, k, tile_m, stages, sms, stream_k=True,
                                                   hybrid=hybrid, k_order=k_order,
                                                   ctas_per_sm=ctas_per_sm, k_groups=k_groups,
                                                   quantizers=quantizers, splits=splits,
                                                   wg_k_split=wg_k_split,
                                                   pdl_trigger=pdl_trigger, lanes=lanes)
        return cute.compile(kernel, a, b, b_sf, alpha, gs, q, sf, *fake_stream_k_buffers(),
                            stream, options=compile_options())
    kernel = NVFP4GemmSwigluQuantLargeM(i, k, tile_m, stages, sms, k_order=k_order,
                                        ctas_per_sm=ctas_per_sm, k_groups=k_groups,
                                        quantizers=quantizers, splits=splits,
                                        wg_k_split=wg_k_split, pair_pieces=pair_pieces,
                                        pdl_trigger=pdl_trigger)
    return cute.compile(kernel, a, b, b_sf, alpha, gs, q, sf, stream, options=compile_options())


class NVFP4GemmSwigluQuantLargeMStreamK(NVFP4GemmSwigluQuantLargeM):
    """The fused kernel in stream-K (``stream_k``), the workspace and counters as arguments."""

    @cute.jit
    def __call__(self, mA: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mG: cute.Tensor, mQ: cute.Tensor, mSF: cute.Tensor,
                 mWork: cute.Tensor, mCount: cute.Tensor, stream):
        self._launch(mA, mB, mBSF, (mAlpha, mG), (mQ, mSF), stream, (mWork, mCount))


# The quantizer warps (``NVFP4GemmSwigluQuantLargeM``'s ``quantizers``) hide a tile's
# quantization behind the next tile's main loop; on a CTA's last tile the consumers join them
# (``_epilogue_finish``). ``tools/fused_epilogue_probe.py`` (H200 2026-11-30, session 23, us,
# interleaved graphs, two rounds, permuted words; with them / the consumers quantizing / the
# fragment-held quantization): 36864x7168 M = 1024 (whole 256-token tiles, 1152 on 132 CTAs)
# 717.4, 726.1 / 745.9, 755.1 / 755.9, 764.2; 34816x5120 M = 256 (stream-K) 140.9, 141.9 /
# 145.3, 146.7 / 152.9, 154.1; 9216x7168 M = 1000 (stream-K) 197.0, 197.3 / 202.4, 203.0 /
# 209.7, 209.7; 4096x7168 M = 1000 (128 tiles, one a CTA) 84.6, 84.6 / 83.9, 84.0 / 86.6,
# 86.7. Without the consumers' help on the last tile 4096x7168 took 86.8 / 87.9 (call 3), and
# 2 quantizer warps lost to 3 everywhere. On packed bytes decoded in place (``KOrder.IDENTITY``),
# whose decode keeps the consumers issuing, they did not pay (36864x7168 M = 1024 779.3, 786.5
# / 774.3, 782.9; 34816x5120 M = 1024 556.3, 556.8 / 555.5, 560.6); in the byte order they do
# (``tools/packed_order_probe.py``, H200 2026-12-01, with / without, two rounds: 36864x7168
# M = 1024 663.2, 664.6 / 687.5, 689.9; 34816x5120 M = 256 130.8, 130.9 / 134.8, 134.8;
# 9216x7168 M = 1000 181.3, 181.1 / 185.6, 185.8). So: every order but IDENTITY, 128- and
# 256-token tiles, one CTA an SM (the narrow tiles' fused launches are not measured with them),
# and a next tile to hide behind: not where every CTA has one tile or one K piece (whole tiles
# in one wave, split-K pieces). There the handover only costs: ``tools/fused_route_probe.py``
# (H200 2026-12-01, session 31, us, two rounds, with / without, the wide pieces (128, 2)):
# packed bytes 4096x7168 M = 129 33.68, 33.82 / 32.16, 32.31; M = 256 34.31, 34.41 / 32.83,
# 32.85; 1024x7168 M = 1024 37.86, 37.59 / 36.54, 36.51 (its pair 37.15, 37.07); permuted
# words even (30.97, 30.88 / 30.91, 30.81 and 34.40, 34.29 / 34.53, 34.59), as 4096x7168
# M = 1000 above (128 whole tiles, 84.6 / 83.9).
QUANTIZER_WARPS = 3


def quantizer_warps(tile_m: int, ctas_per_sm: int, k_order: KOrder,
                    one_tile_a_cta: bool = False) -> int:
    """The quantizer warps of a fused large-M launch (the comment above); ``one_tile_a_cta``:
    every CTA has one output tile or one K piece of one."""
    return (QUANTIZER_WARPS if k_order not in IN_PLACE_ORDERS and ctas_per_sm == 1
            and tile_m >= 128 and not one_tile_a_cta else 0)


def one_tile_a_cta(m: int, two_i: int, tile_m: int, ctas: int, stream_k: bool,
                   splits: int) -> bool:
    """Whether every CTA of a launch on ``ctas`` CTAs has one output tile or one K piece of
    one: split-K pieces, or whole tiles that fit in one wave."""
    return splits > 1 or (not stream_k and -(-m // tile_m) * -(-two_i // TILE_N) <= ctas)


def launch_large_m(a_bf16, w, w_sf, alpha: torch.Tensor, out_global_scale: torch.Tensor,
                   out: torch.Tensor, out_sf: torch.Tensor, config: tuple[int, ...],
                   stream_k: bool = False, hybrid: bool = False, ctas_per_sm: int = 1,
                   k_groups: int = 1, k_order: KOrder | None = None,
                   compile_fn=compile_nvfp4_gemm_swiglu_quant_large_m,
                   quantizers: int | None = None, splits: int = 1, wg_k_split: bool = False,
                   pair_pieces: bool = False, pdl_trigger: bool = False,
                   lanes: int = 1) -> None:
    """The fused large-M kernel on validated operands (M >= 1): a_bf16 [M', K] bf16, M' >= M,
    with K in ``k_order`` (as ``nvfp4_gemm_large_m.launch_large_m``), config =
    (tile_m, stages) or (tile_m, stages, ctas), as ``nvfp4_gemm_large_m.launch_large_m``;
    ``stream_k``: the CTAs share out (tile, k-tile) units evenly (``stream_k``); ``hybrid``:
    only the last one to two waves' worth of tiles; ``ctas_per_sm`` and ``k_groups`` as there
    (``plain_launch_options``); ``compile_fn`` as there (of
    ``compile_nvfp4_gemm_swiglu_quant_large_m``'s arguments); ``quantizers``: the quantizer
    warps (None: ``quantizer_warps``' rule); ``splits`` > 1: stream-K on tiles x splits CTAs,
    each tile in ``splits`` pieces (as ``nvfp4_gemm_large_m.launch_large_m``);
    ``wg_k_split`` (and with it ``pair_pieces``): 64-row tiles of half an interleave group,
    the warpgroups on the K groups, as ``nvfp4_gemm`` launches (``NVFP4GemmSwigluQuantLargeM``;
    no quantizer warps); ``pdl_trigger``: the next launch may start after each CTA's first
    main loop; ``lanes``: stream-K in lanes of row tiles (both ``NVFP4GemmLargeM``'s)."""
    two_i, k = operand_dims(w)
    i = two_i // 2
    assert a_bf16.shape[0] >= out.shape[0], (a_bf16.shape, out.shape)
    tile_m, stages, *ctas = config
    sms = launch_ctas(ctas, ctas_per_sm, splits, w.device)
    k_order = operand_k_order(w, k_order)
    if wg_k_split or pair_pieces:
        quantizers = 0
    if quantizers is None:
        quantizers = quantizer_warps(tile_m, ctas_per_sm, k_order, one_tile_a_cta(
            out.shape[0], two_i, tile_m, sms, stream_k, splits))
    stream_k = stream_k or splits > 1
    if pdl_trigger or lanes > 1:  # every trailing argument (lanes only where taken)
        tail = (int(k_order), ctas_per_sm, 2 if wg_k_split else k_groups, quantizers, splits,
                wg_k_split, pair_pieces, pdl_trigger) + ((lanes,) if lanes > 1 else ())
    elif wg_k_split:
        tail = (int(k_order), ctas_per_sm, 2, 0, splits, True) + ((True,) if pair_pieces
                                                                  else ())
    elif pair_pieces:  # (128-row tiles: the consumers quantize their token shares)
        tail = (int(k_order), ctas_per_sm, k_groups, 0, splits, False, True)
    elif quantizers or splits > 1:
        tail = (int(k_order), ctas_per_sm, k_groups, quantizers) + ((splits,) if splits > 1
                                                                    else ())
    else:
        tail = compile_tail(k_order, ctas_per_sm, k_groups)
    kernel = compile_fn(i, k, tile_m, stages, sms, stream_k, hybrid, *tail)
    args = (a_bf16, weight_words(w), w_sf.view(torch.int32).view(-1), alpha,
            out_global_scale, out, out_sf.view(torch.uint8).view(-1))
    if stream_k:
        args += stream_k_buffers(out.shape[0], 2 * i, tile_m, sms, w.device,
                                 64 if wg_k_split else TILE_N)
    kernel(*args)
