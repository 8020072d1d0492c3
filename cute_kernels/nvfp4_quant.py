"""NVFP4 quantization: ``nvfp4_quantize``, ``silu_mul_nvfp4_quant`` and the masked-MoE
``silu_mul_nvfp4_quant_experts`` (FlashInfer's ``silu_and_mul_scaled_nvfp4_experts_quantize``
contract), one streaming kernel family.

Arithmetic. ``nvfp4_quantize`` is bit-exact with ``reference.nvfp4_quantize``: per 16-element
block ``amax = max|x|`` NaN-propagating (``max.NaN``), ``sf = e4m3_satfinite(G * (amax / 6))``,
``s = 0 if sf == 0 else 1 / (float(sf) / G)``, ``q = e2m1(x * s)``. The kernel is issue-bound
(ncu on the H200: 80% of issue slots busy at 72% of the copy bandwidth), so each step is the
cheapest exact form (``quant_encode``):
* ``amax / 6`` by ``div6`` (a product and an fma correction; proven exact for every 16-bit
  input) instead of an IEEE division;
* ``s`` from a per-CTA shared table indexed by the scale byte, filled once with the
  reference's two true divisions (the grid is persistent, so a CTA fills it once);
* bf16/fp16 inputs (``encode="cmp"``, the default): no fp32 product at all. The block |max|
  is taken on packed pairs (``max.NaN.xorsign.abs.bf16x2``), and each code comes from packed
  comparisons of |x| with the eight thresholds of the block's scale byte (a per-CTA table,
  ``device_fp4.fill_threshold_table``, instead of the reciprocal table above;
  ``device_fp4.encode8``): 11.4 SASS instructions per element in the main loop instead of
  17.2 (``tools/quant_sass_count.py``, notes/quant-bw.md);
* fp32 inputs (and ``encode="fma"``): ``e2m1`` by ``device_fp4.e2m1_encode_total``: one fma
  rounds onto the e2m1 grid, exact for every product including NaN, with no branch (a
  per-block branch to the literal comparisons was if-converted by the compiler, which then
  issued both paths).
The fused variants first form ``h = dtype(silu(gate) * up)`` in fp32 with ``ex2.approx`` and
``rcp.approx`` (``device_silu.silu_mul_fast``): h differs from ``reference.silu_mul`` only where
a few fp32 ulps flip its rounding to the dtype, which the tests bound (under 1e-3 of the codes,
at most one e2m1 step).

Work split: a warp owns ``vecs`` x 16 consecutive scale blocks of one row (1024 elements at
``vecs = 4``); CTAs walk these work items grid-stride. Each 16-byte load instruction of the
warp covers 512 contiguous bytes (coalesced): lane ``l`` holds half ``l % 2`` of block
``16 i + l // 2``, so a lane pair owns a block, combines its two half-maxima with one shuffle,
and splits the scale arithmetic between its two lanes, exchanging the results with a second
shuffle. Per lane and load: 16 B of input (32 B fused: gate and up) in, one 4-byte word of
codes out; each lane writes the scale bytes of half its blocks. The lanes of a row's last
blocks also write the zero padding of the scale columns ``KB..pad4(KB)``, and (dense variants)
``pad4(KB) / 4`` extra work items zero the scale rows ``M..pad128(M)``, a lane per 16 bytes of
the last 128-row tile, so one launch produces the whole swizzled buffer. All loads of a lane
are issued before the arithmetic. Two options keep more loads in flight (for the probes; not
the defaults yet): ``prefetch`` (the next item's loads into registers during this item's
arithmetic) and ``ring`` (a per-warp ring of shared memory that ``cp.async`` fills ``ring``
items ahead; each lane reads back only its own 16-byte slots, so a warp needs no barrier
beyond its own). ``claim`` (``CLAIM_SHARE``: the public launches of many rounds) hands the
last rounds of items out by claims on counters instead of grid-stride, so the SMs drain
together.

Experts: grid ``y`` = expert; rows at or past ``masked_m[e]`` (read on the device) are not
touched at all: neither their codes nor their scale bytes (including the row padding up to
pad128(M)) are written, so their content is whatever the output allocation held.
"""

from __future__ import annotations

import math

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.nvgpu import cpasync
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream
from cutlass.memory import SmemAllocator

from layouts import experts_sf_layout, experts_sf_view, sf_padded_shape, sf_tiled_layout

from . import jit
from .arrival_counters import arrival_counters
from .arch import compile_options, pdl_enabled, sm_count
from .constants import constant
from .device_fp4 import RECIPROCAL_TABLE_SIZE as TABLE_SIZE
from .device_fp4 import THRESHOLD_ENTRIES, THRESHOLD_WORDS
from .dtypes import torch_to_cutlass
from .quant_claims import CLAIM_WORDS, ClaimedItems
from .quant_encode import BLOCK, BLOCKS_PER_STEP, VEC, BlockEncode
from .reference import GATE_UP_GROUP
from .validate import as_scale_tensor, check_contiguous, check_cuda, check_dtype

STAMP_WORDS = 4  # a warp's probe stamps (``stamps``): entered, waited, finished, SM
_DTYPES = (torch.bfloat16, torch.float16)

# Rows x K (output elements) up to which the 16-bit kernels keep the next item's loads in
# flight (``launch_config``)
PREFETCH_ELEMENTS = 100_000_000
# The launches with the prefetch and at least CLAIM_MIN_ROUNDS rounds of work items a warp
# claim the last rounds // CLAIM_SHARE of them (at least one) from counters, so the SMs drain
# together (``NVFP4Quant(claim=-CLAIM_SHARE)``; 0: every item handed out grid-stride). H100,
# session 101: +0.5-3 points of the copy at M >= 4096; slower at M <= 2048 (2-5 rounds).
CLAIM_SHARE = 4
CLAIM_MIN_ROUNDS = 6


