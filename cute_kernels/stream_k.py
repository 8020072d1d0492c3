"""Stream-K for the persistent wgmma kernels: the fix-up of output tiles split across CTAs.

With whole tiles per CTA, a grid of T tiles on P CTAs takes ceil(T / P) rounds: 9216x7168 at
M = 256 is 72 tiles of 256 tokens on 132 SMs (60 SMs idle), 36864x7168 at M = 64 is 288 tiles
of 64 tokens (2.18 waves, so a third round for 24 CTAs). Stream-K (Osama et al., 2023) gives
CTA c the contiguous range ``[c U / P, (c + 1) U / P)`` of the U = T x k_tiles (tile, k-tile)
units instead: every CTA gets the same number of k-tiles, and a tile may be cut into pieces
that belong to consecutive CTAs. A CTA holds at most two cut pieces: the first of its range
and the last.

A cut piece's fp32 accumulators go to the workspace slot ``2 c + (0 for the CTA's first piece,
1 for its last)``, element-major and thread-minor (each store and load of the 256 consumer
threads is one contiguous kilobyte). Then the CTA counts itself in on the tile's arrival
counter; the CTA that arrives last adds the tile's pieces in piece order (so the sum does not
depend on which CTA finishes last: deterministic), its own piece from registers where that
order allows (two pieces, or its piece the first: one read-back fewer, H200 2026-12-01,
session 32: 7168x2048 M = 64 in two pieces 12.24 -> 11.94 us), resets the counter, and runs
the ordinary epilogue (``D = alpha * acc`` or the fused SwiGLU + quantization). No CTA ever
waits for another, so the scheme cannot deadlock whatever the residency.

Where the launch has a warp to spare and shared memory for a tile's other pieces (16..64-token
tiles, one CTA an SM; ``NVFP4GemmLargeM.ASYNC_FIXUP``, the default since session 49) the
asynchronous fix-up below takes the tile instead: the head piece always finishes it, from
pieces gathered into shared memory while its main loop ran, and the other pieces store theirs
without any round trip. The head then waits for other CTAs (see that section's comment).

The fix-up sits on every CTA's path twice, so its latency shows (H200 2026-12-02, session 45,
``tools/loop_ab_probe.py``, graph us, same output bits, two rounds each):
* One release a CTA, not a fence a thread: the consumer barrier orders every thread's stores
  before thread 0's ``acq_rel`` arrival, whose release covers them, and the second barrier
  orders its acquire before everyone's reads. Every consumer thread ran ``fence.acq_rel.gpu``
  before: M = 16 7168x18432 29.3 -> 28.5, 5120x17408 22.8 -> 22.3, 36864x7168 47.1 -> 45.1,
  9216x7168 18.8 -> 18.4.
* The head check: a tile's first piece is the last piece of its CTA's range, while the other
  pieces open the ranges of the CTAs after it, so by then they have mostly arrived. The head's
  thread 0 reads the counter first (one acquire load); if every other piece is in, the CTA
  skips its own store and arrival and goes straight to the sum (the same sum, in the same
  order). On top of the above: M = 16 7168x18432 28.55 -> 28.15, 5120x17408 22.1 -> 21.8,
  36864x7168 45.1 -> 44.1, 9216x7168 18.3 -> 17.8; both together at M = 64 (main -> both):
  7168x18432 40.3 -> 38.4, 9216x7168 27.0 -> 24.3, the fused 36864x7168 68.8 -> 66.7 and
  9216x7168 26.8 -> 25.1.

Which CTA holds unit u: ``c(u) = ((u + 1) P - 1) // U`` (the largest c with c U / P <= u).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline
from cutlass.experimental import primitives as prims

CONSUMER_THREADS = 256
BARRIER_ID = 4  # named barrier of the consumer threads (the fused epilogue uses 1..3)


@cute.jit
def _cta_start(c, units, ctas):
    """First unit of CTA c's range (64-bit product)."""
    return cutlass.Int32(cutlass.Int64(c) * cutlass.Int64(units) // cutlass.Int64(ctas))


@cute.jit
def _cta_of(u, units, ctas):
    """The CTA whose range holds unit u."""
    return cutlass.Int32((cutlass.Int64(u + 1) * cutlass.Int64(ctas) - 1) // cutlass.Int64(units))


@cute.jit
def _slot_start(cta, last_of_range, per_thread: cutlass.Constexpr, threads: cutlass.Constexpr,
                ctid):
    """Where thread ``ctid``'s words of a piece of CTA ``cta`` start in the workspace: slot
    ``2 cta`` for the first piece of its range, ``2 cta + 1`` for its last (``last_of_range``
    0 or 1), element-major and thread-minor (word i at + i * threads). Every writer and
    reader of a piece goes through here."""
    return (2 * cta + last_of_range) * per_thread * threads + ctid


@cute.jit
def stream_k_fixup(acc: cute.Tensor, tile, u, k_tiles: cutlass.Constexpr, tiles, ctid,
                   mWork: cute.Tensor, mCount: cute.Tensor, sFlag: cute.Tensor, counter,
                   threads: cutlass.Constexpr = CONSUMER_THREADS,
                   head_check: cutlass.Constexpr = True, lanes: cutlass.Constexpr = 1):
    """For a cut piece of ``tile`` that starts at unit ``u`` (both counted from the start of the
    stream-K region of ``tiles`` tiles), run by the ``threads`` consumer threads (``ctid``; all
    256, or warpgroup 0 where it holds the tile alone) with their ``acc`` fragments: store the
    piece, count in on ``mCount[counter]`` (with ``head_check``, a head piece first checks
    whether the others are all in: it is then last without either); returns whether this CTA
    arrived last, its ``acc`` then holding the tile's whole sum. ``head_check`` is for ranges
    that run one after another (stream-K proper); a K split's pieces run side by side, where
    the check would mostly find the others still out and cost a round trip.

    ``lanes`` > 1 (``NVFP4GemmLargeM``'s lanes): CTA c is CTA c // lanes of lane c % lanes,
    whose ranges cut the lane's ``tiles`` alike; ``tile`` and ``u`` count in that lane and
    the workspace slots stay the physical CTAs'."""
    ctas = cute.arch.grid_dim()[0] // lanes
    c = cute.arch.block_idx()[0] // lanes
    lane = cute.arch.block_idx()[0] % lanes
    units = tiles * k_tiles
    per_thread = cute.size(acc)
    first_unit = tile * k_tiles
    c_first = _cta_of(first_unit, units, ctas)
    pieces = _cta_of(first_unit + k_tiles - 1, units, ctas) - c_first + 1
    # the piece is its CTA's first iff the CTA's range starts inside the tile (u is then that
    # start); the reader below applies the same rule to every CTA of the tile
    mine = _slot_start(c * lanes + lane, cutlass.Int32(u != _cta_start(c, units, ctas)),
                       per_thread, threads, ctid)
    barrier = pipeline.NamedBarrier(barrier_id=BARRIER_ID, num_threads=threads)
    # The tile's head piece ends its CTA's range, while the other pieces start the ranges of
    # the CTAs after it, so they have usually arrived: one acquire load of the counter finds
    # that, and the head skips its own store and the arrival (sFlag[1]: a CTA has one head).
    last = cutlass.Boolean(False)
    if cutlass.const_expr(head_check):
        if u == first_unit:
            if ctid == 0:
                sFlag[1] = cute.arch.load(mCount.iterator + counter, cutlass.Int32,
                                          sem="acquire", scope="gpu")
            barrier.arrive_and_wait()
            last = sFlag[1] == pieces - 1
    if not last:
        for i in cutlass.range_constexpr(per_thread):
            mWork[mine + i * threads] = acc[i]
        # One release for the CTA: the barrier orders every thread's stores before thread
        # 0's acq_rel atomic, whose release covers them (PTX cumulativity; CUTLASS's split-K
        # semaphore is the same pattern), and the second barrier orders its acquire before
        # every thread's reads of the other pieces below.
        barrier.arrive_and_wait()
        if ctid == 0:
            sFlag[0] = cute.arch.atomic_add(mCount.iterator + counter, cutlass.Int32(1),
                                            sem="acq_rel", scope="gpu")
        barrier.arrive_and_wait()
        last = sFlag[0] == pieces - 1
    if last:
        # The sum goes in piece order. With two pieces, or with this CTA holding the first,
        # its own piece stays in registers (a + b == b + a, and 0 + p0 == p0: the same bits)
        # and one piece fewer comes back from the workspace; otherwise all of them do.
        own = c - c_first
        if pieces != 2 and own != 0:
            acc.fill(0.0)
            own = cutlass.Int32(-1)
        _add_pieces(acc, own, c_first, pieces, first_unit, units, ctas, ctid, mWork, threads,
                    lanes, lane)
        if ctid == 0:
            mCount[counter] = cutlass.Int32(0)
    return last


@cute.jit
def _add_pieces(acc: cute.Tensor, own, c_first, pieces, first_unit, units, ctas, ctid,
                mWork: cute.Tensor, threads: cutlass.Constexpr, lanes: cutlass.Constexpr,
                lane):
    """``acc`` += the tile's pieces but the ``own``-th (-1: all of them), in piece order, from
    the workspace (L1-bypassing loads: other SMs wrote them); CTAs counted in ``lane``."""
    per_thread = cute.size(acc)
    for p in cutlass.range(pieces, unroll=1):
        if p != own:
            cp = c_first + p
            base = _slot_start(cp * lanes + lane,
                               cutlass.Int32(_cta_start(cp, units, ctas) < first_unit),
                               per_thread, threads, ctid)
            for i in cutlass.range_constexpr(per_thread):
                acc[i] = acc[i] + cute.arch.load(mWork.iterator + base + i * threads,
                                                 cutlass.Float32, cop="cg")


# ---------------------------------------------------------------- the asynchronous fix-up
# (``NVFP4GemmLargeM.ASYNC_FIXUP``). The head piece of a tile always finishes it. The other
# pieces (each the first of its CTA's range) store their partials and go on at once: the
# consumers arrive on TAIL_STORED_BARRIER, and the fix-up warp (an idle producer-warpgroup
# warp) waits there and sets the piece's bit in the tile's counter with one release. The head
# CTA's fix-up warp polls the counter while the head's main loop runs, bulk-copies each piece
# into shared memory as its bit appears (one mbarrier for all of them), and resets the counter
# once every bit is in; the head's consumers then add the pieces from shared memory, in piece
# order (the same sum as ``stream_k_fixup``'s, so the same bits).
# The head waits for other CTAs here, where ``stream_k_fixup`` never does. It cannot deadlock
# in a grid that is resident at once (the persistent grid is one wave): the awaited pieces
# start their CTAs' ranges and wait for nothing. (CUTLASS's stream-K waits the same way.)
# A piece that is its CTA's whole range ends when the head does, so the head still waits for
# its store, release, poll and copy after its main loop: the late pieces below skip those.
TAIL_STORED_BARRIER = 10  # consumers + the fix-up warp: a tail piece is in the workspace
MAX_GATHERED = 30  # the counter's bits: pieces after the head a tile may have
POLL_NS = 64  # the fix-up warp's sleep between polls (it shares the SM's issue slots)


def max_pieces(row_tiles: int, k_tiles: int, sms: int) -> int:
    """The most pieces a stream-K tile of ``k_tiles`` units can be cut into: with one token
    tile (the fewest units, so the shortest ranges) on ``min(units, sms)`` CTAs. (A hybrid
    launch's stream-K region can cut finer; its tiles of more pieces take
    ``stream_k_fixup``, as the kernel checks each tile.)"""
    units = row_tiles * k_tiles
    shortest = units // min(units, sms)
    return -(-(k_tiles - 1) // shortest) + 1


@cute.jit
def tile_cut(tile, k_tiles: cutlass.Constexpr, tiles):
    """(the CTA holding the head piece, pieces) of stream-K ``tile`` of ``tiles``."""
    ctas = cute.arch.grid_dim()[0]
    units = tiles * k_tiles
    first_unit = tile * k_tiles
    c_first = _cta_of(first_unit, units, ctas)
    return c_first, _cta_of(first_unit + k_tiles - 1, units, ctas) - c_first + 1


@cute.jit
def store_tail(acc: cute.Tensor, ctid, mWork: cute.Tensor,
               threads: cutlass.Constexpr = CONSUMER_THREADS):
    """Asynchronous fix-up, by the consumers: a tail piece's partial (always its CTA's first
    piece: slot ``2 c``) to the workspace; the fix-up warp releases it (``release_tail``)."""
    mine = _slot_start(cute.arch.block_idx()[0], 0, cute.size(acc), threads, ctid)
    for i in cutlass.range_constexpr(cute.size(acc)):
        mWork[mine + i * threads] = acc[i]
    pipeline.NamedBarrier(barrier_id=TAIL_STORED_BARRIER, num_threads=threads + 32).arrive()


@cute.jit
def release_tail(tile, k_tiles: cutlass.Constexpr, tiles, mCount: cute.Tensor, counter,
                 threads: cutlass.Constexpr = CONSUMER_THREADS):
    """Asynchronous fix-up, by the fix-up warp: once the consumers' stores of this CTA's tail
    piece of ``tile`` are in (the barrier orders them before lane 0's release, which covers
    them), set the piece's bit in the tile's counter."""
    pipeline.NamedBarrier(barrier_id=TAIL_STORED_BARRIER,
                          num_threads=threads + 32).arrive_and_wait()
    if cute.arch.lane_idx() == 0:
        c_first, _ = tile_cut(tile, k_tiles, tiles)
        piece = cute.arch.block_idx()[0] - c_first
        cute.arch.red(mCount.iterator + counter, cutlass.Int32(1) << piece, op="add",
                      dtype=cutlass.Int32, sem="release", scope="gpu")


@cute.jit
def gather_pieces(tile, k_tiles: cutlass.Constexpr, tiles, mWork: cute.Tensor,
                  mCount: cute.Tensor, counter, sPieces: cute.Tensor, gathered,
                  words: cutlass.Constexpr, late: cutlass.Constexpr = False):
    """Asynchronous fix-up, by lane 0 of the head CTA's fix-up warp: bulk-copy the other
    pieces of ``tile`` (``words`` fp32 each) into ``sPieces`` (piece p at (p - 1) words) as
    their bits appear in the counter, completing on the mbarrier ``gathered``; then reset
    the counter for the next launch. With ``late``, not the late pieces (``store_late``)."""
    c_first, pieces = tile_cut(tile, k_tiles, tiles)
    want = (cutlass.Int32(1) << pieces) - 2
    if cutlass.const_expr(late):
        for p in cutlass.range(1, pieces, unroll=1):
            if whole_range(c_first + p, tile, k_tiles, tiles):
                want = want & ~(cutlass.Int32(1) << p)
        cute.arch.mbarrier_arrive_and_expect_tx(gathered, cute.arch.popc(want) * words * 4)
    else:
        cute.arch.mbarrier_arrive_and_expect_tx(gathered, (pieces - 1) * words * 4)
    seen = cutlass.Int32(0)
    while seen != want:
        new = cute.arch.load(mCount.iterator + counter, cutlass.Int32, sem="acquire",
                             scope="gpu") & ~seen
        if new != 0:
            # the pieces were written through the generic proxy, the bulk copy reads through
            # the async one
            cute.arch.fence_proxy("async.global")
            for p in cutlass.range(1, pieces, unroll=1):
                if (new >> p) & 1 != 0:
                    src = _slot_start(c_first + p, 0, words, 1, 0)
                    prims.cp_async_bulk_shared_cluster_global(
                        sPieces.iterator + (p - 1) * words, mWork.iterator + src, gathered,
                        words * 4)
            seen = seen | new
        else:
            prims.nanosleep(POLL_NS)
    mCount[counter] = cutlass.Int32(0)


@cute.jit
def add_gathered(acc: cute.Tensor, pieces, sPieces: cute.Tensor, gathered, ctid,
                 threads: cutlass.Constexpr = CONSUMER_THREADS, late=None):
    """Asynchronous fix-up, by the head's consumers: ``acc`` (piece 0) += pieces 1 ..
    ``pieces`` - 1 of its tile from shared memory, in piece order, once they are all in;
    with ``late`` = (tile, k_tiles, tiles, counters, late base), the late ones from their
    slots (``add_late``)."""
    cute.arch.mbarrier_wait(gathered, 0)
    words = cute.size(acc) * threads
    if cutlass.const_expr(late is not None):
        tile, k_tiles, tiles, mCount, late_base = late
        c_first, _ = tile_cut(tile, k_tiles, tiles)
    for p in cutlass.range(1, pieces, unroll=1):
        gathered_here = cutlass.Boolean(True)
        if cutlass.const_expr(late is not None):
            if whole_range(c_first + p, tile, k_tiles, tiles):
                add_late(acc, c_first + p, mCount, late_base, ctid, threads)
                gathered_here = cutlass.Boolean(False)
        if gathered_here:
            base = (p - 1) * words + ctid
            for i in cutlass.range_constexpr(cute.size(acc)):
                acc[i] = acc[i] + sPieces[base + i * threads]


# ---------------------------------------------------------------- late pieces (a probe)
# ``NVFP4GemmLargeM.LATE_PIECES``: a piece that is its CTA's whole range goes to the CTA's
# slot of a late region past the arrival counters instead (``late_words``), each word XORed
# with LATE_MARK, and the head's consumers load the words themselves until none is 0 (the
# region at rest), then put the 0s back: no flag, no bulk copy, one round trip once the
# stores land. LATE_MARK is a NaN that no arithmetic returns (NaN results are canonical), so
# no stored word is 0. Session 49's form (``notes/late-pieces.patch``, H200 2026-12-02,
# 1-6 us slower) waited for each word in turn: a head there first paid a round trip per
# word (8 at 16 tokens); here each round reloads every word still out, at once.
LATE_MARK = 0x7FBADBAD


def late_words(ctas: int, tile_m: int, tile_n: int = 128) -> int:
    """int32 words of the late region: a tile's words per CTA."""
    return ctas * tile_m * tile_n


@cute.jit
def whole_range(cta, tile, k_tiles: cutlass.Constexpr, tiles):
    """Whether CTA ``cta``'s range, which starts inside stream-K ``tile``, ends in it too."""
    return _cta_start(cta + 1, tiles * k_tiles, cute.arch.grid_dim()[0]) <= (tile + 1) * k_tiles


@cute.jit
def store_late(acc: cute.Tensor, ctid, mCount: cute.Tensor, late_base,
               threads: cutlass.Constexpr = CONSUMER_THREADS):
    """Late pieces, by the consumers: this CTA's piece (its whole range) to its late slot,
    each word XORed with LATE_MARK, element-major and thread-minor; no flag."""
    acc32 = cute.recast_tensor(acc, cutlass.Int32)
    base = late_base + cute.arch.block_idx()[0] * (cute.size(acc) * threads) + ctid
    for i in cutlass.range_constexpr(cute.size(acc)):
        cute.arch.store(mCount.iterator + base + i * threads,
                        acc32[i] ^ cutlass.Int32(LATE_MARK), sem="relaxed", scope="gpu")


@cute.jit
def _words_out(words: cute.Tensor):
    """Whether any of ``words`` is still 0 (not stored yet)."""
    out = cutlass.Boolean(False)
    for i in cutlass.range_constexpr(cute.size(words)):
        out = out | (words[i] == 0)
    return out


@cute.jit
def add_late(acc: cute.Tensor, cta, mCount: cute.Tensor, late_base, ctid,
             threads: cutlass.Constexpr = CONSUMER_THREADS):
    """``acc`` += CTA ``cta``'s late piece, its words loaded, and those still 0 loaded again
    (all at once each round), until every one is in; the slot is left 0 for the next launch.
    While its last word is out, only that one is reloaded: a head that waits would otherwise
    load its whole tile every round trip, beside the CTAs still streaming their weights."""
    base = late_base + cta * (cute.size(acc) * threads) + ctid
    last = cute.size(acc) - 1
    words = cute.make_rmem_tensor(cute.make_layout(cute.size(acc)), cutlass.Int32)
    for i in cutlass.range_constexpr(cute.size(acc)):
        words[i] = cute.arch.load(mCount.iterator + base + i * threads, cutlass.Int32,
                                  sem="relaxed", scope="gpu")
    # the warp's votes keep the loops warp-uniform: a per-thread exit made ptxas move the
    # consumers' stage counters out of uniform registers (R2UR before every wgmma)
    while cute.arch.vote_any_sync(_words_out(words)):
        while cute.arch.vote_any_sync(words[last] == 0):
            words[last] = cute.arch.load(mCount.iterator + base + last * threads,
                                         cutlass.Int32, sem="relaxed", scope="gpu")
        for i in cutlass.range_constexpr(cute.size(acc)):
            if words[i] == 0:
                words[i] = cute.arch.load(mCount.iterator + base + i * threads, cutlass.Int32,
                                          sem="relaxed", scope="gpu")
    values = cute.recast_tensor(words, cutlass.Float32)  # (a view: it reads the unmarked words)
    for i in cutlass.range_constexpr(cute.size(acc)):
        words[i] = words[i] ^ cutlass.Int32(LATE_MARK)
        acc[i] = acc[i] + values[i]
        mCount[base + i * threads] = cutlass.Int32(0)


def workspace_words(ctas: int, tile_m: int, tile_n: int = 128) -> int:
    """fp32 words of the workspace: two slots of a [tile_n, tile_m] tile per CTA."""
    return 2 * ctas * tile_m * tile_n


# ---------------------------------------------------------------- the scattered K pieces
# A K-split launch (``splits`` > 1 on a grid of exactly tiles x splits CTAs) gives CTA c piece
# c % splits of tile c // splits, and all the pieces of a tile run side by side. There
# ``stream_k_fixup``'s last arrival reads every other piece (three 64 KB pieces of a 128 x 128
# tile at four pieces; with its own piece not the first, all four) and runs the whole
# epilogue while the tile's other CTAs have nothing left to do. Here each piece's CTA owns a
# share of the tile instead: tokens [p T / S, (p + 1) T / S) of piece p, which are fragment
# elements [p E / S, (p + 1) E / S) of every consumer thread (element v + 4 j holds token
# 8 j + 2 q + v % 2). Each CTA stores the other shares of its partial, counts itself in, waits
# for the tile's other pieces (they run at once: the grid is one resident wave, as the
# asynchronous fix-up's wait assumes), adds its share's pieces in piece order (the sum
# ``stream_k_fixup`` forms: the same bits) and runs the epilogue on its share alone.
@cute.jit
def scatter_fixup(acc: cute.Tensor, ctid, splits: cutlass.Constexpr, mWork: cute.Tensor,
                  mCount: cute.Tensor, threads: cutlass.Constexpr = CONSUMER_THREADS):
    """The scattered K pieces' fix-up (the comment above), run by the ``threads`` consumer
    threads after the piece's main loop; returns the CTA's share p, whose elements of ``acc``
    then hold the tile's sums. The tile's counter goes to ``splits`` as its pieces arrive and
    on to 2 ``splits`` as their CTAs leave the wait; the last to leave resets it."""
    c = cute.arch.block_idx()[0]
    tile = c // splits
    p = c - tile * splits
    per_thread = cute.size(acc)
    share = per_thread // splits  # fragment elements in a share
    barrier = pipeline.NamedBarrier(barrier_id=BARRIER_ID, num_threads=threads)
    mine = _slot_start(c, 0, per_thread, threads, ctid)
    for s in cutlass.range_constexpr(splits):
        if p != s:
            for i in cutlass.range_constexpr(s * share, (s + 1) * share):
                mWork[mine + i * threads] = acc[i]
    # (one release for the CTA after the barrier, as ``stream_k_fixup``'s arrival)
    barrier.arrive_and_wait()
    if ctid == 0:
        cute.arch.atomic_add(mCount.iterator + tile, cutlass.Int32(1), sem="acq_rel",
                             scope="gpu")
        while cute.arch.load(mCount.iterator + tile, cutlass.Int32, sem="acquire",
                             scope="gpu") < splits:
            prims.nanosleep(POLL_NS)
        left = cute.arch.atomic_add(mCount.iterator + tile, cutlass.Int32(1), scope="gpu")
        if left == 2 * splits - 1:
            mCount[tile] = cutlass.Int32(0)
    barrier.arrive_and_wait()
    first = _slot_start(c - p, 0, per_thread, threads, ctid)  # piece 0's slot
    stride = _slot_start(1, 0, per_thread, threads, 0)  # one CTA's slots further
    for s in cutlass.range_constexpr(splits):
        if p == s:
            for i in cutlass.range_constexpr(s * share, (s + 1) * share):
                total = acc[i]
                if cutlass.const_expr(s != 0):
                    total = cute.arch.load(mWork.iterator + first + i * threads,
                                           cutlass.Float32, cop="cg")
                for q in cutlass.range_constexpr(1, splits):
                    if cutlass.const_expr(q == s):
                        total = total + acc[i]
                    else:
                        total = total + cute.arch.load(
                            mWork.iterator + first + q * stride + i * threads,
                            cutlass.Float32, cop="cg")
                acc[i] = total
    return p
