"""Grid decode: NVFP4 activations dequantized by the wgmma launch's own grid, overlapping its
main loop, instead of by ``bf16_activations``' pass before it. EXPERIMENTAL, on no route:
bit-exact on the H200 but slower than the pass (session 31, ``tools/grid_decode_probe.py``,
us, pass route / grid decode: fused 1024x7168 M = 4096 92.4 / 144.0, 4096x7168 M = 1024 78.2 /
80.9): the decode warps take ~4 us an item where keeping ahead needs ~1.6
(``notes/nvfp4-gemm-next.md``).

Why: at 2I = 1024 the pass is the fused op's whole gap to cuBLAS + silu (H200 2026-12-01,
``tools/pass_share_probe.py``, us, op / GEMM kernels alone / pass alone: M = 4096 93.3 / 74.4 /
20.2, M = 16384 372.9 / 294.7 / 76.7). The pass is bandwidth bound and the GEMM there tensor
bound, so run both at once: the producer warpgroup's three spare warps of every CTA decode
while the consumers compute.

How:
- An item is one 64-element K group of 32 activation rows: lane l decodes row ``32 c + l`` of
  the item's row block c with ``NVFP4DequantPermutedK``'s own unit code (all four of the
  group's units: the same bits as the pass), reading 8 words and 4 scale bytes and writing
  the group's 128 bytes of bf16 in ``PERMUTED_K_ORDER`` into a scratch buffer of whole token
  tiles (zeros past M), which the TMA reads as before.
- Items go wave by wave of the persistent grid, k-tile by k-tile over the token tiles a wave
  first needs (``_item_at``: the order the CTAs consume them), item i to decode warp i mod W:
  ``IN_FLIGHT`` of them a warp at once through registers, or with ``decode_ring`` = R
  (``_decode_items_ring``) R items ahead through a per-warp ``cp.async`` ring in shared
  memory (no registers held; R such that the pipeline keeps its stages).
- After a batch's stores and one release fence, lane 0 adds one to each item's flag of
  (token tile, k-tile).
- The producer warp, before a k-tile's TMA load, makes sure the flag is full: one warp-wide
  acquire load polls 32 k-tiles' flags at once and keeps how far they are complete; a proxy
  fence then orders the TMA's reads after the decoders' writes. A flag polled ``POLL_LIMIT``
  times traps (a CUDA error, not a hang).
- The flags are ``arrival_counters`` (zero between launches): the producer warp that counts
  itself in last on ``done`` (the word after the flags) zeroes them all.

Launches: whole tiles, one K group a stage, permuted words or packed bytes in pairs, one CTA
an SM, no quantizer warps (they hold the same warps). Every CTA of the persistent grid is
resident (one an SM), so the decoders, who never wait, always progress.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass.cute.arch.nvvm_wrappers import inline_ptx
from cutlass.cute.nvgpu import cpasync

ITEM_ROWS = 32       # rows an item: one a lane
DECODE_WARPS = 3     # warps 1..3 of the producer warpgroup
IN_FLIGHT = 2        # items a decode warp loads before it stores
POLL_LIMIT = 1 << 22  # polls of one flag before a trap (~seconds)


def ring_words(items: int) -> int:
    """int32 words of the decoders' cp.async ring of ``items`` items a warp: per item and
    lane two 16-byte chunks of codes, then a word of four scale bytes."""
    return items * DECODE_WARPS * 32 * 9


def flag_index(tok_tile, kt, k_tiles: int):
    """The flag of (token tile, k-tile): the decoders release it, the producer polls it."""
    return tok_tile * k_tiles + kt


def flag_words(rows: int, k_tiles: int, tile_m: int) -> int:
    """int32 words of a launch's flags: one per (token tile, k-tile), then ``done``."""
    return rows // tile_m * k_tiles + 1


@cute.jit
def trap_if(cond):
    """A CUDA error (``trap``) where ``cond`` holds."""
    if cond:
        inline_ptx("trap;")


