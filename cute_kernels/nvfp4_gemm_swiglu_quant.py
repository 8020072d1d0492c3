"""``nvfp4_gemm_swiglu_quant``: the gate_up GEMM with SwiGLU and NVFP4 quantization of its output
fused in, for sm_90: ``h = (alpha * up) * silu(alpha * gate)`` in fp32, quantized directly (no
bf16 rounding) with ``G = out_global_scale`` (DESIGN.md "Numerics"); the result feeds a
``down_proj`` that takes pre-quantized input (``nvfp4_gemm(out, out_sf, ...)``).

The weights come from ``prepare_gate_up_weight``: rows ``interleave([up; gate], 64)``, 2I rows.

Small M (``swiglu_small_m_regime``: up to 16 tokens, up to 32 or 64 for smaller weights):
``NVFP4GemmSmallM``'s main loop with two hooks changed.

* ``tile_row``: a CTA with ``rt`` row tiles takes ``rt / 2`` tiles of up rows (16 output
  columns each) and, as tiles ``rt/2 .. rt-1``, the gate rows 64 further. So lane ``4g + q``
  holds up and gate of the same output column in ``acc[t]`` and ``acc[t + rt/2]``: column
  ``c = c0 + 16 t + g + 8 (e // 2)`` of token ``tok0 + 8 j + 2 q + e % 2`` (``8 rt`` divides
  64, so a CTA's columns never straddle an up/gate group).
* ``epilogue`` (warp 0): h in fp32 per element, ``silu_mul_fast(alpha * gate, alpha * up)``
  as ``silu_mul_nvfp4_quant`` and the large-M kernel form it (ex2/rcp.approx: the precise
  expf and IEEE division were 2/3 of the epilogue); a quant block (16 consecutive columns of one
  token) is exactly one up tile of one token, spread over the 8 lanes that share ``q`` (2
  values each), so the block amax is a butterfly over lane offsets 4, 8, 16. Every lane then
  computes the block's scale, encodes its two values and places each 4-bit code at bit ``4 g``
  of word 0 (column ``g``) or word 1 (column ``g + 8``); an OR butterfly over the same lanes
  gives all 8 lanes the block's 8 packed bytes (element 2i in the low nibble, as the reference
  packs them). Lane ``g = b % 8`` of block ``b`` then writes them in one 8-byte store, plus the
  block's scale byte at its swizzled offset (the CTA's 8 jt tokens share one 128-row tile of
  the layout: a static atom offset per store).
* Scale padding: I is a multiple of 64, so I/16 needs no column padding. The CTAs of the last
  token tile zero the scale rows ``M .. pad128(M)`` of their blocks, so one launch writes the
  whole ``out_sf`` (also a caller's poisoned buffer), and CUDA graphs need no extra memset.

Large M (past ``swiglu_small_m_regime``): ``NVFP4GemmLargeM`` (TMA + wgmma, persistent)
with its ``_epilogue`` replaced. Its CTA tile of 128 weight rows is exactly one interleave
group: consumer warpgroup 0 accumulates the 64 up rows of h columns ``64 t .. 64 t + 63``,
warpgroup 1 their 64 gate rows, and a thread of each holds the same (column, token) positions.

* h as token lines (``_h_lines``): the gate warpgroup writes ``silu(alpha * gate)``
  (``nvfp4_quant.silu_mul_fast``'s ex2/rcp.approx form; DESIGN.md's rule bounds the effect)
  into a shared fp32 buffer of tile_m lines of the 64 h columns, 16-byte chunks swizzled by
  token (``staged_line_bases``: conflict-free); after a named barrier the up warpgroup, whose
  fragment positions are the same, forms ``h = (alpha * up) * silu`` in its own slots.
* Quantization (``_quantize_item``): one (token, 16-column block) item at a time from its four
  chunks in one thread's registers (``device_fp4.quantize_block16``: amax, scale byte, the
  out_scale from a 256-entry table the up warpgroup fills once per CTA with the reference's
  two divisions, e2m1 codes); the thread stores the block's 8 code bytes and its scale byte;
  tokens past M are skipped. Who quantizes: on permuted words with 128- / 256-token tiles
  (``quantizer_warps``) warps 1..3 of the producer warpgroup, which the consumers hand each
  tile's h to through two mbarriers before going on to the next tile's main loop, joined by
  the consumers on a CTA's last tile (32-item claims on a shared counter); else the 256
  consumer threads. The CTAs of the last token tile zero scale rows ``M .. pad128(M)`` of
  their blocks.
* Shared memory: the stages get what the 64 x tile_m x 4 B buffer leaves (tile_m = 128: 32 KB
  buffer, 8 stages as the plain kernel; 256: 64 KB buffer, 4 stages instead of 6).
* NVFP4 activations are first dequantized to bf16 (``bf16_activations``,
  exact), as ``nvfp4_gemm`` does at large M. One launch writes ``out`` and all of ``out_sf``,
  with no host sync: CUDA-graph capturable.

CPU tensors: the reference (``reference.gemm_swiglu_quant``).
"""

from __future__ import annotations

import functools

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline
import torch
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from layouts import GATE_UP_GROUP, sf_padded_shape, sf_tiled_layout

from . import jit, reference
from .arch import compile_options, sm_count
from .device_fp4 import (RECIPROCAL_TABLE_SIZE, fill_reciprocal_table, quantize_block16,
                         quantize_block_pair)
from .device_mma import POW2_63
from .large_m_plans import (fused_stream_k_options, large_m_config, plain_launch_options,
                            stream_k_plan, wgmma_from_9_tokens)
from .nvfp4_dequant import bf16_activations
from .nvfp4_gemm import (SMALL_M_MAX, check_operands, check_placement, small_m_config,
                         staged_tokens)
from .nvfp4_gemm_large_m import (H200_SMS, SF_CHUNK_WORDS, TILE_K, TILE_N, NVFP4GemmLargeM,
                                 compile_tail, fake_stream_k_buffers, stream_k_buffers,
                                 staged_line_bases, staged_line_slot)
from .nvfp4_gemm_small_m import STEP, NVFP4GemmSmallM, fake_operands
from .nvfp4_gemm_small_m_split import (config_splits, fake_split_buffers, reduce_split_partials,
                                       split_buffers)
from .nvfp4_quant import silu_mul_fast
from .permuted_fp4 import weight_dims
from .swiglu_split_route import fp32_route_plan, launch_split_route, split_route_plan
from .validate import as_scale_tensor, check_contiguous, check_dtype

BLOCK = 16  # output columns per scale


# ---- the scale bytes both fused kernels write ----------------------------------------------------
def scale_tile_at(mSF: cute.Tensor, kb_out: int, tok0, kb, tile_rows: int):
    """(view, r0): the swizzled scale bytes of h as a ``sf_tiled_layout(tile_rows, kb_out)``
    tensor whose row ``r0 + t`` is token ``tok0 + t`` and column ``c`` is block ``kb + c``
    (r0 = tok0 % 128; ``kb % 4 + c < 4``). The 128-row tiles before tok0 and kb are folded into
    the base, so a store only adds the static-shape offset of its row: the layout at a dynamic
    M costs ~35 instructions per store."""
    r0 = tok0 % 128
    rows = sf_tiled_layout(tile_rows, kb_out)
    return cute.make_tensor(mSF.iterator + (tok0 - r0) * kb_out + cute.crd2idx((0, kb), rows),
                            rows), r0


