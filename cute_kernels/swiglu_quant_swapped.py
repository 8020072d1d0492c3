"""``nvfp4_gemm_swiglu_quant``'s kernel with the operands' roles swapped, for token counts well
above the weight's rows (W4A4 only).

The wgmma kernels decode their register operand (normally the weights) in the main loop and
read the other operand as bf16 from shared memory, so NVFP4 activations first go through a
pass that writes M x K bf16 (``bf16_activations``): at 1024x7168 and 4096 tokens that pass is
16 of 89 us. Here the NVFP4 activations' packed bytes are the register operand
(``KOrder.PAIRS``) and the gate_up weights go through the pass instead
(``bf16_gate_up_weights``: 2I x K whatever M is). ``NVFP4GemmLargeM``'s "weight rows" are then
tokens and its "tokens" the weight's features:

* A CTA tile is 128 tokens (two consumer warpgroups x 64, the register operand's rows, a
  dynamic count: ``_sf_columns``, ``_tile_coords``) x 256 features: two interleave groups of
  64 up and 64 gate rows (``tile_m`` = 256; bands of feature tiles as the normal kernel's
  bands of token tiles), whole or in stream-K (the base class's fix-up).
* The accumulator holds (token, feature): element e = v0 + 2 v1 + 4 j of a thread is token
  r + 8 v1, feature 8 j + 2 q + v0, so the gate partner of an up value (j % 16 < 8) is
  element e + 32 of the same thread: h = (alpha * up) * silu(alpha * gate) forms in
  registers, with the normal kernel's arithmetic (the same bits).
* h goes to shared memory as the normal fused kernel's token lines (64 fp32 h columns, 16-byte
  chunks swizzled by the line, ``staged_line_slot``), line 128 g + t for group g and token t,
  and the 256 consumer threads (or three quantizer warps, ``quantizers``) quantize the
  (line, 16-column block) items (``NVFP4GemmSwigluQuantLargeM._quantize_item``). The CTAs of
  the last token tile zero scale rows M .. pad128(M) of their blocks.

``nvfp4_gemm_swiglu_quant`` takes it where tokens outnumber the weight's rows at least twice and
its tiles fill most of a wave (``swapped_route``).
"""

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline
import torch
from cutlass.cute.runtime import make_fake_compact_tensor

from layouts import GATE_UP_GROUP

from . import jit
from .arch import compile_options, sm_count
from .device_mma import POW2_63
from .device_silu import silu_mul_fast
from .fused_scales import BLOCK, scale_tile_at, zero_scale_padding
from .k_order import KOrder
from .large_m_epilogue import staged_line_slot
from .nvfp4_dequant import bf16_activations, compile_nvfp4_dequant_permuted_words
from .nvfp4_gemm_large_m import (H200_SMS, L2_BAND_BYTES, SF_CHUNK_WORDS, TILE_N,
                                 fake_stream_k_buffers, stream_k_buffers)
from .permuted_fp4 import weight_dims
from .swiglu_quant_large_m import NVFP4GemmSwigluQuantLargeM, fake_fused_tail

TOKEN_TILE = TILE_N  # tokens a CTA tile: the register operand's rows
FEATURE_TILE = 2 * TILE_N  # weight rows a CTA tile: two interleave groups
GROUPS = FEATURE_TILE // (2 * GATE_UP_GROUP)  # interleave groups a tile


