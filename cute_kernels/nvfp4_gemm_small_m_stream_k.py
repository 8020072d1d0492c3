"""The small-M NVFP4 GEMM in stream-K over warps: every warp streams the same share of the weight.

At M <= 16 the small-M kernel is a weight stream, and whole row blocks per CTA balance badly
unless the CTAs come in many waves: 7168x18432 is 224 CTAs of 32 rows on 132 SMs (92 SMs
stream two blocks, 40 one), 5120x17408 is 160. And every CTA starts with a memory round trip
and ends with its warps' reduction, so short CTAs pay those often.

Here a fixed grid of ``ctas`` CTAs (all resident at once) shares out the U = row blocks x K
steps units among its W = ctas x warps warps: warp ``w`` takes ``[w U / W, (w + 1) U / W)``,
in order, the next unit's loads in flight while one is decoded (register double buffering
across row blocks too: the pipeline never drains inside a warp's range). A block whose steps
one warp holds whole gets the ordinary epilogue from that warp; a block cut across warps is
summed the stream-K way (``stream_k``'s rule, with warps for CTAs): each piece's fp32 sums go to
its warp's workspace slot (two per warp: its range's first piece and its last), the warp
counts itself in on the block's arrival counter, and the last to arrive adds the pieces in
piece order (deterministic) and runs the epilogue. No warp waits for another.

One token tile per launch (M <= 8 x token_tiles); the activations of M <= 2 are staged in
shared memory for the whole K (``x_tokens``), as the plain kernel stages them.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from . import jit
from .arch import compile_options
from .arrival_counters import arrival_counters
from .dtypes import torch_to_cutlass
from .nvfp4_gemm_small_m import NVFP4GemmSmallM, fake_operands
from .nvfp4_gemm_small_m_split import fake_split_buffers
from .stream_k import _cta_of, _cta_start


@cute.jit
def _warp_piece_fixup(acc: cute.Tensor, block, piece, start, worker, workers, units,
                      steps: cutlass.Constexpr, mWork: cute.Tensor, mCount: cute.Tensor, lane):
    """A cut piece of row block ``block`` that starts at unit ``piece`` (the warp's range starts
    at ``start``): store it, count in; returns whether this warp arrived last, its ``acc`` then
    holding the block's whole sum."""
    per_lane = cute.size(acc)
    slot_words = 32 * per_lane
    first_unit = block * steps
    w_first = _cta_of(first_unit, units, workers)
    pieces = _cta_of(first_unit + steps - 1, units, workers) - w_first + 1
    mine = (2 * worker + cutlass.Int32(piece != start)) * slot_words + lane * per_lane
    for i in cutlass.range_constexpr(per_lane):
        mWork[mine + i] = acc[i]
    cute.arch.fence_acq_rel_gpu()
    cute.arch.sync_warp()
    arrived = cutlass.Int32(0)
    if lane == 0:
        arrived = cute.arch.atomic_add(mCount.iterator + block, cutlass.Int32(1), sem="acq_rel",
                                       scope="gpu")
    arrived = cute.arch.shuffle_sync(arrived, 0)
    last = arrived == pieces - 1
    if last:
        cute.arch.fence_acq_rel_gpu()
        acc.fill(0.0)
        for p in cutlass.range(pieces, unroll=1):
            wp = w_first + p
            slot = 2 * wp + cutlass.Int32(_cta_start(wp, units, workers) < first_unit)
            base = slot * slot_words + lane * per_lane
            for i in cutlass.range_constexpr(per_lane):
                acc[i] = acc[i] + cute.arch.load(mWork.iterator + base + i, cutlass.Float32,
                                                 cop="cg")
        if lane == 0:
            mCount[block] = cutlass.Int32(0)
    return last


