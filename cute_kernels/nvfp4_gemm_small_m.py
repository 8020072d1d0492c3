"""NVFP4 GEMM, decode regime (small M): ``D[M, N] = alpha * A @ B^T`` with B = NVFP4 weights
[N, K/2] + swizzled scales, A = NVFP4 activations (or bf16, W4A16), on ``mma.sync`` tensor cores.

At small M the weight stream is everything, so the operands are swapped: 16 weight rows fill
the MMA's M and 8 tokens its N (m16n8k16). Each thread decodes its weights from global memory
straight into A-operand registers; no shared memory on the main path.

The K order inside a dot product is free as long as both operands agree. The kernel uses that
to make every load contiguous: in a 256-element K step, lane ``4g + q`` owns elements
``64q .. 64q + 63`` of rows ``g`` and ``g + 8`` (32 bytes of codes + 4 scale bytes each, so a
quad reads whole 128-byte lines) and of token ``g`` (its activations), and assigns them to the
MMA's k slots in the fixed order ``device_mma.e2m1x2_raw`` produces. Decoding and MMAs go one
16-element scale block at a time (4 MMAs per 16-row tile and 8-token tile), which keeps the
decoded operands to a few registers; the raw loads of later steps can be in flight meanwhile
(``prefetch`` = 1: the next step's loads go to a second register buffer, copied into the
current one after each step; ``prefetch`` = p >= 2: ``cp.async`` copies the raw steps into a
per-warp shared-memory ring of p slots, p steps in flight, no registers held for them; the
ring is laid out [slot, warp, 16-byte chunk, lane], so a lane's 16-byte reads are free of bank
conflicts).

Warps of a CTA share the same rows and split K (step ``s`` goes to warp ``s % warps``); their
partial sums meet in shared memory at the end. With ``row_groups`` = r > 1 the CTA's warps
form r groups, each on its own ``row_tiles`` tiles (so a CTA holds r times the rows of a
warp), the ``warps / r`` warps of a group splitting K the same way: as many rows a CTA as a
warp with r times the tiles, at a warp's registers for one (the fused SwiGLU kernel needs an
up tile and its gate tile in one CTA). The grid is (token tiles, row blocks), token
tiles fastest, so CTAs that read the same weights run together and share them through L2.
Rows past N and tokens past M are clamped for loads and skipped for stores; a K tail (K a
multiple of 64, not of 256) zeroes the lanes past K.

Staged activations (``x_tokens`` > 0): the CTA first decodes the activations of its first
``x_tokens`` tokens (of its own K steps) into shared memory, already in MMA-operand order; the
main loop then takes each block's activation pairs with two 16-byte shared loads. Used at
M = 1, where every warp would otherwise load and decode a whole 8-token tile per step
although the 8 token lanes hold the same clamped token (H200, 36864x7168 M=1: 1077 -> 777
SASS instructions per step, 142 -> 119 registers), at M = 2 where it measured faster than the
register path (``nvfp4_gemm._stage_two_tokens``), and with a K split for all the CTA's token
tiles (the split keeps the staged slice small).

Loads without per-step address arithmetic: where every row block is whole, the rows of a
thread sit at fixed offsets from its first row (``row_offsets``: codes ``d * K / 2`` bytes on,
scales a few atom bytes on), so one 64-bit base per thread plus the step's column reaches all
of them and the offsets become the load instructions' immediates. With one row tile and staged
activations (``lean_staged``) the loop uses that, and the token lanes past the staged tokens
read a step of zeros (stride 0) instead of zero-filling and predicating their loads; in the
register path (M = 3..16) the dead column clamp is gone. Which configs take which was measured
(``tools/ab_loop.sh``); see ``lean_staged`` in ``small_m_rules``.

Lane columns (``lane_columns``; one or two staged NVFP4 tokens, ``LANE_COLUMNS`` routes them):
the weights' scales go on the sums instead of the operands. The 8 token columns of the MMA
are shared out among the quad: column ``2 q + t`` holds token ``t``'s activations on lane q's
K slots only (zeros elsewhere), so ``C[g, 2 q + t]`` is the dot product of row g with token t
over lane q's own 16-element scale block, the block whose scale lane q fetched. Each block's
four MMAs then start from zero on the raw decode (``e2m1 * 2^-126``, no bf16x2 multiply per
pair), and one fma a row and token adds them into the sums times the block's fp32 scale; the
quad's four lanes are added once, after the main loop (``_fold_lane_columns``). Per block and
row tile: 16 packed multiplies become 2 fmas at one token, and the scales are converted two
at a time in registers (no shared-memory table). The staged activations carry
``2^LANE_COLUMNS_POW2`` so that every product of the raw decode (a bf16 subnormal for the
codes +-0.5) with them is an fp32 normal.

Two hooks let a subclass reuse the main loop: ``tile_row`` (which weight rows a row tile holds)
and ``epilogue`` (what becomes of the sums); ``nvfp4_gemm_swiglu_quant`` fuses SwiGLU and NVFP4
quantization that way.
"""

from __future__ import annotations

import functools

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream
from cutlass.memory import SmemAllocator

from layouts import sf_byte_offset, sf_tiled_layout

from . import jit
from .arch import compile_options
from .device_fp4 import e4m3x2_to_f32
from .device_mma import (FP4_OPERAND_POW2, SPLAT_POW2, STANDARD_HIGH_SHIFT, bf16_pair,
                         bf16x2_splat, byte_of, e2m1x2_by_multiply, e2m1x2_permuted,
                         mma_bf16_m16n8k16, mul_bf16x2)
from .dtypes import torch_to_cutlass
from .small_m_ring import WeightRing
from .small_m_rules import K_ALIGN, STEP, SmallMLaunchRules
from .small_m_staging import LANE_COLUMNS_POW2, STAGING_BATCH, X_ZERO_WORDS, ActivationStaging

SMEM_LIMIT = 227 * 1024  # sm_90's shared memory per CTA
SMEM_PER_SM = 228 * 1024  # and per SM (the carveout's 100%)
SPLAT_FACTOR = float(2**SPLAT_POW2)
# Lane columns: the staging's 2^64 on the activations (``small_m_staging``), off the sums
LANE_SUM_SCALE = float(2 ** (126 - LANE_COLUMNS_POW2))
# Route switch: one or two staged NVFP4 tokens take lane columns (``lane_columns_route``).
# Off until measured on the H200 (``tools/lane_columns_probe.py``).
LANE_COLUMNS = False


