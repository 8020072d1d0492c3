"""The one-token GEMM (M = 1) on a grid that fills every SM alike: whole row blocks for the
data-parallel part, the blocks left over cut into K pieces spread over every CTA.

Why. The one-token kernel (``nvfp4_gemm_small_m``, one staged token, a 16-row block a CTA) runs
one wave of N / 16 CTAs. Where that is not a multiple of the SMs, some SMs hold one CTA more
than others: 9216x7168 is 576 CTAs on 132 SMs, 48 SMs with five and 84 with four. Session 42's
balance probe (H200, M = 1, 8448 / 9216 / 10560 rows: 4 / 4.36 / 5 CTAs an SM) read 11.60 /
12.80 / 13.70 us, where a straight line through the whole waves puts 9216 rows at ~12.36: the
uneven wave costs ~0.45 us, most of issue 5's gap at that point (11.67 us is 75%). A K split
instead (5120x17408's three) pays its fix-up at the end of every CTA (the probe's loop capped
at 0 steps: 7.32 us there against 3.21 at 9216x7168).

How. ``ctas`` CTAs (a whole number an SM, capped there by shared memory), with ``blocks`` row
blocks where ctas <= blocks < 2 ctas:

- CTA c works row block c on all of K (its K warps taking every ``warps``-th step, as in the
  one-token kernel): the data-parallel part, the same on every SM.
- The ``blocks - ctas`` blocks left over ("remainder blocks") are cut along K into pieces,
  one a CTA: remainder block e goes to CTAs ceil(e G / R) .. ceil((e + 1) G / R) - 1
  (G = ctas, R = remainder blocks), each a contiguous run of its K steps.
- A warp streams its piece steps first, then its data-parallel steps, through the same
  register double buffer: the piece's first loads go out before the wait on the previous
  kernel (as the first step's do in the one-token kernel), its last iteration loads the
  first data-parallel step. Between the two loops the warp hands its piece sums to shared
  memory and arrives at a named barrier without waiting. (One loop over both, choosing the
  bases each step, had ptxas recompute the bases in the loop: ~30 more instructions a step.)
- One more warp a CTA (the fix-up warp) waits at that barrier, adds the K warps' piece sums,
  and meets the block's other pieces through ``meet_partials`` (workspace, fence, arrival
  counter; the last arrival adds the pieces in order and writes the block). It does no
  streaming, so the fix-up's round trips overlap the K warps' data-parallel steps instead of
  following them.

Each remainder block's sum is the pieces' sums in piece order, each piece's the K warps' in
warp order: deterministic, though added in another order than the one-token kernel's.
"""

from __future__ import annotations

import functools

import cutlass
import cutlass.cute as cute
import torch
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream
from cutlass.memory import SmemAllocator

from layouts import sf_tiled_layout

from . import jit, probe_stamps
from .arch import compile_options, pdl_enabled, sm_count
from .arrival_counters import arrival_counters
from .dtypes import torch_to_cutlass
from .nvfp4_gemm_small_m import STEP, NVFP4GemmSmallM, fake_operands, lane_columns_route
from .nvfp4_gemm_small_m_split import NVFP4GemmSmallMSplitK, fake_split_buffers, meet_partials
from .permuted_fp4 import weight_dims
from .probe_stamps import stamp
from .small_m_ring import ring_copies

