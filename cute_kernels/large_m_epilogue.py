"""The plain wgmma GEMM's epilogue (``NVFP4GemmLargeM``'s; the fused kernel replaces it): a
mixin that stores the tile's fp32 accumulators, times 2^63 and alpha, in the output dtype,
through shared memory as token lines (``_staged_store``) where N allows whole 16-byte chunks,
else value by value; and the hooks a replacing epilogue fills (``_epilogue_setup``,
``_epilogue_finish``, ``_side_warps``, ``epilogue_smem_bytes``).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline

from .device_mma import POW2_63

EPILOGUE_BARRIER = 6  # + warpgroup (6, 7): one consumer warpgroup's staged output is in place
# The staged epilogue (``_staged_store``): bytes of output a consumer warpgroup puts in shared
# memory at once (two buffers of them), as lines of its 64 weight rows (32 tokens of 16-bit
# outputs, 16 of fp32), swizzled in 16-byte chunks by token so that neither the fragment
# writes nor the line reads conflict.
EPILOGUE_BYTES = 4096


class StagedEpilogue:
    """The epilogue methods of ``NVFP4GemmLargeM`` (it sets ``n``, ``out_dtype``, ``tile_m``,
    ``tile_n``, ``consumers`` and ``epilogue_bytes``)."""

    def epilogue_smem_bytes(self) -> int:
        """Shared memory ``_epilogue`` needs besides the pipeline stages (a subclass that
        replaces the epilogue declares its own; the stage count is chosen to leave room):
        the staged epilogue's two buffers per consumer warpgroup."""
        if not self._staged_epilogue():
            return 0
        return self.consumers * 2 * self._epilogue_tokens() * 64 * self.out_dtype.width // 8

    def epilogue_scratch_words(self) -> int:
        """fp32 words at the start of the epilogue's shared memory that hold nothing from one
        tile to the next (a subclass whose epilogue keeps its buffer's head only while it runs
        says how many): none here."""
        return 0

    def _staged_epilogue(self) -> bool:
        """Whether the epilogue stages its output through shared memory (``_staged_store``):
        N a multiple of the rows in 16 bytes of output (8 in 16 bits, 4 in fp32), so that
        each such chunk of a token is one aligned 16-byte store, whole or past N."""
        return self.n % (128 // self.out_dtype.width) == 0

    def _epilogue_tokens(self) -> int:
        """Tokens a buffer holds: 32 lines of 128 bytes (16-bit outputs) or 16 of 256 (fp32),
        or the tile's tokens if fewer; 16 lines of 16-bit outputs where the tile's tokens are
        an odd multiple of 16 (a fitted tile of 144, 176, 208 or 240)."""
        tokens = min(EPILOGUE_BYTES // (64 * self.out_dtype.width // 8), self.tile_m)
        return tokens if self.tile_m % tokens == 0 else tokens // 2

    def _epilogue_shares(self, splits: int) -> bool:
        """Whether ``_epilogue`` can take one of ``splits`` token shares of a tile (``share``,
        the scattered K pieces'): whole staged buffers of tokens a share."""
        return (not self._staged_epilogue()
                or (self.tile_m // splits) % self._epilogue_tokens() == 0)

    @cute.jit
    def _epilogue_setup(self, ctid, sEpi, scalars):
        """Once per CTA before the first tile, by the consumer threads (``ctid`` 0..255): where
        a subclass's epilogue fills tables in ``sEpi``. Returns the ``scalars`` the epilogue
        gets (a subclass may append per-thread state). Nothing here."""
        return scalars

    @cute.jit
    def _epilogue_finish(self, ctid, sEpi, scalars, outs):
        """Once per CTA after the last tile, by the consumer threads: where a subclass's
        epilogue hands over to ``_side_warps``. Nothing here."""
        pass

    @cute.jit
    def _side_warps(self, warp, sEpi, scalars, outs):
        """Warps 1..3 of the producer warpgroup (warp 0 issues the TMA loads): idle here."""
        pass

    @cute.jit
    def _epilogue(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile, share=None):
        """out[token, row] = acc[row, token] * 2^63 * alpha (the 2^63, exact, undoes the
        weights' 2^-63); rows past N and tokens past M are skipped. ``acc`` is consumer thread
        ``ctid``'s (0..255) fragment of the tile's [128 rows, tile_m tokens], ``tCcC`` its
        coordinates; ``sEpi`` the ``epilogue_smem_bytes`` of shared memory; ``share``: (p,
        splits), only the tile's token share p of ``splits`` (all of it where p is -1)."""
        self._store_tile(acc, tCcC, ctid, sEpi, scalars[0][0], outs[0], outs[0].shape[0],
                         row_tile, tok_tile, share)

    @cute.jit
    def _store_tile(self, acc, tCcC, ctid, sEpi, alpha, mD, m, row_tile, tok_tile, share=None):
        """The tile (or ``share``) to ``mD``: through shared memory (``_staged_store``) where
        ``_staged_epilogue`` holds, else value by value."""
        if cutlass.const_expr(self._staged_epilogue()):
            self._staged_store(acc, tCcC, ctid, sEpi, alpha, mD, m, row_tile, tok_tile, share)
        else:
            self._store(acc, tCcC, alpha, mD, m, row_tile, tok_tile, share)

    @cute.jit
    def _store(self, acc, tCcC, alpha, mD, m, row_tile, tok_tile, share=None):
        """mD[token, row] = acc * 2^63 * alpha in ``out_dtype`` for the tile's rows
        below N and tokens below M (of ``share`` only)."""
        row0 = row_tile * self.tile_n
        tok0 = tok_tile * self.tile_m
        runs = share_runs(share, cute.size(acc))
        for r in cutlass.range_constexpr(len(runs)):
            taken, first, end = runs[r]
            if taken:
                for i in cutlass.range_constexpr(first, end):
                    row, tok = tCcC[i]
                    row = row + row0
                    tok = tok + tok0
                    if row < self.n and tok < m:
                        mD[tok, row] = (acc[i] * cutlass.Float32(POW2_63) * alpha).to(
                            self.out_dtype)

    @cute.jit
    def _staged_store(self, acc, tCcC, ctid, sEpi, alpha, mD, m, row_tile, tok_tile,
                      share=None):
        """``_store``'s values through shared memory, ``_epilogue_tokens()`` tokens at a time
        per consumer warpgroup: each thread writes its fragment's values into the token's line
        of the warpgroup's 64 rows (128 bytes in 16 bits, 256 in fp32), then each thread
        stores whole 16-byte chunks of lines to ``mD``'s token rows, a warp whole
        lines at once. The fragment's own stores (``_store``) write one value each, a warp's
        touching 4 tokens' lines: on the H200 the epilogue then took 5 of 84 us at 4096x7168
        M = 1024 and 11 of 54 at 7168x2048 M = 1024 (session 22, ``tools/epilogue_probe.py``,
        stores skipped).

        Fragment element i = v0 + 2 v1 + 4 j holds (row r + 8 v1, token 8 j + 2 q + v0) with
        r = 16 warp + lane / 4 and q = lane % 4 (wgmma's accumulator layout). A line holds its
        16-byte chunk c (E = 8 or 4 rows) at slot c ^ (token % 8) (``staged_line_bases``,
        ``staged_line_slot``): the lanes of one row group write one or two slots, the 4 q
        other slots; a warp reading lines reads whole ones."""
        tokens = self._epilogue_tokens()
        per_chunk = 16 // (self.out_dtype.width // 8)  # E: rows in a 16-byte chunk
        wg = ctid // 128
        sD = cute.recast_tensor(sEpi, self.out_dtype)
        # 16-byte chunks of the buffers (sEpi is 128-byte aligned)
        sChunks = cute.make_tensor(cute.recast_tensor(sEpi, cutlass.Int32).iterator,
                                   cute.make_layout((self.epilogue_bytes // 16, 4),
                                                    stride=(4, 1)))
        mD32 = cute.recast_tensor(mD, cutlass.Int32)
        s = cutlass.Float32(POW2_63) * alpha
        bases = staged_line_bases(tCcC, per_chunk, wg * 2 * tokens * 64)
        barrier = pipeline.NamedBarrier(barrier_id=EPILOGUE_BARRIER + wg, num_threads=128)
        barrier.arrive_and_wait()  # the warpgroup's last reads of the buffers are done
        runs = share_runs(share, self.tile_m // tokens)
        for r in cutlass.range_constexpr(len(runs)):
            taken, first, end = runs[r]
            if taken:
                for part in cutlass.range_constexpr(first, end):
                    self._staged_part(acc, part, ctid, (sD, sChunks, mD32, bases, barrier), s,
                                      m, row_tile, tok_tile)

    @cute.jit
    def _staged_part(self, acc, part: cutlass.Constexpr, ctid, where, s, m, row_tile,
                     tok_tile):
        """``_staged_store``'s ``part``: its tokens' values (times ``s``) into buffer
        ``part % 2`` of the warpgroup's two, then their lines to ``mD``."""
        sD, sChunks, mD32, bases, barrier = where
        tokens = self._epilogue_tokens()
        per_chunk = 16 // (self.out_dtype.width // 8)  # E: rows in a 16-byte chunk
        chunks = 64 // per_chunk  # in a token's line
        wg = ctid // 128
        ltid = ctid % 128
        buffer_elems = tokens * 64
        wg_base = wg * 2 * buffer_elems
        row0 = row_tile * self.tile_n + wg * 64
        buf = (part % 2) * buffer_elems
        for jj in cutlass.range_constexpr(tokens // 8):
            j = part * (tokens // 8) + jj
            for v in cutlass.range_constexpr(4):
                sD[bases[v] + buf + jj * 8 * 64] = (acc[v + 4 * j] * s).to(self.out_dtype)
        barrier.arrive_and_wait()
        tasks = tokens * chunks  # 16-byte chunks in the part: 64 on 8-token tiles of 16 bits
        for p in cutlass.range_constexpr(-(-tasks // 128)):
            task = ltid + 128 * p
            t = task // chunks
            c = task % chunks
            slot = (wg_base + buf) // per_chunk + staged_line_slot(t, c, chunks)
            line = cute.make_rmem_tensor((1, 4), cutlass.Int32)
            cute.autovec_copy(cute.local_tile(sChunks, (1, 4), (slot, 0)), line)
            tok_g = tok_tile * self.tile_m + part * tokens + t
            row_g = row0 + per_chunk * c
            if tok_g < m and row_g < self.n and task < tasks:
                cute.autovec_copy(line, cute.local_tile(mD32, (1, 4),
                                                        (tok_g, row_g // per_chunk)))


def share_runs(share, count: int) -> list:
    """``count`` items of a tile in token order (fragment elements, staged parts, quantization
    items) as runs (condition, first, end): for ``share`` = (p, splits) the ``splits`` equal
    runs, each taken where p is its index or -1 (the whole tile); for None one run, always."""
    if share is None:
        return [(True, 0, count)]
    p, splits = share
    n = count // splits
    return [((p < 0) | (p == r), r * n, (r + 1) * n) for r in range(splits)]


def first_share(share):
    """Whether ``share`` (``share_runs``') is the tile's first share or the whole tile."""
    return True if share is None else share[0] < 1


def staged_line_bases(tCcC, per_chunk: int, first=0, line: int = 64) -> list:
    """Where a consumer thread's fragment values go in a buffer of token lines of 64 rows
    (``_staged_store``; the fused kernel's staged h too): per (v0, v1), the element offset
    (past ``first``) of
    fragment element v0 + 2 v1 + 4 j for j = 0, later j 8 tokens (8 * 64 elements) on. The
    element holds (row r + 8 v1, token 8 j + 2 q + v0); a line's 16-byte chunk c of
    ``per_chunk`` rows lies at slot ``staged_line_slot``."""
    row, tok = tCcC[0]  # r and 2 q
    bases = []
    for v in range(4):
        t8 = tok + v % 2  # the token mod 8
        c = (row % line + 8 * (v // 2)) // per_chunk
        bases.append(first + t8 * line + (c ^ t8) * per_chunk + row % per_chunk)
    return bases


def staged_line_slot(t, c, chunks: int):
    """The 16-byte slot of chunk ``c`` of token ``t``'s line (``chunks`` to a line), swizzled
    by the token so that neither the fragment writes nor the line reads conflict."""
    return t * chunks + (c ^ (t % 8))
