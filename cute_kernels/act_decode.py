"""NVFP4 activations decoded inside the wgmma kernels at narrow token tiles
(``NVFP4GemmLargeM(act_decode=True)``): the producer TMA-loads each k-tile's packed codes and
the 128x4 scale chunk(s) of its 128-row block, and warps 1..3 of the producer warpgroup, idle
otherwise, decode them into the 128B-swizzled bf16 stage that ``wgmma`` reads as B. There is
no activation pass: at 16..64 tokens on the big weights that pass costs 1.7-2.8 us of an
18-38 us launch, its latency between the GEMMs, not its bytes (H200 2026-12-02, session 48,
``tools/fixup_cost_probe.py``: 9216x7168 M = 16 17.9 us routed against 16.2 on activations
made before; 7168x18432 M = 64 38.2 against 35.4).

Why here and not at large M: a stage's activations are tile_m x 64 elements against the
weights' 128 x 64, so up to 64 tokens three warps keep up (session 47 measured the same warps
1.8x too slow at 256-token tiles, where they decode twice the weights' elements).

The values are the pass's (``NVFP4DequantPermutedK``): chunk t = 4 b + r of a row's 64-element
group holds pair r (elements r, r + 4) of words 2q + b, times scale q, in bf16, exact (two
multiplies: by ``scale * 2^63``, then by ``2^63``). So the outputs are the routed ones, bit for
bit. A decode thread takes half a row (b) at a time: its 4 words and scales, and the 4 chunks
4 b + r; sixteen rows a warp store to distinct swizzled 16-byte slots (no bank conflicts). Each warp fences its stores to the
async proxy and arrives on the stage's ``act_ready`` mbarrier, which the consumers wait on
before the stage's wgmmas. Nothing more guards the stage's reuse: the producer refills it only
after the consumers released it, and they release it only after their wgmmas on it retired.

Limits (asserted): tiles of at most ``MAX_TILE_M`` tokens, one CTA an SM, no ``wg_k_split``
or cluster pairs, the weights' PERMUTED or PAIRS order (``PERMUTED_K_ORDER`` activations)."""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline

from .device_mma import BF16X2_POW2_63, POW2_63, bf16x2_splat, e2m1x2_raw, in_register, mul_bf16x2
from .k_order import KOrder
from .large_m_decode import SF_CHUNK_WORDS, TILE_K

DECODE_WARPS = 3  # warps 1..3 of the producer warpgroup
MAX_TILE_M = 64


def act_decode_fits(tile_m: int, ctas_per_sm: int, k_order: KOrder, wg_k_split: bool = False,
                    pair_pieces: bool = False) -> bool:
    """Whether a wgmma launch can decode its NVFP4 activations in the kernel (the limits in the
    module docstring)."""
    return (tile_m <= MAX_TILE_M and ctas_per_sm == 1 and not wg_k_split and not pair_pieces
            and KOrder(k_order) in (KOrder.PERMUTED, KOrder.PAIRS))


# ``nvfp4_gemm``'s launches decode their NVFP4 activations in the kernel up to this many tokens
# where ``act_decode_fits`` (0: never; set from ``tools/act_decode_route_probe.py``)
ROUTE_MAX_M = 0


def decodes_in_kernel(m: int, a_sf, k_order: KOrder, tile_m: int, options: dict) -> bool:
    """Whether ``nvfp4_gemm``'s wgmma launch (``launch_large_m``'s ``options``) at M tokens
    takes its NVFP4 activations (``a_sf`` given) packed, decoded in the kernel, instead of
    through the activation pass."""
    return (a_sf is not None and m <= ROUTE_MAX_M and act_decode_fits(
        tile_m, options.get("ctas_per_sm", 1), k_order, options.get("wg_k_split", False),
        options.get("pair_pieces", False)))