def lane_columns_route(a_fp4: bool, x_tokens: int, token_tiles: int) -> bool:
    """Whether a small-M launch of ``x_tokens`` staged tokens takes lane columns: behind
    ``LANE_COLUMNS``, NVFP4 activations (bounded, so their 2^64 cannot overflow), one token
    tile, one or two staged tokens (a quad's lanes hold two columns each)."""
    return LANE_COLUMNS and lane_columns_fit(a_fp4, x_tokens, token_tiles)


def lane_columns_fit(a_fp4: bool, x_tokens: int, token_tiles: int) -> bool:
    """Whether a kernel of this kind can take lane columns (``lane_columns_route``'s terms
    without the switch)."""
    return a_fp4 and token_tiles == 1 and 1 <= x_tokens <= 2


def warp_steps(k: int, splits: int, warps: int) -> int:
    """K steps each warp of a CTA walks: the CTA's share of K's steps over its warps."""
    split_steps = -(-(-(-k // STEP)) // splits)
    return -(-split_steps // warps)


class NVFP4GemmSmallM(SmallMLaunchRules, WeightRing, ActivationStaging):
    """The kernel; its launch rules (loop variant, PDL, CTAs per SM) are ``small_m_rules``'s,
    its shared-memory weight ring ``small_m_ring``'s and its staged activations
    ``small_m_staging``'s."""

    # Probe switch: at most this many main-loop iterations a warp (None: all). The sums then
    # miss K steps; ``tools/fixed_part_probe.py`` times a launch's fixed part with it.
    PROBE_MAX_STEPS = None
    # Probe switch: the lean loads (``row_offsets``) address the codes as if stored tile-major,
    # [N / 16, K / 256, 16 rows, 128 bytes], so a warp step reads one contiguous 2 KB run
    # instead of 16 runs of 128 bytes a row apart. Same bytes, wrong sums: it times the access
    # pattern only (``tools/tiled_codes_probe.py``). Needs K a multiple of 256.
    PROBE_TILED_CODES = False
    # Probe switch: the staging loads and stores nothing (the staged activations are whatever
    # the shared memory held; wrong sums): times what staging one token costs a launch
    # (``tools/staging_cost_probe.py``). Not the token's second trip to L2: a branch-free
    # pass issuing every slot's loads together (``notes/flat-staging.patch``) gave the same
    # bits and no time (H100 2026-12-06, session 94, 9216x7168 M = 1 (8, 3), graph us,
    # default / flat / nostage: 14.70 / 14.56 / 13.49 from DRAM, 11.06 / 11.12 / 9.80 from
    # L2; 5120x17408 18.57 / 19.68 / 18.13).
    PROBE_NO_STAGING = False
    # With staged activations on the register double buffer (not the paired loop), each warp
    # issues its second step's loads between the staging's loads and their decode
    # (``_stage_around``), as the balanced launch's ``NEXT_STEP_UNDER_STAGING`` does: there
    # the staging cost ~9% of a one-token launch and this took 0.6-1.1 us of it (H100,
    # session 90). Here it is taken on ``UNDER_STAGING_MIN_ROW_GROUPS`` row groups (the fused
    # 36864x7168 one-token launch, (1, 1, 8, 1, 1, 2)); ``UNDER_STAGING`` forces it on
    # (probe). H100 2026-12-06 (session 91 call 1, ``tools/small_m_under_probe.py``, M = 1,
    # public -> under, us, from DRAM / from L2): the fused 36864x7168 55.86 -> 53.35 (its
    # weights fit neither card's L2); on one row group it never won both ways: plain
    # 36864x7168 (1, 1, 4, 1) 54.50 -> 54.77, 34816x5120 37.77 -> 39.16, 4096x7168 (1, 1, 8,
    # 1) 7.68 -> 7.13 / 5.78 -> 5.92, 7168x2048 3.84 -> 4.16 / 4.07 -> 3.87; fused 34816x5120
    # (2, 1, 3, 1) 39.53 -> 39.28, 4096x7168 (2, 1, 8, 1) 8.53 -> 8.68 / 6.03 -> 6.52,
    # 1024x7168 (K split) 5.60 -> 5.58 / 5.12 -> 5.11.
    UNDER_STAGING = False
    UNDER_STAGING_MIN_ROW_GROUPS = 2

    def __init__(self, n: int, k: int, a_fp4: bool, out_dtype: type[cutlass.Numeric],
                 row_tiles: int = 1, token_tiles: int = 1, warps: int = 4, prefetch: int = 1,
                 x_tokens: int = 0, splits: int = 1, permuted: bool = False,
                 row_groups: int = 1, lane_columns: bool = False):
        assert k % K_ALIGN == 0 and x_tokens <= 8 * token_tiles
        # lane_columns: the block scales on the sums (see the module docstring)
        if lane_columns and not lane_columns_fit(a_fp4, x_tokens, token_tiles):
            raise ValueError(f"lane columns take one token tile of one or two staged NVFP4 "
                             f"tokens; got a_fp4={a_fp4}, token_tiles={token_tiles}, "
                             f"x_tokens={x_tokens}")
        self.lane_columns = lane_columns
        # permuted: the weights come in ``permuted_fp4``'s bit-permuted words (the activations
        # never do): fewer integer instructions per decoded pair
        self.permuted = permuted
        assert x_tokens <= 8 or x_tokens == 8 * token_tiles  # past a tile: whole tiles
        self.n, self.k, self.a_fp4, self.out_dtype = n, k, a_fp4, out_dtype
        self.kb = k // 16
        self.kb_padded = (self.kb + 3) // 4 * 4
        self.rt, self.jt, self.warps, self.prefetch = row_tiles, token_tiles, warps, prefetch
        # row_groups > 1: the CTA's warps in that many groups, each on its own ``row_tiles``
        # tiles (``row_tiles * row_groups`` a CTA), the ``kw`` warps of a group splitting K
        # (see the module docstring); not with the cp.async ring
        assert warps % row_groups == 0 and (row_groups == 1 or prefetch <= 1)
        self.rg, self.kw = row_groups, warps // row_groups
        self.rt_cta = row_tiles * row_groups
        self.steps = (k + STEP - 1) // STEP
        # splits > 1 (``NVFP4GemmSmallMSplitK``): grid z takes consecutive K steps
        assert 1 <= splits <= self.steps
        self.splits = splits
        self.split_steps = (self.steps + splits - 1) // splits
        self.steps_per_warp = warp_steps(k, splits, self.kw)
        self.k_tail = k % STEP != 0
        self.acc_per_lane = row_tiles * token_tiles * 4
        self.x_words = 8 if a_fp4 else 32  # a lane's 64 activations: fp4 codes or bf16
        # the MMA products carry 2^-8 per fp4 operand (``_decode_fp4_block``); the sums are
        # multiplied back before the epilogue
        self.sum_scale = float(2 ** (-FP4_OPERAND_POW2 * (2 if a_fp4 else 1)))
        if lane_columns:  # the products carry 2^(64 - 126) (LANE_COLUMNS_POW2)
            self.sum_scale = LANE_SUM_SCALE
        # x_tokens > 0: the CTA decodes the activations of its first x_tokens tokens
        # once into shared memory, in MMA-operand order; the main loop then reads them with two
        # 16-byte loads per block instead of loading and decoding them per warp and step.
        self.x_tokens = x_tokens
        # a CTA stages its own split's steps; +16 bytes: token rows on other banks
        self.x_token_words = self.split_steps * 16 * 8 + 4
        # prefetch >= 2: a lane's raw step in the shared-memory ring, as 16-byte chunks of codes
        # (two per weight row, per fp4 token; eight per bf16 token) and 4-byte scale words.
        x_loaded = 0 if x_tokens else token_tiles
        self.ring_slots = prefetch if prefetch >= 2 else 0
        self.ring_chunks = 4 * row_tiles + x_loaded * self.x_words // 4
        self.ring_scales = 2 * row_tiles + (x_loaded if a_fp4 else 0)
        self._choose_launch(n, a_fp4, row_tiles, warps, prefetch, x_tokens, splits,
                            self.steps_per_warp, self.acc_per_lane, row_groups)
        if lane_columns:  # the scales are converted in registers, not looked up
            self.scale_table = False
        if self.PROBE_MAX_STEPS is not None:  # after the rules: the same launch, less loop
            self.steps_per_warp = min(self.steps_per_warp, self.PROBE_MAX_STEPS)
        self.smem_bytes = self._capped_smem(self._smem_used())
        if self.smem_bytes > SMEM_LIMIT:
            raise ValueError(f"small-M config (row_tiles={row_tiles}, token_tiles={token_tiles}, "
                             f"warps={warps}, prefetch={prefetch}) needs {self.smem_bytes} bytes "
                             f"of shared memory at K={k}, more than {SMEM_LIMIT}")

    def _smem_used(self) -> int:
        """Shared memory bytes the config's kernel allocates (staged activations, zero step,
        scale table, cp.async ring, the warps' sums), from its launch rules."""
        return (self.x_tokens * self.x_token_words * 4 + 128
                + (4 * X_ZERO_WORDS if self.lean_staged else 0)
                + (4 * 256 + 16 if self.scale_table else 0)  # _scale_table
                + self.ring_slots * self.warps * 32 * (16 * self.ring_chunks
                                                       + 4 * self.ring_scales)
                + (256 if self.ring_slots else 0)
                + (self.warps * 32 * self.acc_per_lane * 4 + 128 if self.warps > 1 else 0)
                + (self.staging_scratch_bytes() if self.small_m_under_staging() else 0)
                + self.epilogue_table_bytes())

    def small_m_under_staging(self) -> bool:
        """Whether ``kernel`` loads each warp's second step under the staging (the comment on
        ``UNDER_STAGING``): staged activations in one pass, the register double buffer's
        plain loop, on ``UNDER_STAGING_MIN_ROW_GROUPS`` row groups or forced."""
        wanted = self.UNDER_STAGING or self.rg >= self.UNDER_STAGING_MIN_ROW_GROUPS
        return bool(wanted and self.x_tokens and self.prefetch == 1
                    and not self.paired_steps and self.staging_in_one_pass())

    def staging_in_one_pass(self) -> bool:
        """Whether the token staging takes one pass (every block's loads out together): what
        loading a step under it (``_stage_around``) needs."""
        return self.x_tokens * self.split_steps * 16 <= STAGING_BATCH * self.cta_threads()

    def staging_scratch_bytes(self) -> int:
        """Shared memory of ``_stage_around``'s scratch words: 8 a warp, and the alignment."""
        return self.cta_threads() + 16

    def epilogue_table(self, scalars, tid):
        """``scalars`` with what the epilogue looks up appended, filled by the CTA's threads
        ``tid`` after the PDL wait and ordered before the epilogue by the CTA's next barrier (the
        fused op's out_scale table, ``NVFP4GemmSwigluQuantSmallM.epilogue_table``); the plain
        GEMM's: nothing."""
        return scalars

    def epilogue_table_bytes(self) -> int:
        """Shared memory ``epilogue_table`` allocates."""
        return 0

    def _capped_smem(self, used: int) -> int:
        """The launch's shared memory: ``used``, or with ``ctas_cap`` so much that one more CTA
        (1 KB reserved each) lacks room."""
        if self.ctas_cap:
            return max(used, SMEM_PER_SM // (self.ctas_cap + 1) - 1024 + 16)
        return used

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mD: cute.Tensor, stream):
        self._launch(mA, mASF, mB, mBSF, (mAlpha,), (mD,), stream)

    @cute.jit
    def _launch(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                scalars, outs, stream):
        """``scalars``: one-element fp32 tensors, alpha first; ``outs``: what ``epilogue``
        writes, ``outs[0]`` with M rows. Tuples, so a subclass's epilogue can take more of
        both without touching the main loop."""
        m = outs[0].shape[0]
        rows_per_cta = 16 * self.rt_cta
        tokens_per_cta = 8 * self.jt
        self.kernel(mA, mASF, mB, mBSF, scalars, outs).launch(
            grid=((m + tokens_per_cta - 1) // tokens_per_cta,
                  (self.n + rows_per_cta - 1) // rows_per_cta, self.splits),
            block=(32 * self.warps, 1, 1), smem=self.smem_bytes, stream=stream,
            use_pdl=self.pdl, min_blocks_per_mp=self.min_ctas,
            preferred_smem_carveout=self._carveout())

    def _carveout(self):
        """The shared-memory carveout (percent) for the CTAs per SM the config wants, or None.
        With min_ctas the DSL would ask the device for it (compile-only has none); with
        ``ctas_cap`` a smaller default could leave room for fewer CTAs."""
        ctas = self.ctas_cap or self.min_ctas
        if ctas < 2:
            return None
        return -(-100 * ctas * (self.smem_bytes + 1024) // SMEM_PER_SM)

    def tile_row(self, block, t: int):
        """First weight row of row tile ``t`` in row block ``block`` (grid y); called while
        tracing. Here the tiles of a block are consecutive; the fused SwiGLU kernel maps them
        to its up and gate rows instead."""
        return block * (16 * self.rt_cta) + t * 16

    def warp_tile_row(self, block, group, t: int):
        """First weight row of the warp's own row tile ``t`` (of ``row_tiles``) in its row
        group ``group`` (0, a Python int, without row groups)."""
        return self.tile_row(block, t if self.rg == 1 else group * self.rt + t)

    # ---------------------------------------------------------------- loads (raw registers)
    def row_offsets(self):
        """Per weight row ``t`` of a thread (row tile ``t // 2``, row ``g + 8 (t % 2)``): the
        byte offsets of its codes and of its scales from those of the thread's first row, where
        both are the same in every row block and every row exists; else None. Then the loads
        take one base address per thread and fold the offsets into their instructions, with no
        clamp: the row addresses no longer cost ~60 instructions per step (H200 SASS,
        7168x18432). Host arithmetic, cached (evaluated while tracing)."""
        if not hasattr(self, "_row_offsets"):
            self._row_offsets = self._fixed_row_offsets()
        return self._row_offsets

    def _fixed_row_offsets(self):
        blocks = -(-self.n // (16 * self.rt_cta))
        rows = [[self.warp_tile_row(b, gr, t // 2) + (t % 2) * 8 for t in range(2 * self.rt)]
                for b in range(blocks) for gr in range(self.rg)]
        if max(max(r) for r in rows) + 7 >= self.n:
            return None
        deltas = [rows[0][t] - rows[0][0] for t in range(2 * self.rt)]
        if any(r[t] - r[0] != deltas[t] for r in rows for t in range(2 * self.rt)):
            return None
        offsets = []
        for t, d in enumerate(deltas):
            sf = {sf_byte_offset(r[0] + d + g, 0, self.kb_padded)
                  - sf_byte_offset(r[0] + g, 0, self.kb_padded) for r in rows for g in range(8)}
            if len(sf) != 1:
                return None
            dq = d * (self.k // 2)
            if self.PROBE_TILED_CODES:
                dq = d // 16 * 16 * (self.k // 2) + d % 16 * 128
            offsets.append((dq, sf.pop()))
        return tuple(offsets)

    @cute.jit
    def _row_bases(self, mB, mBSF, b_sf_layout, block, g, group=0):
        """(codes, scales) byte addresses of the thread's first weight row at K = 0
        (``row_offsets``)."""
        row0 = self.warp_tile_row(block, group, 0) + g
        codes = cutlass.Int64(row0) * (self.k // 2)
        if cutlass.const_expr(self.PROBE_TILED_CODES):
            codes = cutlass.Int64(row0 // 16) * (8 * self.k) + (row0 % 16) * 128
        return (mB.iterator.toint() + codes,
                mBSF.iterator.toint() + cutlass.Int64(cute.crd2idx((row0, 0), b_sf_layout)))

    @cute.jit
    def _load_weights_at(self, bases, col, bq, bs, scale_dtype):
        """The step's weight codes and scales from the per-thread bases (``row_offsets``):
        32 code bytes of a row at ``col`` are 32 col bytes on, its 4 scales 512 col bytes."""
        qcol = bases[0] + cutlass.Int64(col) * 32
        if cutlass.const_expr(self.PROBE_TILED_CODES):  # 2 KB a step, 32 bytes a lane quad
            qcol = bases[0] + cutlass.Int64(col // 4) * 2048 + (col % 4) * 32
        scol = bases[1] + cutlass.Int64(col) * 512
        for t, (dq, ds) in enumerate(self.row_offsets()):
            q = cute.make_ptr(cutlass.Int32, qcol + dq, cute.AddressSpace.gmem, assumed_align=16)
            cute.autovec_copy(cute.make_tensor(q, cute.make_layout(8)), bq[t, None])
            sp = cute.make_ptr(scale_dtype, scol + ds, cute.AddressSpace.gmem, assumed_align=4)
            cute.autovec_copy(cute.make_tensor(sp, cute.make_layout(4)), bs[t, None])

    @cute.jit
    def _load_codes_and_scales(self, mQ, sf_layout, mSF, row, col, rQ, rS):
        """32 bytes of codes (8 words) and the 4 scales of one row's 64-element lane slice."""
        cute.autovec_copy(cute.local_tile(mQ, (1, 8), (row, col))[0, None], rQ)
        off = cute.crd2idx((row, col * 4), sf_layout)  # 4 scales, contiguous and aligned
        cute.autovec_copy(cute.local_tile(mSF, (4,), (off // 4,)), rS)

    @cute.jit
    def _load_step(self, mA, mASF, mB, mBSF, a_sf_layout, b_sf_layout, step, g, lane_q,
                   block, tok0, m, buf, weights: bool = True, acts: bool = True, bases=None,
                   group=0):
        """Every load of one K step into the registers of ``buf``, nothing else (only the
        weights' or only the activations' with ``acts`` / ``weights`` False). ``bases``: the
        thread's ``_row_bases`` where ``row_offsets`` holds; ``group``: the warp's row group."""
        bq, bs, xq, xs = buf
        col = step * 4 + lane_q
        # Lanes past K read any slice (a K tail); without one the clamp is dead code, dropped
        # where that measured faster (register path M = 8, H200 2026-11-30, ``ab_loop.sh``:
        # 36864x7168 49.8 -> 45.6 us, 9216x7168 18.8 -> 16.6, 5120x17408 23.0 -> 22.0).
        if cutlass.const_expr(self.k_tail or (self.x_tokens and not self.lean_staged)):
            col = cutlass.min(col, self.k // K_ALIGN - 1)
        if cutlass.const_expr(weights and bases is not None):
            self._load_weights_at(bases, col, bq, bs, mBSF.element_type)
        for t in cutlass.range_constexpr(2 * self.rt if weights and bases is None else 0):
            row = cutlass.min(self.warp_tile_row(block, group, t // 2) + (t % 2) * 8 + g,
                              self.n - 1)
            self._load_codes_and_scales(mB, b_sf_layout, mBSF, row, col, bq[t, None],
                                        bs[t, None])
        for j in cutlass.range_constexpr(0 if self.x_tokens or not acts else self.jt):
            tok = cutlass.min(tok0 + j * 8 + g, m - 1)
            if cutlass.const_expr(self.a_fp4):
                self._load_codes_and_scales(mA, a_sf_layout, mASF, tok, col, xq[j, None],
                                            xs[j, None])
            else:
                cute.autovec_copy(cute.local_tile(mA, (1, 32), (tok, col))[0, None],
                                  xq[j, None])

    # ---------------------------------------------------------------- decode to MMA operands
    @cute.jit
    def _decode_fp4_block(self, rQ, rS, b: int, live, activations: bool, out, table=None):
        """The 8 bf16x2 pairs of scale block ``b`` (words 2b, 2b+1; out[4 w + r]): e2m1 * scale
        * 2^-8, one multiply by the splat of ``scale * 2^118`` (``device_mma.SPLAT_POW2``;
        ``sum_scale`` takes the factor off the sums). ``live`` is an all-ones or all-zero
        mask: lanes past K contribute exact zeros."""
        if cutlass.const_expr(table is not None):  # the splat of the scale byte, looked up
            s = table[cutlass.Int32(byte_of(cute.recast_tensor(rS, cutlass.Uint32)[0],
                                            0x4440 + b))] & live
        else:
            s = bf16x2_splat(rS[b].to(cutlass.Float32) * cutlass.Float32(SPLAT_FACTOR)) & live
        # permuted words are the weights' only (the activations never come permuted)
        self._raw_fp4_block(rQ, b, live, out, self.permuted and not activations, s)

    @cute.jit
    def _raw_fp4_block(self, rQ, b: int, live, out, permuted: bool, splat=None):
        """The 8 pairs of block ``b`` raw (``e2m1 * 2^-126``; zero past K), in the order the
        MMA operands take them: ``permuted`` words (``e2m1x2_permuted``) or standard ones;
        each times ``splat`` where given (``_decode_fp4_block``; lane columns take them raw)."""
        for w in cutlass.range_constexpr(2):
            word = cutlass.Uint32(rQ[2 * b + w]) & live
            shifted = word >> cutlass.Uint32(STANDARD_HIGH_SHIFT)
            for r in cutlass.range_constexpr(4):
                if cutlass.const_expr(permuted):
                    raw = e2m1x2_permuted(word, r)
                else:
                    raw = e2m1x2_by_multiply(word, shifted, r)
                if cutlass.const_expr(splat is not None):
                    raw = mul_bf16x2(raw, splat)
                out[4 * w + r] = raw

    @cute.jit
    def _lane_step_scales(self, bs, live):
        """Lane columns: each weight row's 4 block scales of the step as fp32 (two e4m3x2
        conversions a row, then one widening each; zero past K): ``[row][block]``."""
        scales = []
        for t in cutlass.range_constexpr(2 * self.rt):
            values = bs[t, None].load().to(cutlass.Float32)
            row = []
            for b in cutlass.range_constexpr(4):
                v = values[b]
                if cutlass.const_expr(self.k_tail):
                    v = (v.bitcast(cutlass.Uint32) & live).bitcast(cutlass.Float32)
                row.append(v)
            scales.append(row)
        return scales

    @cute.jit
    def _pairs_bf16_block(self, rX, b: int, live, out):
        """The same 8 pairs from bf16 activations (words 8b .. 8b + 7), as they are."""
        for w in cutlass.range_constexpr(2):
            for r in cutlass.range_constexpr(4):
                lo = cutlass.Uint32(rX[8 * b + 4 * w + r // 2])
                hi = cutlass.Uint32(rX[8 * b + 4 * w + r // 2 + 2])
                out[4 * w + r] = bf16_pair(lo, hi, r) & live

    @cute.jit
    def _compute_step(self, buf, step, lane_q, acc, wp, xp, sX, g, x_step):
        """Decode one step's registers block by block and run its MMAs (``x_step``: the
        step's index in the staged activations, counted from the CTA's first step)."""
        bq, bs, xq, xs = buf
        live = cutlass.Uint32(0xFFFFFFFF)
        if cutlass.const_expr(self.k_tail):
            live = cutlass.Uint32(0) - cutlass.Uint32(step * STEP + lane_q * K_ALIGN < self.k)
        table = sX[1] if self.scale_table else None
        lane_scales = self._lane_step_scales(bs, live) if self.lane_columns else None
        for b in cutlass.range_constexpr(4):
            for j in cutlass.range_constexpr(self.jt):
                if cutlass.const_expr(self.x_tokens and not self.lean_staged):
                    xp[j, None].fill(0)
                    tok, live_tok = self._lane_token(j, g, lane_q)
                    if live_tok:
                        cute.autovec_copy(sX[0][tok, x_step, b, lane_q, None], xp[j, None])
                elif cutlass.const_expr(self.x_tokens):
                    base, stride = sX[0][j]
                    p = cute.make_ptr(cutlass.Uint32, base + x_step * stride,
                                      cute.AddressSpace.smem, assumed_align=16)
                    cute.autovec_copy(cute.make_tensor(p + b * 32, cute.make_layout(8)),
                                      xp[j, None])
                elif cutlass.const_expr(self.a_fp4):
                    self._decode_fp4_block(xq[j, None], xs[j, None], b, live, True, xp[j, None],
                                           table)
                else:
                    self._pairs_bf16_block(xq[j, None], b, live, xp[j, None])
            for t in cutlass.range_constexpr(self.rt if self.lane_columns else 0):
                self._lane_columns_block(bq, b, t, live, acc, wp, xp, lane_scales)
            for t in cutlass.range_constexpr(0 if self.lane_columns else self.rt):
                self._decode_fp4_block(bq[2 * t, None], bs[2 * t, None], b, live, False,
                                       wp[0, None], table)
                self._decode_fp4_block(bq[2 * t + 1, None], bs[2 * t + 1, None], b, live, False,
                                       wp[1, None], table)
                for j in cutlass.range_constexpr(self.jt):
                    for kk in cutlass.range_constexpr(4):
                        d = mma_bf16_m16n8k16(
                            (wp[0, 2 * kk], wp[1, 2 * kk], wp[0, 2 * kk + 1], wp[1, 2 * kk + 1]),
                            (xp[j, 2 * kk], xp[j, 2 * kk + 1]),
                            (acc[t, j, 0], acc[t, j, 1], acc[t, j, 2], acc[t, j, 3]))
                        for e in cutlass.range_constexpr(4):
                            acc[t, j, e] = d[e]

    @cute.jit
    def _lane_columns_block(self, bq, b: int, t: int, live, acc, wp, xp, lane_scales):
        """Lane columns (the module docstring): row tile ``t``'s four MMAs of block ``b`` on
        the raw decode, from zero, then each row's sums of this lane's column(s) into ``acc``
        times the block's scale (rows g, g + 8: ``acc[t, 0, 0 | 1]``, ``acc[t, 0, 2 | 3]``;
        ``lane_scales``: ``_lane_step_scales``')."""
        self._raw_fp4_block(bq[2 * t, None], b, live, wp[0, None], self.permuted)
        self._raw_fp4_block(bq[2 * t + 1, None], b, live, wp[1, None], self.permuted)
        zero = cutlass.Float32(0.0)
        part = (zero, zero, zero, zero)
        for kk in cutlass.range_constexpr(4):
            part = mma_bf16_m16n8k16(
                (wp[0, 2 * kk], wp[1, 2 * kk], wp[0, 2 * kk + 1], wp[1, 2 * kk + 1]),
                (xp[0, 2 * kk], xp[0, 2 * kk + 1]), part)
        for e in cutlass.range_constexpr(4):
            if cutlass.const_expr(e % 2 < self.x_tokens):  # column 2 q + 1: the second token
                acc[t, 0, e] = cute.math.fma(part[e], lane_scales[2 * t + e // 2][b],
                                             acc[t, 0, e])

    @cute.jit
    def _fold_lane_columns(self, acc, lane_q):
        """Lane columns: the quad's partial sums added (lanes q = 0..3, in a fixed order), left
        in lane q = 0 with the others' zeroed: the sums the ordinary loop leaves (tokens at
        ``2 lane_q + e % 2``). All lanes of the warp take part."""
        if cutlass.const_expr(self.lane_columns):
            for i in cutlass.range_constexpr(cute.size(acc)):
                v = acc[i] + cute.arch.shuffle_sync_bfly(acc[i], offset=1)
                v = v + cute.arch.shuffle_sync_bfly(v, offset=2)
                acc[i] = cutlass.select_(lane_q == 0, v, cutlass.Float32(0.0))

    # ---------------------------------------------------------------- kernel
    @cute.kernel
    def kernel(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
               scalars, outs):
        bx, by, bz = cute.arch.block_idx()
        warp = cute.arch.warp_idx()
        lane = cute.arch.lane_idx()
        # row_groups: the warp's row group and its place among that group's warps on K
        group, kwarp = 0, warp
        if cutlass.const_expr(self.rg > 1):
            group = warp // self.kw
            kwarp = warp - group * self.kw
        g = lane // 4
        lane_q = lane - g * 4
        m = outs[0].shape[0]
        tok0 = bx * (8 * self.jt)
        b_sf_layout = sf_tiled_layout((self.n + 127) // 128 * 128, self.kb_padded)
        a_sf_layout = b_sf_layout
        if cutlass.const_expr(self.a_fp4):
            a_sf_layout = sf_tiled_layout((m + 127) // 128 * 128, self.kb_padded)

        def regs(shape, dtype):  # last mode contiguous, so each slice is one vector load
            return cute.make_rmem_tensor(cute.make_ordered_layout(shape, order=(1, 0)), dtype)

        bufs = [(regs((2 * self.rt, 8), cutlass.Int32), regs((2 * self.rt, 4), mBSF.element_type),
                 regs((self.jt, self.x_words), cutlass.Int32),
                 regs((self.jt, 4), mBSF.element_type))
                for _ in range(2 if self.prefetch == 1 else 1)]
        loader = (mA, mASF, mB, mBSF, a_sf_layout, b_sf_layout)
        where = (g, lane_q, by, tok0, m)
        # this CTA's K steps: [step0, end); the warp's are step0 + kwarp + i * kw
        step0, end = 0, self.steps
        if cutlass.const_expr(self.splits > 1):
            step0 = bz * self.split_steps
            end = cutlass.min(step0 + self.split_steps, self.steps)
        span = (step0, end)
        # The first step's weight loads go out before the activations are staged: a CTA's
        # start then costs one memory round trip, not the staging's plus the first step's
        # (H200, 36864x7168 M = 1: 51.0 -> 46.7 us with the batched staging below; loading
        # the second buffer up front too measured slower again, 52.7 in the suite).
        # PDL: nothing is read before the previous kernel has finished (its writes are visible
        # only after griddepcontrol.wait), except, with PDL_LOAD_BEFORE_WAIT, the first step's
        # weights: the activations are that kernel's output, the weights are not.
        if cutlass.const_expr(self.pdl and self.pdl_trigger == "start"):
            cute.arch.griddepcontrol_launch_dependents()
        early = self.pdl and self.pdl_load_early
        if cutlass.const_expr(not early):
            self._wait_for_inputs()
        ring = None
        bases = None
        if cutlass.const_expr(self.lean_staged and self.row_offsets() is not None):
            bases = self._row_bases(mB, mBSF, b_sf_layout, by, g, group)
        first = cutlass.min(step0 + kwarp, self.steps - 1)
        # the register path's scale table filled while the previous kernel may still run
        # (``TABLE_BEFORE_WAIT``): it depends on nothing that kernel writes
        table_first = early and self.TABLE_BEFORE_WAIT and self.scale_table and not self.x_tokens
        sX = None
        if cutlass.const_expr(self.prefetch >= 2):
            ring = self._ring_prologue(loader, where, span, warp, lane)
        elif cutlass.const_expr(early):
            self._load_step(*loader, first, *where, bufs[0], acts=False, bases=bases,
                            group=group)
            if cutlass.const_expr(table_first):
                sX = (None, self._scale_table(SmemAllocator()))
                cute.arch.sync_threads()
            self._wait_for_inputs()
            self._load_step(*loader, first, *where, bufs[0], weights=False)
        elif cutlass.const_expr(self.prefetch):
            self._load_step(*loader, first, *where, bufs[0], bases=bases, group=group)
        # (the staged activations or, with ``lean_staged``, each token tile's view of them;
        # the scale table), for ``_compute_step``
        under = self.small_m_under_staging()
        if cutlass.const_expr(self.x_tokens):
            second = None  # (``under``: the warp's second step, into the buffer's other half)
            if cutlass.const_expr(under):
                second = functools.partial(self._load_step_if, loader, first + self.kw, end,
                                           where, bufs[1], bases, group)
            sX, sXw, table = self._stage_activations(mA, mASF, a_sf_layout, m, tok0, step0,
                                                     second)
            sX = (self._staged_views(sXw, g, lane_q) if self.lean_staged else sX, table)
        elif cutlass.const_expr(self.scale_table and not table_first):
            sX = (None, self._scale_table(SmemAllocator()))
            cute.arch.sync_threads()
        scalars = self.epilogue_table(scalars, cute.arch.thread_idx()[0])  # (after the wait)
        acc = cute.make_rmem_tensor((self.rt, self.jt, 4), cutlass.Float32)
        acc.fill(0.0)
        wp = cute.make_rmem_tensor((2, 8), cutlass.Uint32)        # one block, rows g and g+8
        xp = cute.make_rmem_tensor((self.jt, 8), cutlass.Uint32)  # one block per token tile
        if cutlass.const_expr(self.prefetch >= 2):
            self._ring_loop(loader, where, span, ring, bufs[0], warp, lane, lane_q, acc, wp, xp,
                            sX, g)
        elif cutlass.const_expr(self.prefetch):
            # Register double buffering: step i + 1 is in flight while step i is decoded.
            if cutlass.const_expr(self.paired_steps):
                # two steps per iteration, the buffers trading roles: no copy between them
                for i in cutlass.range((self.steps_per_warp + 1) // 2, unroll=1):
                    for h in cutlass.range_constexpr(2):
                        cur, nxt = bufs[h], bufs[1 - h]
                        step = step0 + kwarp + (2 * i + h) * self.kw
                        if step + self.kw < end:
                            self._load_step(*loader, step + self.kw, *where, nxt,
                                            bases=bases, group=group)
                        # ptxas moves no memory operation across a barrier: the loads stay
                        # at the top of the step instead of sinking into its decode
                        cute.arch.sync_warp()
                        if step < end:
                            self._compute_step(cur, step, lane_q, acc, wp, xp, sX, g,
                                               step - step0)
            else:
                cur, nxt = bufs
                for i in cutlass.range(self.steps_per_warp, unroll=1):
                    step = step0 + kwarp + i * self.kw
                    load_next = step + self.kw < end
                    if cutlass.const_expr(under):  # (the second step came under the staging)
                        load_next = load_next & (i >= 1)
                    if load_next:
                        self._load_step(*loader, step + self.kw, *where, nxt, bases=bases,
                                        group=group)
                    if step < end:
                        self._compute_step(cur, step, lane_q, acc, wp, xp, sX, g, step - step0)
                    for src, dst in zip(nxt, cur):
                        dst.store(src.load())
        else:
            for i in cutlass.range(self.steps_per_warp, unroll=1):
                step = step0 + kwarp + i * self.kw
                if step < end:
                    self._load_step(*loader, step, *where, bufs[0], bases=bases, group=group)
                    self._compute_step(bufs[0], step, lane_q, acc, wp, xp, sX, g, step - step0)

        # PDL ("loop"): the next kernel may launch once every CTA is past its main loop.
        if cutlass.const_expr(self.pdl and self.pdl_trigger == "loop"):
            cute.arch.griddepcontrol_launch_dependents()
        if cutlass.const_expr(self.warps > 1):
            acc = self._reduce_across_warps(acc, warp, lane)
        if warp == 0:
            self._fold_lane_columns(acc, lane_q)
            for i in cutlass.range_constexpr(cute.size(acc)):  # exact: a power of two
                acc[i] = acc[i] * cutlass.Float32(self.sum_scale)
            self.epilogue(acc, scalars, outs, by, tok0, g, lane_q, m)

    @cute.jit
    def _load_step_if(self, loader, step, end, where, buf, bases, group):
        """``_load_step`` of ``step`` into ``buf`` where it is one of the CTA's (< ``end``)."""
        if step < end:
            self._load_step(*loader, step, *where, buf, bases=bases, group=group)

    def _wait_for_inputs(self):
        """PDL: block until the previous kernel on the stream has finished and its writes are
        visible (a no-op without a programmatic dependency)."""
        if cutlass.const_expr(self.pdl):
            cute.arch.griddepcontrol_wait()

    @cute.jit
    def _scale_table(self, smem):
        """``scale_table``: the bf16x2 splat of ``e4m3(byte) * 2^118`` for all 256 scale bytes in
        shared memory (the caller's barrier follows: the staging's, or the register path's own),
        so a block's scale is one byte extraction and one shared load instead of five
        instructions."""
        table = smem.allocate_tensor(cutlass.Uint32, cute.make_layout(256), byte_alignment=16)
        tid = cute.arch.thread_idx()[0]
        half = 128
        for base in cutlass.range_constexpr(0, half, 32 * self.warps):
            code = base + tid
            if code < half:
                sf = e4m3x2_to_f32(code, code + half)  # byte `code` and its negative twin
                for j in cutlass.range_constexpr(2):
                    # as _decode_fp4_block forms it from a loaded scale
                    table[code + j * half] = bf16x2_splat(sf[j] * cutlass.Float32(SPLAT_FACTOR))
        return table

    def _lane_token(self, j, g, lane_q):
        """(staged token, whether there is one) of token lane ``g`` (the MMA's column) of
        token tile ``j`` for lane quad position ``lane_q``: token ``8 j + g``, or with lane
        columns token ``g - 2 lane_q`` on lane q's own K slots (the module docstring)."""
        if cutlass.const_expr(self.lane_columns):
            tok = g - 2 * lane_q
            return tok, (tok >= 0) & (tok < self.x_tokens)
        return j * 8 + g, j * 8 + g < self.x_tokens

    @cute.jit
    def epilogue(self, acc, scalars, outs, block, tok0, g, lane_q, m):
        """Warp 0, after the reduction: ``acc[t, j, e]`` is the full dot product of weight row
        ``tile_row(block, t) + g + 8 (e // 2)`` and token ``tok0 + 8 j + 2 lane_q + e % 2``.
        Here: ``D[token, row] = alpha * acc``, cast to the output dtype."""
        mD = outs[0]
        alpha = scalars[0][0]
        for t in cutlass.range_constexpr(self.rt_cta):
            for j in cutlass.range_constexpr(self.jt):
                for e in cutlass.range_constexpr(4):
                    row = self.tile_row(block, t) + g + (e // 2) * 8
                    tok = tok0 + j * 8 + lane_q * 2 + e % 2
                    if row < self.n and tok < m:
                        mD[tok, row] = (acc[t, j, e] * alpha).to(self.out_dtype)

    def cta_threads(self) -> int:
        """Threads of a CTA (they all stage the activations): its warps'; a subclass with
        warps of other jobs counts those too."""
        return 32 * self.warps

    def _warps_sync(self):
        """The barrier of ``_reduce_across_warps``: the whole CTA here; a subclass whose CTA
        has warps of other jobs holds only the K warps (a named barrier)."""
        cute.arch.sync_threads()

    @cute.jit
    def _reduce_across_warps(self, acc, warp, lane):
        """Warps 1.. write their partial sums to shared memory; warp 0 adds them. Returns the
        CTA's sums (valid in warp 0): ``acc`` itself, or with row groups a [row_tiles *
        row_groups, token_tiles, 4] tensor, group ``r``'s tiles at ``r * row_tiles ..``, each
        the sum of its group's warps in the order of one group's (so the sums equal those of
        one warp on all the tiles)."""
        smem = SmemAllocator()
        sAcc = smem.allocate_tensor(
            cutlass.Float32,
            cute.make_layout((self.warps, 32, self.acc_per_lane),
                             stride=(32 * self.acc_per_lane, 1, 32)),
            byte_alignment=16)
        if warp > 0:
            for i in cutlass.range_constexpr(self.acc_per_lane):
                sAcc[warp, lane, i] = acc[i // (4 * self.jt), (i // 4) % self.jt, i % 4]
        self._warps_sync()
        sums = acc
        if cutlass.const_expr(self.rg > 1):
            sums = cute.make_rmem_tensor((self.rt_cta, self.jt, 4), cutlass.Float32)
        if warp == 0:
            if cutlass.const_expr(self.rg == 1):
                for w in cutlass.range_constexpr(1, self.warps):
                    for i in cutlass.range_constexpr(self.acc_per_lane):
                        t, j, e = i // (4 * self.jt), (i // 4) % self.jt, i % 4
                        acc[t, j, e] = acc[t, j, e] + sAcc[w, lane, i]
            else:
                for r in cutlass.range_constexpr(self.rg):
                    for i in cutlass.range_constexpr(self.acc_per_lane):
                        t, j, e = i // (4 * self.jt), (i // 4) % self.jt, i % 4
                        first = r * self.kw
                        if cutlass.const_expr(r == 0):
                            total = acc[t, j, e]
                        else:
                            total = sAcc[first, lane, i]
                        for w in cutlass.range_constexpr(first + 1, first + self.kw):
                            total = total + sAcc[w, lane, i]
                        sums[r * self.rt + t, j, e] = total
        return sums


def fake_operands(n: int, k: int, a_fp4: bool):
    """(M, a, a_sf, b, b_sf, alpha): the fake input tensors of a small-M kernel with static N
    and K and a dynamic M (``sym_int``), as the compiled functions take them (int32 words)."""
    m = cute.sym_int()
    words = k // 8 if a_fp4 else k // 2
    a = make_fake_compact_tensor(cutlass.Int32, (m, words), stride_order=(1, 0), assumed_align=16)
    a_sf = make_fake_compact_tensor(cutlass.Float8E4M3FN, (cute.sym_int(),), assumed_align=16)
    b = make_fake_compact_tensor(cutlass.Int32, (n, k // 8), stride_order=(1, 0),
                                 assumed_align=16)
    b_sf = make_fake_compact_tensor(cutlass.Float8E4M3FN, (cute.sym_int(),), assumed_align=16)
    alpha = make_fake_compact_tensor(cutlass.Float32, (1,))
    return m, a, a_sf, b, b_sf, alpha


@jit.cached
def compile_nvfp4_gemm_small_m(n: int, k: int, a_dtype: str, out_dtype: str,
                               row_tiles: int = 1, token_tiles: int = 1, warps: int = 4,
                               prefetch: int = 1, x_tokens: int = 0, permuted: bool = False,
                               row_groups: int = 1, lane_columns: bool = False):
    """Static N, K and tile config; M dynamic. ``a_dtype`` "fp4" (packed activations with
    swizzled scales) or "torch.bfloat16" (W4A16); ``permuted``: weights in ``permuted_fp4``'s
    layout; ``row_groups``, ``lane_columns``: ``NVFP4GemmSmallM``'s."""
    a_fp4 = a_dtype == "fp4"
    cout = torch_to_cutlass(out_dtype)
    m, a, a_sf, b, b_sf, alpha = fake_operands(n, k, a_fp4)
    d = make_fake_compact_tensor(cout, (m, n), stride_order=(1, 0), assumed_align=16)
    kernel = NVFP4GemmSmallM(n, k, a_fp4, cout, row_tiles, token_tiles, warps, prefetch,
                             x_tokens, permuted=permuted, row_groups=row_groups,
                             lane_columns=lane_columns)
    return cute.compile(kernel, a, a_sf, b, b_sf, alpha, d,
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())
