"""NVFP4 activations decoded inside the wgmma kernels (``NVFP4GemmLargeM(act_decode=True)``,
off the public routes until measured): the producer loads each k-tile's packed codes and
128x4 scale chunks by TMA, and the consumers decode them into the 128B-swizzled bf16 stage
that ``wgmma`` reads as B, beside their weights. Without it the activations' decode pass
writes the whole bf16 [M, K] to memory and the kernel reads it back; at 1024x7168 M = 4096 /
16384 that pass (21 / 77 us, at 94-99% of a copy of its bytes) is the whole gap between the
fused op and cuBLAS + silu (H200 2026-12-02, session 46: the fused kernel alone 76.2 / 281.9
us against cuBLAS's bare GEMM 76.0 / 302.8).

Who decodes: first (session 46) warps 1..3 of the producer warpgroup, who lost 1.8-1.9x to
the same kernel on the pass's activations (H200 2026-12-02, session 47,
``tools/fused_large_m_probe.py``, kernel us: 1024x7168 M = 4096 142.7 against 77.3, M =
16384 551.5 against 297.4): three warps decoding 256 x 64 elements a stage, twice the
weights' 128 x 64 that eight consumer warps decode, cannot keep up with the wgmmas. Now every
consumer thread decodes a row (256-token tiles) or half a row (128) of the next stage while
the wgmmas of this one run, as it does its weights.

The values are the pass's times 2^-63 (``NVFP4DequantPermutedK``: ``e2m1 * scale`` exact in
bf16, in ``PERMUTED_K_ORDER``; one multiply a pair, not two), and the weights decode to their
true values (``WeightDecode``: 2^63 once more) instead of times 2^-63: every product, so the
kernel's output, is bit for bit the routed one. Each stage: the consumers wait for its TMA
bytes (the pipeline's full barrier), decode their weights and their activation rows, fence
the stores to the async proxy, and before the stage's wgmmas meet at a named barrier. The
stage's reuse needs nothing more: the producer refills it only after the consumers released
it, and they release it only after their wgmmas on the decoded tile retired.

Limits (asserted): 128- or 256-token tiles of one K group a stage (whole, stream-K, split-K
or hybrid), one CTA an SM, permuted weight words."""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline

from .device_mma import (POW2_63, STANDARD_HIGH_SHIFT, bf16x2_splat, e2m1x2_by_multiply,
                         mul_bf16x2)
from .k_order import KOrder
from .large_m_decode import SF_CHUNK_WORDS, TILE_K

