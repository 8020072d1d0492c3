"""NVFP4 GEMM, prefill regime (large M): ``D[M, N] = alpha * A @ dequant(B)^T`` with B = NVFP4
weights [N, K/2] + swizzled e4m3 scales and A = bf16 activations [M, K] (W4A16; NVFP4
activations are dequantized to bf16 first by ``nvfp4_dequantize``, cheap at large M), on sm_90
``wgmma`` tensor cores with TMA loads and a persistent tile loop.

Why the operands are swapped. ``wgmma`` reads B only from shared memory, but A may come from
registers ("RS"). So the kernel computes ``D^T = dequant(B) @ A^T``: the weights are the MMA's
A operand, decoded from packed FP4 in shared memory straight into A-fragment registers, and the
activations are the MMA's B operand, read by ``wgmma`` from the TMA-filled (128B-swizzled)
tile. No bf16 copy of the weights exists in shared memory and the two consumer warpgroups
never wait on each other: each decodes exactly the fragment it multiplies. (The alternative, a
transform stage writing a decoded bf16 weight tile to shared memory for a plain SS ``wgmma``,
costs 16 KB of shared-memory stores and a barrier between warpgroups per k-tile.) Where the
decode cannot hide at all (bf16 activations on whole 128-token tiles of a small weight), the
weights may instead come decoded by a pass over them (``KOrder.BF16``, ``bf16_weights``): both
operands then reach wgmma from shared memory (``_mainloop_smem``).

CTA tile: 128 weight rows (two consumer warpgroups x 64, the wgmma M side) x ``tile_m`` tokens
(the wgmma N side: 16, 32, 64, 128 or 256, or a fitted width 144..240 in steps of 16:
``token_tile_ok``, ``fitted_tiles``) x 64 K. One producer warp (``large_m_producer``) issues,
per k-tile, three TMA loads on one mbarrier: the activation tile [tile_m, 64] bf16, the packed
weight tile [128 rows, 32 bytes] and the tile's 512 scale bytes (in the 128x4 swizzled scale
layout the scales of 128 rows x 4 blocks are one contiguous chunk). Tokens past M and weight
rows past N are zero-filled by TMA (the scale buffer is padded to 128 rows) and never stored.

Decode (``large_m_decode``; device_mma's trick, on fragment pairs): a thread's A fragment holds,
per k16 block, bf16 pairs at adjacent K (2q, 2q + 1), i.e. the two nibbles of one packed byte.
The byte ``x`` becomes ``y = x | x << 12``; then two shifts and masks place the low nibble's
code at bf16 bits 15 | 8..6 of the low half and the high nibble's in the high half: the bf16x2
pair ``e2m1 * 2^-126``. One ``mul.bf16x2`` by ``bf16(scale * 2^63)`` gives ``e2m1 * scale *
2^-63``, exact; the epilogue multiplies the fp32 accumulator by ``2^63`` (exact) and then by
alpha. With token tiles of at most 128 the splat comes from a 256-entry shared-memory table, one
load instead of a six-instruction conversion per row and k-tile. ``k_groups=2`` makes a pipeline
stage (a "k-tile") two 64-K groups: half the barrier, release and wgmma issue work per weight,
worth it where each CTA streams many units (``large_m_plans.stream_k_groups``).

Main loop per consumer warpgroup (``large_m_mainloop``): two A fragments, the wgmmas of k-tile
t on one while the thread decodes k-tile t + 1 into the other. Keeping one group in flight
instead (``wait_group(1)`` after issuing k-tile t + 1, the decode overlapping t's group)
measured 1-4% slower at M = 64 and 256 (H200 2026-11-30, ``tools/ab_inflight.sh``): the two
warpgroups already take turns on the tensor core. (In stream-K launches that form is a probe
switch, ``INFLIGHT_MAX_TILE_M``, off.)

Persistent tiles (``large_m_schedule``): ``min(tiles, SMs)`` CTAs walk the output tiles with a
grid stride, in bands of ``group`` token tiles (token tile fastest inside a band), so the CTAs
of one wave share a few activation tiles and weight panels through L2.

Epilogue (``_epilogue``, in ``large_m_epilogue``, separate so a fused SwiGLU + quantize epilogue
can replace it): fp32 accumulators times ``2^63`` and alpha, converted to the output dtype. The
accumulator is D^T (a thread holds two adjacent tokens of one weight row), so each consumer
warpgroup stages its values through shared memory as each token's line of 64 rows and stores
whole 16-byte chunks of lines (``_staged_store``; where N is not a multiple of 8 / 4 rows, one
bounds-checked store per value). A subclass replacing it passes its own ``scalars`` / ``outs``
tuples to ``_launch`` and declares the shared memory it needs in ``epilogue_smem_bytes`` (the
pipeline then gets fewer stages); see ``nvfp4_gemm_swiglu_quant``.

Limits: K a multiple of 64; any N >= 1; any M >= 1 (M dynamic, N and K compile-time);
``b_sf`` the padded swizzled buffer [pad128(N), K/16] e4m3; a, b, out contiguous and 16-byte
aligned. bf16 activations whose products with the weights fall below ~2^-63 in magnitude lose
precision (the accumulator holds true sums times 2^-63; fp32 subnormal below 2^-126).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline
import cutlass.utils.hopper_helpers as sm90_utils
from cutlass.cute.nvgpu import OperandMajorMode, cpasync, warpgroup
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream
from cutlass.memory import SmemAllocator
from cutlass.tensor_utils import LayoutEnum

from . import jit
from .arch import compile_options, pdl_enabled, sm_count
from .device_fp4 import e4m3x2_to_f32
from .device_mma import POW2_63, bf16x2_splat
from .dtypes import torch_to_cutlass
from .k_order import WORD_ORDERS, KOrder
from .large_m_decode import SF_CHUNK_WORDS, TILE_K, WeightDecode
from .large_m_epilogue import StagedEpilogue
from .large_m_fixup import StreamKFixup
from .large_m_mainloop import DecodeMainloop
from .large_m_piece_sums import PieceSums
from .large_m_producer import TileProducer
from .large_m_schedule import TileWalk
from .permuted_fp4 import weight_dims
from .probe_stamps import (SK_CONSUMER_WAITED, SK_FINISHED, SK_FIRST_FIXED, SK_FIRST_LOOP,
                           SK_LAST_FIXED, SK_LAST_LOOP, SK_PRODUCER_DONE, SK_PRODUCER_STARTS,
                           SK_START, stamp_tail)
from .stream_k import MAX_GATHERED, late_words, max_pieces, workspace_words

K_ALIGN = TILE_K      # one k-tile: four 16-element scale blocks, 4 scale bytes per row
TILE_N = 128          # weight rows per CTA: two consumer warpgroups x 64 (wgmma M)
SMEM_BYTES = 227 * 1024
H200_SMS = 132
L2_BAND_BYTES = 16 << 20  # activation bytes a band of token tiles may keep in L2
# setmaxnreg of the producer and consumer warpgroups by CTAs per SM: 384 threads at 168 (one
# CTA) or 80 (two) registers each at launch, moved to the consumers
PRODUCER_REGS = {1: 40, 2: 24}
FIXUP_WARP = 3  # the asynchronous stream-K fix-up's warp (``ASYNC_FIXUP``)


def token_tile_ok(tile_m: int) -> bool:
    """Whether the kernel takes ``tile_m`` tokens a tile: the powers of two 16..256, or a
    fitted width between 128 and 256 in steps of 16 (wgmma's N, the 128B swizzled activation
    tile and the staged epilogue's 16- or 32-token parts all divide it), so that e.g. 300
    tokens run as two tiles of 160 instead of three of 128 (``fitted_tiles``). And 8
    (the plain GEMM's stream-K at 4..8 tokens, ``large_m_plans.TILE_8_MAX_M``, and the fused
    op's narrow route there): wgmma's narrowest N, half the 16-token tile's tensor work for up
    to 8 tokens; the staged epilogue's part is then 8 tokens, 64 chunks of 16-bit outputs."""
    return tile_m in (8, 16, 32, 64, 128, 256) or (128 < tile_m < 256 and tile_m % 16 == 0)


def register_moves_fit(threads: int, ctas_per_sm: int, producer: int, consumer: int) -> bool:
    """Whether a CTA of ``threads`` (the producer warpgroup, then consumers) launched with its
    share of the SM's 64K registers (the launch bound, a multiple of 8) can move them by
    setmaxnreg: the producer's release (to ``producer``) must cover the consumers' requests
    (to ``consumer``). The pool is the CTA's own, and setmaxnreg.inc waits until it holds the
    registers asked for: a plan that does not fit hangs the kernel (PTX ISA, setmaxnreg)."""
    launch = 65536 // (threads * ctas_per_sm) // 8 * 8
    return 128 * (launch - producer) >= (threads - 128) * (consumer - launch)


SPLAT_READY = 5  # named barrier of the consumer threads: the scale splat table is filled
# (the fused epilogue uses 1..3, stream-K's fix-up 4, the staged epilogue 6 and 7:
# ``large_m_epilogue.EPILOGUE_BARRIER``, the K piece sums 8, 9 and 11: ``large_m_piece_sums``)
CONSUMER_REGS = {1: 232, 2: 104}
# Pipeline stages a CTA (when not given): as many as fit, at most MAX_STAGES (deeper lost at
# M = 32: session 16, ``tools/large_m_stages_probe.py``), and at most NARROW_STAGES for 16- and
# 32-token tiles on NARROW_STAGES_MIN_CTAS or more CTAs an SM: their stages are small (13 KB
# with two K groups), and two CTAs of eight kept 16 an SM in flight. Session 19, H200
# 2026-11-30: ``tools/near_miss_probe.py``, 34816x5120 M = 16, 16-token stream-K tiles, two K
# groups, us, two rounds: two CTAs with 8 stages 40.23, 40.26; with 4 / 5 / 6: 38.45, 38.56 /
# 38.25, 38.27 / 38.38, 38.37; one CTA with 8: 38.96, 38.98. ``tools/ab_near_miss.sh``, public
# function, 8 stages / 5: two CTAs, M = 16 36864x7168 52.71, 52.41 / 51.39, 51.24, 34816x5120
# 40.70, 40.70 / 38.90, 39.07, fused 53.36, 53.62 / 52.08, 52.42 and 41.62, 41.73 / 39.36,
# 39.38 (M = 32 even); one CTA lost: 7168x18432 M = 16 30.81, 30.65 / 32.12, 32.25, 9216x7168
# M = 32 22.58, 22.57 / 24.96, 25.03, 4096x7168 M = 32 (split-K) 16.45, 16.49 / 16.79, 16.82
# (5120x17408 M = 32 gained: 27.78, 27.67 / 27.06, 27.21).
# One CTA an SM: at most GROUPED_STAGES with two K groups a stage (12 k-tiles in flight
# against 16) and TILE_64_STAGES for 64-token tiles. Session 20, ``tools/stages_probe.py``,
# planned launches at 8 stages (auto) / 7 / 6 / 5, us, two rounds: two K groups 7168x18432
# M = 16 31.93, 32.00 / 31.39, 31.40 / 31.36, 31.32 / 32.65, 32.77; M = 32 34.48, 34.45 /
# 33.90, 33.98 / 33.49, 33.56 / 34.34, 34.37; 5120x17408 M = 32 27.45, 27.53 / 27.01, 27.02 /
# 26.44, 26.53 / 26.81, 26.80; one K group 9216x7168 M = 32 22.56, 22.59 / 22.55, 22.65 /
# 23.04, 22.99 (kept at 8). 64-token tiles: 36864x7168 M = 64 79.97, 79.71 / 78.40, 78.46 /
# 79.53, 79.14, fused 82.76, 82.75 / 80.84, 80.84 / 81.59, 81.65; even on 34816x5120 (56.55,
# 57.71 / 56.44, 57.64) and 7168x18432 (43.07, 43.64 / 42.58, 43.86); 3 / 4 / 10 lost
# everywhere. Two CTAs of 64-token tiles take NARROW_STAGES too (``fused_stream_k_options``).
MAX_STAGES = 8
NARROW_STAGES = 5
NARROW_STAGES_MIN_CTAS = 2
GROUPED_STAGES = 6
TILE_64_STAGES = 7


def stage_cap(tile_m: int, ctas_per_sm: int, k_groups: int) -> int:
    """The most pipeline stages a launch takes when not told (the comment above)."""
    if tile_m <= 64 and ctas_per_sm >= NARROW_STAGES_MIN_CTAS:
        return NARROW_STAGES
    if k_groups == 2:
        return GROUPED_STAGES
    return TILE_64_STAGES if tile_m == 64 else MAX_STAGES


class NVFP4GemmLargeM(TileWalk, TileProducer, WeightDecode, DecodeMainloop, PieceSums,
                      StreamKFixup, StagedEpilogue):
    # Stream-K (not split-K), one CTA an SM: the asynchronous fix-up (``stream_k``'s second
    # half): the head piece finishes its tile from partials that the fix-up warp gathered into
    # shared memory during its main loop; the other pieces store theirs and go on. A launch
    # takes it where all of a tile's other pieces fit beside the stages (``fixup_slots``): the
    # 16..64-token tiles of the big weights (wider ones leave no room). H200 2026-12-02, session
    # 49, ``tools/prefetch_depth_probe.py``, graph us, ``stream_k_fixup`` / this, same bits:
    # nvfp4_gemm M = 16 9216x7168 17.93 / 17.29, 5120x17408 21.95 / 21.12, 7168x18432
    # 28.66 / 28.20; 7168x18432 M = 32 31.03 / 29.45, M = 64 38.42 / 36.75; 9216x7168 M = 64
    # 23.13 / 22.20; the fused op 9216x7168 M = 16 18.52 / 17.73, M = 64 25.15 / 23.55. Call 2:
    # 5120x17408 M = 32 23.96 / 22.38, 9216x7168 M = 32 19.70 / 19.00, 34816x5120 M = 64 49.01
    # / 47.94, 36864x7168 M = 64 69.14 / 67.62, the fused op 9216x7168 M = 32 20.89 / 20.03.
    ASYNC_FIXUP = True
    # Probe switch (``tools/late_pieces_probe.py``, ``tools/stream_k_timeline.py``; the same
    # bits): with the asynchronous fix-up on tiles of up to 64 tokens (not ``wg_k_split``),
    # a piece that is its CTA's whole range goes to the late region past the arrival counters
    # (``stream_k``'s late pieces), which the head's consumers read themselves; the counters
    # must then hold ``late_words`` more (``stream_k_buffers(late=True)``). H100 2026-12-07
    # (session 100, ``tools/late_pieces_probe.py``, the launch alone, graph us, default /
    # late, same bits, memcheck and racecheck clean): first 0.35-2.0 us behind at all eight
    # points, the head's per-thread spin having moved the consumers' stage counters out of
    # uniform registers (an R2UR before every wgmma); with the spin warp-uniform (call 6),
    # 9216x7168 M = 16 17.08 / 17.15, M = 8 16.59 / 16.70, 7168x18432 M = 16 31.07 / 30.88,
    # still behind at 5120x17408 M = 16 / 8 (22.57 / 23.50, 21.96 / 22.76: two late pieces a
    # tile, added one after the other), 7168x18432 M = 32 / 64 (32.09 / 32.46, 38.25 / 39.90)
    # and 9216x7168 M = 64 (21.70 / 22.85). Off until an H200 shows a gain.
    LATE_PIECES = False
    # K splits (``splits`` > 1) whose tiles x splits CTAs are one resident wave: each piece's
    # CTA adds and finishes its own token share of the tile (``stream_k.scatter_fixup``)
    # instead of the last arrival adding every piece and running the whole epilogue. Same
    # bits. H200 2026-12-03 (session 55 call 2, ``tools/pieces_fixup_probe.py``, the kernels
    # alone, graph us, stream_k_fixup / this, plain (bf16 out) and fused): 1024x7168 M = 512
    # (128-token tiles x 4) 18.66 / 16.80 and 20.27 / 17.50; M = 1024 (x 2) 25.34 / 25.11 and
    # 26.99 / 25.73; M = 256 (64-token tiles x 4, fused) 15.65 / 14.14; 4096x7168 M = 128 (x 4)
    # 18.60 / 16.50 and 20.17 / 17.37; M = 256 (x 2) 24.73 / 24.47 and 26.22 / 24.85. Whole
    # tiles of the same k-tiles a CTA (no fix-up) take 13.0 and 21.7 for the plain M = 512 /
    # 1024 launches: two pieces still pay ~3.4 us of stores, release, poll and loads.
    SCATTER_PIECES = True
    # The in-place decode of permuted words (``KOrder.PERMUTED_IDENTITY``) needs four scale
    # splats a row and K group: from the shared table at 256-token tiles too (below 256 tokens
    # every order takes it). H200 2026-12-02 (session 52, ``tools/in_place_table_probe.py``,
    # W4A16 on the public launch, graph us, two rounds alike, converted / table): the fused op
    # 1024x7168 M = 4096 84.65 / 82.51, 4096x7168 M = 1024 82.61 / 80.42; nvfp4_gemm
    # 4096x7168 M = 1024 80.69 / 78.73, 5120x17408 263.22 / 261.66
    IN_PLACE_SCALE_TABLE = True
    # Probe switch (``tools/stub_consumers_probe.py``, ``tools/stream_shape_probe.py``; outputs
    # wrong): the consumers wait for each stage and release it at once, no decode and no
    # wgmma, so the launch times the producer's TMA stream through the pipeline (with the
    # fix-up and epilogue as they are). H100 2026-12-05 (session 79): within 5-8% of the real
    # launch at 16..64-token stream-K tiles (9216x7168 M = 16 19.2 against 20.3 us).
    STUB_CONSUMERS = False
    # Probe switches beside it (``tools/stream_parts_probe.py``; stubbed consumers only):
    # ``STUB_SKIP`` names producer streams left out ("act", "weights", "scales"), so the stream
    # is timed without each; ``BLOCKED_WEIGHTS`` loads each (row tile, k-tile) weight box from
    # one contiguous 4 KB block (a blocked weight order that no weight has: the bytes are
    # wrong, the stream's shape is what is timed).
    STUB_SKIP = ()
    BLOCKED_WEIGHTS = False
    # and on the real consumers (``tools/stream_parts_probe.py``; outputs wrong): no wgmma
    # (``STUB_MMA``: fence, commit and wait kept) or no decode (``STUB_DECODE``: the wgmmas
    # read whatever the fragments hold), so the consumers' cost splits into its two parts.
    # But without wgmmas nothing reads the decoded fragments and ptxas drops the decode too
    # (SASS, session 82): ``STUB_MMA`` times the consumers' loop with neither.
    STUB_MMA = False
    STUB_DECODE = False
    # Probe switch (stream-K launches; ``tools/stream_k_timeline.py``, the same bits): thread 0
    # stamps the CTA's start, the producer warp the start of its stream (after its PDL wait,
    # or at once where it loads its first weights before that wait) and its last TMA issue,
    # consumer thread 0 its PDL release, the end of its first and last pieces' main loops and
    # fix-ups and its finish (``probe_stamps.SK_*``), at the end of a workspace made
    # ``probe_stamps.stamp_words(CTAs)`` words longer.
    PROBE_STAMPS = False
    # Probe switch (``tools/early_release_probe.py``; the same bits): a consumer releases
    # k-tile t's stage as soon as its wgmmas retire, before it decodes k-tile t + 1, instead
    # of after that decode. ptxas already waits for the group before the decode (the module
    # docstring), so nothing waits longer; the stage goes back to the producer one decode
    # sooner. On the H200 the 16-token launches are bound by their consumers (session 80:
    # 9216x7168 M = 16 16.2 us against 13.3 stubbed), whose stages held through a decode, a
    # k-tile's wgmmas and the next decode leave fewer of the six stages loading.
    EARLY_RELEASE = False
    # Token tiles of at most this many tokens take ``_mainloop_inflight`` (a probe switch for
    # now, see below): k-tile t's wgmmas in flight while k-tile t + 1 is decoded and issued
    # (``wait_group(1)``). In ``_mma_tile``'s order ptxas waits for the group before most of the
    # next decode (it reuses the in-flight fragment's registers), so decode and wgmmas add up a
    # k-tile. The same bits. Where the consumers bound the launch, it pays: with the weights in
    # L2 (an H100 stand-in for the H200, whose 16-token launches are consumer-bound from DRAM:
    # session 80, 9216x7168 M = 16 16.2 us real against 13.3 stubbed), H100 2026-12-05 session
    # 82, ``tools/l2_consumer_probe.py``, the launch alone, graph us, default / in flight, from
    # L2: 4096x14336 M = 16 13.35 / 12.91, 6144x7168 M = 16 10.93 / 10.56, 9216x7168 M = 16
    # 14.48 / 13.93, 4096x14336 M = 8 12.86 / 12.12, M = 32 14.76 / 14.27; from DRAM (the H100's
    # launches are stream-bound) 16.0 / 15.8, 12.5 / 12.5, 16.9 / 17.0, 15.5 / 15.4, 16.9 /
    # 16.8. Wider tiles keep ``_mma_tile`` (session 79, H100, public op: 9216x7168 M = 256 49.2
    # / 49.7, 5120x17408 M = 1024 266.5 / 266.9). Unmeasured on the H200. Session 84 (H100,
    # ``tools/sessions/session84_first.sh``): the wgmma paths' GPU tests pass with 32, but the
    # same probe found the default as fast from L2 (4096x14336 M = 16 12.90 / 12.93, 9216x7168
    # M = 16 13.88 / 13.94, 4096x14336 M = 8 12.13 / 12.08; from DRAM within 0.6%), so it
    # stays off (0) until an H200 shows a gain (its sanitizer run is still to come).
    INFLIGHT_MAX_TILE_M = 0
    # Switch (``tools/prefetch_depth_probe.py`` form "thread_group" times it off; the same bits):
    # ``wg_k_split``'s K group made warp-uniform (``make_warp_uniform``). From the thread index
    # as it is, ptxas feeds 12 of the main loop's 16 HGMMAs through an R2UR (44 R2UR; with it 0
    # of 16, 13 R2UR: ``tools/wgmma_uniform_check.py wg_k_split [--thread-group]``, session 102).
    # Session 103 (H100, ``tools/sessions/session102_uniform.sh``; GPU bit tests pass), off
    # / on, µs: gemm 4096x7168 M = 16 10.39 / 10.29, 7168x2048 M = 32 6.74 / 6.70,
    # M = 64 7.27 / 7.21, 4096x7168 M = 64 12.00 / 11.89; fused 4096x7168 M = 64 13.12 /
    # 12.96, M = 256 26.22 / 26.23: 0.5-1.5% faster or level, so on. The same switch makes
    # the K-piece holders' test (``_holds_piece``) warp-uniform: the four-piece launches' fix-up
    # spin loops had taken the stage counters out of uniform registers (11 of 20 HGMMAs
    # R2UR-fed -> 0). Session 103 call 12 (H100, ``session103_uniform.sh``, same bits), off /
    # on: gemm 2048x7168 M = 32 9.46 / 9.13, M = 64 10.75 / 10.41, 1024x7168 M = 128 13.64 /
    # 13.39, fused 2048x7168 M = 32 10.43 / 10.11. Unmeasured on the H200.
    UNIFORM_K_GROUP = True
    # Probe switch (``CUTE_KERNELS_PROBE_UNIFORM_DESC=1 tools/bf16_weights_probe.py``; the same
    # bits): the bf16 weights' wgmma descriptors (``KOrder.BF16``, both operands from shared
    # memory) from a warp-uniform thread of the warpgroup (every thread of a warpgroup has the
    # same A descriptors). From the thread index ptxas moves them into uniform registers before
    # every wgmma of the main loop (SASS: 18 R2UR -> 3, ``tools/wgmma_uniform_check.py bf16w
    # fused_bf16w [--uniform-desc]``, session 103). Session 103 (H100, graph µs, fused
    # 1024x7168 W4A16, off / on, public route unless forced): M = 1536 45.37 / 45.34, 4096
    # 82.74 / 82.76, forced bf16 weights at 1024 36.61 / 36.55; M = 2048 53.24 / 52.47 in the
    # first run, then 52.8-53.1 / 56.4-56.5 in all ten rounds of five more: off.
    UNIFORM_WEIGHT_DESC = False

    def __init__(self, n: int, k: int, out_dtype: type[cutlass.Numeric], tile_m: int = 128,
                 stages: int = 0, sms: int = H200_SMS, splits: int = 1, stream_k: bool = False,
                 hybrid: bool = False, k_order: KOrder = KOrder.IDENTITY, ctas_per_sm: int = 1,
                 k_groups: int = 1, wg_k_split: bool = False, pair_pieces: bool = False,
                 pdl_trigger: bool = False, lanes: int = 1):
        assert k % K_ALIGN == 0 and n >= 1 and token_tile_ok(tile_m), tile_m
        # ``ctas_per_sm`` 2: two CTAs share an SM (narrow token tiles only: the consumers get
        # CONSUMER_REGS[2] registers), four consumer warpgroups to hide each other's decode
        # latency; the persistent grid (``sms``) is then twice the SM count. The plain GEMM's
        # 16- and 32-token stream-K tiles on the largest weights take it (``stream_k_ctas``)
        assert ctas_per_sm in (1, 2) and (ctas_per_sm == 1 or tile_m <= 64)
        self.ctas_per_sm = ctas_per_sm
        # ``k_order``: how the weights decode and so the activations' K order inside each
        # 64-element group (``k_order``): packed bytes in place (IDENTITY), or two whole words
        # per thread, row and group, ``permuted_fp4``'s words (PERMUTED) or packed bytes
        # (PAIRS) (``_decode_tile``)
        self.k_order = KOrder(k_order)
        # ``KOrder.BF16``: bf16 weights (``bf16_weights``' pass), read by wgmma from shared
        # memory like the activations: no decode, no scales
        self.bf16_weights = self.k_order == KOrder.BF16
        assert not self.bf16_weights or (not wg_k_split and ctas_per_sm == 1), (wg_k_split,
                                                                                ctas_per_sm)
        # Stream-K (``stream_k``): each CTA takes a contiguous range of the (tile,
        # k-tile) units instead of whole tiles; a tile split across CTAs is summed by the one
        # that finishes it last.
        # ``hybrid``: whole tiles for all but the last one to two waves' worth, stream-K for
        # those (``stream_k_plan`` takes it for the plain GEMM; verified on the H200)
        # ``splits`` > 1 (stream-K only, not hybrid): a grid of tiles x splits CTAs (at most
        # ``sms``), so that the stream-K ranges cut every tile into ``splits`` pieces of equal
        # K (``launch_large_m``'s split-K, added in the launch)
        assert (stream_k or not hybrid) and (splits == 1 or (stream_k and not hybrid))
        self.stream_k = stream_k
        self.hybrid = hybrid
        self.n, self.k, self.out_dtype, self.tile_m, self.sms = n, k, out_dtype, tile_m, sms
        # ``k_groups`` 64-element K groups per pipeline stage (a "k-tile"): 2 halves the
        # per-k-tile barrier, release, wgmma issue and descriptor work per weight; needs K / 64
        # to pair up and token tiles of at most 128 (two 128 x 128 A fragments and the
        # accumulator fit the consumers' registers). ``stream_k_groups`` says where it pays.
        # (with ``wg_k_split`` a warpgroup's fragments are one group: 256-token tiles fit)
        # (4, probe-only: ``tools/stream_shape_probe.py``): weight boxes of 128 bytes a row on
        # 16- and 32-token tiles, whose accumulators leave room for four groups' fragments
        assert k_groups in (1, 2, 4) and (k_groups == 1 or (
            (tile_m <= (32 if k_groups == 4 else 128) or (wg_k_split and k_groups == 2))
            and (k // TILE_K) % k_groups == 0)), (k_groups, tile_m, k)
        self.groups = k_groups
        self.stage_k = TILE_K * self.groups  # K per pipeline stage
        # ``wg_k_split`` (two K groups a stage): CTA tiles of 64 weight rows, both consumer
        # warpgroups on all 64, warpgroup g taking K group g of every stage; at the tile's end
        # warpgroup 1 hands its accumulators to warpgroup 0 through shared memory, which adds
        # them and runs the epilogue. Twice the CTAs of 128-row tiles for the same decode and
        # MMA chains an SM: for grids of 128-row tiles that leave SMs idle (7168x2048 at
        # 64 tokens: 56 tiles) without a K split's fix-up through global memory.
        assert not wg_k_split or k_groups == 2, (wg_k_split, k_groups)
        self.wg_k_split = wg_k_split
        self.tile_n = 64 if wg_k_split else TILE_N  # weight rows per CTA tile
        self.frag_groups = 1 if wg_k_split else self.groups  # K groups a warpgroup decodes
        # ``pair_pieces`` (whole tiles): clusters of two CTAs on each tile, CTA r taking K half
        # r, the sums exchanged through distributed shared memory (``st.async`` on an
        # mbarrier): the two pieces of a tile without the stream-K fix-up's global round trips,
        # fence and atomic. With ``wg_k_split`` (64-row tiles, ``large_m_plans.wg_k_pairs``) the
        # second's sums go to the first, which runs the epilogue; on 128-row tiles each CTA
        # sends the other's token share and finishes its own, as the scattered pieces
        # (``_pair_share_sum``; where ``large_m_plans.pieces_pair`` routes two K pieces)
        assert not pair_pieces or (
            (wg_k_split or ((tile_m // 8) % 2 == 0 and self._epilogue_shares(2)))
            and not stream_k and splits == 1 and ctas_per_sm == 1), (pair_pieces, stream_k,
                                                                     splits)
        self.pair_pieces = pair_pieces
        self.splits = splits
        self.k_tiles = k // self.stage_k
        assert not pair_pieces or self.k_tiles % 2 == 0, (k, self.stage_k)
        self.row_tiles = (n + self.tile_n - 1) // self.tile_n
        # ``lanes`` (stream-K proper, one CTA an SM): CTA c works in lane c % lanes, the row
        # tiles lane, lane + lanes, ... (a band of row_tiles / lanes: one where lanes ==
        # row_tiles), and the CTAs c // lanes share out the lane's (token tile, band row,
        # k-tile) units, every lane alike (``_stream_range``): the CTAs of a group walk the
        # same activation k-tiles at the same time, so the L2 serves each tile to all the
        # group's row tiles. With plain ranges a token tile's row tiles sit at unrelated K
        # positions: activations past the L2 are read from DRAM once a row tile
        # (``STREAM_K_LANES``'s comment in ``large_m_plans``).
        assert lanes == 1 or (stream_k and not hybrid and splits == 1 and ctas_per_sm == 1
                              and not wg_k_split and self.row_tiles % lanes == 0
                              and lanes <= sms), (lanes, self.row_tiles, sms)
        self.lanes = lanes
        self.band = self.row_tiles // lanes
        # the bytes a stage's TMA brings, by stream (``STUB_SKIP`` names them)
        stream_bytes = {"act": tile_m * self.stage_k * 2,
                        "weights": self.tile_n * self.stage_k // 2,
                        "scales": SF_CHUNK_WORDS * 4 * self.groups}
        self.tx_bytes = sum(stream_bytes.values())
        if self.bf16_weights:
            self.tx_bytes = (tile_m + self.tile_n) * self.stage_k * 2
        self.consumers = 2  # warpgroups 1 and 2; warpgroup 0 holds the TMA producer warp
        assert register_moves_fit(128 * (1 + self.consumers), ctas_per_sm,
                                  PRODUCER_REGS[ctas_per_sm], CONSUMER_REGS[ctas_per_sm])
        # consumer threads that hold a tile's sums after ``_reduce_warpgroups`` (the fix-up's
        # and the epilogue's): warpgroup 0 of ``wg_k_split``, else warpgroups 0 and 1
        self.fixup_threads = 128 if wg_k_split else 256
        self.epilogue_bytes = self.epilogue_smem_bytes()
        # ``wg_k_split``: warpgroup 1's fp32 accumulators (tile_n x tile_m), element-major,
        # thread-minor
        self.reduce_words = self.tile_n * tile_m if wg_k_split else 0
        # ``pair_pieces``: what the other CTA sends, fp32: a 64-row tile, or half a 128-row one.
        # On 128-row tiles (one tile a CTA, received before its epilogue starts) it lands in
        # the epilogue's scratch where that holds it: the fused kernel then keeps 8 stages, not 7
        self.recv_words = 64 * tile_m if pair_pieces else 0
        self.recv_in_epilogue = (pair_pieces and not wg_k_split
                                 and self.recv_words <= self.epilogue_scratch_words())
        budget = (SMEM_BYTES // ctas_per_sm - 4096 - self.epilogue_bytes
                  - 4 * (self.reduce_words + (0 if self.recv_in_epilogue else self.recv_words)))
        self.stages = stages or min(stage_cap(tile_m, ctas_per_sm, k_groups),
                                    budget // self.tx_bytes)
        assert self.stages >= 2 and self.stages * self.tx_bytes <= budget
        assert not (self.STUB_SKIP or self.BLOCKED_WEIGHTS) or (
            self.STUB_CONSUMERS and not self.bf16_weights), self.STUB_SKIP
        # (the stages and fix-up slots as for the whole stream; the barriers expect less)
        self.skipped_tx_bytes = sum(stream_bytes[name] for name in self.STUB_SKIP)
        # the asynchronous fix-up: shared memory beside the stages for the other pieces of a
        # head's tile, as many as a tile can have, or none of it. Where only some tiles fit,
        # the mix measured slower than ``stream_k_fixup`` alone (H200 2026-12-02, session 49:
        # 5120x17408 M = 64, 5 pieces a tile at most, 3 slots: 30.27 against 29.75 us)
        self.piece_words = self.tile_n * tile_m
        self.fixup_slots = 0
        if (self.ASYNC_FIXUP and stream_k and splits == 1 and ctas_per_sm == 1 and lanes == 1
                and self._fixup_warp_free()):
            spare = budget - self.stages * self.tx_bytes - 256
            others = max_pieces(self.row_tiles, self.k_tiles, sms) - 1
            if others <= min(MAX_GATHERED, spare // (4 * self.piece_words)):
                self.fixup_slots = others
        self.async_fixup = self.fixup_slots > 0
        self.late_pieces = (self.async_fixup and self.LATE_PIECES and tile_m <= 64
                            and not wg_k_split)
        # ``SCATTER_PIECES``: pieces of two or four 8-token column groups a thread's share
        self.scatter = (self.SCATTER_PIECES and splits > 1 and not wg_k_split
                        and ctas_per_sm == 1 and (tile_m // 8) % splits == 0
                        and self._epilogue_shares(splits))
        self.group = max(1, min(8, L2_BAND_BYTES // (tile_m * k * 2)))
        # PDL: the kernel may launch while the previous one on the stream (the activations'
        # dequantization) finishes; every thread waits for it (griddepcontrol.wait) before
        # anything else, the producer after prefetching its first weight k-tiles to L2
        self.pdl = pdl_enabled()
        # ``pdl_trigger``: the consumers let the next launch start after their first main loop
        # (``_trigger_dependents``): the next call's activation pass (which waits for this
        # launch's end before it touches memory) and the GEMM behind it, which prefetches its
        # weights to L2, launch under this launch's epilogue instead of after it
        # (``large_m_plans.pdl_trigger_plan`` says where it pays)
        self.pdl_trigger = pdl_trigger
        # The consumers look a scale's bf16x2 splat of ``e4m3 * 2^63`` up in a 256-entry shared
        # table (one LDS) instead of converting the byte (PRMT, F2FP, HADD2.F32, FMUL, LOP3,
        # LEA.HI per row and k-tile). Not with 256-token tiles, whose wgmma B reads keep the
        # shared-memory pipe busy (ncu: 69-92% at M = 256): there the lookups measured ~1%
        # slower (``tools/ab_wgmma_decode.sh``, H200 2026-11-30: 36864x7168 M = 256 204.1 /
        # 206.4 us, 34816x5120 140.9 / 145.6), while 32..128-token tiles gained 1-9%
        self.scale_table = not self.bf16_weights and (
            tile_m <= 128 or (self.IN_PLACE_SCALE_TABLE
                              and self.k_order == KOrder.PERMUTED_IDENTITY))

    @cute.jit
    def __call__(self, mA: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor, mAlpha: cute.Tensor,
                 mD: cute.Tensor, stream):
        self._launch(mA, mB, mBSF, (mAlpha,), (mD,), stream)

    @cute.jit
    def _launch(self, mA: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor, scalars, outs,
                stream, streamk=()):
        """``scalars``: one-element fp32 tensors, alpha first; ``outs``: what ``_epilogue``
        writes, ``outs[0]`` with M rows. Tuples, so a subclass's epilogue can take more of
        both without touching the main loop. ``streamk``: the stream-K workspace and arrival
        counters (empty otherwise)."""
        # Scales as (128 words of one 512-byte chunk, chunk = row_tile * k_tiles + k_tile).
        # (With two K groups a stage, its two chunks are adjacent: one 256-word column.)
        mSF = cute.make_tensor(mBSF.iterator, cute.make_layout(
            (SF_CHUNK_WORDS * self.groups, self._sf_columns(mBSF))))
        tiled_mma = sm90_utils.make_trivial_tiled_mma(
            cutlass.BFloat16, cutlass.BFloat16, OperandMajorMode.K, OperandMajorMode.K,
            cutlass.Float32, (self.tile_n // 64, 1, 1), tiler_mn=(64, self.tile_m),
            a_source=(warpgroup.OperandSource.SMEM if self.bf16_weights
                      else warpgroup.OperandSource.RMEM))

        act_atom = warpgroup.make_smem_layout_atom(
            sm90_utils.get_smem_layout_atom(LayoutEnum.ROW_MAJOR, cutlass.BFloat16, TILE_K),
            cutlass.BFloat16)
        act_layout = cute.tile_to_shape(act_atom, (self.tile_m, self.stage_k, self.stages),
                                        order=(0, 1, 2))
        # Packed weights: 128 rows x 8 words, row-major, unswizzled (a thread reads whole rows);
        # bf16 weights as the activations (wgmma's swizzled K-major tile)
        w_layout = cute.make_ordered_layout((self.tile_n, self.stage_k // 8, self.stages),
                                            order=(1, 0, 2))
        if cutlass.const_expr(self.bf16_weights):
            w_layout = cute.tile_to_shape(act_atom, (self.tile_n, self.stage_k, self.stages),
                                          order=(0, 1, 2))
        sf_layout = cute.make_layout((SF_CHUNK_WORDS * self.groups, 1, self.stages))

        if cutlass.const_expr(self.BLOCKED_WEIGHTS):
            mB = self._blocked_weights(mB)
        g2s = cpasync.CopyBulkTensorTileG2SOp()
        tma_act, tma_mA = cpasync.make_tiled_tma_atom(
            g2s, mA, cute.slice_(act_layout, (None, None, 0)), (self.tile_m, self.stage_k))
        tma_w, tma_mB = cpasync.make_tiled_tma_atom(
            g2s, mB, cute.slice_(self._w_box_layout(w_layout), (None, None, 0)),
            (self._w_box_rows(), self._w_box_k()))
        tma_sf, tma_mSF = cpasync.make_tiled_tma_atom(
            g2s, mSF, cute.slice_(sf_layout, (None, None, 0)), (SF_CHUNK_WORDS * self.groups, 1))

        @cute.struct
        class SharedStorage:
            barriers: cute.struct.MemRange[cutlass.Int64, self.stages * 2]
            sAct: cute.struct.Align[
                cute.struct.MemRange[cutlass.BFloat16, cute.cosize(act_layout)], 1024]
            sW: cute.struct.Align[cute.struct.MemRange[self._w_dtype(), cute.cosize(w_layout)],
                                  1024 if self.bf16_weights else 128]
            sSF: cute.struct.Align[
                cute.struct.MemRange[cutlass.Int32, cute.cosize(sf_layout)], 128]
            # the epilogue's words (at least one, so the struct is the same for every kernel)
            sEpi: cute.struct.Align[
                cute.struct.MemRange[cutlass.Float32, max(1, self.epilogue_bytes // 4)], 128]
            # stream-K: a tile's arrival count, broadcast to the consumer threads
            sFlag: cute.struct.Align[cute.struct.MemRange[cutlass.Int32, 4], 16]
            # ``scale_table``: the splat of every scale byte
            sSplat: cute.struct.Align[cute.struct.MemRange[cutlass.Uint32, 256], 16]

        self.shared_storage = SharedStorage
        tiles = self._m_tiles(outs[0].shape[0]) * self.row_tiles
        if cutlass.const_expr(self.stream_k):
            # every CTA gets at least one unit; with splits, a piece of 1 / splits of a tile
            tiles = tiles * (self.splits if self.splits > 1 else self.k_tiles)
        grid = cutlass.min(tiles, self.sms)
        if cutlass.const_expr(self.lanes > 1):  # whole groups of ``lanes`` CTAs
            grid = cutlass.min(tiles // self.lanes, self.sms // self.lanes) * self.lanes
        cluster = {}
        if cutlass.const_expr(self.pair_pieces):  # a cluster of two CTAs a tile, not persistent
            grid = 2 * tiles
            cluster = {"cluster": [2, 1, 1]}
        self.kernel(tma_act, tma_mA, tma_w, tma_mB, tma_sf, tma_mSF, scalars, outs, streamk,
                    tiled_mma, act_layout, w_layout, sf_layout).launch(
            grid=(grid, 1, 1), block=(128 * (1 + self.consumers), 1, 1), **cluster,
            use_pdl=self.pdl,
            min_blocks_per_mp=self.ctas_per_sm, stream=stream,
            # all of the unified memory as shared memory (given, or the DSL asks the device
            # for a carveout when min_blocks_per_mp > 1: none at compile-only)
            preferred_smem_carveout=100 if self.ctas_per_sm > 1 else None)

    def _blocked_weights(self, mB: cute.Tensor) -> cute.Tensor:
        """``BLOCKED_WEIGHTS``: the weight words viewed as (row tile, k-tile) blocks of one box
        each, a block's rows contiguous (the same memory, another order)."""
        words, rows = self._w_box_k(), self.tile_n
        return cute.make_tensor(mB.iterator, cute.make_layout(
            ((rows, self.row_tiles), (words, self.k_tiles)),
            stride=((words, rows * (self.k // 8)), (1, rows * words))))

    def _w_dtype(self) -> type[cutlass.Numeric]:
        """The weights' shared-memory element: packed int32 words, or bf16 (``bf16_weights``)."""
        return cutlass.BFloat16 if self.bf16_weights else cutlass.Int32

    def _w_box_k(self) -> int:
        """A weight TMA box's K extent in the weights' elements: words, or bf16 values."""
        return self.stage_k if self.bf16_weights else self.stage_k // 8

    def _m_tiles(self, m):
        """The tiles of the output's M rows (``tok_tiles``): tile_m tokens each (a subclass
        whose register operand holds the tokens tiles them by its rows)."""
        return (m + self.tile_m - 1) // self.tile_m

    def _sf_columns(self, mBSF: cute.Tensor):
        """The scale buffer's columns of ``SF_CHUNK_WORDS * groups`` words: the static row
        tiles' (a subclass whose register operand has a dynamic row count takes the buffer's)."""
        return self.row_tiles * self.k_tiles

    # ---------------------------------------------------------------- kernel
    @cute.kernel
    def kernel(self, tma_act: cute.CopyAtom, mA: cute.Tensor, tma_w: cute.CopyAtom,
               mB: cute.Tensor, tma_sf: cute.CopyAtom, mSF: cute.Tensor, scalars, outs, streamk,
               tiled_mma: cute.TiledMma, act_layout: cute.ComposedLayout,
               w_layout, sf_layout: cute.Layout):
        tidx, _, _ = cute.arch.thread_idx()
        warp = cute.arch.make_warp_uniform(cute.arch.warp_idx())
        self._stamp(streamk, SK_START, tidx == 0)
        if warp == 0:
            for atom in (tma_act, tma_w, tma_sf):
                cpasync.prefetch_descriptor(atom)

        allocator = SmemAllocator()
        storage = allocator.allocate(self.shared_storage)
        sRed = None  # ``wg_k_split``: warpgroup 1's partial sums
        if cutlass.const_expr(self.wg_k_split):
            sRed = allocator.allocate_tensor(cutlass.Float32,
                                             cute.make_layout(self.reduce_words), 16)
        pair = None  # ``pair_pieces``: (the second CTA's sums as received, their mbarrier)
        if cutlass.const_expr(self.pair_pieces):
            if cutlass.const_expr(self.recv_in_epilogue):
                sRecv = storage.sEpi.get_tensor(cute.make_layout(self.recv_words))
            else:
                sRecv = allocator.allocate_tensor(cutlass.Float32,
                                                  cute.make_layout(self.recv_words), 16)
            recv_bar = allocator.allocate_tensor(cutlass.Int64, cute.make_layout(1), 8).iterator
            if tidx == 0:
                cute.arch.mbarrier_init(recv_bar, 1)
            pair = (sRecv, recv_bar)
        gather = None  # ``async_fixup``: (the gathered pieces, their mbarrier)
        if cutlass.const_expr(self.async_fixup):
            sPieces = allocator.allocate_tensor(
                cutlass.Float32, cute.make_layout(self.fixup_slots * self.piece_words), 128)
            gathered = allocator.allocate_tensor(cutlass.Int64, cute.make_layout(1), 8).iterator
            if tidx == 0:
                cute.arch.mbarrier_init(gathered, 1)
            gather = (sPieces, gathered)
        # One full barrier per stage (TMA bytes) and one empty barrier that every consumer
        # warp arrives on once.
        mainloop = pipeline.PipelineTmaAsync.create(
            barrier_storage=storage.barriers.data_ptr(), num_stages=self.stages,
            producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread),
            consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, self.consumers * 4),
            tx_count=self.tx_bytes - self.skipped_tx_bytes,
            cta_layout_vmnk=cute.make_layout((1, 1, 1, 1)),
            defer_sync=True)
        # (with ``pair_pieces`` a cluster-wide sync: the receiving mbarrier is initialized
        # before the other CTA's stores)
        cluster_mn = (2, 1) if self.pair_pieces else (1, 1)
        pipeline.pipeline_init_arrive(cluster_shape_mn=cluster_mn, is_relaxed=True)

        sAct = storage.sAct.get_tensor(act_layout.outer, swizzle=act_layout.inner)
        if cutlass.const_expr(self.bf16_weights):
            sW = storage.sW.get_tensor(w_layout.outer, swizzle=w_layout.inner)
        else:
            sW = storage.sW.get_tensor(w_layout)
        sSF = storage.sSF.get_tensor(sf_layout)
        sEpi = storage.sEpi.get_tensor(cute.make_layout(max(1, self.epilogue_bytes // 4)))
        # (TMA, rest...) views: one TMA copy per tile coordinate and k-tile, and per stage.
        tAs, tAg = cpasync.tma_partition(
            tma_act, 0, cute.make_layout(1), cute.group_modes(sAct, 0, 2),
            cute.group_modes(cute.local_tile(mA, (self.tile_m, self.stage_k), (None, None)), 0, 2))
        sWbox = sW  # (bf16 weights: one box a tile, the swizzled stages as they are)
        if cutlass.const_expr(not self.bf16_weights):
            sWbox = cute.make_tensor(sW.iterator, self._w_box_layout(w_layout))
        tWs, tWg = cpasync.tma_partition(
            tma_w, 0, cute.make_layout(1), cute.group_modes(sWbox, 0, 2),
            cute.group_modes(cute.local_tile(mB, (self._w_box_rows(), self._w_box_k()),
                                             (None, None)), 0, 2))
        tSs, tSg = cpasync.tma_partition(
            tma_sf, 0, cute.make_layout(1), cute.group_modes(sSF, 0, 2),
            cute.group_modes(cute.local_tile(mSF, (SF_CHUNK_WORDS * self.groups, 1),
                                             (None, None)), 0, 2))
        pipeline.pipeline_init_wait(cluster_shape_mn=cluster_mn)

        tok_tiles = self._m_tiles(outs[0].shape[0])
        if tidx < 128:
            cute.arch.setmaxregister_decrease(PRODUCER_REGS[self.ctas_per_sm])
            if warp == 0:
                if cutlass.const_expr(self.pdl and not self.weights_first()):
                    if cutlass.const_expr(not self.bf16_weights):  # (the pass writes those)
                        self._prefetch_first_weights(tok_tiles, tma_w, tWg, tma_sf, tSg)
                    cute.arch.griddepcontrol_wait()
                self._stamp(streamk, SK_PRODUCER_STARTS, tidx == 0)
                self._produce(mainloop, tok_tiles, tma_act, tAs, tAg, tma_w, tWs, tWg, tma_sf,
                              tSs, tSg)
                self._stamp(streamk, SK_PRODUCER_DONE, tidx == 0)
            elif cutlass.const_expr(self.async_fixup):
                if warp == FIXUP_WARP:
                    self._fixup_warp(tok_tiles, streamk, gather)
                else:
                    self._side_warps(warp, sEpi, scalars, outs)
            else:
                self._side_warps(warp, sEpi, scalars, outs)
        else:
            cute.arch.setmaxregister_increase(CONSUMER_REGS[self.ctas_per_sm])
            if cutlass.const_expr(self.pdl):
                cute.arch.griddepcontrol_wait()
            self._stamp(streamk, SK_CONSUMER_WAITED, tidx == 128)
            sFlag = storage.sFlag.get_tensor(cute.make_layout(4))
            sSplat = storage.sSplat.get_tensor(cute.make_layout(256))
            self._consume(mainloop, tok_tiles, tiled_mma, tidx - 128, sAct, sW, sSF, sEpi,
                          scalars, outs, streamk, sFlag, sSplat, sRed, pair, gather)
        if cutlass.const_expr(self.pair_pieces):
            # neither CTA of a pair leaves while the other may still store into its shared
            # memory
            cute.arch.cluster_arrive()
            cute.arch.cluster_wait()

    # ---------------------------------------------------------------- consumer warpgroups
    @cute.jit
    def _consume(self, mainloop, tok_tiles, tiled_mma, ctid, sAct, sW, sSF, sEpi, scalars,
                 outs, streamk, sFlag, sSplat, sRed, pair, gather):
        # ``wg_k_split``: both warpgroups hold the same partition of the 64-row tile, warpgroup
        # g decoding and multiplying K group g of each stage (its wgmmas' B blocks 4g..4g + 3)
        g0 = 0
        mma_tid = ctid
        if cutlass.const_expr(self.wg_k_split):
            g0 = self._k_group(ctid)
            mma_tid = ctid % self.fixup_threads
        thr_mma = tiled_mma.get_slice(mma_tid)
        # Which (weight row, k) / (weight row, token) each fragment element holds.
        tCcC = thr_mma.partition_C(cute.make_identity_tensor((self.tile_n, self.tile_m)))
        tCrB = (tiled_mma.make_fragment_B(thr_mma.partition_B(sAct)), 4 * g0)
        acc = cute.make_rmem_tensor(thr_mma.partition_shape_C((self.tile_n, self.tile_m)),
                                    cutlass.Float32)
        if cutlass.const_expr(self.bf16_weights):
            # the weights' wgmma descriptors, every stage (``_mainloop_smem``): no decode
            thr_a = thr_mma
            if cutlass.const_expr(self.UNIFORM_WEIGHT_DESC):
                thr_a = tiled_mma.get_slice(cute.arch.make_warp_uniform(mma_tid // 128) * 128)
            frags = tiled_mma.make_fragment_A(thr_a.partition_A(sW))
            decode = None
        else:
            tCcA = thr_mma.partition_A(cute.make_identity_tensor((self.tile_n, self.stage_k)))
            frag_shape = thr_mma.partition_shape_A((self.tile_n, TILE_K * self.frag_groups))
            frags = [thr_mma.make_fragment_A(frag_shape) for _ in range(2)]
            row0, k0 = tCcA[0, 0, 0]  # this thread's first fragment row (g) and K pair (2q)
            decode = (sW, cute.recast_tensor(sSF, cutlass.Float8E4M3FN), row0, k0, None, g0)
        if cutlass.const_expr(self.scale_table):
            # one entry per consumer thread: the splat of e4m3(ctid) * 2^63
            sf = e4m3x2_to_f32(ctid, 0)
            sSplat[ctid] = bf16x2_splat(sf[0] * cutlass.Float32(POW2_63))
            pipeline.NamedBarrier(barrier_id=SPLAT_READY,
                                  num_threads=128 * self.consumers).arrive_and_wait()
            decode = (sW, cute.recast_tensor(sSF, cutlass.Uint8), row0, k0, sSplat, g0)

        read = pipeline.make_pipeline_state(pipeline.PipelineUserType.Consumer, self.stages)
        release = pipeline.make_pipeline_state(pipeline.PipelineUserType.Consumer, self.stages)
        tiled_mma.set(warpgroup.Field.ACCUMULATE, True)
        scalars = self._epilogue_setup(ctid, sEpi, scalars)
        whole, sk_tiles = self._whole_tiles(tok_tiles)
        tile = cute.arch.block_idx()[0]
        if cutlass.const_expr(self.pair_pieces):
            self._consume_pair(tile, tok_tiles, (mainloop, tiled_mma, acc, tCrB), decode, frags,
                               read, release, ctid, sRed, pair, tCcC, sEpi, scalars, outs)
            whole = cutlass.Int32(0)  # (no persistent loop)
        while tile < whole:
            row_tile, tok_tile = self._tile_coords(tile, tok_tiles)
            step = (mainloop, tiled_mma, acc, tCrB, self._tile_decode(decode, row_tile), frags)
            read, release = self._mainloop(*step, read, release, self.k_tiles)
            self._trigger_dependents()
            self._reduce_warpgroups(acc, ctid, sRed)
            self._tile_epilogue(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile)
            tile += cute.arch.grid_dim()[0]
        if cutlass.const_expr(self.stream_k):
            u, end = self._stream_range(whole, sk_tiles)
            first = u
            while u < end:
                piece, kt0, count, row_tile, tok_tile = self._stream_piece(u, end, tok_tiles)
                step = (mainloop, tiled_mma, acc, tCrB, self._tile_decode(decode, row_tile),
                        frags)
                read, release = self._mainloop(*step, read, release, count)
                # (the first piece's stamps, else the last's: a later piece overwrites them)
                self._stamp(streamk, cutlass.select_(u == first, SK_FIRST_LOOP, SK_LAST_LOOP),
                            ctid == 0)
                self._trigger_dependents()
                self._reduce_warpgroups(acc, ctid, sRed)
                cut = (piece, u, kt0, count, whole, sk_tiles)
                if cutlass.const_expr(self.scatter):
                    share = self._scattered_fixup(acc, ctid, cut, streamk, sFlag, gather)
                    if share >= -1:
                        self._tile_epilogue(acc, tCcC, ctid, sEpi, scalars, outs, row_tile,
                                            tok_tile, (share, self.splits))
                else:
                    last = self._piece_fixup(acc, ctid, cut, streamk, sFlag, gather)
                    if last:
                        self._tile_epilogue(acc, tCcC, ctid, sEpi, scalars, outs, row_tile,
                                            tok_tile)
                self._stamp(streamk, cutlass.select_(u == first, SK_FIRST_FIXED,
                                                     SK_LAST_FIXED), ctid == 0)
                u += count
        self._epilogue_finish(ctid, sEpi, scalars, outs)
        self._stamp(streamk, SK_FINISHED, ctid == 0)

    def _k_group(self, ctid):
        """``wg_k_split``: consumer thread ``ctid``'s K group (its warpgroup), warp-uniform
        under ``UNIFORM_K_GROUP`` (so ptxas keeps what depends on it in uniform registers)."""
        group = ctid // self.fixup_threads
        return cute.arch.make_warp_uniform(group) if self.UNIFORM_K_GROUP else group

    @cute.jit
    def _stamp(self, streamk, slot, who):
        """``PROBE_STAMPS``: stamp ``slot`` where ``who`` holds (a no-op otherwise)."""
        if cutlass.const_expr(self.PROBE_STAMPS):
            assert self.stream_k, "stamps go at the end of the stream-K workspace"
            if who:
                stamp_tail(streamk[0], slot)

    def _trigger_dependents(self):
        """``pdl_trigger``: let the next launch start (``griddepcontrol.launch_dependents``; a
        CTA's later calls change nothing)."""
        if cutlass.const_expr(self.pdl_trigger and self.pdl):
            cute.arch.griddepcontrol_launch_dependents()

    def _tile_decode(self, decode, row_tile):
        """``_decode_tile``'s arguments for ``row_tile``: ``decode`` and the ``_sf_row`` of the
        thread's rows (``decode[2]``: its first fragment row); None without a decode
        (``bf16_weights``)."""
        if decode is None:
            return None
        return decode + (self._sf_row(row_tile, decode[2]),)

    def _sf_row(self, row_tile, row0):
        """Where the tile's rows start in their 128-row scale chunk: 0, or 64 for the odd
        64-row tiles of ``wg_k_split`` (``row0``: the consumer thread's first fragment row,
        for a subclass whose tile rows are not contiguous, ``_w_boxes``)."""
        if cutlass.const_expr(self.tile_n == 64):
            return (row_tile % 2) * 64
        return 0

    @cute.jit
    def _tile_epilogue(self, acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile,
                       share=None):
        """``_epilogue`` by the threads holding the tile's sums: all consumers, or warpgroup 0
        with ``wg_k_split``; ``share`` (``scatter``): (p, splits), the tile's share p of
        ``splits`` (its tokens ``[p T / splits, (p + 1) T / splits)``) or the whole tile
        where p is -1."""
        if cutlass.const_expr(self.wg_k_split):
            if ctid < self.fixup_threads:
                self._epilogue(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile)
        elif cutlass.const_expr(share is None):  # (the swapped kernel's takes no share)
            self._epilogue(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile)
        else:
            self._epilogue(acc, tCcC, ctid, sEpi, scalars, outs, row_tile, tok_tile, share)


def launch_ctas(ctas: list, ctas_per_sm: int, splits: int, device) -> int:
    """The persistent grid's CTAs of a large-M launch: the config's (``ctas``, [] or [n]) or
    ``ctas_per_sm`` an SM of the torch ``device``. A K split's pieces may wait for each other
    (``SCATTER_PIECES``): its grid must be resident at once."""
    resident = ctas_per_sm * sm_count(device.index or 0)
    sms = ctas[0] if ctas else resident
    assert splits == 1 or sms <= resident, (sms, splits)
    return sms


@jit.cached
def compile_nvfp4_gemm_large_m(n: int, k: int, out_dtype: str, tile_m: int = 128,
                               stages: int = 0, sms: int = H200_SMS, splits: int = 1,
                               stream_k: bool = False, hybrid: bool = False,
                               k_order: KOrder = KOrder.IDENTITY, ctas_per_sm: int = 1,
                               k_groups: int = 1, wg_k_split: bool = False,
                               pair_pieces: bool = False, pdl_trigger: bool = False,
                               lanes: int = 1):
    """Static N, K and tile config (tokens per CTA; pipeline stages, 0 = as many as fit up to
    8; the persistent grid's CTA count, at most; K splits, in stream-K; 64-element K groups
    per stage; 64-row tiles with the warpgroups on the K groups; with those, two K pieces in
    a cluster of two CTAs; the PDL trigger after the main loop; stream-K in lanes of row
    tiles, ``NVFP4GemmLargeM``'s); M dynamic. Operands as
    ``launch_large_m`` passes them: a bf16 [M, K], b int32 [N, K/8], b_sf int32
    [pad128(N) * K/64], alpha fp32 [1], out [M, N], in stream-K the workspace and arrival
    counters (``stream_k_buffers``); ``k_order``: the weights' decode and the activations' K
    order (``NVFP4GemmLargeM``; a bool: permuted words or not)."""
    cout = torch_to_cutlass(out_dtype)
    m = cute.sym_int()
    # the activations' rows their own symbol: M or more (``bf16_activations(rows=)``, whose
    # zero rows keep the TMA inside the buffer); the kernel takes M from the output
    a = make_fake_compact_tensor(cutlass.BFloat16, (cute.sym_int(), k), stride_order=(1, 0),
                                 assumed_align=16)
    b = fake_weights(n, k, k_order)
    row_tiles = (n + TILE_N - 1) // TILE_N
    b_sf = make_fake_compact_tensor(cutlass.Int32, (row_tiles * (k // TILE_K) * SF_CHUNK_WORDS,),
                                    assumed_align=16)
    alpha = make_fake_compact_tensor(cutlass.Float32, (1,))
    d = make_fake_compact_tensor(cout, (m, n), stride_order=(1, 0), assumed_align=16)
    stream = make_fake_stream(use_tvm_ffi_env_stream=True)
    if stream_k:
        kernel = NVFP4GemmLargeMStreamK(n, k, cout, tile_m, stages, sms, splits, stream_k=True,
                                        hybrid=hybrid, k_order=k_order,
                                        ctas_per_sm=ctas_per_sm, k_groups=k_groups,
                                        wg_k_split=wg_k_split, pdl_trigger=pdl_trigger,
                                        lanes=lanes)
        return cute.compile(kernel, a, b, b_sf, alpha, d, *fake_stream_k_buffers(), stream,
                            options=compile_options())
    kernel = NVFP4GemmLargeM(n, k, cout, tile_m, stages, sms, splits, k_order=k_order,
                             ctas_per_sm=ctas_per_sm, k_groups=k_groups, wg_k_split=wg_k_split,
                             pair_pieces=pair_pieces, pdl_trigger=pdl_trigger)
    return cute.compile(kernel, a, b, b_sf, alpha, d, stream, options=compile_options())


def fake_weights(n: int, k: int, k_order: KOrder):
    """The weights as compiled arguments: int32 words [N, K/8] (packed bytes are viewed as
    words too), or bf16 [N, K] (``KOrder.BF16``)."""
    if k_order == KOrder.BF16:
        return make_fake_compact_tensor(cutlass.BFloat16, (n, k), stride_order=(1, 0),
                                        assumed_align=16)
    return make_fake_compact_tensor(cutlass.Int32, (n, k // 8), stride_order=(1, 0),
                                    assumed_align=16)


def operand_dims(b) -> tuple[int, int]:
    """(N, K) of the weights a launch takes: NVFP4 (``weight_dims``) or bf16 [N, K]."""
    import torch

    if b.dtype == torch.bfloat16:
        return b.shape[0], b.shape[1]
    return weight_dims(b)[:2]


def weight_words(b):
    """The weights as the kernels' argument: NVFP4 bytes or words as int32 words, bf16 as
    it is."""
    import torch

    return b if b.dtype == torch.bfloat16 else b.view(torch.int32)


class NVFP4GemmLargeMStreamK(NVFP4GemmLargeM):
    """``NVFP4GemmLargeM(stream_k=True)`` with the workspace and arrival counters as
    arguments (``stream_k``)."""

    @cute.jit
    def __call__(self, mA: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor, mAlpha: cute.Tensor,
                 mD: cute.Tensor, mWork: cute.Tensor, mCount: cute.Tensor, stream):
        self._launch(mA, mB, mBSF, (mAlpha,), (mD,), stream, (mWork, mCount))


def fake_stream_k_buffers():
    """The stream-K workspace and counters as compiled arguments (their own shape symbols)."""
    return (make_fake_compact_tensor(cutlass.Float32, (cute.sym_int(),), assumed_align=16),
            make_fake_compact_tensor(cutlass.Int32, (cute.sym_int(),), assumed_align=4))


def stream_k_buffers(m: int, n: int, tile_m: int, ctas: int, device, tile_n: int = TILE_N,
                     late: bool = False):
    """(fp32 workspace, zeroed int32 arrival counters, one per output tile: ``arrival_counters``)
    for a stream-K launch over M tokens and N weight rows, in tiles of ``tile_n`` rows; with
    ``late`` (``LATE_PIECES``) the counters go on with the late region, zero too."""
    import torch

    from .arrival_counters import arrival_counters

    tiles = -(-m // tile_m) * -(-n // tile_n)
    late_region = late_words(ctas, tile_m, tile_n) if late else 0
    return (torch.empty(workspace_words(ctas, tile_m, tile_n), dtype=torch.float32,
                        device=device),
            arrival_counters(tiles + late_region, device))


def compile_tail(k_order: KOrder, ctas_per_sm: int, k_groups: int,
                 wg_k_split: bool = False, pair_pieces: bool = False,
                 pdl_trigger: bool = False, lanes: int = 1) -> tuple:
    """The trailing (k_order, ctas_per_sm, k_groups, wg_k_split, pair_pieces, pdl_trigger,
    lanes) compile arguments in their shortest form: the compile cache keys by the arguments
    as given, so the identity order, one CTA per SM, one K group a stage, 128-row tiles, no
    trigger and no lanes leave them out (the order as a plain int)."""
    order = int(k_order)
    if pdl_trigger or lanes > 1:  # (lanes only where taken)
        return ((order, ctas_per_sm, k_groups, wg_k_split, pair_pieces, pdl_trigger)
                + ((lanes,) if lanes > 1 else ()))
    if wg_k_split or pair_pieces:
        return (order, ctas_per_sm, k_groups, wg_k_split) + ((True,) if pair_pieces else ())
    if ctas_per_sm != 1 or k_groups != 1:
        return (order, ctas_per_sm) + ((k_groups,) if k_groups != 1 else ())
    return (order,) if order else ()


def operand_k_order(b, k_order: KOrder | None) -> KOrder:
    """``k_order`` checked against weights ``b`` (PAIRS and IDENTITY decode packed bytes,
    PERMUTED and PERMUTED_IDENTITY permuted words, BF16 takes bf16 ones); None: IDENTITY for
    packed bytes, PERMUTED for words, BF16 for bf16."""
    import torch

    if b.dtype == torch.bfloat16:
        assert k_order in (None, KOrder.BF16), k_order
        return KOrder.BF16
    assert k_order != KOrder.BF16, b.dtype
    permuted = weight_dims(b)[2]
    if k_order is None:
        return KOrder.PERMUTED if permuted else KOrder.IDENTITY
    assert (k_order in WORD_ORDERS) == permuted, (k_order, b.dtype)
    return KOrder(k_order)


def launch_large_m(a_bf16, b, b_sf, alpha_t, out, config: tuple[int, ...],
                   splits: int = 1, stream_k: bool = False, hybrid: bool = False,
                   ctas_per_sm: int = 1, k_groups: int = 1, k_order: KOrder | None = None,
                   wg_k_split: bool = False, pair_pieces: bool = False,
                   compile_fn=compile_nvfp4_gemm_large_m, pdl_trigger: bool = False,
                   lanes: int = 1) -> None:
    """The large-M kernel on validated operands: a_bf16 [M', K] bf16 (M' >= M: rows past M,
    zeros from ``bf16_activations(rows=)``, are read but not used) with K in ``k_order``
    (None: the weights' own, ``operand_k_order``), b [N, K/2] uint8 (or permuted int32 words
    [N, K/8]), b_sf the swizzled e4m3
    buffer, alpha_t a one-element fp32 tensor, out [M, N] bf16/fp16/fp32 (all
    contiguous, on one GPU); config = (tile_m, stages) or (tile_m, stages, ctas), ctas the
    persistent grid's size (default: the GPU's SM count; tests shrink it). With ``splits`` > 1
    each output tile is cut into ``splits`` pieces (of equal K where ``splits`` divides K / 64),
    added in the same launch: the stream-K launch on tiles x splits CTAs (at most the
    persistent grid's size). With ``stream_k`` the CTAs share out the (tile, k-tile) units
    evenly and fix cut tiles up in the same launch (``stream_k``: the CTA that arrives last on
    a tile adds its pieces in order, deterministic; a K split's pieces, side by side, each add
    and store their own token share where ``SCATTER_PIECES`` takes them); ``hybrid`` (with
    ``stream_k``) keeps whole tiles for all but the last one to two waves' worth.
    ``ctas_per_sm`` 2 (token tiles of at most 64): two CTAs share each SM, a persistent grid of
    twice the SM count by default.
    ``k_groups`` 2: two 64-element K groups per pipeline stage (``NVFP4GemmLargeM``);
    ``wg_k_split`` (with them): 64-row tiles, each consumer warpgroup on one K group;
    ``pair_pieces`` (with that, whole tiles): two CTAs a tile in a cluster, summed through
    distributed shared memory. ``pdl_trigger``: the next launch may start after each CTA's
    first main loop; ``lanes``: stream-K in lanes of row tiles (both ``NVFP4GemmLargeM``'s).
    ``compile_fn``: what compiles the kernel from ``compile_nvfp4_gemm_large_m``'s arguments
    (the probes pass variants of it)."""
    import torch

    m = out.shape[0]
    assert a_bf16.shape[0] >= m, (a_bf16.shape, out.shape)
    if m == 0:
        return  # an empty persistent grid cannot launch
    n, k = operand_dims(b)
    tile_m, stages, *ctas = config
    # K split in the launch: the stream-K fix-up on a grid of tiles x splits CTAs, which cuts
    # every tile into the same pieces, instead of fp32 partials that a torch.sum added and a
    # copy cast (H200 2026-12-01, session 30, ``tools/split_fixup_probe.py``, public launch us,
    # split + sum / stream-K on tiles x splits CTAs: 4096x7168 M = 17 16.1 / 14.4, M = 32 16.6 /
    # 14.5, M = 64 18.6 / 16.3, M = 128 22.9 / 21.4; 7168x2048 M = 32 12.6 / 10.0)
    stream_k = stream_k or splits > 1
    sms = launch_ctas(ctas, ctas_per_sm, splits, b.device)
    args = (a_bf16, weight_words(b), b_sf.view(torch.int32).view(-1), alpha_t)
    tail = compile_tail(operand_k_order(b, k_order), ctas_per_sm, k_groups, wg_k_split,
                        pair_pieces, pdl_trigger, lanes)
    if stream_k:
        compile_fn(n, k, str(out.dtype), tile_m, stages, sms, splits, True, hybrid, *tail)(
            *args, out, *stream_k_buffers(m, n, tile_m, sms, out.device,
                                          64 if wg_k_split else TILE_N))
        return
    compile_fn(n, k, str(out.dtype), tile_m, stages, sms,
               *((1, False, False) + tail if tail else ()))(*args, out)