def launch_config(k: int, silu: bool, device: torch.device, rows: int, experts: bool = False,
                  fp32_input: bool = False, dtype: torch.dtype = torch.bfloat16) -> tuple:
    """``compile_nvfp4_quant``'s arguments after (K, dtype, silu, experts): (vecs, warps,
    max_ctas, prefetch, interleaved, encode, min_ctas, ring, early_loads, trigger, claim), the
    best of ``tools/quant_bw_probe.py`` on the H200 (session 25, ``notes/quant-bw.md``); the
    prefetch launches with ``CLAIM_MIN_ROUNDS`` rounds of items or more claim their last
    rounds (``CLAIM_SHARE``).

    The persistent grid hands each CTA a fixed share of the work items, so it holds exactly
    as many CTAs an SM as fit (the launch bounds pin the registers): with the early PDL
    trigger the next grid's CTAs take the SMs as this one's exit, and where one more fits than
    the grid has an SM they land unevenly (plain at 8 an SM with 56 registers, where 9 fit,
    lost 7-10 points of the copy bandwidth).

    Up to ``PREFETCH_ELEMENTS`` the next item's loads are in flight while one is computed:
    plain 6 CTAs an SM (80 registers; M = 4096 K = 5120 70.0 -> 75.1%, K = 7168 77.3 ->
    78.6%), fused 8 an SM (64 registers; I = 5120 82.8 -> 85.9%). Past it they lost (M = 16384
    K = 17408: plain 90.9 -> 81.1%, fused 94.3 -> 89.9%), so there plain takes 9 an SM at
    <= 56 registers and fused 12 at <= 40. The masked experts keep the fused 12 an SM (their
    grid covers each expert: at common sizes a warp has no next item), the fp32 input of
    ``swiglu_split_route`` 2 loads a lane, 8 CTAs an SM, interleaved columns, and the early
    trigger (``tools/fused_wgk_route_probe.py``, H200 2026-12-01, session 34, the fp32 GEMM
    and this kernel back to back, us, 4 loads without the trigger / 2 with it: 4096x7168 M = 17
    14.51 / 13.37, M = 64 16.33 / 15.13, M = 256 29.73 / 28.83; 1024x7168 M = 256 19.59 /
    19.19, M = 1024 35.13 / 34.74; 9216x7168 M = 256 58.58 / 57.47).

    fp16 SiLU*mul past the bound (and the experts) takes 10 an SM: at 12 (40 registers) its
    wider conversions spill an 8-byte frame, at 10 (48) none (H200 2026-12-05, session 76,
    ``tools/quant_bw_probe.py`` with ``QUANT_PROBE_DTYPE=fp16``, % of the copy, 12 -> 10:
    M = 16384 I = 5120 80.1 -> 93.7, I = 7168 80.8 -> 94.9; bf16 there 94.5 / 95.1 at 12, 94.4
    / 95.8 at 10)."""
    sms = sm_count(device.index or 0)
    if fp32_input:
        return 2, 4, 8 * sms, False, True, "fma", 0, 0, False, True, 0
    prefetch = not experts and rows * k <= PREFETCH_ELEMENTS
    vecs = 2 if silu else 4
    if silu:
        per_sm = 8 if prefetch else 10 if dtype == torch.float16 else 12
    else:
        per_sm = 6 if prefetch else 9
    many = rows * items_per_row(k, vecs) >= CLAIM_MIN_ROUNDS * per_sm * sms * 4
    claim = -CLAIM_SHARE if prefetch and many and CLAIM_SHARE else 0
    return vecs, 4, per_sm * sms, prefetch, False, "cmp", per_sm, 0, False, True, claim


def stamps_offset(claim: int) -> int:
    """Where the probe stamps start in the ``masked_m`` buffer: after the claim counters."""
    return CLAIM_WORDS if claim else 0