CONSUMER_THREADS = 256  # the two consumer warpgroups, who decode the activations
DECODE_WARPS = 3  # with ``act_warp_rows``: warps 1..3 of the producer warpgroup decode too
ACT_READY_BARRIER = 10  # named barrier of the consumer threads: a stage's activations decoded
# (the others: ``nvfp4_gemm_large_m``'s 4..9, the fused epilogue's 1..3)
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
    """The consumers' side of ``act_decode`` (mixed into ``NVFP4GemmLargeM``, which sets
    ``tile_m``, ``k_tiles``, ``stages``)."""

    def act_tx_bytes(self) -> int:
        """TMA bytes of a stage's activations: codes (tile_m x 32 bytes) and the 512-byte
        scale chunks of its 128-row blocks."""
        return self.tile_m * TILE_K // 2 + self.act_sf_boxes() * SF_CHUNK_WORDS * 4

    def act_sf_boxes(self) -> int:
        """128-row scale chunks a token tile spans (1 for the narrower tiles of the kernels
        without ``act_decode``, whose layouts still take a size)."""
        return max(1, self.tile_m // 128)

    def warp_rows(self) -> int:
        """Rows of a stage the decode warps take (rows 0 ..; the consumers the rest)."""
        return DECODE_WARPS * 32 * self.act_warp_rows

    @cute.jit
    def _decode_act_warps(self, mainloop, tok_tiles, act, act_ready, tidx):
        """``act_warp_rows``: warps 1..3 (``tidx`` 32..127) decode rows ``tidx - 32 + 96 j``
        of every stage the producer fills, in its order: the k-tiles of this CTA's whole
        tiles, then of its stream-K range (the stages do not depend on which tile a k-tile is
        of); each warp then fences its stores and arrives on the stage's ``act_ready``."""
        sActQ, sActSF, sAct32 = act
        state = pipeline.make_pipeline_state(pipeline.PipelineUserType.Consumer, self.stages)
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
            for j in cutlass.range_constexpr(self.act_warp_rows):
                row = tidx - 32 + DECODE_WARPS * 32 * j
                words, splats = self._act_row_inputs(sActQ, sActSF, state.index, row)
                for b in cutlass.range_constexpr(2):
                    self._store_act_half(sAct32, state.index, row, b, [
                        cutlass.Uint32(words[0, 2 * q + b]) for q in range(4)], splats)
            self._act_arrive(act_ready, state.index, tidx)
            state.advance()

    @cute.jit
    def _act_arrive(self, act_ready, stage, tidx):
        """The warp's stores of ``stage`` fenced to the async proxy, and (lane 0) its arrival
        on the stage's ``act_ready``."""
        cute.arch.fence_view_async_shared()
        cute.arch.sync_warp()
        if tidx % 32 == 0:
            cute.arch.mbarrier_arrive(act_ready + stage)

    @cute.jit
    def _decode_act_rows(self, act, stage):
        """Consumer thread ``ctid``'s share of ``stage``'s activations (``act``: codes, scale
        chunks, the bf16 stages as flat int32 words, ``ctid``, and with ``act_warp_rows`` the
        ``act_ready`` mbarriers), decoded beside its weights while the previous k-tile's
        wgmmas run: row ``ctid`` of a 256-token tile, half ``ctid // 128`` of row
        ``ctid % 128`` of a 128-token one; with ``act_warp_rows`` the half rows of the rows
        past the decode warps', round robin. Then a fence of the stores to the async proxy
        (``_wait_act`` is the barrier the wgmmas wait behind)."""
        sActQ, sActSF, sAct32, ctid = act[:4]
        if cutlass.const_expr(self.act_warp_rows > 0):
            rows = self.tile_m - self.warp_rows()
            for i in cutlass.range_constexpr(-(-2 * rows // CONSUMER_THREADS)):
                u = ctid + CONSUMER_THREADS * i
                if u < 2 * rows:
                    row = self.warp_rows() + u % rows
                    b = u // rows
                    words, splats = self._act_row_inputs(sActQ, sActSF, stage, row)
                    self._store_act_half(sAct32, stage, row, b, [
                        cutlass.Uint32(cutlass.select_(b == 1, words[0, 2 * q + 1],
                                                       words[0, 2 * q]))
                        for q in range(4)], splats)
            self._act_arrive(act[4], stage, ctid)
        elif cutlass.const_expr(self.tile_m == CONSUMER_THREADS):
            words, splats = self._act_row_inputs(sActQ, sActSF, stage, ctid)
            for b in cutlass.range_constexpr(2):
                self._store_act_half(sAct32, stage, ctid, b, [
                    cutlass.Uint32(words[0, 2 * q + b]) for q in range(4)], splats)
        else:
            row = ctid % self.tile_m
            b = ctid // self.tile_m
            words, splats = self._act_row_inputs(sActQ, sActSF, stage, row)
            # the half's words 2q + b: a select, not a register index (b is dynamic)
            self._store_act_half(sAct32, stage, row, b, [
                cutlass.Uint32(cutlass.select_(b == 1, words[0, 2 * q + 1], words[0, 2 * q]))
                for q in range(4)], splats)
        if cutlass.const_expr(self.act_warp_rows == 0):
            cute.arch.fence_view_async_shared()

    @cute.jit
    def _act_row_inputs(self, sActQ, sActSF, stage, row):
        """``row`` of ``stage``: its 8 code words, and its 4 scales (one word of its block's
        128x4 chunk) as bf16x2 splats of ``scale * 2^63``."""
        words = cute.make_rmem_tensor((1, 8), cutlass.Int32)
        cute.autovec_copy(cute.local_tile(sActQ[None, None, stage], (1, 8), (row, 0)), words)
        sf = cute.make_rmem_tensor((4,), cutlass.Float8E4M3FN)
        sf_words = cute.recast_tensor(sf, cutlass.Int32)
        sf_words[0] = sActSF[(row % 32) * 4 + (row % 128) // 32, 0,
                             stage * self.act_sf_boxes() + row // 128]
        sf32 = sf.load().to(cutlass.Float32)
        return words, [bf16x2_splat(sf32[q] * cutlass.Float32(POW2_63)) for q in range(4)]

    @cute.jit
    def _store_act_half(self, sAct32, stage, row, b, half, splats):
        """Half ``b`` of ``row`` (``half``: its words 2q + b, q = 0..3): output chunks
        ``4 b + r``, slot q of which is pair r (elements r, r + 4) of word 2q + b times scale
        q, as ``NVFP4DequantPermutedK`` (the pass) writes it, times 2^-63. The stage is the
        TMA's 128B-swizzled K-major tile (rows of 64 bf16, 128 bytes): 16-byte chunk c of a
        row sits at chunk c ^ (row % 8) (the 1024-byte aligned 8-row atoms)."""
        # pairs 2, 3 decode from the words shifted once (``e2m1x2_by_multiply``: the pass's
        # ``e2m1x2_raw`` values, one instruction less a pair)
        shifted = [w >> cutlass.Uint32(STANDARD_HIGH_SHIFT) for w in half]
        for r in cutlass.range_constexpr(PAIRS_PER_WORD):
            chunk = cute.make_rmem_tensor((1, 4), cutlass.Int32)
            for q in cutlass.range_constexpr(4):
                raw = e2m1x2_by_multiply(half[q], shifted[q], r)
                # e2m1 * scale * 2^-63: the pass's value times 2^-63, which the weights give
                # back (``WeightDecode``: true values with act_decode)
                chunk[0, q] = cutlass.Int32(mul_bf16x2(raw, splats[q]))
            slot = (4 * b + r) ^ (row % 8)
            word = (stage * self.tile_m + row) * (TILE_K // 2) + 4 * slot
            cute.autovec_copy(chunk, cute.local_tile(sAct32, (1, 4), (0, word // 4)))

    @cute.jit
    def _wait_act(self, act, read):
        """Consumers, before the wgmmas on stage ``read.index``: every row of it decoded and
        fenced (``_decode_act_rows``; with ``act_warp_rows`` the decode warps' too, on the
        stage's ``act_ready``)."""
        if cutlass.const_expr(self.act_warp_rows > 0):
            cute.arch.mbarrier_wait(act[4] + read.index, read.phase)
        else:
            pipeline.NamedBarrier(barrier_id=ACT_READY_BARRIER,
                                  num_threads=CONSUMER_THREADS).arrive_and_wait()
