"""The small-M NVFP4 GEMM with K split over several CTAs, reduced inside the same launch.

At small M the weight stream is everything, and a long-K weight with few rows leaves the GPU
short of CTAs: 7168x18432 is 224 CTAs of 32 rows (4 warps each) on 132 SMs, so every SM runs
one or two and most of them wait on memory (the fused gate_up kernel of 1024x7168 has 32).
``NVFP4GemmSmallM(splits=S)`` gives grid z the S consecutive ranges of K steps;
``reduce_split_partials`` then meets the S partial sums of a CTA tile without a second kernel
("serial split-K"):

1. warp 0 of each split CTA writes its accumulators (after the CTA's own warp reduction) to
   ``work[tile, split, lane, :]``, contiguous per lane;
2. its lanes fence (release, GPU scope), and lane 0 adds one to the tile's arrival counter;
3. the CTA that arrives last (old count S - 1) fences (acquire), adds the S partials in split
   order 0 .. S-1 with L1-bypassing loads into its accumulators, resets the counter to zero
   for the next launch, and runs the kernel's ordinary epilogue (``NVFP4GemmSmallM``'s
   ``D = alpha * acc``, or the fused SwiGLU + quantization).

The sum order is fixed, so the result does not depend on which CTA arrives last
(deterministic, bit-identical across runs). ``counters`` must hold zeros before the launch and
hold zeros again after it (the last CTA resets its tile's), so ``arrival_counters`` can keep one
buffer per stream or per graph capture instead of a memset per call.
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


@cute.jit
def reduce_split_partials(acc: cute.Tensor, mWork: cute.Tensor, mCount: cute.Tensor,
                          splits: cutlass.Constexpr, lane):
    """Steps 1-3 above for warp 0 of a split CTA (``acc``: its rmem accumulators). Returns
    whether this CTA arrived last; its ``acc`` then holds the sum of every split's."""
    bx, by, bz = cute.arch.block_idx()
    tiles_x, _, _ = cute.arch.grid_dim()
    return meet_partials(acc, mWork, mCount, by * tiles_x + bx, bz, splits, splits, lane,
                         splits)


@cute.jit
def meet_partials(acc: cute.Tensor, mWork: cute.Tensor, mCount: cute.Tensor, tile, part,
                  parts, slots: cutlass.Constexpr, lane, static_parts: cutlass.Constexpr = 0):
    """Steps 1-3 above for one warp holding partial ``part`` of ``parts`` (dynamic, or the
    Python int ``static_parts``) of tile ``tile``, whose partials take ``slots`` places in
    ``work[tile, slot, lane, :]``. Returns whether this warp's CTA arrived last; ``acc`` then
    holds the sum of the partials in the order 0 .. parts - 1."""
    per_lane = cute.size(acc)
    # work[tile, slot, lane, :]: this lane's partial of part z starts at base + z * stride
    stride = 32 * per_lane
    base = (tile * slots * 32 + lane) * per_lane
    mine = cute.make_tensor(mWork.iterator + base + part * stride, cute.make_layout(per_lane))
    for i in cutlass.range_constexpr(per_lane):
        mine[i] = acc[i]
    cute.arch.fence_acq_rel_gpu()
    cute.arch.sync_warp()
    arrived = cutlass.Int32(0)
    if lane == 0:
        arrived = cute.arch.atomic_add(mCount.iterator + tile, cutlass.Int32(1), sem="acq_rel",
                                       scope="gpu")
    arrived = cute.arch.shuffle_sync(arrived, 0)
    last = arrived == parts - 1
    if last:
        cute.arch.fence_acq_rel_gpu()
        if cutlass.const_expr(static_parts):
            for i in cutlass.range_constexpr(per_lane):
                total = cutlass.Float32(0.0)
                for z in cutlass.range_constexpr(static_parts):
                    total = total + cute.arch.load(mWork.iterator + base + z * stride + i,
                                                   cutlass.Float32, cop="cg")
                acc[i] = total
        else:
            for i in cutlass.range_constexpr(per_lane):
                acc[i] = cutlass.Float32(0.0)
            for z in cutlass.range(parts, unroll=1):
                for i in cutlass.range_constexpr(per_lane):
                    acc[i] = acc[i] + cute.arch.load(mWork.iterator + base + z * stride + i,
                                                     cutlass.Float32, cop="cg")
        if lane == 0:
            mCount[tile] = cutlass.Int32(0)
    return last