class GridDecoder:
    """The decode warps' loop, a mixin of the wgmma kernels (``self.unit``: the
    ``NVFP4DequantPermutedK`` whose unit code decodes)."""

    @cute.jit
    def _decode_items(self, mOut32: cute.Tensor, mCodes: cute.Tensor, mCodeSF: cute.Tensor,
                      sSF: cute.Tensor, mFlags: cute.Tensor, m, rows,
                      k_tiles: cutlass.Constexpr, tile_m: cutlass.Constexpr, warp, two63):
        """Decode warp ``warp`` (1..3) of this CTA: its items of the activations (``rows`` of
        whole token tiles, M = ``m`` of them real), ``IN_FLIGHT`` at a time: ``mOut32`` the
        scratch as int32 [rows * K / 64, 32], ``mCodes`` the codes as int32 [M * K / 64, 8],
        ``mCodeSF`` their scale bytes, ``sSF`` those through the swizzled layout."""
        lane = cute.arch.lane_idx()
        decoders = cute.arch.grid_dim()[0] * DECODE_WARPS
        first = cute.arch.block_idx()[0] * DECODE_WARPS + warp - 1
        blocks = rows // ITEM_ROWS
        items = blocks * k_tiles
        for i in cutlass.range(first, items, IN_FLIGHT * decoders, unroll=1):
            words = [cute.make_rmem_tensor((1, 8), cutlass.Int32) for _ in range(IN_FLIGHT)]
            sfs = [cute.make_rmem_tensor((4,), cutlass.Float8E4M3FN) for _ in range(IN_FLIGHT)]
            # (k-tile, block) of the batch's items, kept for their stores and flags
            coords = [self._item_at(i + j * decoders, rows, k_tiles, tile_m)
                      for j in range(IN_FLIGHT)]
            for j in cutlass.range_constexpr(IN_FLIGHT):
                kt, block = coords[j]
                row = block * ITEM_ROWS + lane
                group = row * k_tiles + kt
                if i + j * decoders < items and row < m:
                    self.unit._load_words(mCodes, 4 * group, words[j])
                    self.unit._load_scales(mCodeSF, sSF, group, sfs[j])
            for j in cutlass.range_constexpr(IN_FLIGHT):
                kt, block = coords[j]
                row = block * ITEM_ROWS + lane
                if i + j * decoders < items:
                    self._store_group(words[j], sfs[j], row < m, row * k_tiles + kt, mOut32,
                                      two63)
            # one release fence for the batch's stores (a fence waits for them: one an item
            # measured ~4 us an item in session 31), then each item's flag
            cute.arch.fence_acq_rel_gpu()
            cute.arch.sync_warp()
            if lane == 0:
                for j in cutlass.range_constexpr(IN_FLIGHT):
                    if i + j * decoders < items:
                        kt, block = coords[j]
                        flag = flag_index(block * ITEM_ROWS // tile_m, kt, k_tiles)
                        cute.arch.atomic_add(mFlags.iterator + flag, cutlass.Int32(1),
                                             sem="relaxed", scope="gpu")

    @cute.jit
    def _item_at(self, item, rows, k_tiles: cutlass.Constexpr, tile_m: cutlass.Constexpr):
        """(k-tile, 32-row block) of decode item ``item``. Items go wave by wave of the
        persistent grid: wave w (tiles w G .. (w + 1) G - 1 of ``_tile_coords``' order, G CTAs)
        first needs token tiles T(w) .. T(w + 1) - 1 (``_first_token_tile_at``), their items
        k-tile by k-tile, so that the decoders go in the order the CTAs consume. One wave: all
        rows, k-tile by k-tile."""
        per_tile = tile_m // ITEM_ROWS
        tok_tiles = rows // tile_m
        grid = cute.arch.grid_dim()[0]
        wave = cutlass.Int32(0)
        t0 = cutlass.Int32(0)
        t1 = self._first_token_tile_at(grid, tok_tiles)
        rest = item
        n = (t1 - t0) * per_tile * k_tiles
        while rest >= n and t1 < tok_tiles:
            rest -= n
            t0 = t1
            wave += 1
            t1 = self._first_token_tile_at((wave + 1) * grid, tok_tiles)
            n = (t1 - t0) * per_tile * k_tiles
        per_k_tile = (t1 - t0) * per_tile
        kt = rest // per_k_tile
        return kt, t0 * per_tile + rest - kt * per_k_tile

    @cute.jit
    def _first_token_tile_at(self, tile, tok_tiles):
        """The first token tile whose first output tile (row tile 0) comes at or after linear
        tile ``tile`` in ``_tile_coords``' bands of ``group`` token tiles."""
        band_size = self.group * self.row_tiles
        band = tile // band_size
        offset = tile - band * band_size
        return cutlass.min(band * self.group + cutlass.min(offset, self.group), tok_tiles)

    @cute.jit
    def _store_group(self, words, sf, live, group, mOut32: cute.Tensor, two63):
        """One row's 64-element group into the scratch: its 8 words with their 4 scales in
        ``PERMUTED_K_ORDER`` (the pass's ``_chunk``, so the same bits), or zeros where not
        ``live`` (rows past M: the tile's padded rows read as zero)."""
        if live:
            sf32 = sf.load().to(cutlass.Float32)
            for r in cutlass.range_constexpr(4):
                for b in cutlass.range_constexpr(2):
                    chunk = cute.make_rmem_tensor((1, 4), cutlass.Int32)
                    self.unit._chunk(words, sf32, r, b, two63, chunk)
                    cute.autovec_copy(chunk, cute.local_tile(mOut32, (1, 4), (group, 4 * b + r)))
        else:
            zeros = cute.make_rmem_tensor((1, 4), cutlass.Int32)
            zeros.fill(0)
            for c in cutlass.range_constexpr(8):
                cute.autovec_copy(zeros, cute.local_tile(mOut32, (1, 4), (group, c)))

    @cute.jit
    def _decode_items_ring(self, ring: cute.Tensor, mOut32: cute.Tensor, mCodes: cute.Tensor,
                           mCodeSF: cute.Tensor, sSF: cute.Tensor, mFlags: cute.Tensor, m, rows,
                           k_tiles: cutlass.Constexpr, tile_m: cutlass.Constexpr, warp, two63):
        """``_decode_items`` with the loads through a per-warp ring of ``decode_ring`` items in
        shared memory (``ring``: ``ring_words`` int32): each lane ``cp.async``-copies its own
        row's codes and scales for the items ahead, so loads stay in flight without registers
        (the producer warpgroup has 40). One item an iteration; its flag after a release
        fence. A lane reads only what it copied, so no warp barrier guards the slots."""
        slots = self.decode_ring
        lane = cute.arch.lane_idx()
        w = warp - 1
        decoders = cute.arch.grid_dim()[0] * DECODE_WARPS
        first = cute.arch.block_idx()[0] * DECODE_WARPS + w
        blocks = rows // ITEM_ROWS
        items = blocks * k_tiles
        chunk_words = slots * DECODE_WARPS * 32 * 8
        sChunks = cute.make_tensor(ring.iterator, cute.make_ordered_layout(
            (slots, DECODE_WARPS, 2, 32, 4), order=(4, 3, 2, 1, 0)))
        sScales = cute.make_tensor(cute.recast_ptr(ring.iterator + chunk_words,
                                                   dtype=cutlass.Float8E4M3FN),
                                   cute.make_ordered_layout((slots, DECODE_WARPS, 32, 4),
                                                            order=(3, 2, 1, 0)))
        wide = cute.make_copy_atom(cpasync.CopyG2SOp(), cutlass.Int32, num_bits_per_copy=128)
        narrow = cute.make_copy_atom(cpasync.CopyG2SOp(), cutlass.Float8E4M3FN,
                                     num_bits_per_copy=32)
        for t in cutlass.range_constexpr(slots):
            self._ring_issue(first + t * decoders, t, w, lane, rows, items, m, k_tiles, tile_m,
                             mCodes, mCodeSF, sSF, sChunks, sScales, wide, narrow)
            cute.arch.cp_async_commit_group()
        mine = (items - first + decoders - 1) // decoders
        for t in cutlass.range(mine, unroll=1):
            slot = t % slots
            item = first + t * decoders
            kt, block = self._item_at(item, rows, k_tiles, tile_m)
            row = block * ITEM_ROWS + lane
            group = row * k_tiles + kt
            cute.arch.cp_async_wait_group(slots - 1)
            words = cute.make_rmem_tensor((1, 8), cutlass.Int32)
            sf = cute.make_rmem_tensor((4,), cutlass.Float8E4M3FN)
            for h in cutlass.range_constexpr(2):
                cute.autovec_copy(sChunks[slot, w, h, lane, None],
                                  cute.local_tile(words, (1, 4), (0, h))[0, None])
            cute.autovec_copy(sScales[slot, w, lane, None], sf)
            self._ring_issue(item + slots * decoders, slot, w, lane, rows, items, m, k_tiles,
                             tile_m, mCodes, mCodeSF, sSF, sChunks, sScales, wide, narrow)
            cute.arch.cp_async_commit_group()
            self._store_group(words, sf, row < m, group, mOut32, two63)
            cute.arch.fence_acq_rel_gpu()
            cute.arch.sync_warp()
            if lane == 0:
                flag = flag_index(block * ITEM_ROWS // tile_m, kt, k_tiles)
                cute.arch.atomic_add(mFlags.iterator + flag, cutlass.Int32(1), sem="relaxed",
                                     scope="gpu")
        cute.arch.cp_async_wait_group(0)

    @cute.jit
    def _ring_issue(self, item, slot, w, lane, rows, items, m, k_tiles: cutlass.Constexpr,
                    tile_m: cutlass.Constexpr, mCodes, mCodeSF, sSF, sChunks, sScales, wide,
                    narrow):
        """This lane's ``cp.async`` copies of item ``item`` (its row's 8 code words and 4
        scale bytes) into ring slot ``slot``; nothing past the last item or past M."""
        kt, block = self._item_at(item, rows, k_tiles, tile_m)
        row = block * ITEM_ROWS + lane
        if item < items and row < m:
            group = row * k_tiles + kt
            for h in cutlass.range_constexpr(2):
                src = cute.local_tile(mCodes, (1, 4), (group, h))[0, None]
                cute.copy(wide, cute.zipped_divide(src, (4,)),
                          cute.zipped_divide(sChunks[slot, w, h, lane, None], (4,)))
            byte = cute.crd2idx((row, 4 * kt), sSF.layout)  # 4 scales, contiguous, aligned
            cute.copy(narrow, cute.zipped_divide(cute.local_tile(mCodeSF, (4,), (byte // 4,)),
                                                 (4,)),
                      cute.zipped_divide(sScales[slot, w, lane, None], (4,)))


@cute.jit
def wait_decoded(mFlags: cute.Tensor, tok_tile, kt, ready, k_tiles: cutlass.Constexpr,
                 tile_m: cutlass.Constexpr):
    """Producer warp (all 32 lanes), before the TMA load of k-tile ``kt`` of token tile
    ``tok_tile``: ``ready`` is the first k-tile of the tile not yet seen complete; returns it
    past ``kt``. Each poll reads 32 flags at once (lane l: k-tile ready + l)."""
    need = cutlass.Int32(tile_m // ITEM_ROWS)
    lane = cute.arch.lane_idx()
    polls = cutlass.Int32(0)
    while ready <= kt:
        kl = ready + lane
        done = cutlass.Boolean(True)
        if kl < k_tiles:
            got = cute.arch.load(mFlags.iterator + flag_index(tok_tile, kl, k_tiles), cutlass.Int32,
                                 sem="acquire", scope="gpu")
            done = got >= need
        mask = cute.arch.vote_ballot_sync(done)
        # the complete k-tiles from ``ready`` on: mask's trailing ones
        mask = cutlass.Uint32(mask)
        ready += cutlass.Int32(cute.arch.popc(mask & ~(mask + cutlass.Uint32(1))))
        polls += 1
        trap_if(polls > POLL_LIMIT)
        if ready <= kt:
            inline_ptx("nanosleep.u32 128;")
    # each lane acquired its own flags: the warp barrier orders them all before every lane's
    # next steps; then the decoders' generic-proxy stores before the TMA's (async proxy) reads
    cute.arch.sync_warp()
    cute.arch.fence_proxy("async.global")
    return ready


@cute.jit
def release_flags(mFlags: cute.Tensor, words):
    """Producer warp, after its last poll: count this CTA in on ``done`` (the word after the
    flags); the last CTA zeroes the flags and ``done`` (no CTA polls any more)."""
    lane = cute.arch.lane_idx()
    old = cutlass.Int32(0)
    if lane == 0:
        old = cute.arch.atomic_add(mFlags.iterator + (words - 1), cutlass.Int32(1),
                                   sem="acq_rel", scope="gpu")
    old = cute.arch.shuffle_sync(old, 0)
    if old == cute.arch.grid_dim()[0] - 1:
        for w in cutlass.range(lane, words, 32, unroll=1):
            mFlags[w] = cutlass.Int32(0)
