"""The fused large-M kernel decoding its own NVFP4 activations ahead of its main loop
("decode ahead"), instead of a separate pass before it.

Why. On gate_up weights with few rows (Kimi-K2.5's 1024x7168 shared expert) the kernel
alone is even with cuBLAS's bare GEMM at M = 4096, but the activations' decode pass before it
(``nvfp4_dequant.bf16_activations``: M x K bf16 written, 21 us at M = 4096 against the
kernel's 76) is the whole gap to cuBLAS + silu. Decoding inside each CTA's stage (the
``act_decode`` experiment, session 46) repeated the work once per weight tile and put its
latency on every stage. Here the work is done once, as the pass does, but by warps that are
idle during the main loop, and the main loop only waits for what it needs next.

How. The producer warpgroup's warps 1..3 (idle in whole-tile launches without quantizer warps)
of the CTA on tile (row tile r, token tile t) decode rows ``r * S .. r * S + S - 1`` of token
tile t (S = ceil(tile_m / row tiles)) into the bf16 operand buffer, the same values in the same
K order as the pass (``NVFP4DequantPermutedK``; rows past M are zeros), chunk by chunk of
``CHUNK_K`` along K. After each chunk they fence their stores to the async proxy, meet at a
named barrier, and one thread adds 1 to the chunk's counter with release semantics. So the
row tiles of a token tile together decode it once, the first chunks first.

The TMA producer (warp 0), before the activation load of each chunk's first k-tile, polls the
chunk's counter (acquire) until every row tile's decoders are in, fences to the async proxy and
issues the load. Then it adds 1 itself; the last of the row tiles' producers to do so (the
count reaches twice the row tiles) resets the counter to zero, so the counters come from
``arrival_counters`` and leave the launch zeroed.

No deadlock: the decoders wait on nothing but the previous grid (``griddepcontrol.wait``), and
the grid is at most one CTA an SM (co-resident, as the stream-K fix-up assumes).

Scope: whole tiles (no stream-K), permuted weight words (``KOrder.PERMUTED``), NVFP4
activations with global scale 1 (``bf16_activations``' contract: alpha carries the rest),
no quantizer warps.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline
import torch
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from layouts import sf_tiled_layout

from . import jit
from .arch import compile_options, sm_count
from .arrival_counters import arrival_counters
from .device_mma import BF16X2_POW2_63, POW2_63, bf16x2_splat, e2m1x2_raw, in_register, mul_bf16x2
from .k_order import KOrder
from .large_m_decode import SF_CHUNK_WORDS, TILE_K
from .nvfp4_gemm_large_m import H200_SMS, TILE_N
from .swiglu_quant_large_m import NVFP4GemmSwigluQuantLargeM

CHUNK_K = 512       # K elements a counter covers
DECODERS = 96       # warps 1..3 of the producer warpgroup
DECODE_BARRIER = 11  # the decoders' named barrier (see nvfp4_gemm_large_m's list)
UNROLL = 2          # groups a decoder thread loads before it converts them
PREFETCH_CHUNKS = 2  # chunks a decoder thread prefetches into L2 ahead of the one it decodes


def decode_chunks(k: int, stage_k: int) -> int:
    """Counters a token tile: K in chunks of ``CHUNK_K`` (whole pipeline k-tiles)."""
    k_tiles = k // stage_k
    per_chunk = max(1, CHUNK_K // stage_k)
    return -(-k_tiles // per_chunk)


class DecodeAhead:
    """Mixed into a large-M kernel class: ``_decode_ahead`` (the side warps) and
    ``_await_decoded`` (the TMA producer). ``decode`` = (codes int32 [M * K / 64, 8], scale
    bytes, counters, the bf16 operand as int32 [rows * K / 64, 32])."""

    decode_ahead = True
    # Probe switches (``tools/decode_ahead_probe.py``'s forms; wrong sums with either): the
    # producer does not wait for the counters (how much the decoders slow the consumers down),
    # or the decoders release every chunk without decoding it (what the counters cost).
    PROBE_NO_WAIT = False
    PROBE_NO_DECODE = False

    def chunk_k_tiles(self) -> int:
        """Pipeline k-tiles a counter covers."""
        return max(1, CHUNK_K // self.stage_k)

    def chunks(self) -> int:
        """Counters a token tile."""
        return decode_chunks(self.k, self.stage_k)

    def slice_rows(self) -> int:
        """Rows of a token tile that one row tile's decoders take."""
        return -(-self.tile_m // self.row_tiles)

    @cute.jit
    def _decode_ahead(self, warp, tok_tiles, decode):
        mCodes, mASF, mCount, mOut = decode
        tid = (warp - 1) * 32 + cute.arch.lane_idx()
        groups_per_row = self.k // 64
        m = mCodes.shape[0] // groups_per_row
        kb = self.k // 16
        sSF = cute.make_tensor(mASF.iterator, sf_tiled_layout((m + 127) // 128 * 128,
                                                              (kb + 3) // 4 * 4))
        chunk_groups = self.chunk_k_tiles() * self.groups
        two63 = in_register(BF16X2_POW2_63)
        cute.arch.griddepcontrol_wait()  # the codes are the previous kernel's output
        tile = cute.arch.block_idx()[0]
        while tile < tok_tiles * self.row_tiles:
            row_tile, tok_tile = self._tile_coords(tile, tok_tiles)
            first = tok_tile * self.tile_m + row_tile * self.slice_rows()
            rows = cutlass.max(0, cutlass.min(self.slice_rows(),
                                              self.tile_m - row_tile * self.slice_rows()))
            for c in cutlass.range_constexpr(PREFETCH_CHUNKS):
                self._prefetch_chunk(mCodes, mASF, sSF, tid, c, rows, first, groups_per_row, m)
            for c in cutlass.range(self.chunks(), unroll=1):
                self._prefetch_chunk(mCodes, mASF, sSF, tid, c + PREFETCH_CHUNKS, rows, first,
                                     groups_per_row, m)
                g0 = c * chunk_groups
                width = cutlass.min(chunk_groups, groups_per_row - g0)
                units = rows * width
                u = tid
                if cutlass.const_expr(self.PROBE_NO_DECODE):
                    u = units
                while u < units:
                    self._decode_units(mCodes, mASF, sSF, mOut, u, units, width, first, g0,
                                       groups_per_row, m, two63)
                    u += DECODERS * UNROLL
                cute.arch.fence_proxy("async.global")  # the TMA loads read these stores
                pipeline.NamedBarrier(barrier_id=DECODE_BARRIER,
                                      num_threads=DECODERS).arrive_and_wait()
                if tid == 0:
                    cute.arch.red(mCount.iterator + tok_tile * self.chunks() + c,
                                  cutlass.Int32(1), op="add", dtype=cutlass.Int32,
                                  sem="release", scope="gpu")
            tile += cute.arch.grid_dim()[0]

    @cute.jit
    def _prefetch_chunk(self, mCodes, mASF, sSF, tid, c, rows, first, groups_per_row, m):
        """Chunk ``c``'s codes and scales of this thread's units into L2 (none past the last
        chunk or M), so that its loads there hit L2: the decoders' chunks are otherwise a
        chain of DRAM round trips, stores and fences."""
        chunk_groups = self.chunk_k_tiles() * self.groups
        if c < self.chunks():
            g0 = c * chunk_groups
            width = cutlass.min(chunk_groups, groups_per_row - g0)
            u = tid
            while u < rows * width:
                row = first + u // width
                group = g0 + u % width
                if row < m:
                    cute.arch.prefetch((mCodes.iterator + (row * groups_per_row + group) * 8)
                                       .llvm_ptr, cache_level="L2")
                    byte = cute.crd2idx((row, 4 * group), sSF.layout)
                    cute.arch.prefetch((mASF.iterator + byte).llvm_ptr, cache_level="L2")
                u += DECODERS

    @cute.jit
    def _decode_units(self, mCodes, mASF, sSF, mOut, u, units, width, first, g0,
                      groups_per_row, m, two63):
        """Units ``u + j * DECODERS`` (j < UNROLL) below ``units``: unit (row, group) of the
        chunk writes the group's 32 output words, loads first."""
        words = [cute.make_rmem_tensor((1, 8), cutlass.Int32) for _ in range(UNROLL)]
        sfs = [cute.make_rmem_tensor((4,), cutlass.Float8E4M3FN) for _ in range(UNROLL)]
        rows = [cutlass.Int32(0) for _ in range(UNROLL)]
        groups = [cutlass.Int32(0) for _ in range(UNROLL)]
        for j in cutlass.range_constexpr(UNROLL):
            uj = u + j * DECODERS
            rows[j] = first + uj // width
            groups[j] = g0 + uj % width
            if uj < units and rows[j] < m:
                g = rows[j] * groups_per_row + groups[j]
                cute.autovec_copy(cute.local_tile(mCodes, (1, 8), (g, 0)), words[j])
                byte = cute.crd2idx((rows[j], 4 * groups[j]), sSF.layout)
                cute.autovec_copy(cute.local_tile(mASF, (4,), (byte // 4,)), sfs[j])
        for j in cutlass.range_constexpr(UNROLL):
            uj = u + j * DECODERS
            if uj < units:
                g = rows[j] * groups_per_row + groups[j]
                live = rows[j] < m  # rows past M: zeros, as the pass writes them
                sf32 = sfs[j].load().to(cutlass.Float32)
                splats = [bf16x2_splat(sf32[q] * cutlass.Float32(POW2_63)) for q in range(4)]
                for b in cutlass.range_constexpr(2):
                    for r in cutlass.range_constexpr(4):
                        # output chunk 4b + r: pair r of words 2q + b, q = 0..3
                        # (``NVFP4DequantPermutedK``), 16 bytes
                        chunk = cute.make_rmem_tensor((1, 4), cutlass.Int32)
                        chunk.fill(0)
                        if live:
                            for q in cutlass.range_constexpr(4):
                                raw = e2m1x2_raw(cutlass.Uint32(words[j][0, 2 * q + b]), r)
                                chunk[0, q] = cutlass.Int32(
                                    mul_bf16x2(mul_bf16x2(raw, splats[q]), two63))
                        cute.autovec_copy(chunk, cute.local_tile(mOut, (1, 4),
                                                                 (g, 4 * b + r)))

    @cute.jit
    def _await_decoded(self, decode, tok_tile, kt):
        """Before k-tile ``kt``'s activation load: at a chunk's first k-tile, wait until every
        row tile's decoders are in, then count this producer in (the last resets)."""
        if kt % self.chunk_k_tiles() == 0 and not self.PROBE_NO_WAIT:
            mCount = decode[2]
            counter = mCount.iterator + tok_tile * self.chunks() + kt // self.chunk_k_tiles()
            seen = cute.arch.load(counter, cutlass.Int32, sem="acquire", scope="gpu")
            while seen < self.row_tiles:
                seen = cute.arch.load(counter, cutlass.Int32, sem="acquire", scope="gpu")
            cute.arch.fence_proxy("async.global")
            if cute.arch.lane_idx() == 0:
                old = cute.arch.atomic_add(counter, cutlass.Int32(1), sem="relaxed",
                                           scope="gpu")
                if old == 2 * self.row_tiles - 1:
                    cute.arch.store(counter, cutlass.Int32(0))


class NVFP4GemmSwigluQuantDecodeAhead(DecodeAhead, NVFP4GemmSwigluQuantLargeM):
    """``NVFP4GemmSwigluQuantLargeM`` on whole tiles, permuted words, decoding its activations
    (module docstring)."""

    def __init__(self, i: int, k: int, tile_m: int, stages: int = 0, sms: int = H200_SMS,
                 k_groups: int = 1):
        super().__init__(i, k, tile_m, stages, sms, k_order=KOrder.PERMUTED, k_groups=k_groups)
        assert not self.async_fixup and self.quantizers == 0

    @cute.jit
    def __call__(self, mA: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mG: cute.Tensor, mQ: cute.Tensor, mSF: cute.Tensor,
                 mCodes: cute.Tensor, mASF: cute.Tensor, mCount: cute.Tensor,
                 mOut: cute.Tensor, stream):
        self._launch(mA, mB, mBSF, (mAlpha, mG), (mQ, mSF), stream,
                     decode=(mCodes, mASF, mCount, mOut))


@jit.cached
def compile_fused_decode_ahead(i: int, k: int, tile_m: int, stages: int = 0,
                               sms: int = H200_SMS, k_groups: int = 1):
    """Tensor-free compile of ``NVFP4GemmSwigluQuantDecodeAhead`` (static I, K and tile, M
    dynamic). Arguments: the bf16 operand buffer [rows, K] (rows a multiple of ``tile_m``,
    >= M), w int32 [2I, K/8], w_sf int32, alpha, out_global_scale, out uint8 [M, I/2],
    out_sf bytes, the codes int32 [M * K / 64, 8], their scale bytes, the counters, and the
    operand buffer again as int32 [rows * K / 64, 32]."""
    a = make_fake_compact_tensor(cutlass.BFloat16, (cute.sym_int(), k), stride_order=(1, 0),
                                 assumed_align=16)
    b = make_fake_compact_tensor(cutlass.Int32, (2 * i, k // 8), stride_order=(1, 0),
                                 assumed_align=16)
    b_sf = make_fake_compact_tensor(cutlass.Int32, (2 * i // TILE_N * (k // TILE_K)
                                                    * SF_CHUNK_WORDS,), assumed_align=16)
    alpha = make_fake_compact_tensor(cutlass.Float32, (1,))
    gs = make_fake_compact_tensor(cutlass.Float32, (1,))
    q = make_fake_compact_tensor(cutlass.Uint8, (cute.sym_int(), i // 2), stride_order=(1, 0),
                                 assumed_align=16)
    sf = make_fake_compact_tensor(cutlass.Uint8, (cute.sym_int(),), assumed_align=16)
    codes = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(), 8), stride_order=(1, 0),
                                     assumed_align=16)
    a_sf = make_fake_compact_tensor(cutlass.Float8E4M3FN, (cute.sym_int(),), assumed_align=16)
    count = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(),), assumed_align=4)
    out = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(), 32), stride_order=(1, 0),
                                   assumed_align=16)
    kernel = NVFP4GemmSwigluQuantDecodeAhead(i, k, tile_m, stages, sms, k_groups)
    return cute.compile(kernel, a, b, b_sf, alpha, gs, q, sf, codes, a_sf, count, out,
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())


def launch_fused_decode_ahead(a, a_sf, w, w_sf, alpha, out_global_scale, out, out_sf,
                              tile_m: int, sms: int | None = None,
                              compile_fn=compile_fused_decode_ahead) -> None:
    """The fused op on whole ``tile_m``-token tiles over ``sms`` CTAs (None: one an SM),
    decoding ``a`` (NVFP4 [M, K/2], ``a_sf`` swizzled) itself; ``w`` permuted words.
    Validated operands, M >= 1."""
    m, k = a.shape[0], a.shape[1] * 2
    two_i = w.shape[0]
    tok_tiles = -(-m // tile_m)
    sms = sms or sm_count(w.device.index or 0)
    kernel = compile_fn(two_i // 2, k, tile_m, 0, sms)
    operand = torch.empty((tok_tiles * tile_m, k), dtype=torch.bfloat16, device=a.device)
    counters = arrival_counters(tok_tiles * decode_chunks(k, TILE_K), a.device)
    kernel(operand, w.view(torch.int32), w_sf.view(torch.int32).view(-1), alpha,
           out_global_scale, out, out_sf.view(torch.uint8).view(-1),
           a.view(torch.int32).view(-1, 8), a_sf.view(-1), counters,
           operand.view(torch.int32).view(-1, 32))