# The public ops at one NVFP4 token on permuted words take the balanced launch where
# ``one_token_balanced`` has one at a measured count of CTAs an SM (``nvfp4_gemm`` /
# ``nvfp4_gemm_swiglu_quant``). H200 2026-12-05 (session 73 call 1,
# ``tools/lane_columns_probe.py``, graph us, public -> balanced, two rounds): 5120x17408
# (8 K warps, 2 an SM) 17.64 -> 16.07, the fused 9216x7168 (8, 2) 13.78 -> 13.13, but
# 9216x7168 (4, 4) 12.23 -> 12.44-12.53. Three and one an SM on an H100 (SXM, 132 SMs as the
# H200's; 2026-12-05, session 74 call 1, ``tools/balanced_probe.py``, two rounds): 7168x18432
# public 29.79 -> (8, 3) 28.76, (8, 2) 29.38, (4, 3) 30.86; 4096x7168 public 7.69 -> (8, 1)
# 8.72, (4, 1) 11.39. So three an SM is taken too, with 8 K warps; one an SM is not. (The
# fused op at three an SM, 2I of 12672..16864 rows, is no model's shape and unmeasured.)
# H200 2026-12-05 (session 76 call 7, ``tools/balanced_probe.py``, graph us, two rounds alike):
# more K warps on fewer CTAs: 5120x17408 public (8, 2) 16.10 -> (12, 2) 15.71; 9216x7168 public
# (unbalanced) 12.24 -> (8, 3) 12.02, (4, 4) 12.57; 7168x18432 (8, 3) = public 22.50. So where
# four CTAs an SM would fit the plain op takes three, and at two an SM 12 K warps.
ONE_TOKEN_BALANCED = True
FUSED_ONE_TOKEN_BALANCED = True
PUBLIC_BALANCED_CTAS_PER_SM = (2, 3)
# W4A16 (bf16 activations, ``nvfp4_gemm`` only): the CTAs an SM it takes the balanced launch
# at. H100 2026-12-05 (session 74 call 2, ``tools/balanced_probe.py`` "gemm16", graph us,
# public -> balanced, two rounds alike): 5120x17408 (8, 2) 22.35 -> 20.01 ((4, 2) 23.76),
# 7168x18432 (8, 3) 28.49 -> 27.95 ((4, 3) 29.89), 9216x7168 (4, 4) 14.85 -> 15.00, 4096x7168
# (8, 1) 8.59 -> 8.52 (under 1%: not taken). Where four would fit it takes three, as NVFP4
# tokens do (H100 2026-12-05, session 78 call 13, "gemm16", two rounds alike: 9216x7168 public
# (unbalanced) 15.19 / 15.14 -> (8, 3) 14.68 / 14.67, (7, 3) 14.78 / 14.77, (4, 4) 15.39 /
# 15.34; the same bf16 output as the public op's).
PUBLIC_W4A16_BALANCED_CTAS_PER_SM: tuple[int, ...] = (2, 3)
# The fused op's W4A16 (H200 2026-12-05, session 76 call 7, ``balanced_probe.py`` "fused16"):
# 9216x7168 public 14.57 -> (8, 2) 13.13 us, the same codes.
PUBLIC_W4A16_FUSED_BALANCED_CTAS_PER_SM: tuple[int, ...] = (2,)
BALANCED_MAX_CTAS_PER_SM = 4
# The public ops take the balanced launch only where each K warp walks at least this many of
# K's 256-element steps: its fix-up and workspace pay only against a long walk. H200
# 2026-12-06 (session 86, the nvfp4_gemm suite): 7168x2048 at (8, 3), one step a K warp, took
# 7.53 us on NVFP4 tokens and 7.60 on bf16 ones against 4.48 / 4.43 on packed bytes (the
# unbalanced launch; session 44's permuted words 3.79 / 3.76). The wins walk 3.5 steps
# (9216x7168 (8, 3)) and more (5120x17408 (12, 2) 5.7, 7168x18432 (8, 3) 9, the fused
# 9216x7168 (8, 2) 7).
PUBLIC_BALANCED_MIN_STEPS = 3
# The plain op on NVFP4 tokens, where its public launch is (8, 3) and N makes whole blocks of
# ``PLAIN_ROW_GROUPS`` 16-row tiles: one CTA an SM, its K warps in that many row groups
# (``plain_row_group_launch``). Every CTA stages the whole token after the PDL wait, all at
# once, from the few L2 slices that hold it: the stamps (H200 2026-12-06, session 94 call 3,
# ``tools/one_token_timeline.py``, 9216x7168 M = 1) give that staging 1.15 us at (8, 3), 396
# CTAs, and 1.47 at (4, 4), 528, against 0.1 without it; a third of the CTAs read the token a
# third as often. H200 (call 4, ``tools/balanced_row_groups_probe.py``, graph us, two rounds):
# public (8, 3) 12.00 -> (18, 1, 3) 11.78, (21, 1, 3) 11.80, (24, 1, 3) 11.83, (15, 1, 3)
# 12.21, (12, 1, 3) 14.13; from L2 (one weight copy) 10.60 -> 10.30. 5120x17408 (24, 1, 2)
# lost (call 3: 15.39 -> 15.51). On the H100 (session 95 call 1, two rounds) it loses from
# DRAM, (8, 3) 14.44 / 14.44 -> (18, 1, 3) 14.59 / 14.62, and wins from L2, 10.96 / 11.00 ->
# 10.81 / 10.79: the staging's share of the launch grows with the memory's speed, so the
# route is taken on the H200's memory only (``arch.h200_class_memory``). W4A16 on (18, 1, 3)
# lost on the H100 from DRAM too (14.43 -> 14.75) and keeps (8, 3); the fused op keeps its
# (8, 2) (two pairs a block, one CTA an SM, lost 1.1-3.2 us: ``notes/fused-pairs.patch``).
PLAIN_ROW_GROUPS = 3
PLAIN_ROW_GROUP_K_WARPS = 6

PIECES_BARRIER = 1  # the K warps' piece sums are in shared memory (named barrier ids; 0 is the
K_WARPS_BARRIER = 2  # CTA's) / the K warps' reduction of their data-parallel sums


