"""NVFP4 activations decoded inside the wgmma kernels (``NVFP4GemmLargeM(act_decode=True)``,
off by default, unmeasured): the producer loads each k-tile's packed codes and 128x4 scale
chunks by TMA, and warps 1..3 of the producer warpgroup decode them into the 128B-swizzled
bf16 stage that ``wgmma`` reads as B. Without it the activations' decode pass writes the
whole bf16 [M, K] to memory and the kernel reads it back; at 1024x7168 M = 4096 / 16384 that
pass (21 / 77 us, at 94-99% of a copy of its bytes) is the whole gap between the fused op and
cuBLAS + silu (H200 2026-12-02, session 46: the fused kernel alone 76.2 / 281.9 us against
cuBLAS's bare GEMM 76.0 / 302.8).

The values are the pass's times 2^-63 (``NVFP4DequantPermutedK``: ``e2m1 * scale`` exact in
bf16, in ``PERMUTED_K_ORDER``; one multiply a pair, not two), and the weights decode to their
true values (``WeightDecode``: 2^63 once more) instead of times 2^-63: every product, so the
kernel's output, is bit for bit the routed one. Each stage:
the decode warps wait for its TMA bytes (the pipeline's full barrier, no arrival), write the
bf16 tile with generic stores, fence them to the async proxy and arrive on the stage's
``act_ready`` mbarrier (one arrival a warp); the consumers wait on it before their wgmmas. The
stage's reuse needs nothing more: the producer refills it only after the consumers released
it, and they release it only after their wgmmas on the decoded tile retired.

Limits (asserted): 128- or 256-token tiles of one K group a stage (whole, stream-K, split-K
or hybrid), one CTA an SM, permuted weight words, no quantizer warps (the same warps)."""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline

from .device_mma import (POW2_63, STANDARD_HIGH_SHIFT, bf16x2_splat, e2m1x2_by_multiply,
                         mul_bf16x2)
from .k_order import KOrder
from .large_m_decode import SF_CHUNK_WORDS, TILE_K

DECODE_WARPS = 3  # warps 1..3 of the producer warpgroup
PAIRS_PER_WORD = 4  # pair r of a word (elements r, r + 4) fills chunks r and 4 + r
# The public routes take it where it applies (``decodes_in_kernel``) only with this on: off
# until measured (``tools/sessions/session47_decode.sh``; an A/B turns it on in a copy).
ROUTES_DECODE = False


def decodes_in_kernel(a_sf, k_order: KOrder, tile_m: int, options: dict) -> bool:
    """Whether a public large-M launch (``launch_large_m``'s ``options``) decodes its NVFP4
    activations (``a_sf`` given) in the kernel instead of through ``bf16_activations``: with
    ``ROUTES_DECODE``, on the launches ``act_decode`` has (the module docstring)."""
    return (ROUTES_DECODE and a_sf is not None and k_order == KOrder.PERMUTED
            and tile_m in (128, 256) and options.get("ctas_per_sm", 1) == 1
            and options.get("k_groups", 1) == 1 and not options.get("wg_k_split")
            and not options.get("pair_pieces"))