def config_splits(config: tuple[int, ...]) -> int:
    """K splits of a small-M config (row_tiles, token_tiles, warps, prefetch[, splits[,
    row_groups]])."""
    return config[4] if len(config) > 4 else 1


def config_row_groups(config: tuple[int, ...]) -> int:
    """Row groups of a small-M config (``NVFP4GemmSmallM``'s ``row_groups``; 1 if not given)."""
    return config[5] if len(config) > 5 else 1


def config_compile_tail(config: tuple[int, ...], permuted: bool,
                        lane_columns: bool = False) -> tuple:
    """The compile functions' trailing (permuted[, row_groups[, lane_columns]]) arguments of a
    small-M config: the compile cache keys by the arguments as given, so standard weights, no
    row groups and no lane columns keep the short form."""
    groups = config_row_groups(config)
    if lane_columns:
        return permuted, groups, True
    return (permuted, groups) if groups > 1 else (True,) if permuted else ()


def split_buffers(m: int, rows: int, config: tuple[int, ...],
                  device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """(fp32 workspace, zeroed int32 arrival counters) for a split launch of ``config`` over
    M tokens and ``rows`` weight rows: one partial per CTA tile (token tiles x row blocks),
    split and lane."""
    rt, jt = config[0] * config_row_groups(config), config[1]  # a CTA's row tiles
    tiles = -(-m // (8 * jt)) * -(-rows // (16 * rt))
    return (torch.empty(tiles * config_splits(config) * 32 * rt * jt * 4, dtype=torch.float32,
                        device=device),
            arrival_counters(tiles, device))


def fake_split_buffers():
    """The workspace and counters as compiled arguments (their own shape symbols)."""
    return (make_fake_compact_tensor(cutlass.Float32, (cute.sym_int(),), assumed_align=16),
            make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(),), assumed_align=4))


class NVFP4GemmSmallMSplitK(NVFP4GemmSmallM):
    """``NVFP4GemmSmallM`` with ``splits`` >= 2 and the in-launch reduction above."""

    def __init__(self, n: int, k: int, a_fp4: bool, out_dtype: type[cutlass.Numeric],
                 row_tiles: int, token_tiles: int, warps: int, prefetch: int, x_tokens: int,
                 splits: int, permuted: bool = False, row_groups: int = 1,
                 lane_columns: bool = False):
        assert splits >= 2
        super().__init__(n, k, a_fp4, out_dtype, row_tiles, token_tiles, warps, prefetch,
                         x_tokens, splits, permuted, row_groups, lane_columns)

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mD: cute.Tensor, mWork: cute.Tensor,
                 mCount: cute.Tensor, stream):
        self._launch(mA, mASF, mB, mBSF, (mAlpha,), (mD, mWork, mCount), stream)

    @cute.jit
    def epilogue(self, acc, scalars, outs, block, tok0, g, lane_q, m):
        """The tile's last split CTA writes D from the summed partials."""
        mD, mWork, mCount = outs
        if reduce_split_partials(acc, mWork, mCount, self.splits, g * 4 + lane_q):
            NVFP4GemmSmallM.epilogue(self, acc, scalars, (mD,), block, tok0, g, lane_q, m)


@jit.cached
def compile_nvfp4_gemm_small_m_split(n: int, k: int, a_dtype: str, out_dtype: str,
                                     row_tiles: int, token_tiles: int, warps: int,
                                     prefetch: int, x_tokens: int, splits: int,
                                     permuted: bool = False, row_groups: int = 1,
                                     lane_columns: bool = False):
    """Static N, K, tile config and split count; M dynamic. Arguments of the compiled function:
    those of ``compile_nvfp4_gemm_small_m``, then ``split_buffers``' workspace and counters."""
    a_fp4 = a_dtype == "fp4"
    cout = torch_to_cutlass(out_dtype)
    m, a, a_sf, b, b_sf, alpha = fake_operands(n, k, a_fp4)
    d = make_fake_compact_tensor(cout, (m, n), stride_order=(1, 0), assumed_align=16)
    kernel = NVFP4GemmSmallMSplitK(n, k, a_fp4, cout, row_tiles, token_tiles, warps, prefetch,
                                   x_tokens, splits, permuted, row_groups, lane_columns)
    return cute.compile(kernel, a, a_sf, b, b_sf, alpha, d, *fake_split_buffers(),
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())