class SmallMStreamK:
    """Mixin over ``NVFP4GemmSmallM`` (or a subclass with its own ``tile_row`` and
    ``epilogue``): the stream-K grid and main loop above. ``outs`` gains the workspace and the
    counters as its last two entries; the epilogue sees the others."""

    def _stream_k_init(self, ctas: int):
        assert self.prefetch == 1 and self.splits == 1
        self.ctas = ctas
        self.row_blocks = (self.n + 16 * self.rt - 1) // (16 * self.rt)

    @cute.jit
    def _launch(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                scalars, outs, stream):
        self.kernel(mA, mASF, mB, mBSF, scalars, outs).launch(
            grid=(1, self.ctas, 1), block=(32 * self.warps, 1, 1), smem=self.smem_bytes,
            stream=stream)

    @cute.kernel
    def kernel(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
               scalars, outs):
        _, cta, _ = cute.arch.block_idx()
        warp = cute.arch.warp_idx()
        lane = cute.arch.lane_idx()
        g = lane // 4
        lane_q = lane - g * 4
        m = outs[0].shape[0]
        loader = self._loader(mA, mASF, mB, mBSF, m)
        cur = self._step_registers(mBSF)
        nxt = self._step_registers(mBSF)
        worker = cta * self.warps + warp
        workers = self.ctas * self.warps
        units = self.row_blocks * self.steps
        start = _cta_start(worker, units, workers)
        end = _cta_start(worker + 1, units, workers)
        # the first unit's loads go out before the staging (as in the plain kernel)
        if start < end:
            block = start // self.steps
            self._load_step(*loader, start - block * self.steps, g, lane_q, block, 0, m, cur)
        sX = None
        if cutlass.const_expr(self.x_tokens):
            sX = self._stage_activations(mA, mASF, loader[4], m, 0, 0)
        acc = cute.make_rmem_tensor((self.rt, self.jt, 4), cutlass.Float32)
        acc.fill(0.0)
        wp = cute.make_rmem_tensor((2, 8), cutlass.Uint32)
        xp = cute.make_rmem_tensor((self.jt, 8), cutlass.Uint32)
        piece = start  # first unit of the current piece
        for u in cutlass.range(start, end, unroll=1):
            if u + 1 < end:
                block = (u + 1) // self.steps
                self._load_step(*loader, u + 1 - block * self.steps, g, lane_q, block, 0, m,
                                nxt)
            block = u // self.steps
            step = u - block * self.steps
            self._compute_step(cur, step, lane_q, acc, wp, xp, sX, g, step)
            if (step == self.steps - 1) | (u == end - 1):
                self._finish_piece(acc, scalars, outs, block, piece, start, worker, workers,
                                   units, g, lane_q, lane, m)
                acc.fill(0.0)
                piece = u + 1
            for src, dst in zip(nxt, cur):
                dst.store(src.load())

    @cute.jit
    def _finish_piece(self, acc, scalars, outs, block, piece, start, worker, workers, units, g,
                      lane_q, lane, m):
        """The epilogue of row block ``block`` once its sum is whole: here if this warp held
        every step of it, else after the cut pieces' fix-up, by the warp that arrives last."""
        first_unit = block * self.steps
        whole = (piece == first_unit) & (_cta_of(first_unit, units, workers) ==
                                        _cta_of(first_unit + self.steps - 1, units, workers))
        done = whole
        if not whole:
            done = _warp_piece_fixup(acc, block, piece, start, worker, workers, units,
                                     self.steps, outs[-2], outs[-1], lane)
        if done:
            self.epilogue(acc, scalars, outs[:-2], block, 0, g, lane_q, m)


class NVFP4GemmSmallMStreamK(SmallMStreamK, NVFP4GemmSmallM):
    """``NVFP4GemmSmallM`` (``D = alpha * A @ B^T``) in stream-K over ``ctas`` CTAs."""

    def __init__(self, n: int, k: int, a_fp4: bool, out_dtype: type[cutlass.Numeric],
                 row_tiles: int, token_tiles: int, warps: int, x_tokens: int, ctas: int):
        NVFP4GemmSmallM.__init__(self, n, k, a_fp4, out_dtype, row_tiles, token_tiles, warps, 1,
                                 x_tokens)
        self._stream_k_init(ctas)

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mD: cute.Tensor, mWork: cute.Tensor,
                 mCount: cute.Tensor, stream):
        self._launch(mA, mASF, mB, mBSF, (mAlpha,), (mD, mWork, mCount), stream)


def stream_k_buffers(rows: int, config: tuple[int, ...], ctas: int,
                     device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """(fp32 workspace: two slots of a warp's sums per warp; the stream's zeroed arrival
    counters, one per row block) for a small-M stream-K launch of (row_tiles, token_tiles,
    warps) over ``rows`` weight rows."""
    rt, jt, warps = config[:3]
    return (torch.empty(2 * ctas * warps * 32 * rt * jt * 4, dtype=torch.float32,
                        device=device),
            arrival_counters(-(-rows // (16 * rt)), device))


@jit.cached
def compile_nvfp4_gemm_small_m_stream_k(n: int, k: int, a_dtype: str, out_dtype: str,
                                        row_tiles: int, token_tiles: int, warps: int,
                                        x_tokens: int, ctas: int):
    """Static N, K, tile config and grid; M dynamic (at most 8 x token_tiles). Arguments of the
    compiled function: those of ``compile_nvfp4_gemm_small_m``, then ``stream_k_buffers``'
    workspace and counters."""
    a_fp4 = a_dtype == "fp4"
    cout = torch_to_cutlass(out_dtype)
    m, a, a_sf, b, b_sf, alpha = fake_operands(n, k, a_fp4)
    d = make_fake_compact_tensor(cout, (m, n), stride_order=(1, 0), assumed_align=16)
    kernel = NVFP4GemmSmallMStreamK(n, k, a_fp4, cout, row_tiles, token_tiles, warps, x_tokens,
                                    ctas)
    return cute.compile(kernel, a, a_sf, b, b_sf, alpha, d, *fake_split_buffers(),
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())
