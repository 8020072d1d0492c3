"""Launch rules of the small-M kernels (``nvfp4_gemm_small_m``), each from H200 measurements:
which main-loop variant a config runs (the paired-step loop, per-thread load bases, the
shared-memory scale table), whether it launches with programmatic dependent launch and how,
how many CTAs per SM its shared memory leaves room for, and its launch bound. Host-side
arithmetic only. The switches are class attributes, so a subclass (the fused SwiGLU kernel
turns PDL on everywhere) or a probe can change them."""

from __future__ import annotations

from .arch import pdl_enabled
from .nvfp4_gemm_large_m import H200_SMS

STEP = 256        # K elements per step of the small-M kernel's warps: 4 lanes x 64
K_ALIGN = 64      # a lane's share of a step: four 16-element scale blocks


class SmallMLaunchRules:
    """Mixed into ``NVFP4GemmSmallM``; ``_choose_launch`` sets ``paired_steps``,
    ``lean_staged``, ``pdl``, ``pdl_trigger``, ``pdl_load_early``, ``ctas_cap``, ``scale_table``
    and ``min_ctas`` from the config."""

    # Programmatic dependent launch (``arch.pdl_enabled``): off for the plain GEMM, except where
    # the rules below turn it on (short K, the paired-step loop, one wave of register-path
    # CTAs). Measured on the H200 (2026-11-30, ``tools/pdl_probe.py``, M = 1, graph
    # us, off / on): 7168x18432 29.6 / 34.9 (its one wave of 224 CTAs, launched early next to
    # the previous kernel's, lands unevenly on the SMs), 36864x7168 47.7 / 46.6, the other
    # shapes within 0.3 us; the DeepSeek-V3 MLP step (fused gate_up, then 7168x18432) 81.7 /
    # 95.8.
    PDL = False
    # With PDL, where the CTA lets the next kernel launch: "loop" once past its main loop,
    # "start" right away, "exit" only as it exits (the implicit trigger).
    PDL_TRIGGER = "loop"
    # With PDL: issue the first step's weight loads (not the activations) before waiting for
    # the previous kernel. The weights are then read while that kernel may still run, so it
    # must not be the one that wrote them (the public functions' contract; README "Launches").
    PDL_LOAD_BEFORE_WAIT = False
    # Short K: where no warp has more than this many K steps, the plain GEMM takes PDL anyway,
    # triggered at the CTA start, weights loaded before the wait: launch and ramp, not the
    # weight stream, are then most of the time (``tools/pdl_load_probe.py``, H200 2026-11-30,
    # M = 1 / 8 graph us, no PDL against this: 7168x2048 5.57 / 6.35 against 4.65 / 4.99).
    # Triggered at the start, longer grids lost (4096x7168 M = 1 8.4 -> 16.9, 7168x18432 29.5
    # -> 52.5, 36864x7168 46.9 -> 49.0; the next kernel's early CTAs take the free slots of
    # whichever SMs have them); after the main loop or at exit, within +-0.4 us of no PDL
    # except 7168x18432 after the loop (35.0). On since its GPU tests passed (H200 2026-11-30,
    # ``tools/sessions/session9_first.sh``: 7168x2048 M = 1 / 8 5.58 / 6.29 -> 4.79 / 5.19).
    PDL_SHORT_K_STEPS = 1
    # Two row tiles with staged activations over a long K (no split, at least
    # PAIRED_MIN_STEPS steps per warp) run the lean loop too, as ``paired_steps``: two steps
    # per iteration with the register buffers trading roles (no copy), a warp barrier after
    # the next step's loads (without it ptxas sinks them half-way into the decode), and the
    # weight scales' bf16x2 splats looked up in a shared-memory table. SASS 7168x18432 M = 1:
    # ~500 instructions per step against 684. H200 2026-11-30 (``tools/ab_fence.sh`` at commit
    # ca16866 and ``tools/sessions/session13_final.sh``, us, two rounds each): 7168x18432 (18
    # steps per warp) M = 1 25.97 -> 23.83, M = 2 27.7 -> 25.7; the fence alone 28.76, with trading
    # buffers but no table 24.32. Where it is off, it measured even or slower: 5 to 7 steps
    # per warp (M = 2: 36864x7168 46.4 -> 47.0, 34816x5120 34.8 -> 35.3, 9216x7168 equal;
    # fused M = 1: 34816x5120 32.04 -> 32.42, W4A16 36864x7168 44.09 -> 44.43, 36864x7168
    # equal, 9216x7168 15.02 -> 14.61), one row tile (36864x7168 42.05 -> 42.96, 34816x5120
    # 29.96 -> 31.38), a split K (5120x17408 18.41 -> 18.52). (Unmeasured: the fused kernel
    # at such a long K; its loop is this one.)
    PAIRED_MIN_STEPS = 16
    # The paired-step loop with PDL (trigger after the main loop, first weights loaded before
    # the wait), its CTAs held to two per SM by their shared memory: its grids fill at most
    # two per SM anyway (7168x18432: 224 CTAs), and a grid launched while the previous kernel
    # still holds some SMs would otherwise pile up to four CTAs on the free ones (session 7:
    # PDL made 7168x18432 29.6 -> 34.9 us, the DeepSeek-V3 MLP step 81.7 -> 95.8).
    PDL_PAIRED = True
    # PDL the same way for one wave of register-path CTAs (M = 2..16), held to the wave's CTAs
    # per SM (H200 2026-11-30, ``tools/ab_register_m2.sh``, us): M = 4 9216x7168 15.32 ->
    # 14.54, 4096x7168 9.17 -> 8.29; M = 16 4096x7168 11.49 -> 10.57, 7168x2048 6.92 -> 6.16,
    # 9216x7168 20.46 -> 20.11. With staged tokens (``tools/ab_one_wave.sh``) it lost at M = 1
    # (9216x7168 13.44 -> 13.65; 5120x17408 split in three 18.59 -> 19.83).
    # Only W4A4 (bf16 activations take more registers, so fewer CTAs per SM than the wave's
    # count; unmeasured) and only configs with the register prefetch: they serve at most 16
    # tokens, one token tile (grid x = 1). The prefetch-free ones also serve 17..64 tokens on
    # two to eight token CTAs: capped at the one-token-tile wave, 7168x2048 (2, 2, 4, 0) at
    # M = 32 went 9.69 -> 11.84 (the nvfp4_gemm suite, session 15, before this condition).
    PDL_ONE_WAVE = True
    # grids of at most this many CTAs per SM count as one wave
    ONE_WAVE_CTAS = 6
    # One-wave launches of one row tile a warp trigger the next kernel at the CTA start, not
    # after the main loop ("loop"). H200 2026-12-02 (session 43, ``tools/wave_start_probe.py``,
    # two rounds, graph us, loop / start): 9216x7168 M = 2 / 4 / 8 14.74 / 14.80 / 14.77 ->
    # 14.14 / 14.22 / 14.27, 4096x7168 M = 4 / 8 8.41 / 8.42 -> 8.09 / 8.10, 7168x18432 M = 4
    # / 8 26.93 / 27.09 -> 26.43 / 26.62, 5120x17408 (K split in two) M = 4 / 8 19.11 / 19.19
    # -> 18.57 / 18.66, 7168x2048 (1, 2, 4, 1) M = 12 / 16 6.31 / 6.31 -> 5.50 / 5.52,
    # 5120x6144 M = 4 8.47 -> 7.97, 1024x7168 6.68 -> 6.37, 7168x4608 9.11 -> 8.36. Two row
    # tiles a warp lost: 16384x5120 M = 4 19.64 -> 20.77, 14336x5120 M = 2 18.19 -> 19.21. In
    # the MLP steps (``tools/mlp_step_switch_probe.py``, the down GEMM alone) even: Qwen3.8
    # M = 4 / 8 58.31 / 58.31 -> 58.35 / 58.28, DeepSeek-V3 76.73 / 77.41 -> 76.80 / 77.41.
    # The three session-43 rules together (this, ``ONE_WAVE_STAGED``, the fused
    # ``REGISTER_PDL_START``) against all three off, per step: even at M = 1 (Qwen3.8 52.04 /
    # 52.02, DeepSeek-V3 70.47 / 70.39, its TP4 28.43 / 28.38, expert 17.00 / 16.97), ahead
    # at M = 4 (57.52 / 58.35, 76.95 / 77.11, 28.08 / 28.52, 18.75 / 19.03) and M = 8 (TP4
    # 28.46 / 28.79, expert 18.87 / 19.32).
    ONE_WAVE_TRIGGER = "start"
    # One staged token on permuted words (one row tile, no row groups) over one wave launches
    # the same way (PDL, the wave's CTAs per SM, trigger at the start), unless the one-token rule
    # below already triggers it at the start. Session 43 (same probe, us, before / after):
    # 9216x7168 (1, 1, 4, 1) 12.73 -> 12.13, 8192x5120 8.99 -> 8.25, 4096x7168 (1, 1, 8, 1)
    # 7.32 -> 6.69, 2048x7168 5.91 -> 5.03, 1024x7168 4.84 -> 4.56; after the main loop it lost
    # (9216x7168 13.01). Where the one-token rule triggers at the start, the cap lost:
    # 5120x6144 6.63 -> 6.86, 7168x4608 9.84 -> 10.04, 5120x5120 6.37 -> 6.58 (4096x4096 4.62
    # -> 4.28 won).
    ONE_WAVE_STAGED = True
    # Kernels with ``PDL`` always on (the fused one): register-path launches (no staged
    # tokens) of NVFP4 activations on permuted words without a K split trigger at the CTA
    # start (``NVFP4GemmSwigluQuantSmallM``).
    REGISTER_PDL_START = False
    # Kernels with ``PDL`` always on: one staged token of NVFP4 activations on permuted words
    # on row groups triggers at the CTA start where its grid is at most this many CTAs an SM
    # (0: never; the fused kernel's one-token rule, ``NVFP4GemmSwigluQuantSmallM``).
    STAGED_GROUPS_START_CTAS = 0
    # One staged token (M = 1, x_tokens 1) of NVFP4 activations on permuted words takes PDL,
    # the first step's weights loaded before the wait, where its CTAs split K (triggered at the
    # start) or hold 8 warps (after the main loop). H200 2026-12-02 (session 42,
    # ``tools/m1_pdl_probe.py``, two rounds, graph us, off / after the loop / at the start):
    # 5120x17408 (2, 1, 4, 1, 3) 18.40, 18.39 / 18.06, 18.08 / 17.60, 17.63; 4096x7168
    # (1, 1, 8, 1) 7.63, 7.67 / 7.34, 7.34 / 7.90, 7.94. Four warps on whole K lost or tied:
    # 9216x7168 12.84 / 13.01 / 15.57, 36864x7168 42.30 / 42.36 / 42.42, 34816x5120 29.98 /
    # 30.15 / 30.36. The fixed part of a one-token launch is ~3.2 us at 9216x7168 (the
    # balance probe: 8448 / 9216 / 10560 rows 11.60 / 12.80 / 13.70 us), which PDL overlaps
    # with the previous kernel. Second run (8 warps, off / this rule after the loop / at the
    # start): 2048x7168 (4 steps a warp) 6.11 / 5.88 / 7.35, 1024x7168 5.50 / 4.82 / 6.77, but
    # 5120x6144 (3 steps a warp) 8.09 / 8.36 / 6.60: at most ``PDL_ONE_TOKEN_START_STEPS``
    # steps a warp trigger at the start too. Third run, on that rule (off / rule): 5120x6144
    # 8.08 / 6.61, 5120x5120 (3 steps) 7.75 / 6.35, 4096x4096 (2 steps) 5.12 / 4.61,
    # 4096x7168 7.64 / 7.33.
    PDL_ONE_TOKEN = True
    PDL_ONE_TOKEN_START_STEPS = 3
    # The one-token rules above (``PDL_ONE_TOKEN``, ``ONE_WAVE_STAGED``) for one staged bf16
    # token too (W4A16 at M = 1). The staged loop is the same (72 registers at 9216x7168
    # (1, 1, 4, 1), bf16 or NVFP4), so the registers that keep bf16 activations off the
    # register path's PDL rules do not apply. H200 2026-12-05 (session 73 call 2,
    # ``tools/w4a16_one_token_probe.py``, graph us, off -> on, two rounds): 9216x7168 13.02 ->
    # 12.40, 5120x17408 18.26 -> 17.59, 4096x7168 8.67 -> 7.94; 36864x7168, 34816x5120,
    # 7168x18432 and 7168x2048 even (their launches do not change).
    ONE_TOKEN_W4A16 = True
    # the same for register-path K splits (``tools/ab_split_pdl.sh``, H200 2026-11-30, three
    # rounds, us): 5120x17408 (1, 1, 4, 1, 2) M = 4 20.03-20.23 -> 18.99-19.35, M = 8
    # 20.07-20.27 -> 19.12-19.40; 7168x18432 (2, 1, 4, 1, 3) (1.7 waves) even
    PDL_ONE_WAVE_SPLITS = True
    # The scale table for the staged configs with the register prefetch where it measured
    # faster (branch one-wave-pdl, M = 1 / 2, us): two row tiles (fused 36864x7168 44.75 ->
    # 44.24, 9216x7168 15.16 -> 14.45; 5120x17408 split 20.28 -> 19.99 at M = 2), or one row
    # tile over one wave with >= 4 steps a warp (9216x7168 13.44 -> 12.97). One row tile over
    # many waves lost (36864x7168 42.31 -> 42.97, 34816x5120 30.20 -> 31.14: the table is
    # built once per CTA), and so did one step a warp (7168x2048 3.91 -> 4.03).
    STAGED_SCALE_TABLE = True
    STAGED_TABLE_MIN_STEPS = 4
    # The register path (no staged activations, no cp.async ring) takes the weight and the
    # activation scale splats from the table too: two instructions (byte extraction, shared
    # load) against five (conversion, fp32 multiply, splat). H200 2026-11-30
    # (``tools/ab_act_decode.sh``, graph us, without -> with): M = 8 7168x18432 28.70 -> 27.72,
    # 36864x7168 45.13 -> 44.01, 34816x5120 33.52 -> 32.66, 7168x2048 4.58 -> 4.43; M = 16
    # 34816x5120 44.69 -> 43.24, fused 9216x7168 21.76 -> 20.69. With the ring (7168x18432
    # M = 16) it lost: 38.36 -> 39.76.
    REGISTER_SCALE_TABLE = True
    # With the first weights loaded before the PDL wait (``pdl_load_early``), the register
    # path's scale table filled before the wait too, not after it (a probe switch,
    # ``tools/table_first_probe.py``; H200 2026-12-02, session 42: even or slower at all ten
    # points, 9216x7168 M = 4 14.69 -> 14.74 us, 7168x2048 M = 4 4.40 -> 4.77).
    TABLE_BEFORE_WAIT = False
    # Probe switch: the paired-step loop on one row tile of staged activations too (no K split,
    # any K), set after every other rule, so the launch (PDL, CTAs per SM) stays the one-row
    # tile's: the register buffers trade roles instead of the ~20 moves a step of their copy.
    # SASS (CPU, 9216x7168, (1, 1, 4, 1)): 278 -> 258 instructions a step, with lane columns
    # 213 -> 191, 72 -> 79 / 78 registers. Session 13 measured the paired loop on one row
    # tile mixed (M = 1 9216x7168 13.49 -> 12.95 us, 36864x7168 42.05 -> 42.96, with the
    # table); ``tools/lane_columns_probe.py`` times it beside lane columns.
    PAIRED_ONE_ROW_TILE = False

    def _choose_launch(self, n: int, a_fp4: bool, row_tiles: int, warps: int, prefetch: int,
                       x_tokens: int, splits: int, steps_per_warp: int,
                       acc_per_lane: int, row_groups: int = 1) -> None:
        """The launch rules for a config (``NVFP4GemmSmallM.__init__``'s arguments, with the
        K steps each warp walks and the accumulators per lane; ``row_tiles`` a warp's, the
        CTA's ``row_tiles * row_groups``)."""
        # One row tile (or ``paired_steps``) with staged activations (the register prefetch):
        # loads from per-thread bases (``row_offsets``) and a zero step for the token lanes
        # past the staged tokens (``_staged_views``). H200 2026-11-30 (``tools/ab_loop.sh``,
        # M = 1, us): 34816x5120 31.9 -> 30.2, 9216x7168 14.2 -> 13.6, 36864x7168 43.1 -> 42.4.
        # With two row tiles the same loop without the fence and table lost (7168x18432 26.1 ->
        # 28.4), so other configs keep the per-row clamped addresses
        # (notes/h200-2026-11-30-s12.md, -s13.md).
        self.paired_steps = (x_tokens > 0 and prefetch == 1 and row_tiles == 2 and splits == 1
                             and steps_per_warp >= self.PAIRED_MIN_STEPS)
        self.lean_staged = (x_tokens > 0 and prefetch == 1
                            and (row_tiles == 1 or self.paired_steps))
        short_k = not self.PDL and steps_per_warp <= self.PDL_SHORT_K_STEPS
        # the paired-step loop takes PDL too, its CTAs held to two per SM (``PDL_PAIRED``)
        paired_pdl = not self.PDL and self.paired_steps and self.PDL_PAIRED
        # CTAs per SM of a grid of one token tile
        wave = -(-(-(-n // (16 * row_tiles * row_groups)) * splits) // H200_SMS)
        # the one-token rules' activations: NVFP4, or one staged bf16 token (``ONE_TOKEN_W4A16``)
        token_kind = a_fp4 or (self.ONE_TOKEN_W4A16 and x_tokens == 1)
        # one staged token on a K split (trigger at the start) or 8 warps (``PDL_ONE_TOKEN``)
        one_token = (not self.PDL and self.PDL_ONE_TOKEN and not paired_pdl and token_kind
                     and self.permuted and x_tokens == 1 and prefetch == 1 and row_groups == 1
                     and (splits > 1 or warps == 8))
        one_token_start = one_token and (
            splits > 1 or steps_per_warp <= self.PDL_ONE_TOKEN_START_STEPS)
        staged_wave = (self.ONE_WAVE_STAGED and x_tokens == 1 and self.permuted
                       and row_tiles == 1 and row_groups == 1 and not one_token_start)
        one_wave = (not self.PDL and not short_k and not paired_pdl and self.PDL_ONE_WAVE
                    and (a_fp4 or (token_kind and staged_wave)) and (x_tokens == 0 or staged_wave)
                    and prefetch == 1
                    and (splits == 1 or self.PDL_ONE_WAVE_SPLITS)
                    and wave <= self.ONE_WAVE_CTAS)
        self.pdl = (self.PDL or short_k or paired_pdl or one_wave or one_token) and pdl_enabled()
        register_start = (self.PDL and self.REGISTER_PDL_START and a_fp4 and self.permuted
                          and x_tokens == 0 and splits == 1)
        groups_start = (self.PDL and a_fp4 and self.permuted and x_tokens == 1
                        and row_groups > 1 and wave <= self.STAGED_GROUPS_START_CTAS)
        if short_k or one_token_start or register_start or groups_start:
            self.pdl_trigger = "start"
        elif one_wave and row_tiles == 1:
            self.pdl_trigger = self.ONE_WAVE_TRIGGER
        else:
            self.pdl_trigger = self.PDL_TRIGGER
        self.pdl_load_early = ((self.PDL_LOAD_BEFORE_WAIT or short_k or paired_pdl or one_wave
                                or one_token) and prefetch == 1)
        # CTAs per SM the shared memory leaves room for (0: no cap)
        self.ctas_cap = (2 if paired_pdl else wave if one_wave else 0) if self.pdl else 0
        one_wave_table = (wave <= self.ONE_WAVE_CTAS
                          and steps_per_warp >= self.STAGED_TABLE_MIN_STEPS)
        staged_table = (x_tokens > 0 and prefetch == 1 and self.STAGED_SCALE_TABLE
                        and (row_tiles >= 2 or one_wave_table))
        # scale splats looked up in a shared-memory table (``_scale_table``)
        self.scale_table = (self.paired_steps or staged_table
                            or (not x_tokens and prefetch <= 1 and self.REGISTER_SCALE_TABLE))
        # Register-path CTAs of 4 warps with 16 accumulators per lane (more would spill) are
        # held to three per SM (<= 168 registers): uncapped, ptxas gives (2, 2, 4, 1) 179 since
        # session 12's loop, two CTAs per SM, and the fused 9216x7168 M = 16 went from 24.1 us
        # (session 11, 168 registers) to 32.8; capped it takes 166 without spilling and 22.3
        # us (M = 12: 32.8 -> 22.2; H200 2026-11-30, ``tools/ab_min_ctas.sh``, two rounds).
        # Other configs pass no hint at all (0): even a hint of 1 changes ptxas's choices
        # ((2, 1, 4, 1) 143 -> 149 registers, unmeasured). ``tests/test_small_m_occupancy.py``
        # checks the CTAs per SM of the main configs.
        self.min_ctas = (3 if warps == 4 and prefetch == 1 and not x_tokens
                         and acc_per_lane == 16 else 0)
        if (self.PAIRED_ONE_ROW_TILE and x_tokens > 0 and prefetch == 1 and row_tiles == 1
                and splits == 1):
            self.paired_steps = self.scale_table = True