class ActivationDecode:
    """The decode warps' side of ``act_decode`` (mixed into ``NVFP4GemmLargeM``, which sets
    ``tile_m``, ``groups``, ``stage_k``, ``stages``, ``k_tiles`` and walks the pieces)."""

    def act_tx_bytes(self) -> int:
        """TMA bytes of a stage's activations: the codes (tile_m x stage_k / 2 bytes) and one
        512-byte scale chunk a K group."""
        return self.tile_m * self.stage_k // 2 + SF_CHUNK_WORDS * 4 * self.groups

    @cute.jit
    def _copy_act_scales(self, tma_asf, bar, stage, tok_tile, kt):
        """The scale chunks of k-tile ``kt`` of ``tok_tile``'s 128-row block into ``stage``,
        completing on ``bar`` (``tma_asf``: the atom and its (stage, chunk column) views)."""
        atom, tQs, tQg = tma_asf
        block = tok_tile * self.tile_m // 128
        cute.copy(atom, tQg[None, 0, block * self.k_tiles + kt], tQs[None, stage],
                  tma_bar_ptr=bar)

    @cute.jit
    def _decode_acts(self, mainloop, tok_tiles, dec, sAct32, tidx):
        """Warps 1..3 (``tidx`` 32..127): every stage the producer fills, in its order (the
        k-tiles of this CTA's whole tiles, then of its stream-K pieces), decoded and handed to
        the consumers (``dec``: the stages' codes, scale chunks and ``act_ready``)."""
        state = pipeline.make_pipeline_state(pipeline.PipelineUserType.Consumer, self.stages)
        whole, sk_tiles = self._whole_tiles(tok_tiles)
        tile = cute.arch.block_idx()[0]
        while tile < whole:
            _, tok_tile = self._tile_coords(tile, tok_tiles)
            state = self._decode_act_piece(mainloop, state, dec, sAct32, tidx, tok_tile,
                                           self.k_tiles)
            tile += cute.arch.grid_dim()[0]
        if cutlass.const_expr(self.stream_k):
            u, end = self._stream_range(whole, sk_tiles)
            while u < end:
                _, _, count, _, tok_tile = self._stream_piece(u, end, tok_tiles)
                state = self._decode_act_piece(mainloop, state, dec, sAct32, tidx, tok_tile,
                                               count)
                u += count

    @cute.jit
    def _decode_act_piece(self, mainloop, state, dec, sAct32, tidx, tok_tile, count):
        """``count`` stages of ``tok_tile``, those of the warp's pipeline slots (slot i is warp
        1 + i % 3's: three stages in flight, not one, and each slot's bytes always written by
        the same threads): each waited for (its TMA bytes), decoded, fenced to the async proxy
        and arrived on."""
        sActQ, sActSF, act_ready = dec
        row_off = tok_tile * self.tile_m % 128  # the tile's rows in their 128-row scale block
        warp = tidx // 32 - 1
        for _ in cutlass.range(count, unroll=1):
            if state.index % DECODE_WARPS == warp:
                mainloop.consumer_wait(state)
                self._decode_act_stage(sActQ, sActSF, sAct32, state.index, row_off, tidx % 32)
                cute.arch.fence_view_async_shared()
                cute.arch.sync_warp()
                if tidx % 32 == 0:
                    cute.arch.mbarrier_arrive(act_ready + state.index)
            state.advance()
        return state

    @cute.jit
    def _decode_act_stage(self, sActQ, sActSF, sAct32, stage, row_off, lane):
        """Lane ``lane``'s half rows of ``stage``: units lane, lane + 32, .. of its
        groups x tile_m x 2 (K group, row, half b), each the chunks 4 b + r, r = 0..3, from the
        row's words 2 q + b and its 4 scales. (One 16-byte chunk a thread and iteration was
        latency-bound: ~380 cycles each, 2-6 a stage, H200 2026-12-02, session 48.)"""
        units = self.groups * self.tile_m * 2
        two63 = in_register(BF16X2_POW2_63)
        for i in cutlass.range_constexpr(-(-units // 32)):
            u = lane + 32 * i
            if u < units:
                g = u // (self.tile_m * 2)
                row = u // 2 % self.tile_m
                b = u % 2
                rr = row_off + row
                sf = cute.make_rmem_tensor((4,), cutlass.Float8E4M3FN)
                cute.recast_tensor(sf, cutlass.Int32)[0] = sActSF[
                    SF_CHUNK_WORDS * g + (rr % 32) * 4 + rr // 32, 0, stage]
                words = [cutlass.Uint32(sActQ[row, 8 * g + 2 * q + b, stage]) for q in range(4)]
                sf32 = sf.load().to(cutlass.Float32)
                splats = [bf16x2_splat(sf32[q] * cutlass.Float32(POW2_63)) for q in range(4)]
                for r in cutlass.range_constexpr(4):
                    chunk = cute.make_rmem_tensor((1, 4), cutlass.Int32)
                    for q in cutlass.range_constexpr(4):
                        chunk[0, q] = cutlass.Int32(mul_bf16x2(mul_bf16x2(
                            e2m1x2_raw(words[q], r), splats[q]), two63))
                    # the stage's 128B-swizzled K-major tile: 16-byte chunk t of a row at
                    # slot t ^ (row % 8) of its 128 bytes (1024-byte aligned 8-row atoms,
                    # group-major)
                    word0 = (((stage * self.groups + g) * self.tile_m + row) * (TILE_K // 2)
                             + 4 * ((4 * b + r) ^ (row % 8)))
                    cute.autovec_copy(chunk, cute.local_tile(sAct32, (1, 4), (0, word0 // 4)))

    @cute.jit
    def _wait_acts(self, act_ready, read):
        """Consumers, before the wgmmas on stage ``read.index``: its activations decoded."""
        cute.arch.mbarrier_wait(act_ready + read.index, read.phase)