class ActivationDecode:
    """The decode warps' and the consumers' side of ``act_decode`` (mixed into
    ``NVFP4GemmLargeM``, which sets ``tile_m``, ``k_tiles``, ``stages``)."""

    def act_tx_bytes(self) -> int:
        """TMA bytes of a stage's activations: codes (tile_m x 32 bytes) and the 512-byte
        scale chunks of its 128-row blocks."""
        return self.tile_m * TILE_K // 2 + self.act_sf_boxes() * SF_CHUNK_WORDS * 4

    def act_sf_boxes(self) -> int:
        """128-row scale chunks a token tile spans (1 for the narrower tiles of the kernels
        without ``act_decode``, whose layouts still take a size)."""
        return max(1, self.tile_m // 128)

    @cute.jit
    def _decode_act_warps(self, mainloop, tok_tiles, sActQ, sActSF, sAct32, act_ready, tidx):
        """Warps 1..3 (``tidx`` 32..127): every stage the producer fills, in its order: the
        k-tiles of this CTA's whole tiles, then of its stream-K range (the stages do not
        depend on which tile a k-tile is of). ``sAct32``: the bf16 stages as flat int32
        words, unswizzled (the stores place the swizzle themselves, ``_decode_act_stage``)."""
        state = pipeline.make_pipeline_state(pipeline.PipelineUserType.Consumer, self.stages)
        lane = tidx % 32
        whole, sk_tiles = self._whole_tiles(tok_tiles)
        ctas = cute.arch.grid_dim()[0]
        bid = cute.arch.block_idx()[0]
        # k-tiles of the whole tiles bid, bid + ctas, .. < whole, then of the stream-K range
        count = (cutlass.max(whole - bid + ctas - 1, 0) // ctas) * self.k_tiles
        if cutlass.const_expr(self.stream_k):
            u, end = self._stream_range(whole, sk_tiles)
            count = count + (end - u)
        for _ in cutlass.range(count, unroll=1):
            mainloop.consumer_wait(state)
            self._decode_act_stage(sActQ, sActSF, sAct32, state.index, tidx - 32)
            cute.arch.fence_view_async_shared()
            cute.arch.sync_warp()
            if lane == 0:
                cute.arch.mbarrier_arrive(act_ready + state.index)
            state.advance()

    @cute.jit
    def _decode_act_stage(self, sActQ, sActSF, sAct32, stage, t):
        """Decode thread ``t`` (0..95)'s rows of ``stage``: a row's 8 code words and 4 scales
        (one word of its block's 128x4 chunk), its 8 output chunks: chunk 4b + r, slot q is
        pair r (elements r, r + 4) of word 2q + b times scale q, as ``NVFP4DequantPermutedK``
        (the pass) writes it, times 2^-63. The stage is the TMA's 128B-swizzled K-major tile
        (rows of 64 bf16, 128 bytes): 16-byte chunk c of a row sits at chunk c ^ (row % 8)
        (the 1024-byte aligned 8-row atoms)."""
        for row in cutlass.range(t, self.tile_m, DECODE_WARPS * 32, unroll=1):
            words = cute.make_rmem_tensor((1, 8), cutlass.Int32)
            cute.autovec_copy(cute.local_tile(sActQ[None, None, stage], (1, 8), (row, 0)),
                              words)
            sf = cute.make_rmem_tensor((4,), cutlass.Float8E4M3FN)
            sf_words = cute.recast_tensor(sf, cutlass.Int32)
            sf_words[0] = sActSF[(row % 32) * 4 + (row % 128) // 32, 0,
                                 stage * self.act_sf_boxes() + row // 128]
            sf32 = sf.load().to(cutlass.Float32)
            splats = [bf16x2_splat(sf32[q] * cutlass.Float32(POW2_63)) for q in range(4)]
            # pairs 2, 3 of a word decode from it shifted once (``e2m1x2_by_multiply``: the
            # values of the pass's ``e2m1x2_raw``, one instruction less a pair)
            shifted = [cutlass.Uint32(words[0, j]) >> cutlass.Uint32(STANDARD_HIGH_SHIFT)
                       for j in range(8)]
            for b in cutlass.range_constexpr(2):
                for r in cutlass.range_constexpr(PAIRS_PER_WORD):
                    chunk = cute.make_rmem_tensor((1, 4), cutlass.Int32)
                    for q in cutlass.range_constexpr(4):
                        raw = e2m1x2_by_multiply(cutlass.Uint32(words[0, 2 * q + b]),
                                                 shifted[2 * q + b], r)
                        # e2m1 * scale * 2^-63: the pass's value times 2^-63, which the
                        # weights give back (``WeightDecode``: true values with act_decode)
                        chunk[0, q] = cutlass.Int32(mul_bf16x2(raw, splats[q]))
                    slot = (4 * b + r) ^ (row % 8)
                    word = (stage * self.tile_m + row) * (TILE_K // 2) + 4 * slot
                    cute.autovec_copy(chunk, cute.local_tile(sAct32, (1, 4), (0, word // 4)))

    @cute.jit
    def _wait_act(self, act_ready, read):
        """Consumers, before the wgmmas on stage ``read.index``: its activations decoded."""
        cute.arch.mbarrier_wait(act_ready + read.index, read.phase)