@cute.jit
def zero_scale_padding(mSF: cute.Tensor, kb_out: int, m, first, kb, blocks: cutlass.Constexpr):
    """Scale rows M .. pad128(M) of blocks ``kb .. kb + blocks - 1``: rows ``M + first``,
    ``M + first + 32``, .. (the caller's lane ``first`` of 32)."""
    m_pad = (m + 127) // 128 * 128
    sSF = cute.make_tensor(mSF.iterator, sf_tiled_layout(m_pad, kb_out))
    for r in cutlass.range(m + first, m_pad, 32):
        for t in cutlass.range_constexpr(blocks):
            sSF[r, kb + t] = cutlass.Uint8(0)


class NVFP4GemmSwigluQuantSmallM(NVFP4GemmSmallM):
    """Static I (output columns), K, activation type and tile config; ``row_tiles`` even, with
    ``8 * row_tiles`` dividing 64 (2, 4 or 8)."""

    # PDL on (``NVFP4GemmSmallM.PDL``): M = 1, graph us, off / on (H200 2026-11-30,
    # ``tools/pdl_probe.py``, loads before the wait): 1024x7168 6.96 / 5.87, 4096x7168 9.92 /
    # 8.17, 36864x7168 50.1 / 47.9. The first step's weight loads go out before the wait: with
    # them after it (``tools/pdl_load_probe.py``, H200 2026-11-30, two alternated runs each)
    # 1024x7168 6.64 / 6.63 against 5.75 / 5.75, 4096x7168 9.18 / 9.14 against 8.37 / 8.34,
    # 36864x7168 48.8 / 48.6 against 48.9 / 47.7. The weights are constants of the model; the
    # one writer we ship, ``prepare_gate_up_weight``, synchronizes before it returns.
    PDL = True
    PDL_LOAD_BEFORE_WAIT = True

    def __init__(self, i: int, k: int, a_fp4: bool, row_tiles: int = 2, token_tiles: int = 1,
                 warps: int = 4, prefetch: int = 1, x_tokens: int = 0, splits: int = 1,
                 permuted: bool = False):
        assert i % GATE_UP_GROUP == 0
        assert row_tiles % 2 == 0 and GATE_UP_GROUP % (8 * row_tiles) == 0
        super().__init__(2 * i, k, a_fp4, cutlass.Uint8, row_tiles, token_tiles, warps, prefetch,
                         x_tokens, splits, permuted)
        self.i = i
        self.half = row_tiles // 2  # up tiles per CTA; tiles half.. are their gate rows
        self.kb_out = i // BLOCK  # a multiple of 4: the scale buffer has no column padding

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mG: cute.Tensor, mQ: cute.Tensor, mSF: cute.Tensor,
                 stream):
        self._launch(mA, mASF, mB, mBSF, (mAlpha, mG), (mQ, mSF), stream)

    def tile_row(self, block, t: int):
        """Up tile ``t < half`` of block ``block`` holds output columns ``c .. c + 15``: weight
        rows ``128 (c // 64) + c % 64 ..``; tile ``t + half`` the gate rows 64 further."""
        c = block * (16 * self.half) + (t % self.half) * 16
        return (c // GATE_UP_GROUP) * (2 * GATE_UP_GROUP) + c % GATE_UP_GROUP + (
            t // self.half) * GATE_UP_GROUP

    @cute.jit
    def epilogue(self, acc, scalars, outs, block, tok0, g, lane_q, m):
        """SwiGLU, block scales, packed codes and the scale padding (see the module docstring).
        ``scalars`` = (alpha, G), ``outs`` = (packed [M, I/2], scale bytes)."""
        mQ, mSF = outs
        alpha = scalars[0][0]
        gs = scalars[1][0]
        kb0 = block * self.half  # the CTA's first scale block (= 16-column group)
        # tok0 is a multiple of 8 jt, so the CTA's 8 jt tokens lie in one 128-row tile
        sSF, r0 = scale_tile_at(mSF, self.kb_out, tok0, kb0, 128)

        # 1. h (over the up sums). Blocks (t, j, p) are token tok0 + 8 j + 2 q + p, columns
        #    16 (kb0 + t) ..; this lane holds columns g and g + 8 in acc[t, j, p] and
        #    acc[t, j, p + 2]: the accumulator slice quantize_block_pair takes.
        # 2. Scales and codes (quantize_block_pair); lane g = b % 8 stores block b.
        for t in cutlass.range_constexpr(self.half):
            for j in cutlass.range_constexpr(self.jt):
                for e in cutlass.range_constexpr(4):
                    # silu(gate) * up as silu_mul_nvfp4_quant and the large-M kernel form it
                    acc[t, j, e] = silu_mul_fast(alpha * acc[t + self.half, j, e],
                                                 alpha * acc[t, j, e])
                quant = quantize_block_pair(acc[t, j, 0], acc[t, j, 1], acc[t, j, 2],
                                            acc[t, j, 3], g, gs)
                for p in cutlass.range_constexpr(2):
                    b = (t * self.jt + j) * 2 + p
                    tok = tok0 + j * 8 + lane_q * 2 + p
                    if g == b % 8 and tok < m:
                        gQ = cute.recast_tensor(cute.local_tile(mQ, (1, 8), (tok, kb0 + t)),
                                                cutlass.Uint64)
                        gQ[0] = quant[p]
                        sSF[r0 + j * 8 + lane_q * 2 + p, t] = quant[2 + p]

        # 3. The last token tile's CTAs zero scale rows M .. pad128(M) of their blocks.
        if tok0 + 8 * self.jt >= m:
            zero_scale_padding(mSF, self.kb_out, m, 4 * g + lane_q, kb0, self.half)


class NVFP4GemmSwigluQuantSmallMSplitK(NVFP4GemmSwigluQuantSmallM):
    """The fused small-M kernel with K split over grid z (``splits`` >= 2): the tile's last
    split CTA adds the fp32 partials (``reduce_split_partials``) and runs the SwiGLU +
    quantization epilogue. For shapes with few row blocks (1024x7168: 32 CTAs at M = 1)."""

    def __init__(self, i: int, k: int, a_fp4: bool, row_tiles: int, token_tiles: int,
                 warps: int, prefetch: int, x_tokens: int, splits: int,
                 permuted: bool = False):
        assert splits >= 2
        super().__init__(i, k, a_fp4, row_tiles, token_tiles, warps, prefetch, x_tokens, splits,
                         permuted)

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mG: cute.Tensor, mQ: cute.Tensor, mSF: cute.Tensor,
                 mWork: cute.Tensor, mCount: cute.Tensor, stream):
        self._launch(mA, mASF, mB, mBSF, (mAlpha, mG), (mQ, mSF, mWork, mCount), stream)

    @cute.jit
    def epilogue(self, acc, scalars, outs, block, tok0, g, lane_q, m):
        mQ, mSF, mWork, mCount = outs
        if reduce_split_partials(acc, mWork, mCount, self.splits, g * 4 + lane_q):
            NVFP4GemmSwigluQuantSmallM.epilogue(self, acc, scalars, (mQ, mSF), block, tok0, g,
                                                lane_q, m)