class NVFP4GemmSwigluQuantSwapped(NVFP4GemmSwigluQuantLargeM):
    """The fused kernel with NVFP4 activations as the register operand (the module docstring):
    static I, K; M dynamic; 128-token x 256-feature tiles."""

    # (the asynchronous fix-up sizes its slots by the static row tiles: tokens here)
    ASYNC_FIXUP = False
    # K splits keep the last piece's fix-up (``stream_k_fixup``): the scattered pieces' shares
    # are not measured here
    SCATTER_PIECES = False

    def __init__(self, i: int, k: int, stages: int = 0, sms: int = H200_SMS,
                 stream_k: bool = False, splits: int = 1, quantizers: int = 0,
                 pair_pieces: bool = False):
        """``stream_k`` / ``splits`` as ``NVFP4GemmLargeM``'s: the (tile, k-tile) units shared
        out evenly over the persistent grid, or every tile in ``splits`` pieces
        (``stream_k_fixup``; the last piece's CTA runs the epilogue); ``quantizers`` as
        ``NVFP4GemmSwigluQuantLargeM``'s (``_handed_over_lines``); ``pair_pieces``: each tile's
        two K halves in a cluster of two CTAs (``NVFP4GemmLargeM``'s), CTA r finishing the
        tile's interleave group r (its share of the sums: elements [64 r, 64 r + 64) of a
        thread, j // 16 = r)."""
        assert (2 * i) % FEATURE_TILE == 0, i
        super().__init__(i, k, FEATURE_TILE, stages, sms, stream_k=stream_k or splits > 1,
                         k_order=KOrder.PAIRS, splits=splits, quantizers=quantizers,
                         pair_pieces=pair_pieces)
        self.feature_tiles = 2 * i // FEATURE_TILE
        self.row_tiles = self.feature_tiles  # (the launch's tiles: M's 128-row tiles x these)
        # bands of feature tiles whose bf16 weights fit the L2 band (the normal kernel's bands
        # of token tiles), all token tiles inside a band
        self.group = max(1, min(8, L2_BAND_BYTES // (FEATURE_TILE * k * 2)))

    def _epilogue_shares(self, splits: int) -> bool:
        """Halves of a tile (a cluster pair's), one interleave group each, where the consumers
        quantize."""
        return splits == 2 and self.quantizers == 0

    def _m_tiles(self, m):
        """The token tiles: 128 tokens each, the register operand's rows."""
        return (m + TOKEN_TILE - 1) // TOKEN_TILE

    def _sf_columns(self, mBSF: cute.Tensor):
        """The activations' scale chunks: pad128(M) rows, a dynamic count."""
        return mBSF.shape[0] // (SF_CHUNK_WORDS * self.groups)

    @cute.jit
    def _tile_coords(self, tile, tok_tiles):
        """(token tile, feature tile) of linear tile ``tile``: bands of ``group`` feature tiles,
        feature tile fastest inside a band, over all ``tok_tiles`` token tiles."""
        band_size = self.group * tok_tiles
        band = tile // band_size
        r = tile - band * band_size
        width = cutlass.min(self.group, self.feature_tiles - band * self.group)
        return r // width, band * self.group + r % width

    @cute.jit
    def _epilogue(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile, share=None):
        """``row_tile`` is the token tile, ``tok_tile`` the feature tile (interleave groups
        2 ``tok_tile`` and 2 ``tok_tile`` + 1). h as lines (``_swapped_h_lines``), the last
        token tile's scale padding, then the consumers quantize (``_quantize_item``); ``share``
        ((r, 2), a cluster pair's): interleave group r alone."""
        if cutlass.const_expr(self.quantizers > 0):
            self._handed_over_lines(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile)
        else:
            self._consumers_quantize(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile,
                                     share)

    @cute.jit
    def _consumers_quantize(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile,
                            share=None):
        """``_epilogue`` without quantizer warps: the 256 consumers quantize the tile (with
        ``share``, its group ``share[0]``)."""
        mQ, mSF = outs
        done = pipeline.NamedBarrier(barrier_id=self.QUANT_DONE, num_threads=256)
        h_ready = pipeline.NamedBarrier(barrier_id=self.H_READY, num_threads=256)
        done.arrive_and_wait()  # the previous tile's h is read by every thread
        if cutlass.const_expr(share is None):
            self._swapped_h_lines(acc, tCcC, sEpi, scalars[0][0])
        else:
            for g in cutlass.range_constexpr(GROUPS):
                if share[0] == g:
                    self._swapped_h_lines(acc, tCcC, sEpi, scalars[0][0], g)
        if ctid < 128:
            if cutlass.const_expr(share is None):
                self._zero_swapped_padding(mQ, mSF, ctid, row_tile, tok_tile)
            else:
                if share[0] == 0:  # (both groups' blocks: one CTA of the pair)
                    self._zero_swapped_padding(mQ, mSF, ctid, row_tile, tok_tile)
        h_ready.arrive_and_wait()
        tok0 = row_tile * TOKEN_TILE
        quantize = (sEpi, mQ, mSF, scalars[1][0], self._table(sEpi), ctid, tok0, tok_tile)
        for g in cutlass.range_constexpr(GROUPS):
            if cutlass.const_expr(share is None):
                self._quantize_group(*quantize, g)
            else:
                if share[0] == g:
                    self._quantize_group(*quantize, g)

    @cute.jit
    def _quantize_group(self, sEpi, mQ, mSF, gs, table, ctid, tok0, tok_tile, g: int):
        """The 256 consumers quantize the tile's interleave group ``g`` (its lines'
        (line, block) items; the tile's tokens from ``tok0``)."""
        items = TOKEN_TILE * (GATE_UP_GROUP // BLOCK)
        where = self._group_where(sEpi, mSF, g, GROUPS * tok_tile + g, tok0)
        for p in cutlass.range_constexpr(items // 256):
            self._quantize_item(where, gs, table, mQ, ctid + 256 * p)

    @cute.jit
    def _handed_over_lines(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile):
        """``_epilogue`` with ``quantizers``: once they are done with the previous lines, h as
        lines, the tile's coordinates (feature tile, token tile) in the handover's slots, then
        every consumer arrives on h full and goes on (``NVFP4GemmSwigluQuantLargeM``'s
        ``_handed_over_h``, whose ``_side_warps`` and ``_epilogue_finish`` call
        ``_claimed_quantize`` with these coordinates)."""
        mQ, mSF = outs
        handed = scalars[2]
        full, empty, slots, _ = self._handover(sEpi)
        cute.arch.mbarrier_wait(empty, (handed[0] % 2) ^ 1)
        self._swapped_h_lines(acc, tCcC, sEpi, scalars[0][0])
        if ctid < 128:
            self._zero_swapped_padding(mQ, mSF, ctid, row_tile, tok_tile)
        self._hand_over(ctid, full, slots, handed, tok_tile, row_tile)

    @cute.jit
    def _claimed_quantize(self, sEpi, gs, outs, slots, feature_tile, token_tile):
        """The handed-over lines of (``feature_tile``, ``token_tile``) quantized in 32-item
        claims (``slots[2]``), group 0's items first: a claim never spans the two groups."""
        mQ, mSF = outs
        tok0 = token_tile * TOKEN_TILE
        per_group = TOKEN_TILE * (GATE_UP_GROUP // BLOCK)
        wheres = [self._group_where(sEpi, mSF, g, GROUPS * feature_tile + g, tok0)
                  for g in range(GROUPS)]
        table = self._table(sEpi)
        lane = cute.arch.lane_idx()
        first = cutlass.Int32(0)
        while first < GROUPS * per_group:
            got = cutlass.Int32(0)
            if lane == 0:
                got = cute.arch.atomic_add(slots.iterator + 2, cutlass.Int32(32), scope="cta")
            first = cute.arch.shuffle_sync(got, 0)
            for g in cutlass.range_constexpr(GROUPS):
                item = first + lane - g * per_group
                if item >= 0 and item < per_group:
                    self._quantize_item(wheres[g], gs, table, mQ, item)

    def _group_where(self, sEpi, mSF, g: int, group, tok0):
        """``_quantize_item``'s view of interleave group ``group``'s lines (the tile's
        ``g``-th: lines 128 g ..) and scale blocks."""
        chunks = TOKEN_TILE * (GATE_UP_GROUP // 4)
        sChunks = cute.make_tensor(sEpi.iterator + g * TOKEN_TILE * GATE_UP_GROUP,
                                   cute.make_layout((chunks, 4), stride=(4, 1)))
        kb0 = group * (GATE_UP_GROUP // BLOCK)
        sSF, r0 = scale_tile_at(mSF, self.kb_out, tok0, kb0, TOKEN_TILE)
        return sChunks, sSF, r0, tok0, kb0

    @cute.jit
    def _swapped_h_lines(self, acc, tCcC, sEpi, alpha, group: int | None = None):
        """h of the thread's up elements (j % 16 < 8; of interleave group ``group`` = j // 16
        alone where given) and their gate partners (e + 32) into line 128 g + token, column
        c = 8 (j % 16) + 2 q + v0 of group g = j // 16: 16-byte chunk c // 4 at
        ``staged_line_slot``."""
        token, col = tCcC[0]  # r, 2 q: the thread's first element
        chunks = GATE_UP_GROUP // 4  # 16-byte chunks a line
        for e in cutlass.range_constexpr(cute.size(acc)):
            j = e // 4
            if cutlass.const_expr(j % 16 < 8 and group in (None, j // 16)):
                up = acc[e] * cutlass.Float32(POW2_63) * alpha
                gate = acc[e + 32] * cutlass.Float32(POW2_63) * alpha
                acc[e] = up * silu_mul_fast(gate, cutlass.Float32(1.0))
        for e in cutlass.range_constexpr(cute.size(acc)):
            j = e // 4
            if cutlass.const_expr(j % 16 < 8 and group in (None, j // 16)):
                line = (j // 16) * TOKEN_TILE + token + 8 * ((e // 2) % 2)
                c = 8 * (j % 16) + col + e % 2
                slot = staged_line_slot(line, c // 4, chunks)
                sEpi[slot * 4 + c % 4] = acc[e]

    @cute.jit
    def _zero_swapped_padding(self, mQ, mSF, wg_tid, token_tile, feature_tile):
        """The first warpgroup, on the last token tile: scale rows M .. pad128(M) of the
        tile's 8 blocks, two a warp."""
        if token_tile * TOKEN_TILE + TOKEN_TILE >= mQ.shape[0]:
            blocks = GROUPS * GATE_UP_GROUP // BLOCK
            zero_scale_padding(mSF, self.kb_out, mQ.shape[0], wg_tid % 32,
                               feature_tile * blocks + 2 * (wg_tid // 32), 2)


class NVFP4GemmSwigluQuantSwappedStreamK(NVFP4GemmSwigluQuantSwapped):
    """The swapped kernel in stream-K (``stream_k`` or ``splits``), the workspace and counters
    as arguments."""

    @cute.jit
    def __call__(self, mA: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mG: cute.Tensor, mQ: cute.Tensor, mSF: cute.Tensor,
                 mWork: cute.Tensor, mCount: cute.Tensor, stream):
        self._launch(mA, mB, mBSF, (mAlpha, mG), (mQ, mSF), stream, (mWork, mCount))


@jit.cached
def compile_nvfp4_gemm_swiglu_quant_swapped(i: int, k: int, stages: int = 0,
                                            sms: int = H200_SMS, stream_k: bool = False,
                                            splits: int = 1, quantizers: int = 0,
                                            pair_pieces: bool = False):
    """Static I (weights [2I, K]), K, stages, persistent grid and stream-K or cluster-pair
    form (as ``NVFP4GemmSwigluQuantSwapped``); M dynamic. Arguments of the compiled function: the
    weights as bf16 [2I, K] in ``PERMUTED_K_ORDER`` (``bf16_gate_up_weights``), the
    activations' packed bytes as int32 [M, K/8], their swizzled scales as int32 words
    (pad128(M) * K/64), alpha, out_global_scale, out uint8 [M, I/2], out_sf bytes (flat
    uint8); in stream-K then the workspace and counters (``launch_swapped``)."""
    w = make_fake_compact_tensor(cutlass.BFloat16, (cute.sym_int(), k), stride_order=(1, 0),
                                 assumed_align=16)
    a = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(), k // 8), stride_order=(1, 0),
                                 assumed_align=16)
    a_sf = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(),), assumed_align=16)
    alpha, gs, q, sf, stream = fake_fused_tail(i)
    if stream_k or splits > 1:
        kernel = NVFP4GemmSwigluQuantSwappedStreamK(i, k, stages, sms, stream_k, splits,
                                                    quantizers)
        return cute.compile(kernel, w, a, a_sf, alpha, gs, q, sf, *fake_stream_k_buffers(),
                            stream, options=compile_options())
    kernel = NVFP4GemmSwigluQuantSwapped(i, k, stages, sms, quantizers=quantizers,
                                         pair_pieces=pair_pieces)
    return cute.compile(kernel, w, a, a_sf, alpha, gs, q, sf, stream, options=compile_options())


def launch_swapped(w_bf16: torch.Tensor, a: torch.Tensor, a_sf: torch.Tensor,
                   alpha: torch.Tensor, out_global_scale: torch.Tensor, out: torch.Tensor,
                   out_sf: torch.Tensor, stages: int = 0, ctas: int = 0, stream_k: bool = False,
                   splits: int = 1, quantizers: int = 0,
                   compile_fn=compile_nvfp4_gemm_swiglu_quant_swapped,
                   pair_pieces: bool = False) -> None:
    """The swapped kernel on validated operands: ``w_bf16`` [2I, K] from
    ``bf16_gate_up_weights``, ``a`` packed uint8 [M, K/2] and its swizzled scales, out uint8
    [M, I/2], out_sf the swizzled scale bytes; ``ctas``: the persistent grid (0: the SMs);
    ``stream_k`` / ``splits`` / ``quantizers`` / ``pair_pieces`` (whole tiles, no quantizer
    warps): ``NVFP4GemmSwigluQuantSwapped``'s."""
    two_i, k = w_bf16.shape
    m = out.shape[0]
    sms = ctas or sm_count(a.device.index or 0)
    args = (w_bf16, a.view(torch.int32), a_sf.view(torch.int32).view(-1), alpha,
            out_global_scale, out, out_sf.view(torch.uint8).view(-1))
    tail = (quantizers,) if quantizers else ()  # (the cache keys by the arguments given)
    if pair_pieces:
        assert not (stream_k or quantizers or splits > 1), (stream_k, quantizers, splits)
        compile_fn(two_i // 2, k, stages, sms, False, 1, 0, True)(*args)
        return
    if stream_k or splits > 1:
        # tiles of 256 features x 128 tokens: the counters' and workspace's tile shape
        args += stream_k_buffers(two_i, m, FEATURE_TILE, sms, a.device, TOKEN_TILE)
        compile_fn(two_i // 2, k, stages, sms, stream_k, splits, *tail)(*args)
        return
    compile_fn(two_i // 2, k, stages, sms, *((False, 1) + tail if tail else ()))(*args)


def bf16_gate_up_weights(w: torch.Tensor, w_sf: torch.Tensor) -> torch.Tensor:
    """The swapped kernel's shared-memory operand: the [2I, K] weights (packed bytes or
    permuted words) dequantized to bf16 with global scale 1 (exact), each 64-element group of
    K in ``PERMUTED_K_ORDER``, the order in which the kernel decodes the activations' packed
    bytes (``KOrder.PAIRS``)."""
    two_i, k, permuted = weight_dims(w)
    if not permuted:
        return bf16_activations(w, w_sf, KOrder.PAIRS)
    out = torch.empty((two_i, k), dtype=torch.bfloat16, device=w.device)
    compile_nvfp4_dequant_permuted_words(k)(
        w.view(-1, 8), w_sf.view(-1), out.view(torch.int32).view(-1, 32))
    return out