def items_per_row(k: int, vecs: int) -> int:
    """A row's warp work items: ``vecs`` 16-byte loads a lane cover BLOCKS_PER_STEP * vecs
    scale blocks (the row's blocks padded to a multiple of 4, as the swizzled layout)."""
    blocks = (k // BLOCK + 3) // 4 * 4
    return -(-blocks // (BLOCKS_PER_STEP * vecs))


class NVFP4Quant(BlockEncode, ClaimedItems):
    """Static configuration: K (elements per output row), input dtype, whether SiLU*mul is
    fused (the input rows are then [gate | up], 2K wide) and whether the input is a masked
    batch of experts [E, M, 2K]; ``vecs`` 16-byte loads per lane, ``warps`` per CTA.

    Internal variant for ``nvfp4_gemm_swiglu_quant``'s split route: fp32 input (h is then not
    rounded before quantization: the fused op's numerics) and, with ``interleaved``, the
    columns of the prepared gate_up weight's GEMM (groups of 64: up, then gate).

    Its claimed work items (``claim``) are ``quant_claims.ClaimedItems``'s."""

    def __init__(self, k: int, dtype: type[cutlass.Numeric], silu: bool, experts: bool,
                 vecs: int = 4, warps: int = 4, max_ctas: int = 16 * 132,
                 prefetch: bool = False, interleaved: bool = False, encode: str = "cmp",
                 min_ctas: int = 0, ring: int = 0, early_loads: bool = False,
                 trigger: bool = True, claim: int = 0, stamps: bool = False):
        assert k % BLOCK == 0 and vecs % 2 == 0 and (silu or not experts)
        assert encode in ("cmp", "fma") and (vecs == 2 or vecs % 4 == 0)
        # "cmp": threshold comparisons on the 16-bit inputs (device_fp4.encode8); "fma": the
        # fp32 product and the fma rounding (always for fp32 inputs)
        self.cmp = encode == "cmp" and dtype in (cutlass.BFloat16, cutlass.Float16)
        # launch bound: at least `min_ctas` CTAs per SM (caps the registers; 0: no bound)
        self.min_ctas = min_ctas
        # `ring` >= 2: the loads go through a per-warp ring of shared memory (cp.async), `ring`
        # items in flight without holding registers (16-bit inputs only); 0: into registers
        assert ring == 0 or (ring >= 2 and not prefetch and dtype.width == 16)
        self.ring = ring
        # the first item's loads go out before the threshold table is built (their registers
        # live through the fill)
        assert not early_loads or not (prefetch or ring)
        self.early_loads = early_loads
        # PDL: let the next kernel launch first thing (False: as this grid exits)
        self.trigger = trigger
        # Probe-only (``tools/quant_timeline.py``): lane 0 of each warp writes STAMP_WORDS words
        # into the int32 buffer passed as ``mMask`` (dense launches, no ring; with ``claim``
        # after its counters: ``stamps_offset``): when the CTA started, when its PDL wait
        # returned, when the warp's last item was stored (the low words of %globaltimer, ns)
        # and the SM it ran on
        assert not stamps or not (experts or ring)
        self.stamps = stamps
        # `claim` > 0 (with `prefetch`, dense only): the last `claim` rounds of items (< 0:
        # the last rounds // -claim, at least one, rounds counted on the device) are
        # claimed from counters in ``mMask`` (int32 [CLAIM_WORDS], zero, left zero) instead of
        # handed out grid-stride, so warps that ran fast take more and the SMs drain together
        assert not claim or (prefetch and not experts)
        self.claim = claim
        assert not interleaved or (silu and k % GATE_UP_GROUP == 0)
        self.interleaved = interleaved
        self.pdl = pdl_enabled()
        self.max_ctas, self.prefetch = max_ctas, prefetch
        self.k, self.kb = k, k // BLOCK
        self.kb4 = (self.kb + 3) // 4 * 4
        self.dtype, self.silu, self.experts = dtype, silu, experts
        self.parts = 2 if silu else 1  # inputs per element: gate and up when fused
        self.vecs, self.warps = vecs, warps
        self.chunk_blocks = BLOCKS_PER_STEP * vecs  # scale blocks per warp work item
        self.chunks = items_per_row(k, vecs)
        # Every model K is a multiple of 1024: then no block of a work item is past the row
        # and the kernel needs no bounds checks at all.
        self.whole = self.kb % self.chunk_blocks == 0

    @cute.jit
    def __call__(self, mX: cute.Tensor, mG: cute.Tensor, mMask: cute.Tensor, mQ: cute.Tensor,
                 mSF: cute.Tensor, stream):
        m = mX.shape[1] if cutlass.const_expr(self.experts) else mX.shape[0]
        m_pad = (m + 127) // 128 * 128
        if cutlass.const_expr(self.experts):
            num_e = mX.shape[0]
            sSF = cute.make_tensor(mSF.iterator, experts_sf_layout(m_pad, self.kb4, num_e))
            pad_warps = 0  # masked rows, the padding rows included, are never written
        else:
            num_e = 1
            sSF = cute.make_tensor(mSF.iterator, sf_tiled_layout(m_pad, self.kb4))
            pad_warps = self.pad_items(m)
        row_items = m * self.chunks
        items = row_items + pad_warps
        # Persistent: at most `max_ctas` CTAs per expert walk the work items grid-stride, so
        # each CTA's reciprocal table (below) is built once for many items.
        ctas = cutlass.min((items + self.warps - 1) // self.warps, self.max_ctas)
        self.kernel(mX, mG, mMask, mQ, sSF, cute.recast_tensor(mSF, cutlass.Uint32), m,
                    row_items, items).launch(
            grid=(ctas, num_e, 1),
            block=(32 * self.warps, 1, 1),
            smem=((THRESHOLD_ENTRIES * THRESHOLD_WORDS if self.cmp else TABLE_SIZE) * 4 + 16
                  + (self._ring_bytes() + 128 if self.ring else 0)),
            stream=stream,
            use_pdl=self.pdl,
            min_blocks_per_mp=self.min_ctas,
            # (the DSL asks the device for a carveout when min_blocks_per_mp > 1 and none is
            # given, which fails compile-only; half the unified memory is ample: <= 50 KB)
            # (the ring's CTAs need more: all of it)
            preferred_smem_carveout=(100 if self.ring else 50) if self.min_ctas > 1 else None,
        )

    def pad_items(self, m):
        """A dense launch's items that zero scale rows M..pad128(M) (M a Python int or the
        kernel's): one lane per 16 bytes of the last 128-row tile, one item a 4-column group."""
        return (self.kb4 // 4) * ((m % 128 + 127) // 128)

    # ---- small helpers that hide the dense/experts difference --------------------------------
    @cute.jit
    def _tile(self, t: cute.Tensor, ex, row, col_tile, width: cutlass.Constexpr):
        if cutlass.const_expr(self.experts):
            return cute.local_tile(t, (1, 1, width), (ex, row, col_tile))
        else:
            return cute.local_tile(t, (1, width), (row, col_tile))

    @cute.jit
    def _sf_store(self, sSF: cute.Tensor, row, kb, ex, value):
        """One scale byte at (row, kb); the hierarchical coordinate matches the layout's
        (((32, 4), Mt), (4, KBt)) modes, so the offset is a plain dot product."""
        r = (((row & 31, (row >> 5) & 3), row >> 7), (kb & 3, kb >> 2))
        if cutlass.const_expr(self.experts):
            sSF[(r[0], r[1], ex)] = value
        else:
            sSF[r] = value

    @cute.jit
    def _block_scale_store(self, sSF: cute.Tensor, row, kb, ex, byte):
        """Block ``kb``'s scale byte, or a zero where ``kb`` is the row's column padding
        (``KB .. pad4(KB)``); nothing past the padding."""
        if self._in_row(kb):
            self._sf_store(sSF, row, kb, ex, byte)
        elif kb < self.kb4:
            self._sf_store(sSF, row, kb, ex, cutlass.Uint8(0))

    @cute.jit
    def _in_row(self, kb):
        """Whether scale block ``kb`` is inside the row (a constant True for whole rows)."""
        if cutlass.const_expr(self.whole):
            return cutlass.Boolean(True)
        return kb < self.kb

    @cute.jit
    def _load(self, gIn: cute.Tensor, valid, rIn: cute.Tensor):
        """One 16-byte load of 8 elements into ``rIn`` (zeros where not ``valid``)."""
        rIn.fill(0.0)
        if valid:
            cute.autovec_copy(gIn, rIn)

    @cute.jit
    def _widen(self, rIn: cute.Tensor, rOut: cute.Tensor):
        if cutlass.const_expr(self.dtype is cutlass.BFloat16):
            # bf16 -> fp32 is a 16-bit shift: one instruction per element.
            words = cute.recast_tensor(rIn, cutlass.Uint32)
            for p in cutlass.range_constexpr(VEC // 2):
                w = words[p]
                rOut[2 * p] = (w << 16).bitcast(cutlass.Float32)
                rOut[2 * p + 1] = (w & cutlass.Uint32(0xFFFF0000)).bitcast(cutlass.Float32)
        else:
            rOut.store(rIn.load().to(cutlass.Float32))

    # ---- the kernel ----------------------------------------------------------------------------
    @cute.kernel
    def kernel(self, mX: cute.Tensor, mG: cute.Tensor, mMask: cute.Tensor, mQ: cute.Tensor,
               sSF: cute.Tensor, mSFWords: cute.Tensor, m: cutlass.Int32,
               row_items: cutlass.Int32, items: cutlass.Int32):
        entered = waited = None
        if cutlass.const_expr(self.stamps):
            entered = cute.arch.globaltimer_lo()
        if cutlass.const_expr(self.pdl):
            # PDL: the next kernel may launch now (it waits for this grid to finish before it
            # reads anything) and take SMs as these CTAs exit; everything here reads the
            # previous kernel's results (the scale too), so wait for it first
            if cutlass.const_expr(self.trigger):
                cute.arch.griddepcontrol_launch_dependents()
            cute.arch.griddepcontrol_wait()
        if cutlass.const_expr(self.stamps):
            waited = cute.arch.globaltimer_lo()
        tidx, _, _ = cute.arch.thread_idx()
        bidx, ex, _ = cute.arch.block_idx()
        ctas, _, _ = cute.arch.grid_dim()
        g = mG[ex]
        lane = tidx & 31
        half = lane & 1
        end = items
        if cutlass.const_expr(self.experts):
            # Rows at or past masked_m[e] are never visited (a count above M acts as M).
            end = cutlass.max(cutlass.min(mMask[ex], m), 0) * self.chunks
        # Warp-uniform work items, grid-stride. With `prefetch`, the loads of the next item are
        # in flight while this one is computed (measured 2-8% slower on the H200: the extra
        # registers cost more occupancy than the overlap gains; kept for the sweep).
        first = bidx * self.warps + (tidx >> 5)
        stride = ctas * self.warps
        loaded = cutlass.min(row_items, end)  # items with rows to load
        cur = self._input_regs()
        nxt = self._input_regs() if self.prefetch else None
        if cutlass.const_expr(self.prefetch or self.early_loads):
            self._load_item(mX, ex, first, first < loaded, lane, cur)
        claims = None
        if cutlass.const_expr(self.claim):  # the first claim's round trip under the fill too
            claims = self._first_claim(mMask, first, end, stride, lane)
        ring_state = None
        if cutlass.const_expr(self.ring):  # the first `ring` items in flight during the fill
            ring_state = self._ring_start(mX, ex, first, stride, loaded, lane, tidx >> 5)
        if cutlass.const_expr(self.cmp):
            table = self._threshold_table(g, tidx)
        else:
            table = self._reciprocal_table(g, tidx)
        if cutlass.const_expr(self.ring):
            self._ring_loop(mX, mQ, sSF, mSFWords, g, table, ex, m, row_items, first, end, stride,
                            loaded, lane, tidx >> 5, cur, ring_state)
            return
        if cutlass.const_expr(self.claim):
            self._claim_loop(mX, mQ, sSF, mSFWords, g, table, ex, m, row_items, first, end,
                             stride, loaded, lane, cur, nxt, claims)
        else:
            for w in cutlass.range(first, end, stride, unroll=1):
                if cutlass.const_expr(self.prefetch):
                    self._load_item(mX, ex, w + stride, w + stride < loaded, lane, nxt)
                elif cutlass.const_expr(self.early_loads):
                    if w != first:
                        self._load_item(mX, ex, w, w < loaded, lane, cur)
                else:
                    self._load_item(mX, ex, w, w < loaded, lane, cur)
                self._process_item(mQ, sSF, mSFWords, g, table, ex, m, row_items, w, lane,
                                   half, cur)
                if cutlass.const_expr(self.prefetch):
                    for c, n in zip(cur, nxt):
                        c.store(n.load())
        if cutlass.const_expr(self.stamps):
            if lane == 0:
                at = first * STAMP_WORDS + stamps_offset(self.claim)
                mMask[at] = entered
                mMask[at + 1] = waited
                mMask[at + 2] = cute.arch.globaltimer_lo()
                mMask[at + 3] = cute.arch.smid()

    def _item_start(self, w, lane):
        """(row, this lane pair's first scale block) of work item ``w``."""
        row = w // self.chunks
        return row, (w - row * self.chunks) * self.chunk_blocks + (lane >> 1)

    @cute.jit
    def _process_item(self, mQ, sSF, mSFWords, g, table, ex, m, row_items, w, lane, half, cur):
        """Work item ``w`` from its inputs in ``cur``: a row chunk's codes and scales, or (past
        the rows) its share of the zero scale rows M..pad128(M)."""
        if w < row_items:
            row, kb0 = self._item_start(w, lane)
            self._quantize(mQ, sSF, g, table, ex, row, kb0, half, cur)
        else:
            if cutlass.const_expr(not self.experts):
                self._zero_padding_rows(sSF, mSFWords, m, (w - row_items) * 32 + lane)

    # ---- the shared-memory ring (``ring`` >= 2) -------------------------------------------------
    def _ring_bytes(self) -> int:
        """[ring, warps, parts, vecs, 32 lanes, 16 bytes]: each lane's loads are its own."""
        return self.ring * self.warps * self.parts * self.vecs * 32 * 16

    @cute.jit
    def _ring_start(self, mX, ex, first, stride, loaded, lane, warp):
        """The warp's ring with the first ``ring`` items issued: (ring, copy atom)."""
        shape = (self.ring, self.warps, self.parts, self.vecs, 32, VEC)
        ring = SmemAllocator().allocate_tensor(
            self.dtype, cute.make_ordered_layout(shape, order=(5, 4, 3, 2, 1, 0)),
            byte_alignment=128)
        # .cg: 16-byte pieces read once, so they skip L1
        atom = cute.make_copy_atom(cpasync.CopyG2SOp(cpasync.LoadCacheMode.GLOBAL), self.dtype,
                                   num_bits_per_copy=128)
        for p in cutlass.range_constexpr(self.ring):
            self._issue_item(mX, ex, first + p * stride, loaded, lane,
                             ring[p, warp, None, None, lane, None], atom)
            cute.arch.cp_async_commit_group()
        return ring, atom

    @cute.jit
    def _ring_loop(self, mX, mQ, sSF, mSFWords, g, table, ex, m, row_items, first, end, stride,
                   loaded, lane, warp, cur, ring_state):
        """The item loop with ``ring`` items in flight through the warp's ring (``_ring_start``
        issued the first): each iteration waits for its item (one commit group per iteration,
        so ``wait_group(ring - 1)`` is "this item has landed"), moves it to registers, refills
        the slot with the item ``ring`` strides ahead and computes. A lane reads only the bytes
        it copied, so no barrier beyond the warp's own is needed."""
        ring, atom = ring_state
        iters = cutlass.max((end - first + stride - 1) // stride, 0)
        for i in cutlass.range(iters, unroll=1):
            w = first + i * stride
            slot = ring[i % self.ring, warp, None, None, lane, None]
            cute.arch.cp_async_wait_group(self.ring - 1)
            self._read_item(w, loaded, lane, slot, cur)
            cute.arch.sync_warp()
            self._issue_item(mX, ex, w + self.ring * stride, loaded, lane, slot, atom)
            cute.arch.cp_async_commit_group()
            self._process_item(mQ, sSF, mSFWords, g, table, ex, m, row_items, w, lane, lane & 1,
                               cur)

    @cute.jit
    def _issue_item(self, mX: cute.Tensor, ex, w, loaded, lane, slot: cute.Tensor, atom):
        """cp.async of work item ``w``'s loads (as ``_load_item`` reads them) into this lane's
        ``slot`` [parts, vecs, VEC]; nothing for loads past the row or items past ``loaded``."""
        row, kb0 = self._item_start(w, lane)
        for i in cutlass.range_constexpr(self.vecs):
            kb = kb0 + BLOCKS_PER_STEP * i
            if (w < loaded) & self._in_row(kb):
                for part in cutlass.range_constexpr(self.parts):
                    col = self._input_col(kb, lane & 1, part)
                    src = self._tile(mX, ex, row, col, VEC)
                    src = src[0, 0, None] if cutlass.const_expr(self.experts) else src[0, None]
                    cute.copy(atom, cute.zipped_divide(src, (VEC,)),
                              cute.zipped_divide(slot[part, i, None], (VEC,)))

    @cute.jit
    def _read_item(self, w, loaded, lane, slot: cute.Tensor, cur):
        """The landed item from ``slot`` into the registers ``cur`` (zeros where nothing was
        copied)."""
        row, kb0 = self._item_start(w, lane)
        for i in cutlass.range_constexpr(self.vecs):
            valid = (w < loaded) & self._in_row(kb0 + BLOCKS_PER_STEP * i)
            for part in cutlass.range_constexpr(len(cur)):
                self._load(slot[part, i, None], valid, cur[part][i, None])

    def _input_regs(self):
        """Registers for one item's inputs: [vecs, VEC] (and the up half when fused), rows
        contiguous so each row is one 16-byte load."""
        layout = cute.make_ordered_layout((self.vecs, VEC), order=(1, 0))
        return [cute.make_rmem_tensor(layout, self.dtype) for _ in range(self.parts)]

    @cute.jit
    def _load_item(self, mX: cute.Tensor, ex, w, live, lane, regs):
        """Every load of work item ``w`` (zeros where not ``live`` or past the row). Block i of
        the lane pair is kb0 + 16 i; this lane holds its elements half * 8 .. half * 8 + 7."""
        row, kb0 = self._item_start(w, lane)
        half = lane & 1
        for i in cutlass.range_constexpr(self.vecs):
            kb = kb0 + BLOCKS_PER_STEP * i
            valid = live & self._in_row(kb)
            for part in cutlass.range_constexpr(len(regs)):
                col = self._input_col(kb, half, part)
                self._load(self._tile(mX, ex, row, col, VEC), valid, regs[part][i, None])

    def _input_col(self, kb, half, part: int):
        """The input tile (in VEC elements) of half ``half`` of output block ``kb``; ``part``
        0 is the gate (or the only input), 1 the up projection."""
        if self.interleaved:
            # output column c = 16 kb + 8 half sits in group c // 64: up at 128 (c // 64)
            # + c % 64, gate 64 further
            up = (kb // 4) * (2 * GATE_UP_GROUP // VEC) + (kb % 4) * 2 + half
            return up + (GATE_UP_GROUP // VEC if part == 0 else 0)
        # the up half starts K elements (K / 8 tiles) after the gate half
        return kb * 2 + half + part * (self.k // VEC)

    @cute.jit
    def _zero_padding_rows(self, sSF: cute.Tensor, mSFWords: cute.Tensor, m, idx):
        """Lane ``idx`` owns the 16 bytes (m % 32 = r, all four row quarters j, the four kb of
        atom a) of the last 128-row tile; it zeroes the 4-byte groups of rows >= M."""
        a, r = idx >> 5, idx & 31
        tile = (m - 1) >> 7
        valid = m - tile * 128  # rows of the last tile that hold data, 1..127
        for j in cutlass.range_constexpr(4):
            if 32 * j + r >= valid:
                offset = cute.crd2idx((((r, j), tile), (0, a)), sSF.layout)
                mSFWords[offset >> 2] = cutlass.Uint32(0)


@jit.cached
def compile_nvfp4_quant(k: int, dtype: str, silu: bool, experts: bool, vecs: int = 4,
                        warps: int = 4, max_ctas: int = 16 * 132, prefetch: bool = False,
                        interleaved: bool = False, encode: str = "cmp", min_ctas: int = 0,
                        ring: int = 0, early_loads: bool = False,
                        trigger: bool = True, claim: int = 0, stamps: bool = False):
    """Tensor-free compile: static K (output elements per row), input dtype and variant;
    dynamic M (and E). Arguments of the compiled function: x, global_scale, masked_m, packed,
    scale bytes (flat uint8)."""
    cdtype = torch_to_cutlass(dtype)
    m = cute.sym_int()
    kin = 2 * k if silu else k
    if experts:
        e = cute.sym_int()
        x = make_fake_compact_tensor(cdtype, (e, m, kin), stride_order=(2, 1, 0),
                                     assumed_align=16)
        q = make_fake_compact_tensor(cutlass.Uint8, (e, m, k // 2), stride_order=(2, 1, 0),
                                     assumed_align=16)
        g = make_fake_compact_tensor(cutlass.Float32, (e,))
        mask = make_fake_compact_tensor(cutlass.Int32, (e,))
    else:
        x = make_fake_compact_tensor(cdtype, (m, kin), stride_order=(1, 0), assumed_align=16)
        q = make_fake_compact_tensor(cutlass.Uint8, (m, k // 2), stride_order=(1, 0),
                                     assumed_align=16)
        g = make_fake_compact_tensor(cutlass.Float32, (1,))
        # not read; the stamps buffer where ``stamps`` (STAMP_WORDS a warp of the grid), the
        # claim counters where ``claim``
        words = cute.sym_int() if stamps else CLAIM_WORDS if claim else 1
        mask = make_fake_compact_tensor(cutlass.Int32, (words,))
    sf = make_fake_compact_tensor(cutlass.Uint8, (cute.sym_int(),), assumed_align=16)
    kernel = NVFP4Quant(k, cdtype, silu, experts, vecs, warps, max_ctas, prefetch,
                        interleaved, encode, min_ctas, ring, early_loads,
                        trigger, claim, stamps)
    return cute.compile(kernel, x, g, mask, q, sf,
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())


# ---- public functions ---------------------------------------------------------------------------
_INDEX_LIMIT = 2**31  # the kernels index with 32-bit integers


def _check_input(name: str, x, dims: int, halves: bool) -> tuple[int, ...]:
    """dtype, rank, K (a multiple of 16), size and contiguity (not the device); returns the
    shape with the last dimension replaced by the output K."""
    check_dtype(name, x, *_DTYPES)
    layout = "[E, M, 2I]" if dims == 3 else ("[M, 2I]" if halves else "[M, K]")
    if x.dim() != dims:
        raise ValueError(f"{name}: expected a {dims}-D {layout} tensor, got shape {tuple(x.shape)}")
    last = x.shape[-1]
    if halves and last % 2:
        raise ValueError(f"{name}: the last dimension (2I = {last}) must be even")
    k = last // 2 if halves else last
    if k % BLOCK:
        raise ValueError(f"{name}: {'I' if halves else 'K'} = {k} must be a multiple of {BLOCK}")
    if x.numel() >= _INDEX_LIMIT:
        raise ValueError(f"{name}: {x.numel()} elements; the kernels index with 32 bits "
                         f"(at most {_INDEX_LIMIT - 1})")
    check_contiguous(name, x)
    return (*x.shape[:-1], k)


def _outputs(out, lead: tuple[int, ...], m: int, k: int, like: torch.Tensor):
    """(packed uint8 [*lead, M, K/2], scale bytes uint8 [*lead, pad128(M), pad4(K/16)]): new,
    or the caller's ``out = (packed, scales)`` checked and viewed that way."""
    mp, kbp = sf_padded_shape(m, k // BLOCK)
    if out is None:
        return (torch.empty((*lead, m, k // 2), dtype=torch.uint8, device=like.device),
                torch.empty((*lead, mp, kbp), dtype=torch.uint8, device=like.device))
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise TypeError("out: expected a (packed, scales) pair of tensors")
    packed, sf = out
    check_dtype("out[0] (packed)", packed, torch.uint8)
    check_dtype("out[1] (scales)", sf, torch.uint8, torch.float8_e4m3fn)
    if tuple(packed.shape) != (*lead, m, k // 2):
        raise ValueError(f"out[0] (packed): expected shape {(*lead, m, k // 2)}, got "
                         f"{tuple(packed.shape)}")
    nbytes = math.prod(lead) * mp * kbp
    if sf.numel() != nbytes:
        raise ValueError(f"out[1] (scales): expected {nbytes} swizzled scale bytes "
                         f"({'x'.join(map(str, (*lead, mp, kbp)))}), got shape {tuple(sf.shape)}")
    for name, t in (("out[0] (packed)", packed), ("out[1] (scales)", sf)):
        check_contiguous(name, t)
        check_cuda(name, t, like=like)
    return packed, sf.view(torch.uint8).view(*lead, mp, kbp)


def nvfp4_quantize(x: torch.Tensor, global_scale, out=None) -> tuple[torch.Tensor, torch.Tensor]:
    """NVFP4-quantize ``x`` [M, K] (bf16/fp16, K a multiple of 16) with global scale ``G``.

    Returns ``(packed, scales)``: ``packed`` uint8 [M, K/2] (element 2i in the low nibble),
    ``scales`` float8_e4m3fn [pad128(M), pad4(K/16)] in the swizzled 128x4 layout, padding zero.
    ``global_scale``: a float or a one-element fp32 tensor on x's device. ``out``: optional
    ``(packed, scales)`` buffers to write (scales may be uint8 or e4m3, any shape with the right
    byte count). Bit-exact with ``reference.nvfp4_quantize`` (a NaN in a block: scale 0x7F,
    codes 0). One kernel launch, including the scale padding; none for M = 0.
    """
    return _quantize_rows("x", x, global_scale, out, silu=False)


def silu_mul_nvfp4_quant(gate_up: torch.Tensor, global_scale, out=None
                         ) -> tuple[torch.Tensor, torch.Tensor]:
    """``nvfp4_quantize(silu(gate) * up)`` fused: gate_up [M, 2I] (gate = first half, up = second
    half, bf16/fp16, I a multiple of 16) -> (packed uint8 [M, I/2], swizzled e4m3 scales
    [pad128(M), pad4(I/16)]); ``global_scale`` and ``out`` as in ``nvfp4_quantize``.

    ``h = dtype(silu(gate) * up)`` is formed in registers (fp32, ``silu_mul_fast``: approximate
    exp2 and reciprocal, one rounding to the input dtype) and never reaches memory; then
    ``nvfp4_quantize``'s arithmetic. Codes and scales equal the quantization of
    ``reference.silu_mul`` except where the approximations flip h's rounding (under 1e-3 of
    the codes, each at most one e2m1 step; measured by the tests).
    """
    return _quantize_rows("gate_up", gate_up, global_scale, out, silu=True)


def _quantize_rows(name: str, x: torch.Tensor, global_scale, out, silu: bool):
    """The 2-D entry points: validate, allocate, one launch (none for zero rows). Under
    ``torch.compile`` (no ``out``, the scale a tensor): the custom ops below."""
    if torch.compiler.is_compiling() and out is None and isinstance(global_scale, torch.Tensor):
        op = (torch.ops.cute_kernels.silu_mul_nvfp4_quant if silu
              else torch.ops.cute_kernels.nvfp4_quantize)
        return op(x, global_scale)
    m, k = _check_input(name, x, dims=2, halves=silu)
    check_cuda(name, x)
    g = as_scale_tensor("global_scale", global_scale, x.device)
    packed, sf = _outputs(out, (), m, k, x)
    if m:
        config = launch_config(k, silu, x.device, m, dtype=x.dtype)
        # the mask is not read; a claiming launch takes its zeroed counters there instead
        count = (arrival_counters(CLAIM_WORDS, x.device) if config[-1]
                 else constant(1, torch.int32, x.device))
        compile_nvfp4_quant(k, str(x.dtype), silu, False, *config)(
            x, g, count, packed, sf.view(-1))
    return packed, sf.view(torch.float8_e4m3fn)


def silu_mul_nvfp4_quant_experts(gate_up: torch.Tensor, masked_m: torch.Tensor,
                                 global_scale: torch.Tensor, out=None
                                 ) -> tuple[torch.Tensor, torch.Tensor]:
    """Masked-MoE SiLU*mul + NVFP4 (FlashInfer's ``silu_and_mul_scaled_nvfp4_experts_quantize``).

    gate_up [E, M, 2I] bf16/fp16; masked_m int32 [E] and global_scale fp32 [E], both on the
    device (the kernel reads them: no host sync, CUDA-graph safe). Expert e's rows
    ``< masked_m[e]`` are quantized as ``silu_mul_nvfp4_quant`` with ``global_scale[e]``.

    Returns views in FlashInfer's layouts:
      * packed: uint8 [M, I/2, E], a permuted view of [E, M, I/2] memory;
      * scales: float8_e4m3fn (32, 4, pad128(M)/128, 4, pad4(I/16)/4, E), a view of E stacked
        dense swizzled [pad128(M), pad4(I/16)] buffers (``layouts.experts_sf_view``);
        ``layouts.experts_sf_to_dense(scales)`` gives those [E, pad128(M), pad4(I/16)] buffers.
    ``out``: optional buffers in memory order, (packed [E, M, I/2], scales with
    E * pad128(M) * pad4(I/16) bytes).
    Rows at or past ``masked_m[e]`` are not written (neither codes nor scale bytes, including
    the scale row padding up to pad128(M)): they keep whatever the buffers held. A masked
    grouped GEMM never reads them. Counts are not range-checked (that would need a host sync):
    a count above M acts as M, a negative one as 0.
    """
    if torch.compiler.is_compiling() and out is None:
        # (the op returns the buffers in memory order; the views are traced here)
        packed, sf = torch.ops.cute_kernels.silu_mul_nvfp4_quant_experts(gate_up, masked_m,
                                                                         global_scale)
    else:
        packed, sf = _experts_buffers(gate_up, masked_m, global_scale, out)
    return packed.permute(1, 2, 0), _experts_scales_view(sf, *sf.shape)


def _experts_buffers(gate_up: torch.Tensor, masked_m: torch.Tensor, global_scale: torch.Tensor,
                     out) -> tuple[torch.Tensor, torch.Tensor]:
    """``silu_mul_nvfp4_quant_experts``'s checks and launch: (packed [E, M, I/2], scale bytes
    uint8 [E, pad128(M), pad4(I/16)]) in memory order."""
    e, m, i = _check_input("gate_up", gate_up, dims=3, halves=True)
    check_dtype("masked_m", masked_m, torch.int32)
    if tuple(masked_m.shape) != (e,):
        raise ValueError(f"masked_m: expected shape ({e},), got {tuple(masked_m.shape)}")
    check_dtype("global_scale", global_scale, torch.float32)
    if global_scale.numel() != e:
        raise ValueError(f"global_scale: expected {e} values (one per expert), got shape "
                         f"{tuple(global_scale.shape)}")
    check_contiguous("masked_m", masked_m, align=4)
    check_contiguous("global_scale", global_scale, align=4)
    check_cuda("gate_up", gate_up)
    check_cuda("masked_m", masked_m, like=gate_up)
    check_cuda("global_scale", global_scale, like=gate_up)
    packed, sf = _outputs(out, (e,), m, i, gate_up)
    if e and m:
        config = launch_config(i, True, gate_up.device, m, experts=True, dtype=gate_up.dtype)
        compile_nvfp4_quant(i, str(gate_up.dtype), True, True, *config)(
            gate_up, global_scale.reshape(e), masked_m, packed, sf.view(-1))
    return packed, sf


# ---- torch.compile: custom ops (fresh outputs, tensor scales) -----------------------------------
def _fake_rows(x: torch.Tensor, k: int, lead: tuple[int, ...] = (),
               sf_dtype: torch.dtype = torch.float8_e4m3fn):
    """``_outputs``' fresh (packed, scales), scales viewed as ``sf_dtype``, for the fake
    implementations."""
    packed, sf = _outputs(None, lead, x.shape[-2], k, x)
    return packed, sf.view(sf_dtype)


def _rows_op(name: str, fn, k_of):
    """The custom op ``cute_kernels::<name>`` of a 2-D quantizer ``fn(x, global_scale)``, whose
    outputs have ``k_of(x)`` columns."""
    @torch.library.custom_op(f"cute_kernels::{name}", mutates_args=())
    def op(x: torch.Tensor, global_scale: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return fn(x, global_scale)

    @op.register_fake
    def _(x, global_scale):
        return _fake_rows(x, k_of(x))
    return op


_rows_op("nvfp4_quantize", nvfp4_quantize, lambda x: x.shape[-1])
_rows_op("silu_mul_nvfp4_quant", silu_mul_nvfp4_quant, lambda x: x.shape[-1] // 2)


@torch.library.custom_op("cute_kernels::silu_mul_nvfp4_quant_experts", mutates_args=())
def _silu_mul_nvfp4_quant_experts_op(gate_up: torch.Tensor, masked_m: torch.Tensor,
                                     global_scale: torch.Tensor
                                     ) -> tuple[torch.Tensor, torch.Tensor]:
    """(packed [E, M, I/2], scale bytes [E, pad128(M), pad4(I/16)]) in memory order."""
    return _experts_buffers(gate_up, masked_m, global_scale, None)


@_silu_mul_nvfp4_quant_experts_op.register_fake
def _(gate_up, masked_m, global_scale):
    return _fake_rows(gate_up, gate_up.shape[-1] // 2, (gate_up.shape[0],), torch.uint8)


def _experts_scales_view(sf: torch.Tensor, e: int, mp: int, kbp: int) -> torch.Tensor:
    """E stacked swizzled buffers [E, Mp, KBp] (contiguous) -> the 6-D (32, 4, Mt, 4, KBt, E)
    e4m3 view of ``layouts.experts_sf_view``. Under ``torch.compile`` (and for empty views,
    which layouts refuses) the same view from torch ops, which trace with a dynamic M (the
    layout is traced by the CuTe DSL, which dynamo does not follow); tests pin the two."""
    sf8 = sf.view(torch.float8_e4m3fn)
    if e and mp and not torch.compiler.is_compiling():
        return experts_sf_view(sf8, mp, kbp, e)
    return sf8.reshape(e, mp // 128, kbp // 4, 32, 4, 4).permute(3, 4, 1, 5, 2, 0)