@jit.cached
def compile_nvfp4_gemm_swiglu_quant_small_m(i: int, k: int, a_dtype: str, row_tiles: int = 2,
                                            token_tiles: int = 1, warps: int = 4,
                                            prefetch: int = 1, x_tokens: int = 0,
                                            splits: int = 1, permuted: bool = False):
    """Static I (weights [2I, K/2]), K and tile config; M dynamic. ``a_dtype`` "fp4" or
    "torch.bfloat16" (W4A16). Arguments of the compiled function: a, a_sf, w, w_sf (as
    ``compile_nvfp4_gemm_small_m``), alpha, out_global_scale, out uint8 [M, I/2], out_sf bytes
    (flat uint8), and with ``splits`` > 1 ``split_buffers``' workspace and counters;
    ``permuted``: weights in ``permuted_fp4``'s layout."""
    a_fp4 = a_dtype == "fp4"
    m, a, a_sf, b, b_sf, alpha = fake_operands(2 * i, k, a_fp4)
    gs = make_fake_compact_tensor(cutlass.Float32, (1,))
    q = make_fake_compact_tensor(cutlass.Uint8, (m, i // 2), stride_order=(1, 0),
                                 assumed_align=16)
    sf = make_fake_compact_tensor(cutlass.Uint8, (cute.sym_int(),), assumed_align=16)
    if splits == 1:
        kernel = NVFP4GemmSwigluQuantSmallM(i, k, a_fp4, row_tiles, token_tiles, warps,
                                            prefetch, x_tokens, permuted=permuted)
        extra = ()
    else:
        kernel = NVFP4GemmSwigluQuantSmallMSplitK(i, k, a_fp4, row_tiles, token_tiles, warps,
                                                  prefetch, x_tokens, splits, permuted)
        extra = fake_split_buffers()
    return cute.compile(kernel, a, a_sf, b, b_sf, alpha, gs, q, sf, *extra,
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())


class NVFP4GemmSwigluQuantLargeM(NVFP4GemmLargeM):
    """``NVFP4GemmLargeM`` on the [2I, K] prepared weight with ``_epilogue`` replaced (see the
    module docstring): static I, K and the tile config; M dynamic; bf16 activations."""

    # named barriers (0 is __syncthreads), each synced by both consumer warpgroups:
    GATE_FULL = 1    # silu(gate) is in shared memory
    H_READY = 2      # h is in shared memory (the consumers quantize)
    TABLE_READY = 3  # the reciprocal table is filled (and the quantizer warps' mbarriers)
    # (the base class's staged-store barriers 6, 7 are not used by this epilogue)
    QUANT_DONE = 6   # every consumer has read the tile's h / handed it over
    # With the quantizer warps: the gate warpgroup hands alpha * gate over through an mbarrier
    # and goes on, the up warpgroup forms silu and h (``_h_lines_gate_ahead``), so the
    # exchange's 256 MUFU a thread (~1.2 us a 256-token tile) may run while the gate
    # warpgroup's next wgmmas keep the tensor cores busy. Prepared in session 23 (no device
    # time left), off until ``tools/fused_epilogue_probe.py``'s "ahead" measures it.
    GATE_AHEAD = False
    # The staged h and its quantization by whole 16-column blocks replaced the quantization in
    # the accumulator fragments (``quantize_block_pair``'s 18 shuffles a block pair), the same
    # bits: H200 2026-11-30, session 23, ``tools/fused_epilogue_probe.py``, us, fragments /
    # staged (consumers): 36864x7168 M = 1024 754.7, 764.5 / 739.1, 749.8; 34816x5120 M = 256
    # 154.3, 154.3 / 145.9, 146.0; 4096x7168 M = 1000 86.4, 86.2 / 83.3, 83.2; 9216x7168
    # M = 1000 208.7, 210.9 / 202.5, 204.9 (the quantizer warps: ``quantizer_warps``).

    def __init__(self, i: int, k: int, tile_m: int = 128, stages: int = 0, sms: int = H200_SMS,
                 stream_k: bool = False, hybrid: bool = False, permuted: bool = False,
                 ctas_per_sm: int = 1, k_groups: int = 1, quantizers: int = 0):
        assert i % GATE_UP_GROUP == 0 and TILE_N == 2 * GATE_UP_GROUP
        # ``quantizers`` (``quantizer_warps``): the staged h quantized by that many of the
        # producer warpgroup's idle warps 1..3 instead of by the consumers, who hand each
        # tile over through two mbarriers past the table (h full: 256 consumer arrivals; h
        # empty: one per quantizer thread) and go on to the next tile's main loop. One CTA an
        # SM (two leave the producer warpgroup 24 registers).
        assert quantizers in (0, 1, 2, 3) and (quantizers == 0 or ctas_per_sm == 1), (
            quantizers, ctas_per_sm)
        self.quantizers = quantizers
        super().__init__(2 * i, k, cutlass.Uint8, tile_m, stages, sms, stream_k=stream_k,
                         hybrid=hybrid, permuted=permuted, ctas_per_sm=ctas_per_sm,
                         k_groups=k_groups)
        self.i = i
        self.kb_out = i // BLOCK  # a multiple of 4: the scale buffer has no column padding

    def epilogue_smem_bytes(self) -> int:
        """silu(gate) of the tile (64 rows x tile_m tokens, fp32; then h), then the reciprocal
        table; with ``quantizers`` then the handover (``_handover``: 32 bytes, 48 with
        ``GATE_AHEAD``)."""
        handover = (48 if self.GATE_AHEAD else 32) if self.quantizers else 0
        return (GATE_UP_GROUP * self.tile_m + RECIPROCAL_TABLE_SIZE) * 4 + handover

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
    def _epilogue(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile):
        """Row tile ``row_tile`` is interleave group ``row_tile``: consumer warpgroup 0 holds the
        up rows of h columns ``64 row_tile ..``, warpgroup 1 their gate rows, in the same
        fragment positions. ``scalars`` = (alpha, G), ``outs`` = (packed [M, I/2], scale
        bytes). With ``quantizers`` the quantizer warps quantize the staged h
        (``_handed_over_h``), else the consumers (``_staged_epilogue_h``)."""
        if cutlass.const_expr(self.quantizers > 0):
            self._handed_over_h(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile)
        else:
            self._staged_epilogue_h(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile)

    @cute.jit
    def _zero_scale_padding_of_last(self, mQ, mSF, wg_tid, row_tile, tok_tile):
        """The up warpgroup, on the last token tile: scale rows M .. pad128(M) of the row
        tile's blocks are zero."""
        if tok_tile * self.tile_m + self.tile_m >= mQ.shape[0]:
            zero_scale_padding(mSF, self.kb_out, mQ.shape[0], wg_tid % 32,
                               row_tile * (GATE_UP_GROUP // BLOCK) + wg_tid // 32, 1)

    @cute.jit
    def _staged_epilogue_h(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile):
        """``_epilogue`` with the consumers quantizing: h as token lines
        (``_h_lines``: 64 fp32 = 256 bytes, 16-byte chunk c at slot c ^ (token % 8)), then all
        256 threads quantize (token, block) items with ``_staged_quantize``."""
        mQ, mSF = outs
        alpha = scalars[0][0]
        wg_tid = ctid % 128
        done = pipeline.NamedBarrier(barrier_id=self.QUANT_DONE, num_threads=256)
        h_ready = pipeline.NamedBarrier(barrier_id=self.H_READY, num_threads=256)
        done.arrive_and_wait()  # the previous tile's h is read by every thread
        self._h_lines(acc, tCcC, ctid, sEpi, alpha)
        if ctid < 128:
            self._zero_scale_padding_of_last(mQ, mSF, wg_tid, row_tile, tok_tile)
        h_ready.arrive_and_wait()
        self._staged_quantize(sEpi, scalars[1][0], self._table(sEpi), mQ, mSF, ctid, row_tile,
                              tok_tile * self.tile_m)

    @cute.jit
    def _h_lines(self, acc, tCcC, ctid, sEpi, alpha):
        """h as token lines: the gate warpgroup writes silu(alpha * gate) to its fragment's
        line slots; after ``GATE_FULL`` the up warpgroup, whose fragment positions are the
        same, multiplies its own slots by alpha * up in place (no thread reads another's
        slot, so the lines need no barrier before they are rewritten)."""
        bases = staged_line_bases(tCcC, 4)
        full = pipeline.NamedBarrier(barrier_id=self.GATE_FULL, num_threads=256)
        n_acc = cute.size(acc)
        if ctid >= 128:
            for e in cutlass.range_constexpr(n_acc):  # element v + 4 j
                at = bases[e % 4] + e // 4 * 8 * GATE_UP_GROUP
                gate = acc[e] * cutlass.Float32(POW2_63) * alpha
                sEpi[at] = silu_mul_fast(gate, cutlass.Float32(1.0))
            full.arrive_and_wait()
        else:
            full.arrive_and_wait()
            # every load before the first store: the four bases are runtime values, so a
            # store could alias a later load and would hold it back (~15 us at 36864x7168
            # M = 1024 when interleaved)
            for e in cutlass.range_constexpr(n_acc):
                at = bases[e % 4] + e // 4 * 8 * GATE_UP_GROUP
                acc[e] = acc[e] * cutlass.Float32(POW2_63) * alpha * sEpi[at]
            for e in cutlass.range_constexpr(n_acc):
                sEpi[bases[e % 4] + e // 4 * 8 * GATE_UP_GROUP] = acc[e]

    @cute.jit
    def _h_lines_gate_ahead(self, acc, tCcC, ctid, sEpi, alpha, gate, parity):
        """``_h_lines`` with the silu moved to the up warpgroup (``GATE_AHEAD``): the gate
        warpgroup writes alpha * gate to its line slots, arrives on the ``gate`` mbarrier and
        goes on to the next tile's main loop; the up warpgroup waits for it (phase
        ``parity``), then forms h = (alpha * up) * silu(alpha * gate) in its own slots, the
        same arithmetic as ``_h_lines``, so the same bits."""
        bases = staged_line_bases(tCcC, 4)
        n_acc = cute.size(acc)
        if ctid >= 128:
            for e in cutlass.range_constexpr(n_acc):
                sEpi[bases[e % 4] + e // 4 * 8 * GATE_UP_GROUP] = (
                    acc[e] * cutlass.Float32(POW2_63) * alpha)
            cute.arch.mbarrier_arrive(gate)
        else:
            cute.arch.mbarrier_wait(gate, parity)
            for e in cutlass.range_constexpr(n_acc):  # every load before the first store
                at = bases[e % 4] + e // 4 * 8 * GATE_UP_GROUP
                acc[e] = acc[e] * cutlass.Float32(POW2_63) * alpha * silu_mul_fast(
                    sEpi[at], cutlass.Float32(1.0))
            for e in cutlass.range_constexpr(n_acc):
                sEpi[bases[e % 4] + e // 4 * 8 * GATE_UP_GROUP] = acc[e]

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
        if ctid == 0:
            slots[0] = row_tile
            slots[1] = tok_tile
            slots[2] = cutlass.Int32(0)
        cute.arch.mbarrier_arrive(full)
        handed[0] = handed[0] + 1
        handed[1] = row_tile
        handed[2] = tok_tile

    @cute.jit
    def _staged_quantize(self, sEpi, gs, table, mQ, mSF, tid, row_tile, tok0):
        """Items ``tid`` + 256 p of the staged h (``_quantize_item``) by the consumers."""
        items = self.tile_m * (GATE_UP_GROUP // BLOCK)
        where = self._quantize_where(sEpi, mSF, row_tile, tok0)
        for p in cutlass.range_constexpr((items + 255) // 256):
            if tid + 256 * p < items:
                self._quantize_item(where, gs, table, mQ, tid + 256 * p)

    def _quantize_where(self, sEpi, mSF, row_tile, tok0):
        """What ``_quantize_item`` needs of the tile: h as 16-byte chunks, its scale tile (and
        row offset), its first token and scale block."""
        sChunks = cute.make_tensor(sEpi.iterator, cute.make_layout(
            (self.tile_m * 16, 4), stride=(4, 1)))
        sSF, r0 = scale_tile_at(mSF, self.kb_out, tok0, row_tile * (GATE_UP_GROUP // BLOCK),
                                2 * 128)
        return sChunks, sSF, r0, tok0, row_tile * (GATE_UP_GROUP // BLOCK)

    @cute.jit
    def _quantize_item(self, where, gs, table, mQ, item):
        """Item (token t, block b) = (item // 4, item % 4) of the staged h: the block's four
        16-byte chunks 4 b .. 4 b + 3 of the token's line, quantized
        (``quantize_block16``), its 8 code bytes and scale byte stored."""
        sChunks, sSF, r0, tok0, kb0 = where
        blocks = GATE_UP_GROUP // BLOCK
        t = item // blocks
        b = item % blocks
        h = cute.make_rmem_tensor((16,), cutlass.Float32)
        for c in cutlass.range_constexpr(4):
            chunk = cute.make_rmem_tensor((1, 4), cutlass.Float32)
            slot = staged_line_slot(t, 4 * b + c, 16)
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

@jit.cached
def compile_nvfp4_gemm_swiglu_quant_large_m(i: int, k: int, tile_m: int = 128, stages: int = 0,
                                            sms: int = H200_SMS, stream_k: bool = False,
                                            hybrid: bool = False, permuted: bool = False,
                                            ctas_per_sm: int = 1, k_groups: int = 1,
                                            quantizers: int = 0):
    """Static I (weights [2I, K/2]), K and tile config (as ``compile_nvfp4_gemm_large_m``,
    ``permuted``, ``ctas_per_sm`` and ``k_groups`` too; ``quantizers`` as
    ``NVFP4GemmSwigluQuantLargeM``);
    M dynamic. Arguments of the compiled function: a bf16 [M, K], w int32 [2I, K/8], w_sf int32
    [2I * K/64], alpha, out_global_scale, out uint8 [M, I/2], out_sf bytes (flat uint8); with
    ``stream_k`` then the workspace and counters of ``stream_k_buffers``."""
    m = cute.sym_int()
    a = make_fake_compact_tensor(cutlass.BFloat16, (m, k), stride_order=(1, 0), assumed_align=16)
    b = make_fake_compact_tensor(cutlass.Int32, (2 * i, k // 8), stride_order=(1, 0),
                                 assumed_align=16)
    b_sf = make_fake_compact_tensor(cutlass.Int32, (2 * i // TILE_N * (k // TILE_K)
                                                    * SF_CHUNK_WORDS,), assumed_align=16)
    alpha = make_fake_compact_tensor(cutlass.Float32, (1,))
    gs = make_fake_compact_tensor(cutlass.Float32, (1,))
    q = make_fake_compact_tensor(cutlass.Uint8, (m, i // 2), stride_order=(1, 0),
                                 assumed_align=16)
    sf = make_fake_compact_tensor(cutlass.Uint8, (cute.sym_int(),), assumed_align=16)
    stream = make_fake_stream(use_tvm_ffi_env_stream=True)
    if stream_k:
        kernel = NVFP4GemmSwigluQuantLargeMStreamK(i, k, tile_m, stages, sms, stream_k=True,
                                                   hybrid=hybrid, permuted=permuted,
                                                   ctas_per_sm=ctas_per_sm, k_groups=k_groups,
                                                   quantizers=quantizers)
        return cute.compile(kernel, a, b, b_sf, alpha, gs, q, sf, *fake_stream_k_buffers(),
                            stream, options=compile_options())
    kernel = NVFP4GemmSwigluQuantLargeM(i, k, tile_m, stages, sms, permuted=permuted,
                                        ctas_per_sm=ctas_per_sm, k_groups=k_groups,
                                        quantizers=quantizers)
    return cute.compile(kernel, a, b, b_sf, alpha, gs, q, sf, stream, options=compile_options())


class NVFP4GemmSwigluQuantLargeMStreamK(NVFP4GemmSwigluQuantLargeM):
    """The fused kernel in stream-K (``stream_k``), the workspace and counters as arguments."""

    @cute.jit
    def __call__(self, mA: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mG: cute.Tensor, mQ: cute.Tensor, mSF: cute.Tensor,
                 mWork: cute.Tensor, mCount: cute.Tensor, stream):
        self._launch(mA, mB, mBSF, (mAlpha, mG), (mQ, mSF), stream, (mWork, mCount))


# ---- public function ----------------------------------------------------------------------------
def swiglu_small_m_regime(m: int, i: int, k: int, a_fp4: bool = True) -> bool:
    """The fused kernel's regime: the small-M kernel up to 16 tokens (fp4 activations at
    9..16 take the wgmma route where ``wgmma_from_9_tokens`` says so for the [2I, K] GEMM:
    the fused kernel on the plain launch's 16-token tiles, ``large_m_route``'s "narrow");
    past that the wgmma kernel (in stream-K there) for
    weights over 32 Mi elements, from 33 tokens for weights over 8 Mi, from 65 below. H200
    2026-11-30, ``tools/fused_regime_probe.py``, W4A4 us, small-M / stream-K wgmma:
    36864x7168 M = 17..32 131.5 / 120.5, M = 64 246.0 / 122.2; 34816x5120 M = 32 92.0 /
    88.4; 9216x7168 M = 32 42.9 / 42.0; 4096x7168 M = 32 26.2 / 28.2, M = 48 30.6 / 28.3;
    1024x7168 M = 64 13.7 / 26.1."""
    weights = 2 * i * k
    if m <= 16:
        return not (a_fp4 and m >= 9 and wgmma_from_9_tokens(2 * i, k))
    if weights > 32 * 2**20:
        return False
    return m <= (32 if weights > 8 * 2**20 else SMALL_M_MAX)


# One token on permuted words, short K and many row blocks: 3 warps a CTA instead of 4
# (session 21, ``tools/near_miss_probe.py`` parts 4 and 7..11, two rounds each, us, warps
# 4 / 3 / 5: 34816x5120 (20 K steps, 1088 row blocks) 32.07, 32.10, 32.33, 32.35 / 30.71,
# 30.74, 30.87, 30.87 / 32.94, 32.97; 36864x7168 (28 steps) 44.55, 44.59 / 45.24, 45.36 /
# 45.25, 45.20; 9216x7168 (288 blocks) 14.57, 14.64 / 18.12, 18.18). Packed words unmeasured.
M1_THREE_WARPS_MAX_STEPS = 20
M1_THREE_WARPS_MIN_BLOCKS = 8


def swiglu_small_m_config(m: int, i: int, k: int, permuted: bool = False) -> tuple[int, ...]:
    """(row_tiles, token_tiles, warps, prefetch[, splits]): ``small_m_config`` of the [2I, K] GEMM, then
    what ``tools/swiglu_config_probe.py`` measured best for the fused kernel (H200,
    2026-11-29, every config at M = 1, 8, 16, 32 on the issue's five shapes):

    * at least two row tiles (an up tile and its gate tile);
    * where that leaves fewer row blocks than SMs (small I: 1024x7168 has 32), 8 warps per CTA
      split K further, so each warp walks fewer steps (16 warps of ~126 registers would not
      fit an SM's register file);
    * one token tile per CTA where all token tiles still fit in one wave of CTAs (1024x7168
      at M = 32: 10.8 us against 21.8 with four), else at most two (four lost everywhere at
      M = 32: 36864x7168 136 against 161), except that weights under 32 Mi elements keep
      ``small_m_config``'s four token tiles and warps where that still gives a CTA per SM
      (4096x7168 at M = 64: the fused kernel with two took 50.9 us in session 5, the plain
      GEMM's same main loop with (2, 4, 4, 0) 30.7; the probe had measured only up to
      M = 32; with 8 warps four tiles would need ~186 registers x 256 threads per CTA);
    * register prefetch only for one token tile of small weights, or at M = 1 (staged
      activations): without it 9216x7168 M = 16 takes 28.7 us against 42.7, 36864x7168 M = 8
      57.5 against 60.0; with it 1024x7168 M = 32 takes 10.8.

    Every best config of the probe but two is this rule's (4096x7168 M = 16: 16.2 us with
    prefetch, this rule's config not measured; 34816x5120 M = 1: 43.7 without prefetch
    against 46.7).

    Where the CTAs fill at most half the SMs, K is split over 4 (or 2) CTAs, reduced in the
    launch (``tools/small_split_probe.py``, H200 2026-11-30: 1024x7168 is 32 CTAs, M = 1 8.2
    us against 9.0, M = 8 8.5 against 10.2; 4096x7168's 128 CTAs and 9216x7168's 288 lost
    with any split).

    Permuted weight words (``permuted``) at 9..16 tokens keep the register prefetch with two
    token tiles on weights under 64 Mi elements (``tools/swiglu_permuted_probe.py``, H200
    2026-11-30, M = 16: 4096x7168 15.66 -> 12.96 us, 9216x7168 24.90 -> 24.13; 34816x5120
    lost 4% with it, 36864x7168 gained 2%; since session 13's three CTAs per SM and session
    14's operand change, ``tools/m16_config_probe.py``, M = 12 / 16: 36864x7168 61.83 / 62.00
    -> 60.60 / 60.78, 34816x5120 45.18 / 45.23 -> 45.12 / 45.17, so on every weight), at
    every M on weights under 8 Mi elements (session 19, ``tools/near_miss_probe.py``, two
    rounds: 1024x7168 M = 64 (2, 2, 8, 0) 11.94, 11.21 -> (2, 2, 8, 1) 10.24, 10.14), and at
    2..8 tokens on every weight
    (``tools/fused_prefetch_probe.py``, H200 2026-11-30, without -> with, us: 36864x7168 M = 2
    / 4 / 8 64.1 / 50.0 / 50.3 -> 49.3 / 47.4 / 49.2, W4A16 68.5 / 55.1 / 63.0 -> 53.4 / 53.1 /
    60.4, 34816x5120 43.3 / 35.8 / 35.9 -> 34.7 / 35.4 / 35.6).

    One token on permuted words with at most ``M1_THREE_WARPS_MAX_STEPS`` K steps and
    ``M1_THREE_WARPS_MIN_BLOCKS`` row blocks an SM takes 3 warps (the comment above)."""
    rt, jt, plain_warps, prefetch = small_m_config(m, 2 * i, k)[:4]
    rt = max(rt, 2)
    row_blocks = -(-2 * i // (16 * rt))
    warps = plain_warps
    if row_blocks < H200_SMS and k // STEP >= 8:
        warps = max(warps, 8)
    token_tiles = -(-m // 8)
    if row_blocks * token_tiles <= H200_SMS:
        jt = 1
    elif 2 * i * k >= 32 * 2**20 or row_blocks * -(-token_tiles // jt) < H200_SMS:
        jt = min(jt, 2)
    else:  # the plain GEMM's config (four token tiles: ~186 registers, so its 4 warps)
        warps = plain_warps
    prefetch = 0 if m > 1 and (jt >= 2 or 2 * i * k >= 64 * 2**20) else 1
    if permuted and (m <= 16 or 2 * i * k < 8 * 2**20):
        prefetch = 1
    if permuted and m == 1 and k // STEP <= M1_THREE_WARPS_MAX_STEPS and warps == 4 \
            and row_blocks >= M1_THREE_WARPS_MIN_BLOCKS * H200_SMS:
        warps = 3
    ctas = row_blocks * -(-token_tiles // jt)
    for splits in (4, 2):
        if ctas * splits <= H200_SMS and k // STEP >= 4 * splits:  # >= 4 K steps per split
            return rt, jt, warps, prefetch, splits
    return rt, jt, warps, prefetch


def launch_small_m(a, a_sf, w, w_sf, alpha: torch.Tensor, out_global_scale: torch.Tensor,
                   out: torch.Tensor, out_sf: torch.Tensor,
                   config: tuple[int, ...]) -> None:
    """The fused small-M kernel with an explicit (row_tiles, token_tiles, warps, prefetch[,
    splits]) on validated operands (M >= 1); alpha and out_global_scale one-element fp32
    tensors. splits > 1: K split over grid z, reduced in the same launch."""
    two_i, k, permuted = weight_dims(w)
    i, m = two_i // 2, a.shape[0]
    splits = config_splits(config)
    a_kind = "fp4" if a_sf is not None else str(a.dtype)
    x_tokens = staged_tokens(m, config, k, a_fp4=a_sf is not None)
    # W4A16 has no activation scales; the kernel never reads that argument, w_sf stands in.
    args = (a.view(torch.int32), (w_sf if a_sf is None else a_sf).view(-1), w.view(torch.int32),
            w_sf.view(-1), alpha, out_global_scale, out, out_sf.view(torch.uint8).view(-1))
    kernel = compile_nvfp4_gemm_swiglu_quant_small_m(i, k, a_kind, *config[:4], x_tokens,
                                                     splits, *((True,) if permuted else ()))
    kernel(*args, *(split_buffers(m, 2 * i, config, w.device) if splits > 1 else ()))


# The quantizer warps (``NVFP4GemmSwigluQuantLargeM``'s ``quantizers``) hide a tile's
# quantization behind the next tile's main loop; on a CTA's last tile the consumers join them
# (``_epilogue_finish``). ``tools/fused_epilogue_probe.py`` (H200 2026-11-30, session 23, us,
# interleaved graphs, two rounds, permuted words; with them / the consumers quantizing / the
# fragment-held quantization): 36864x7168 M = 1024 (whole 256-token tiles, 1152 on 132 CTAs)
# 717.4, 726.1 / 745.9, 755.1 / 755.9, 764.2; 34816x5120 M = 256 (stream-K) 140.9, 141.9 /
# 145.3, 146.7 / 152.9, 154.1; 9216x7168 M = 1000 (stream-K) 197.0, 197.3 / 202.4, 203.0 /
# 209.7, 209.7; 4096x7168 M = 1000 (128 tiles, one a CTA) 84.6, 84.6 / 83.9, 84.0 / 86.6,
# 86.7. Without the consumers' help on the last tile 4096x7168 took 86.8 / 87.9 (call 3), and
# 2 quantizer warps lost to 3 everywhere. On packed words, whose decode keeps the consumers
# issuing, they do not pay (36864x7168 M = 1024 779.3, 786.5 / 774.3, 782.9; 34816x5120
# M = 1024 556.3, 556.8 / 555.5, 560.6). So: permuted words, 128- and 256-token tiles, one CTA
# an SM (the narrow tiles' fused launches are not measured with them).
QUANTIZER_WARPS = 3


def quantizer_warps(tile_m: int, ctas_per_sm: int, permuted: bool) -> int:
    """The quantizer warps of a fused large-M launch (the comment above)."""
    return QUANTIZER_WARPS if permuted and ctas_per_sm == 1 and tile_m >= 128 else 0


def launch_large_m(a_bf16, w, w_sf, alpha: torch.Tensor, out_global_scale: torch.Tensor,
                   out: torch.Tensor, out_sf: torch.Tensor, config: tuple[int, ...],
                   stream_k: bool = False, hybrid: bool = False, ctas_per_sm: int = 1,
                   k_groups: int = 1,
                   compile_fn=compile_nvfp4_gemm_swiglu_quant_large_m,
                   quantizers: int | None = None) -> None:
    """The fused large-M kernel on validated operands (M >= 1): a_bf16 [M, K] bf16 (in
    ``PERMUTED_K_ORDER`` with permuted int32 weight words), config =
    (tile_m, stages) or (tile_m, stages, ctas), as ``nvfp4_gemm_large_m.launch_large_m``;
    ``stream_k``: the CTAs share out (tile, k-tile) units evenly (``stream_k``); ``hybrid``:
    only the last one to two waves' worth of tiles; ``ctas_per_sm`` and ``k_groups`` as there
    (``plain_launch_options``); ``compile_fn`` as there (of
    ``compile_nvfp4_gemm_swiglu_quant_large_m``'s arguments); ``quantizers``: the quantizer
    warps (None: ``quantizer_warps``' rule)."""
    two_i, k, permuted = weight_dims(w)
    i = two_i // 2
    tile_m, stages, *ctas = config
    sms = ctas[0] if ctas else ctas_per_sm * sm_count(w.device.index or 0)
    if quantizers is None:
        quantizers = quantizer_warps(tile_m, ctas_per_sm, permuted)
    tail = compile_tail(permuted, ctas_per_sm, k_groups)
    if quantizers:
        tail = (permuted, ctas_per_sm, k_groups, quantizers)
    kernel = compile_fn(i, k, tile_m, stages, sms, stream_k, hybrid, *tail)
    args = (a_bf16, w.view(torch.int32), w_sf.view(torch.int32).view(-1), alpha,
            out_global_scale, out, out_sf.view(torch.uint8).view(-1))
    if stream_k:
        args += stream_k_buffers(a_bf16.shape[0], 2 * i, tile_m, sms, w.device)
    kernel(*args)


# The fused kernel on ``nvfp4_gemm``'s own stream-K launch where that has 16- or 32-token
# tiles (its CTAs per SM and K groups a stage too): no fp32 round trip and no second kernel
# (the fp32 route's ~3.5-4 us at M = 16 on 36864x7168). ``tools/ab_fused_narrow.sh`` (H200
# 2026-11-30, session 19, public function us, two rounds, fp32 route / this): 36864x7168
# M = 16 56.6, 56.7 / 53.6, 53.7, M = 32 59.9, 59.3 / 56.9, 56.6; 34816x5120 M = 16 (small
# kernel before) 45.0, 44.8 / 41.0, 41.5, M = 32 46.5, 46.3 / 42.6, 42.2; 9216x7168 M = 32
# 26.3, 26.3 / 23.8, 23.8.
FUSED_NARROW_TILES = True


@functools.lru_cache(maxsize=4096)  # pure in its integers, asked on every large-M call
def large_m_route(m: int, i: int, k: int) -> tuple[str, object]:
    """The route past the small-M regime: ``("stream_k", tile_m)``, the fused TMA + wgmma
    kernel in stream-K where ``stream_k_plan(fused=True)`` takes it; ``("split", plan)``
    (``plain_plan``'s form), the fp32 split route where whole tiles would starve the grid
    (``split_route_plan``), or where ``nvfp4_gemm``'s own launch has
    narrower token tiles than the fused kernel (``fp32_route_plan``: 32-token tiles at 17..32
    tokens, 16 at 9..16 on 36864x7168, 128-token stream-K tiles at 129..256 on 9216x7168,
    64-token whole tiles at 1024 tokens on 1024x7168), except that ``("narrow", tile_m)``
    runs the fused kernel itself on that launch where it is stream-K with 16- or 32-token
    tiles (``FUSED_NARROW_TILES``); else ``("whole", config)``, the fused kernel on whole
    tiles.

    H200 2026-11-30, ``tools/stream_k_probe.py``, us, stream-K / before (the fused kernel or
    the split route): 36864x7168 M = 256 224.5 / 261.5; 9216x7168 M = 256 66.5 / 88.6,
    M = 1024 224.5 / 260.9; 1024x7168 M = 256 26.6 / 30.7 (split route); 4096x7168 M = 128
    30.0 / 36.0; 34816x5120 M = 256 161.7 / 190.4.

    Since the split route's partial sums are reduced by one ``torch.sum``, weights of at most
    32 Mi elements take it before stream-K from 128 tokens wherever ``large_m_plan`` splits K
    (``tools/swiglu_permuted_probe.py``, H200 2026-11-30, permuted words, us, split route /
    stream-K: 1024x7168 M = 128 19.7 / 21.0, M = 256 21.7 / 26.5 (the unfused pair 23.5),
    M = 512 27.8 / 29.7; 4096x7168 M = 128 27.9 / 29.4; at M = 64 the swiglu suite had
    4096x7168's stream-K at 22.2 against the pair's 23.4, the split route's own cost)."""
    plan = split_route_plan(m, i, k)
    if plan is not None and m >= 128 and 2 * i * k <= 32 * 2**20:
        return "split", plan
    stream_plan = stream_k_plan(m, 2 * i, k, fused=True)
    config = large_m_config(m, 2 * i, k)
    fused_tile = (stream_plan[0] if stream_plan is not None
                  else plan[0] if plan is not None else config[0])
    narrower = fp32_route_plan(m, i, k, fused_tile)
    if narrower is not None and FUSED_NARROW_TILES and narrower[0] <= 32 and narrower[2:] == (
            True, False):
        return "narrow", narrower[0]
    if narrower is not None:
        return "split", narrower
    if stream_plan is not None:
        return "stream_k", stream_plan[0]
    if plan is not None:
        return "split", plan
    return "whole", config


def route_launch(route: str, plan, m: int, two_i: int, k: int) -> tuple[tuple, bool, dict]:
    """(config, stream_k, ``launch_large_m`` options) of the fused kernel's ``large_m_route``
    routes: "whole", "stream_k" (``fused_stream_k_options``) and "narrow" (the plain GEMM's
    launch, with its CTAs per SM and K groups)."""
    if route == "whole":
        return plan, False, {}
    if route == "narrow":
        return (plan, 0), True, plain_launch_options(m, two_i, k, plan, True)
    assert route == "stream_k", route
    return (plan, 0), True, fused_stream_k_options(m, two_i, k, plan)


def _large_m(a, a_sf, w, w_sf, alpha, out_global_scale, out, out_sf):
    """``large_m_route``'s launch (W4A16 kernels; NVFP4 activations through
    ``bf16_activations``, as ``nvfp4_gemm`` at large M)."""
    two_i, k, permuted = weight_dims(w)
    m, i = a.shape[0], two_i // 2
    route, plan = large_m_route(m, i, k)
    if route == "split":
        launch_split_route(a, a_sf, w, w_sf, alpha, out_global_scale, out, out_sf, plan)
        return
    config, stream_k, options = route_launch(route, plan, m, two_i, k)
    launch_large_m(bf16_activations(a, a_sf, permuted), w, w_sf, alpha, out_global_scale, out,
                   out_sf, config, stream_k=stream_k, **options)


def _validate(a, a_sf, w, w_sf, out, out_sf) -> tuple[int, int, int]:
    """Dtypes and shapes, then devices and memory layout (CPU inputs: all on the CPU); (M, I, K)."""
    m, n, k = check_operands(a, a_sf, w, w_sf, b_name="w")
    if n % (2 * GATE_UP_GROUP):
        raise ValueError(f"w: 2I = {n} rows must be a multiple of {2 * GATE_UP_GROUP} (groups of "
                         f"{GATE_UP_GROUP} up + {GATE_UP_GROUP} gate rows from "
                         f"prepare_gate_up_weight), got shape {tuple(w.shape)}")
    i = n // 2
    if out is not None:
        check_dtype("out", out, torch.uint8)
        if tuple(out.shape) != (m, i // 2):
            raise ValueError(f"out: expected packed uint8 of shape ({m}, {i // 2}), got "
                             f"{tuple(out.shape)}")
    if out_sf is not None:
        check_dtype("out_sf", out_sf, torch.float8_e4m3fn, torch.uint8)
        mp, kbp = sf_padded_shape(m, i // BLOCK)
        if out_sf.numel() != mp * kbp:
            raise ValueError(f"out_sf: expected the swizzled scale buffer of {mp}x{kbp} = "
                             f"{mp * kbp} bytes for M={m}, I={i}, got shape "
                             f"{tuple(out_sf.shape)}")
    named = [("w", w), ("w_sf", w_sf), ("a", a)] + ([("a_sf", a_sf)] if a_sf is not None else [])
    named += [(name, t) for name, t in (("out", out), ("out_sf", out_sf)) if t is not None]
    if w.is_cuda:
        check_placement(named, like=w)
    else:
        for name, t in named:
            if t.device != w.device:
                raise ValueError(f"{name}: on {t.device}, but w is on {w.device}")
            check_contiguous(name, t)
    return m, i, k


def nvfp4_gemm_swiglu_quant(a: torch.Tensor, a_sf: torch.Tensor | None, w: torch.Tensor,
                            w_sf: torch.Tensor, alpha, out_global_scale,
                            out: torch.Tensor | None = None, out_sf: torch.Tensor | None = None
                            ) -> tuple[torch.Tensor, torch.Tensor]:
    """gate_up GEMM + SwiGLU + NVFP4 quantization of h in one launch (at large M, NVFP4
    activations are dequantized to bf16 first).

    a: packed uint8 [M, K/2] with swizzled e4m3 ``a_sf``, or bf16 [M, K] with ``a_sf=None``.
    w, w_sf: ``prepare_gate_up_weight``'s [2I, K/2] uint8 (or, with ``permute=True``, int32
    words [2I, K/8], decoded faster) and swizzled e4m3 scales (I a multiple of 64, K of 64).
    alpha = input_scale * weight_scale_2 and out_global_scale = the down projection's
    input_scale_inv: floats or one-element fp32 tensors.
    ``h = (alpha * up) * silu(alpha * gate)`` in fp32, quantized with G = out_global_scale.
    ``w`` and ``w_sf`` must not be written by the launch just before this call: with PDL the
    small-M kernel reads them while that launch may still run (README "Launches").

    Returns ``(out, out_sf)``: ``out`` uint8 [M, I/2] (element 2i in the low nibble),
    ``out_sf`` float8_e4m3fn [pad128(M), pad4(I/16)], swizzled, rows past M zero. ``out`` /
    ``out_sf``: optional buffers to write (``out_sf`` uint8 or e4m3, any shape with the right
    byte count; the result is an e4m3 [pad128(M), pad4(I/16)] view of it). CPU tensors take
    ``reference.gemm_swiglu_quant``.

    Route: the fused small-M kernel (``swiglu_small_m_regime``; K split in the launch where its
    CTAs fill at most half the GPU), else the fused wgmma kernel, in stream-K where whole
    tiles would leave the last wave mostly empty (``stream_k_plan``); where it does not take
    stream-K but its grid would still starve, or where ``nvfp4_gemm``'s own launch has
    narrower token tiles, that wgmma GEMM (with split K, or as ``nvfp4_gemm`` launches it)
    writes fp32 pre-activations and a second kernel forms h in fp32 and quantizes it
    (``swiglu_split_route``), with this function's numerics. The unfused ``nvfp4_gemm`` +
    ``silu_mul_nvfp4_quant`` pair itself is never taken: it rounds gate, up and h to bf16,
    moving 3-8% of the block scales off the fp32 numerics. Crossover table:
    ``python -m cute_kernels.bench swiglu``.
    """
    if (torch.compiler.is_compiling() and out is None and out_sf is None
            and isinstance(alpha, torch.Tensor) and isinstance(out_global_scale, torch.Tensor)):
        return torch.ops.cute_kernels.nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha,
                                                              out_global_scale)
    m, i, k = _validate(a, a_sf, w, w_sf, out, out_sf)
    alpha_t = as_scale_tensor("alpha", alpha, w.device)
    gs_t = as_scale_tensor("out_global_scale", out_global_scale, w.device)
    mp, kbp = sf_padded_shape(m, i // BLOCK)
    if out is None:
        out = torch.empty((m, i // 2), dtype=torch.uint8, device=w.device)
    if out_sf is None:
        out_sf = torch.empty((mp, kbp), dtype=torch.uint8, device=w.device)
    sf_bytes = out_sf.view(torch.uint8).view(mp, kbp)
    if m == 0:
        return out, sf_bytes.view(torch.float8_e4m3fn)
    if not w.is_cuda:
        q, sf = reference.gemm_swiglu_quant(a, a_sf, w, w_sf, alpha_t, gs_t)  # either layout
        out.copy_(q)
        sf_bytes.copy_(sf.view(torch.uint8))
    elif swiglu_small_m_regime(m, i, k, a_sf is not None):
        launch_small_m(a, a_sf, w, w_sf, alpha_t, gs_t, out, sf_bytes,
                       swiglu_small_m_config(m, i, k, w.dtype == torch.int32))
    else:
        _large_m(a, a_sf, w, w_sf, alpha_t, gs_t, out, sf_bytes)
    return out, sf_bytes.view(torch.float8_e4m3fn)


# ---- torch.compile: a custom op (fresh outputs, tensor scalars) ---------------------------------
@torch.library.custom_op("cute_kernels::nvfp4_gemm_swiglu_quant", mutates_args=())
def _nvfp4_gemm_swiglu_quant_op(a: torch.Tensor, a_sf: torch.Tensor | None, w: torch.Tensor,
                                w_sf: torch.Tensor, alpha: torch.Tensor,
                                out_global_scale: torch.Tensor
                                ) -> tuple[torch.Tensor, torch.Tensor]:
    return nvfp4_gemm_swiglu_quant(a, a_sf, w, w_sf, alpha, out_global_scale)


@_nvfp4_gemm_swiglu_quant_op.register_fake
def _(a, a_sf, w, w_sf, alpha, out_global_scale):
    m, i = a.shape[0], w.shape[0] // 2
    mp, kbp = (m + 127) // 128 * 128, (i // BLOCK + 3) // 4 * 4
    return (a.new_empty((m, i // 2), dtype=torch.uint8),
            a.new_empty((mp, kbp), dtype=torch.float8_e4m3fn))
