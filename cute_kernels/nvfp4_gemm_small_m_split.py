"""The small-M NVFP4 GEMM with K split over several CTAs, reduced inside the same launch.

At small M the weight stream is everything, and a long-K weight with few rows leaves the GPU
short of CTAs: 7168x18432 is 224 CTAs of 32 rows (4 warps each) on 132 SMs, so every SM runs
one or two and most of them wait on memory. ``NVFP4GemmSmallM(splits=S)`` gives grid z the
S consecutive ranges of K steps; this subclass's epilogue then meets the S partial sums of an
output tile without a second kernel ("serial split-K"):

1. each split CTA writes its fp32 partial tile to ``work[z * M + token, row]``;
2. its lanes fence (release, GPU scope), and lane 0 adds one to the tile's arrival counter;
3. the CTA that arrives last (the old count is S - 1) fences (acquire), adds the S partials
   in split order 0 .. S-1 with L1-bypassing loads, multiplies by alpha, stores D, and resets
   the counter to zero for the next launch.

The sum order is fixed, so the result does not depend on which CTA arrives last
(deterministic, bit-identical across runs). ``counters`` must hold zeros before the launch; the
caller allocates them per call (a memset) rather than sharing a buffer across launches,
which could race when two streams run the same shape.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream

from . import jit
from .arch import compile_options
from .dtypes import torch_to_cutlass
from .nvfp4_gemm_small_m import NVFP4GemmSmallM, fake_operands


class NVFP4GemmSmallMSplitK(NVFP4GemmSmallM):
    """``NVFP4GemmSmallM`` with ``splits`` >= 2 and the in-launch reduction above."""

    def __init__(self, n: int, k: int, a_fp4: bool, out_dtype: type[cutlass.Numeric],
                 row_tiles: int, token_tiles: int, warps: int, prefetch: int, x_tokens: int,
                 splits: int):
        assert splits >= 2
        super().__init__(n, k, a_fp4, out_dtype, row_tiles, token_tiles, warps, prefetch,
                         x_tokens, splits)

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mD: cute.Tensor, mWork: cute.Tensor,
                 mCount: cute.Tensor, stream):
        self._launch(mA, mASF, mB, mBSF, (mAlpha,), (mD, mWork, mCount), stream)

    def _each_output(self, block, tok0, g, lane_q):
        """(t, j, e, row, token) of every accumulator this lane holds (see ``epilogue``)."""
        for t in range(self.rt):
            for j in range(self.jt):
                for e in range(4):
                    yield (t, j, e, self.tile_row(block, t) + g + (e // 2) * 8,
                           tok0 + j * 8 + lane_q * 2 + e % 2)

    @cute.jit
    def epilogue(self, acc, scalars, outs, block, tok0, g, lane_q, m):
        """Warp 0 of each split CTA: publish the partial tile, count the arrival, and (last
        CTA of the tile) reduce the S partials into D."""
        mD, mWork, mCount = outs
        bx, by, bz = cute.arch.block_idx()
        tiles_x, _, _ = cute.arch.grid_dim()
        lane = g * 4 + lane_q
        for t, j, e, row, tok in self._each_output(block, tok0, g, lane_q):
            if row < self.n and tok < m:
                mWork[bz * m + tok, row] = acc[t, j, e]
        cute.arch.fence_acq_rel_gpu()
        cute.arch.sync_warp()
        tile = by * tiles_x + bx
        arrived = cutlass.Int32(0)
        if lane == 0:
            arrived = cute.arch.atomic_add(mCount.iterator + tile, cutlass.Int32(1),
                                           sem="acq_rel", scope="gpu")
        arrived = cute.arch.shuffle_sync(arrived, 0)
        if arrived == self.splits - 1:
            cute.arch.fence_acq_rel_gpu()
            alpha = scalars[0][0]
            for t, j, e, row, tok in self._each_output(block, tok0, g, lane_q):
                if row < self.n and tok < m:
                    total = cutlass.Float32(0.0)
                    for z in cutlass.range_constexpr(self.splits):
                        offset = cute.crd2idx((z * m + tok, row), mWork.layout)
                        total = total + cute.arch.load(mWork.iterator + offset,
                                                       cutlass.Float32, cop="cg")
                    mD[tok, row] = (total * alpha).to(self.out_dtype)
            if lane == 0:
                mCount[tile] = cutlass.Int32(0)


@jit.cached
def compile_nvfp4_gemm_small_m_split(n: int, k: int, a_dtype: str, out_dtype: str,
                                     row_tiles: int, token_tiles: int, warps: int,
                                     prefetch: int, x_tokens: int, splits: int):
    """Static N, K, tile config and split count; M dynamic. Arguments of the compiled function:
    those of ``compile_nvfp4_gemm_small_m``, then the fp32 workspace [splits * M, N] and the
    int32 arrival counters (one per CTA tile of the grid's x and y, zeros)."""
    a_fp4 = a_dtype == "fp4"
    cout = torch_to_cutlass(out_dtype)
    m, a, a_sf, b, b_sf, alpha = fake_operands(n, k, a_fp4)
    d = make_fake_compact_tensor(cout, (m, n), stride_order=(1, 0), assumed_align=16)
    # the workspace and the counters get their own shape symbols (not M's)
    work = make_fake_compact_tensor(cutlass.Float32, (cute.sym_int(), n), stride_order=(1, 0),
                                    assumed_align=16)
    count = make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(),), assumed_align=4)
    kernel = NVFP4GemmSmallMSplitK(n, k, a_fp4, cout, row_tiles, token_tiles, warps, prefetch,
                                   x_tokens, splits)
    return cute.compile(kernel, a, a_sf, b, b_sf, alpha, d, work, count,
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())