def balanced_shape(n: int, ctas: int, block_rows: int = 16) -> tuple[int, int]:
    """(remainder blocks, workspace slots a remainder block) of a balanced launch of ``ctas``
    CTAs over N rows in blocks of ``block_rows``; raises ValueError where ``ctas`` does not
    fit (ctas <= blocks < 2 ctas, N a multiple of the block)."""
    blocks = n // block_rows
    if n % block_rows or not ctas <= blocks < 2 * ctas:
        raise ValueError(f"a balanced one-token launch needs N a multiple of {block_rows} "
                         f"with ctas <= N / {block_rows} < 2 ctas; got N={n}, ctas={ctas}")
    rem = blocks - ctas
    return rem, (-(-ctas // rem) if rem else 0)


def one_token_balanced(n: int, k: int, sms: int, row_groups: int = 1,
                       most: int = 3) -> tuple[int, int] | None:
    """(K warps, CTAs an SM) of the balanced launch over N weight rows in blocks of
    ``row_groups`` 16-row tiles (the fused op's: 2), or None. As many CTAs an SM as whole
    blocks fit once (1 .. BALANCED_MAX_CTAS_PER_SM), where the blocks do not already fill the
    SMs evenly; one row group at most ``most`` (9216x7168 on NVFP4 tokens, H200: (8, 3) beat
    (4, 4) by 4% and the unbalanced launch by 1.8%).
    K warps a row group: one group 12 at two CTAs an SM (5120x17408: (12, 2) beat (8, 2) by
    2.4% on the H200), 8 at one or three (7168x18432 (8, 3): it beat (4, 3) by 7% on an H100;
    4096x7168 (8, 1)), 4 at four; two groups 4 (the fused 9216x7168 (8, 2)); fewer where K has
    fewer 256-element steps."""
    blocks, tail = divmod(n, 16 * row_groups)
    per_sm = blocks // sms
    if tail or not 1 <= per_sm <= BALANCED_MAX_CTAS_PER_SM or blocks % sms == 0:
        return None
    if row_groups == 1:
        per_sm = min(per_sm, most)  # (blocks < 5 sms < 2 x 3 sms: balanced_shape holds)
    kw = {1: 8, 2: 12, 3: 8}.get(per_sm, 4) if row_groups == 1 else 4
    return min(kw, -(-k // STEP)) * row_groups, per_sm


def public_balanced_launch(switch: bool, m: int, rows: int, k: int, a_fp4: bool,
                           permuted: bool, device: torch.device,
                           row_groups: int = 1) -> tuple[int, int] | None:
    """The public ops' balanced launch (``one_token_balanced`` on ``device``'s SMs), or None:
    only where ``switch`` (``ONE_TOKEN_BALANCED`` / ``FUSED_ONE_TOKEN_BALANCED``) is on, at one
    token on permuted words (the measured form): NVFP4 at ``PUBLIC_BALANCED_CTAS_PER_SM``, bf16
    on the plain op's rows (one row group) at ``PUBLIC_W4A16_BALANCED_CTAS_PER_SM``, on the
    fused op's at ``PUBLIC_W4A16_FUSED_BALANCED_CTAS_PER_SM``; and only where each K warp walks
    ``PUBLIC_BALANCED_MIN_STEPS`` steps or more."""
    if not (switch and m == 1 and permuted):
        return None
    if a_fp4:
        measured = PUBLIC_BALANCED_CTAS_PER_SM
    elif row_groups == 1:
        measured = PUBLIC_W4A16_BALANCED_CTAS_PER_SM
    else:
        measured = PUBLIC_W4A16_FUSED_BALANCED_CTAS_PER_SM
    # (where four fit, three an SM: (4, 4) lost on both kinds of tokens)
    launch = one_token_balanced(rows, k, sm_count(device.index or 0), row_groups)
    if not launch or launch[1] not in measured:
        return None
    k_warps = launch[0] // row_groups  # a row group's: each walks its share of K
    return launch if -(-k // STEP) >= PUBLIC_BALANCED_MIN_STEPS * k_warps else None


def plain_row_group_launch(n: int, a_fp4: bool, public: tuple | None, sms: int,
                           h200_memory: bool) -> tuple[int, int, int] | None:
    """(K warps, CTAs an SM, row groups) of the plain op's launch on row groups (the comment
    on ``PLAIN_ROW_GROUPS``) where ``public`` (``public_balanced_launch``'s answer) is (8, 3) on
    NVFP4 tokens, N makes between ``sms`` and 2 ``sms`` blocks of that many tiles and the
    device has the H200's memory (``h200_memory``: ``arch.h200_class_memory``), or None."""
    if not (a_fp4 and public == (8, 3) and h200_memory):
        return None
    blocks, tail = divmod(n, 16 * PLAIN_ROW_GROUPS)
    if tail or not sms <= blocks < 2 * sms:
        return None
    return PLAIN_ROW_GROUPS * PLAIN_ROW_GROUP_K_WARPS, 1, PLAIN_ROW_GROUPS


class NVFP4GemmOneTokenBalanced(NVFP4GemmSmallM):
    """One staged token, one row tile a warp, ``warps`` K warps (+ the fix-up warp where there
    are remainder blocks) in ``row_groups`` groups, each on its own row tile of the CTA's block
    (``NVFP4GemmSmallM``'s row groups: a block is that many tiles); ``ctas_per_sm`` x ``sms``
    CTAs. Launch: PDL triggered at the CTA start, the first step's weights loaded before the
    wait (the one-token wave's rule)."""

    # Probe switch: the launch bound of ``ctas_per_sm`` CTAs an SM (registers held to it).
    # Without it ptxas gave 9216x7168 (4 K warps) 72 registers and with it 92, both fitting
    # four CTAs of five warps; 8 K warps at three an SM took 82 without (two fit) and 72 with.
    LAUNCH_BOUND = True
    # Probe switch: thread 0 stamps the CTA's start, the end of its wait, of its staging and
    # of its block's epilogue, lane 0 of each K warp the end of its walk, the fix-up warp's
    # the end of its fix-up (``probe_stamps``; ``tools/one_token_timeline.py``).
    PROBE_STAMPS = False
    # Staging the token costs the launch ~1.25 us at 9216x7168 and ~1.7 at 5120x17408 (H100
    # 2026-12-06, session 90 call 8, ``tools/staging_cost_probe.py`` "nostage", NVFP4 and bf16
    # tokens alike, from DRAM and from L2): its loads queue behind the first step's weights
    # (loaded before the wait), and the register double buffer lets a K warp issue its next
    # step only after the staging's barrier, so the memory idles for a round trip.
    # ``NEXT_STEP_UNDER_STAGING``: each K warp issues its walk's second step (into the double
    # buffer's other half) between the staging's loads and their decode (``_stage_around``:
    # no load in a branch, or ptxas sinks them behind the second step's); the loop then skips
    # its first load. Taken where a K warp walks at least ``UNDER_STAGING_MIN_WALK`` steps.
    # H100 (session 90 call 14, graph us, default -> under, from DRAM / from L2):
    # 5120x17408 (12, 2), 5.7 steps, NVFP4 19.21 -> 18.07 / 19.21 -> 17.84, bf16 (call 11)
    # 19.84 -> 19.26 / 19.83 -> 19.09; 7168x18432 (8, 3), 9 steps, bf16 (call 12) 27.91 ->
    # 27.27 / 27.30; but 9216x7168 (8, 3), 3.5 steps, NVFP4 14.42 -> 13.48 from DRAM and
    # 11.02 -> 11.63 from L2 (the H200's regime, session 89), bf16 14.43 -> 13.90 / 11.12 ->
    # 11.69 (waits for an H200; session 93 on today's tree, NVFP4 / bf16: 14.67 -> 13.68 /
    # 14.68 -> 14.10 from DRAM, 11.05 -> 11.67 / 11.10 -> 11.71 from L2; session 94 alike).
    # The fused 9216x7168 (8, 2), two row groups of 7 steps (session 91 calls 2-3, four
    # runs): NVFP4 15.60 -> 15.30 from DRAM, 12.42 -> 12.37 from L2 (the L2's rounds
    # alternate: 12.41 / 12.43 against 12.66 / 12.08), bf16 15.48 -> 15.18 / 12.30 -> 12.21
    # (11.83 / 12.58): taken. The switch forces it on (probe). The second step before the
    # staging's loads lost on both tokens (call 9: 0.2-1 us from L2;
    # ``notes/staging-early-spread.patch``). On the H200 (session 94 call 3) 9216x7168 (8, 3)
    # NVFP4 12.04 -> 12.09, bf16 12.08 -> 12.14: the rule stays.
    NEXT_STEP_UNDER_STAGING = False
    UNDER_STAGING_MIN_WALK = 5
    # Staging the token once a cluster of 2 or 4 CTAs (each loads and decodes a share and
    # st.async's it into its peers' shared memory), against the L2 hot spot above, lost
    # everywhere with equal bits. H100 (session 96 call 1, graph us, two rounds; default / 2 /
    # 4 CTAs): 9216x7168 (8, 3) from DRAM 14.43 / 14.91 / 22.95, from L2 10.99 / 11.53 /
    # 18.31; (18, 1, 3) from L2 10.74 / 11.27 / 20.03; the fused (8, 2) 14.95 / 15.24 / 23.23;
    # 5120x17408 (12, 2) 18.09 / 18.89 / 27.09. The stamps: the staging took longer on two
    # (1280 -> 2080 ns) and the cluster's start waited 7.9 us on four. Retired:
    # ``notes/cluster-staging.patch``.

    def __init__(self, n: int, k: int, a_fp4: bool, out_dtype: type[cutlass.Numeric],
                 warps: int, ctas_per_sm: int, sms: int, permuted: bool = False,
                 row_groups: int = 1, lane_columns: bool = False, ring_slots: int = 0):
        super().__init__(n, k, a_fp4, out_dtype, row_tiles=1, token_tiles=1, warps=warps,
                         prefetch=1, x_tokens=1, permuted=permuted, row_groups=row_groups,
                         lane_columns=lane_columns)
        # ``ring_slots`` p >= 2 (probe-only, ``tools/balanced_ring_probe.py``): the K warps'
        # steps come through ``NVFP4GemmSmallM``'s cp.async ring of p slots a warp (p steps in
        # flight, no registers held for them) instead of the register double buffer (one step
        # in flight: ~55 KB an SM at 8 K warps and three CTAs). On the H200 our fp8 GEMV reads
        # 9216x7168's bytes 9% faster than this kernel (session 80: 10.90 against 11.99 us);
        # on the H100 they are level. The lean staged loop's rules stay the register path's
        # (only the loads move); one row group (the ring is laid out by warp, not group).
        if ring_slots and (ring_slots < 2 or row_groups != 1):
            raise ValueError(f"a balanced ring takes at least 2 slots and one row group; got "
                             f"ring_slots={ring_slots}, row_groups={row_groups}")
        self.ring_slots = ring_slots
        self.ctas = ctas_per_sm * sms
        self.rem, self.slots = balanced_shape(n, self.ctas, 16 * row_groups)
        if self.steps < self.kw:
            raise ValueError(f"a balanced one-token launch needs a K step (256) a K warp of "
                             f"a row group; got K={k}, warps={warps}, row_groups={row_groups}")
        self.fix_warps = int(self.rem > 0)
        assert self.lean_staged and self.row_offsets() is not None
        self.paired_steps = False
        self.pdl = pdl_enabled()
        self.pdl_trigger = "start"
        self.pdl_load_early = True
        self.scale_table = not self.lane_columns  # lane columns convert theirs in registers
        # the whole grid resident at once, ctas_per_sm on every SM: the registers are held to
        # that (the launch bound) and the shared memory leaves no room for one more
        self.ctas_cap = ctas_per_sm
        self.min_ctas = ctas_per_sm if self.LAUNCH_BOUND else 0
        # the launch rules' shared memory, the K warps' piece sums, no room for one more CTA
        # (+ the staging's scratch words under ``under_staging``: ``_stage_around``'s)
        self.smem_bytes = self._capped_smem(
            self._smem_used() + (warps * 32 * 4 * 4 + 128 if self.rem else 0)
            + (self.staging_scratch_bytes() if self.under_staging() else 0))

    # the split kernel's arguments: the GEMM's, then the workspace and the counters
    __call__ = NVFP4GemmSmallMSplitK.__call__

    def small_m_under_staging(self) -> bool:
        """The small-M kernel's switch does not apply: this launch has its own rule."""
        return False

    def under_staging(self) -> bool:
        """Whether the K warps load their second step under the staging (the comment on
        ``NEXT_STEP_UNDER_STAGING``)."""
        if self.ring_slots or not self.staging_in_one_pass():
            return False
        return self.NEXT_STEP_UNDER_STAGING or self.steps >= self.UNDER_STAGING_MIN_WALK * self.kw

    def workspace_words(self) -> int:
        """``balanced_buffers``' workspace length (fp32 words)."""
        return balanced_workspace_words(self.n, self.ctas, 16 * self.rg)

    @cute.jit
    def _stamp(self, outs, cta, slot, who):
        """``PROBE_STAMPS``: stamp ``slot`` where ``who`` holds (a no-op otherwise)."""
        if cutlass.const_expr(self.PROBE_STAMPS):
            assert self.warps <= probe_stamps.MAX_WARPS, "a stamp slot for each K warp"
            if who:
                stamp(outs[-2], self.workspace_words(), self.ctas, cta, slot)

    def cta_threads(self) -> int:
        return 32 * (self.warps + self.fix_warps)

    def _warps_sync(self):
        cute.arch.barrier(barrier_id=K_WARPS_BARRIER, number_of_threads=32 * self.warps)

    @cute.jit
    def _launch(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                scalars, outs, stream):
        self.kernel(mA, mASF, mB, mBSF, scalars, outs).launch(
            grid=(1, self.ctas, 1), block=(self.cta_threads(), 1, 1), smem=self.smem_bytes,
            stream=stream, use_pdl=self.pdl, min_blocks_per_mp=self.min_ctas,
            preferred_smem_carveout=self._carveout())

    def _piece(self, cta):
        """(remainder block, piece, pieces of that block, first step, end step) of CTA
        ``cta``'s K piece (the module docstring's split)."""
        g, r = self.ctas, self.rem
        block = cta * r // g
        first = (block * g + r - 1) // r
        parts = ((block + 1) * g + r - 1) // r - first
        part = cta - first
        return block, part, parts, part * self.steps // parts, (part + 1) * self.steps // parts

    @cute.kernel
    def kernel(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
               scalars, outs):
        """``outs``: the epilogue's outputs (the first with M rows), then the workspace and
        the counters."""
        _, cta, _ = cute.arch.block_idx()
        warp = cute.arch.warp_idx()
        lane = cute.arch.lane_idx()
        g = lane // 4
        lane_q = lane - g * 4
        kw, warps = self.kw, self.warps  # K warps of a row group, of the CTA
        # the warp's row group and its place among that group's K warps
        group, kwarp = 0, warp
        if cutlass.const_expr(self.rg > 1):
            group = warp // kw
            kwarp = warp - group * kw
        results = outs[:-2]
        m = results[0].shape[0]
        b_sf_layout = sf_tiled_layout((self.n + 127) // 128 * 128, self.kb_padded)
        a_sf_layout = b_sf_layout
        if cutlass.const_expr(self.a_fp4):
            a_sf_layout = sf_tiled_layout((m + 127) // 128 * 128, self.kb_padded)
        loader = (mA, mASF, mB, mBSF, a_sf_layout, b_sf_layout)
        where = (g, lane_q, cta, 0, m)
        first_thread = (warp == 0) & (lane == 0)
        self._stamp(outs, cta, probe_stamps.START, first_thread)
        if cutlass.const_expr(self.pdl):
            cute.arch.griddepcontrol_launch_dependents()

        bases = self._row_bases(mB, mBSF, b_sf_layout, cta, g, group)
        piece_bases = bases
        rem_block, part, parts, p0, p1 = 0, 0, 1, 0, 0
        piece_steps = 0  # this warp's
        if cutlass.const_expr(self.rem):
            rem_block, part, parts, p0, p1 = self._piece(cta)
            piece_bases = self._row_bases(mB, mBSF, b_sf_layout, self.ctas + rem_block, g,
                                          group)
            piece_steps = (cutlass.max(p1 - p0 - kwarp, 0) + kw - 1) // kw
        dp_steps = (self.steps - kwarp + kw - 1) // kw  # this warp's data-parallel steps

        def regs(shape, dtype):  # last mode contiguous, so each slice is one vector load
            return cute.make_rmem_tensor(cute.make_ordered_layout(shape, order=(1, 0)), dtype)

        bufs = [(regs((2, 8), cutlass.Int32), regs((2, 4), mBSF.element_type),
                 regs((1, self.x_words), cutlass.Int32), regs((1, 4), mBSF.element_type))
                for _ in range(1 if self.ring_slots else 2)]
        # the warp's steps: its piece's, then its data-parallel ones (``_walk_step``)
        walk = (piece_steps, p0, kwarp, cta, rem_block)
        ring = None
        if cutlass.const_expr(self.ring_slots):
            ring = (self._ring(mBSF.element_type), ring_copies(mBSF.element_type))
        # the first steps' weights before the previous kernel has finished (they are not its
        # output; the activations are)
        if cutlass.const_expr(self.ring_slots):
            if warp < warps:
                self._walk_prologue(loader, where, walk, piece_steps + dp_steps, ring, warp,
                                    lane)
        elif warp < warps:
            if cutlass.const_expr(self.rem):
                in_piece = piece_steps > 0
                self._load_step(*loader, cutlass.select_(in_piece, p0 + kwarp, kwarp), *where,
                                bufs[0], acts=False,
                                bases=(cutlass.select_(in_piece, piece_bases[0], bases[0]),
                                       cutlass.select_(in_piece, piece_bases[1], bases[1])))
            else:
                self._load_step(*loader, kwarp, *where, bufs[0], acts=False, bases=bases)
        self._wait_for_inputs()
        self._stamp(outs, cta, probe_stamps.WAITED, first_thread)
        under = self.under_staging()  # the walk's second step loaded under the staging
        second = None
        if cutlass.const_expr(under):
            second = functools.partial(self._load_second_step, loader, where, walk, dp_steps,
                                       bases, piece_bases, bufs[1], warp)
        # (the fused epilogue's out_scale table: ordered by the staging's barrier)
        scalars = self.epilogue_table(scalars, cute.arch.thread_idx()[0])
        _, sXw, table = self._stage_activations(mA, mASF, a_sf_layout, m, 0, 0, second)
        self._stamp(outs, cta, probe_stamps.STAGED, first_thread)
        sX = (self._staged_views(sXw, g, lane_q), table)
        sPieces = None
        if cutlass.const_expr(self.rem):
            sPieces = SmemAllocator().allocate_tensor(
                cutlass.Float32, cute.make_layout((warps, 32, 4), stride=(128, 4, 1)),
                byte_alignment=16)

        if warp < warps:
            acc = cute.make_rmem_tensor((1, 1, 4), cutlass.Float32)
            acc.fill(0.0)
            wp = cute.make_rmem_tensor((2, 8), cutlass.Uint32)
            xp = cute.make_rmem_tensor((1, 8), cutlass.Uint32)
            if cutlass.const_expr(self.ring_slots):
                self._walk_loops(loader, where, walk, dp_steps, ring, bufs[0], warp, lane,
                                 lane_q, acc, wp, xp, sX, g, sPieces)
            else:
                cur, nxt = bufs
                # (``under``: the walk's second step is loaded, its first iteration loads
                # nothing)
                first_dp = 0
                if cutlass.const_expr(self.rem):
                    if cutlass.const_expr(under):
                        first_dp = cutlass.select_(piece_steps == 0, 1, 0)
                    # the piece, its last iteration loading the first data-parallel step
                    for i in cutlass.range(piece_steps, unroll=1):
                        step = p0 + kwarp + i * kw
                        if cutlass.const_expr(under):
                            if i >= 1:
                                self._load_walk_next(loader, where, step, i, piece_steps,
                                                     kwarp, nxt, bases, piece_bases)
                        else:
                            self._load_walk_next(loader, where, step, i, piece_steps, kwarp,
                                                 nxt, bases, piece_bases)
                        self._compute_step(cur, step, lane_q, acc, wp, xp, sX, g, step)
                        for src, dst in zip(nxt, cur):
                            dst.store(src.load())
                    self._hand_over_piece(acc, sPieces, warp, lane)
                elif cutlass.const_expr(under):
                    first_dp = 1
                # the data-parallel steps: the one-token kernel's loop
                for i in cutlass.range(dp_steps, unroll=1):
                    step = kwarp + i * kw
                    load_next = step + kw < self.steps
                    if cutlass.const_expr(under):
                        load_next = load_next & (i >= first_dp)
                    if load_next:
                        self._load_step(*loader, step + kw, *where, nxt, bases=bases)
                    self._compute_step(cur, step, lane_q, acc, wp, xp, sX, g, step)
                    for src, dst in zip(nxt, cur):
                        dst.store(src.load())
            self._stamp(outs, cta, probe_stamps.LOOP_DONE + warp, lane == 0)
            sums = self._reduce_across_warps(acc, warp, lane)
            if warp == 0:
                self._finish(sums, scalars, results, cta, g, lane_q, m)
                self._stamp(outs, cta, probe_stamps.FINISHED, lane == 0)
        if cutlass.const_expr(self.rem):
            if warp == warps:  # the fix-up warp
                cute.arch.barrier(barrier_id=PIECES_BARRIER, number_of_threads=32 * (warps + 1))
                # each row group's piece sums, its K warps in order (as _reduce_across_warps)
                sums = cute.make_rmem_tensor((self.rg, 1, 4), cutlass.Float32)
                for r in cutlass.range_constexpr(self.rg):
                    for e in cutlass.range_constexpr(4):
                        total = sPieces[r * kw, lane, e]
                        for w in cutlass.range_constexpr(r * kw + 1, r * kw + kw):
                            total = total + sPieces[w, lane, e]
                        sums[r, 0, e] = total
                if meet_partials(sums, outs[-2], outs[-1], rem_block, part, parts, self.slots,
                                 lane):
                    self._finish(sums, scalars, results, self.ctas + rem_block, g, lane_q, m)
                self._stamp(outs, cta, probe_stamps.FIXED_UP, lane == 0)

    @cute.jit
    def _load_walk_next(self, loader, where, step, i, piece_steps, kwarp, nxt, bases,
                        piece_bases):
        """The piece loop's iteration ``i`` (at K step ``step``): the walk's next step into
        ``nxt``, the piece's next or, after its last, the K warp's first data-parallel one."""
        if i + 1 < piece_steps:
            self._load_step(*loader, step + self.kw, *where, nxt, bases=piece_bases)
        else:
            self._load_step(*loader, kwarp, *where, nxt, bases=bases)

    @cute.jit
    def _load_second_step(self, loader, where, walk, dp_steps, bases, piece_bases, buf, warp):
        """``under_staging``: a K warp's walk's second step (its piece's second, else its first
        data-parallel step after a one-step piece, else its second) into ``buf``, where the
        walk has one."""
        piece_steps, p0, kwarp, _, _ = walk
        kw = self.kw
        if (warp < self.warps) & (piece_steps + dp_steps > 1):
            second = kwarp + (1 - piece_steps) * kw  # (piece_steps 0 or 1)
            at = bases
            if cutlass.const_expr(self.rem):
                in_piece = piece_steps > 1
                second = cutlass.select_(in_piece, p0 + kwarp + kw, second)
                at = (cutlass.select_(in_piece, piece_bases[0], bases[0]),
                      cutlass.select_(in_piece, piece_bases[1], bases[1]))
            self._load_step(*loader, second, *where, buf, acts=False, bases=at)

    @cute.jit
    def _hand_over_piece(self, acc, sPieces, warp, lane):
        """A K warp's piece sums (zeros without a piece) to the fix-up warp's shared memory,
        ``acc`` zeroed for the data-parallel steps, and an arrival at the pieces' barrier
        without waiting."""
        for e in cutlass.range_constexpr(4):
            sPieces[warp, lane, e] = acc[0, 0, e]
        acc.fill(0.0)
        cute.arch.barrier_arrive(barrier_id=PIECES_BARRIER,
                                 number_of_threads=32 * (self.warps + 1))

    def _walk_step(self, j, walk, where):
        """Step ``j`` of a K warp's walk (``ring_slots``): (its K step, the ``where`` of its
        row block), the piece's steps first (the remainder block's), then the data-parallel
        ones (the CTA's block)."""
        piece_steps, p0, kwarp, cta, rem_block = walk
        g, lane_q, _, tok0, m = where
        in_piece = j < piece_steps
        piece = (cutlass.Int32(p0 + kwarp + j * self.kw), cutlass.Int32(self.ctas + rem_block))
        own = (cutlass.Int32(kwarp + (j - piece_steps) * self.kw), cutlass.Int32(cta))
        if isinstance(in_piece, bool):  # no remainder blocks: both known at compile time
            step, block = piece if in_piece else own
        else:
            step = cutlass.select_(in_piece, piece[0], own[0])
            block = cutlass.select_(in_piece, piece[1], own[1])
        return step, (g, lane_q, block, tok0, m)

    @cute.jit
    def _walk_prologue(self, loader, where, walk, total, ring, warp, lane):
        """The cp.async copies of the walk's first ``ring_slots`` steps (of ``total``), one
        commit group each (empty past the last)."""
        chunks_and_scales, copies = ring
        for p in cutlass.range_constexpr(self.ring_slots):
            if p < total:
                step, at = self._walk_step(p, walk, where)
                self._issue_step_ring(loader, step, at, chunks_and_scales, p, warp, lane,
                                      copies)
            cute.arch.cp_async_commit_group()

    @cute.jit
    def _walk_refill(self, loader, where, walk, total, ring, buf, j, warp, lane):
        """Step ``j`` of the walk from its ring slot into ``buf``, then step j + p into that
        slot (``NVFP4GemmSmallM._ring_loop``'s wait, warp barriers and one commit group an
        iteration)."""
        chunks_and_scales, copies = ring
        slots = self.ring_slots
        slot = j % slots
        self._ring_take(chunks_and_scales, slot, warp, lane, buf)
        if j + slots < total:
            step, at = self._walk_step(j + slots, walk, where)
            self._issue_step_ring(loader, step, at, chunks_and_scales, slot, warp, lane,
                                  copies)
        cute.arch.cp_async_commit_group()

    @cute.jit
    def _walk_loops(self, loader, where, walk, dp_steps, ring, buf, warp, lane, lane_q, acc,
                    wp, xp, sX, g, sPieces):
        """The K warp's two loops (the register path's, kernel body) through the ring: its
        piece steps, the hand-over of their sums, its data-parallel steps."""
        piece_steps, p0, kwarp, _, _ = walk
        total = piece_steps + dp_steps
        if cutlass.const_expr(self.rem):
            for i in cutlass.range(piece_steps, unroll=1):
                self._walk_refill(loader, where, walk, total, ring, buf, i, warp, lane)
                step = p0 + kwarp + i * self.kw
                self._compute_step(buf, step, lane_q, acc, wp, xp, sX, g, step)
            self._hand_over_piece(acc, sPieces, warp, lane)
        for i in cutlass.range(dp_steps, unroll=1):
            self._walk_refill(loader, where, walk, total, ring, buf, piece_steps + i, warp,
                              lane)
            step = kwarp + i * self.kw
            self._compute_step(buf, step, lane_q, acc, wp, xp, sX, g, step)

    @cute.jit
    def _finish(self, sums, scalars, results, block, g, lane_q, m):
        """Row block ``block``'s whole sums into the results (the epilogue)."""
        self._fold_lane_columns(sums, lane_q)
        for i in cutlass.range_constexpr(cute.size(sums)):  # exact: a power of two
            sums[i] = sums[i] * cutlass.Float32(self.sum_scale)
        self.epilogue(sums, scalars, results, block, 0, g, lane_q, m)


def balanced_lane_tail(a_fp4: bool) -> tuple:
    """The balanced compile functions' trailing ``lane_columns`` argument (one staged token:
    ``lane_columns_route``), absent where off so that the cache keys keep their short form."""
    return (True,) if lane_columns_route(a_fp4, 1, 1) else ()


def balanced_workspace_words(n: int, ctas: int, block_rows: int = 16) -> int:
    """fp32 words of a balanced launch's workspace over blocks of ``block_rows`` rows: a slot
    per piece of each remainder block, 4 sums a lane and row tile (one word where there is no
    remainder block)."""
    rem, slots = balanced_shape(n, ctas, block_rows)
    return max(rem * slots * 32 * 4 * block_rows // 16, 1)


def balanced_buffers(n: int, ctas: int, device: torch.device, block_rows: int = 16,
                     stamp_words: int = 0):
    """(fp32 workspace, zeroed int32 arrival counters) of a balanced launch over blocks of
    ``block_rows`` rows (``balanced_workspace_words``); ``stamp_words``: that many zeroed words
    more past it (``PROBE_STAMPS``'s)."""
    words = balanced_workspace_words(n, ctas, block_rows)
    ws = torch.empty(words + stamp_words, dtype=torch.float32, device=device)
    if stamp_words:  # (a probe's only: no launch on the public path)
        ws[words:].zero_()
    return ws, arrival_counters(max(balanced_shape(n, ctas, block_rows)[0], 1), device)


@jit.cached
def compile_nvfp4_gemm_one_token_balanced(n: int, k: int, a_dtype: str, out_dtype: str,
                                          warps: int, ctas_per_sm: int, sms: int,
                                          permuted: bool = False, lane_columns: bool = False,
                                          ring_slots: int = 0, row_groups: int = 1):
    """Static N, K, warps and grid (``ctas_per_sm`` x ``sms`` CTAs); M = 1 at run time.
    Arguments of the compiled function: those of ``compile_nvfp4_gemm_small_m``, then
    ``balanced_buffers``' workspace and counters. ``lane_columns``: ``NVFP4GemmSmallM``'s;
    ``ring_slots`` and ``row_groups``: ``NVFP4GemmOneTokenBalanced``'s."""
    a_fp4 = a_dtype == "fp4"
    cout = torch_to_cutlass(out_dtype)
    m, a, a_sf, b, b_sf, alpha = fake_operands(n, k, a_fp4)
    d = make_fake_compact_tensor(cout, (m, n), stride_order=(1, 0), assumed_align=16)
    kernel = NVFP4GemmOneTokenBalanced(n, k, a_fp4, cout, warps, ctas_per_sm, sms, permuted,
                                       row_groups=row_groups, lane_columns=lane_columns,
                                       ring_slots=ring_slots)
    return cute.compile(kernel, a, a_sf, b, b_sf, alpha, d, *fake_split_buffers(),
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())


def launch_one_token_balanced(a, a_sf, b, b_sf, alpha: torch.Tensor, out: torch.Tensor,
                              warps: int = 4, ctas_per_sm: int = 4,
                              compile_fn=compile_nvfp4_gemm_one_token_balanced,
                              ring_slots: int = 0, buffers: tuple | None = None,
                              row_groups: int = 1) -> None:
    """The balanced launch on operands ``nvfp4_gemm`` has validated, at M = 1 (alpha a
    one-element fp32 tensor); ``ctas_per_sm`` times the device's SMs CTAs (``compile_fn``: a
    probe's variant; ``ring_slots``: ``NVFP4GemmOneTokenBalanced``'s, probe-only;
    ``buffers``: the workspace and counters, where a probe passes its own; ``row_groups``:
    blocks of that many 16-row tiles, ``warps`` split among them: ``plain_row_group_launch``).
    ``nvfp4_gemm`` takes it behind ``ONE_TOKEN_BALANCED`` where ``public_balanced_launch``
    gives a launch."""
    if a.shape[0] != 1:
        raise ValueError(f"a balanced one-token launch takes one token; got M={a.shape[0]}")
    n, k, permuted = weight_dims(b)
    sms = sm_count(out.device.index or 0)
    a_kind = "fp4" if a_sf is not None else str(a.dtype)
    # W4A16 has no activation scales; the kernel never reads that argument, b_sf stands in.
    tail = balanced_lane_tail(a_sf is not None)
    if ring_slots or row_groups != 1:  # (the long key only where asked for)
        tail = (bool(tail), ring_slots, row_groups)
    compile_fn(n, k, a_kind, str(out.dtype), warps, ctas_per_sm, sms, permuted, *tail)(
        a.view(torch.int32), (b_sf if a_sf is None else a_sf).view(-1), b.view(torch.int32),
        b_sf.view(-1), alpha, out,
        *(buffers or balanced_buffers(n, ctas_per_sm * sms, out.device, 16 * row_groups)))
