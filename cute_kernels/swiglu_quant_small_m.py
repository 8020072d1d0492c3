"""The fused gate_up + SwiGLU + NVFP4 quantization kernel at small M (``nvfp4_gemm_swiglu_quant``
routes here: ``swiglu_small_m_regime``).

Up to 16 tokens, up to 32 or 64 for smaller weights: ``NVFP4GemmSmallM``'s main loop with two
hooks changed.

* ``tile_row``: a CTA with ``rt`` row tiles (``row_tiles * row_groups``; with two row groups
  the up tile and its gate tile are on warps of their own) takes ``rt / 2`` tiles of up rows
  (16 output columns each) and, as tiles ``rt/2 .. rt-1``, the gate rows 64 further. So lane
  ``4g + q`` holds up and gate of the same output column in ``acc[t]`` and ``acc[t + rt/2]``:
  column ``c = c0 + 16 t + g + 8 (e // 2)`` of token ``tok0 + 8 j + 2 q + e % 2`` (``8 rt``
  divides 64, so a CTA's columns never straddle an up/gate group).
* ``epilogue`` (warp 0): h in fp32 per element, ``silu_mul_fast(alpha * gate, alpha * up)``
  as ``silu_mul_nvfp4_quant`` and the large-M kernel form it (ex2/rcp.approx: the precise
  expf and IEEE division were 2/3 of the epilogue); a quant block (16 consecutive columns of one
  token) is exactly one up tile of one token, spread over the 8 lanes that share ``q`` (2
  values each), so the block amax is a butterfly over lane offsets 4, 8, 16. Every lane then
  computes the block's scale, encodes its two values and places each 4-bit code at bit ``4 g``
  of word 0 (column ``g``) or word 1 (column ``g + 8``); an OR butterfly over the same lanes
  gives all 8 lanes the block's 8 packed bytes (element 2i in the low nibble, as the reference
  packs them). Lane ``g = b % 8`` of block ``b`` then writes them in one 8-byte store, plus the
  block's scale byte at its swizzled offset (the CTA's 8 jt tokens share one 128-row tile of
  the layout: a static atom offset per store).
* Scale padding: I is a multiple of 64, so I/16 needs no column padding. The CTAs of the last
  token tile zero the scale rows ``M .. pad128(M)`` of their blocks, so one launch writes the
  whole ``out_sf`` (also a caller's poisoned buffer), and CUDA graphs need no extra memset.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream
from cutlass.memory import SmemAllocator

from layouts import GATE_UP_GROUP

from . import jit
from .arch import compile_options
from .device_fp4 import RECIPROCAL_TABLE_SIZE, fill_reciprocal_table, quantize_block_pair
from .device_silu import silu_mul_fast
from .fused_scales import BLOCK, scale_tile_at, zero_scale_padding, zero_scale_padding_words
from .nvfp4_gemm_large_m import H200_SMS
from .nvfp4_gemm_small_m import NVFP4GemmSmallM, fake_operands
from .nvfp4_gemm_small_m_split import fake_split_buffers, reduce_split_partials


class NVFP4GemmSwigluQuantSmallM(NVFP4GemmSmallM):
    """Static I (output columns), K, activation type and tile config; the CTA's row tiles
    (``row_tiles * row_groups``) even, 8 times them dividing 64 (2, 4 or 8)."""

    # PDL on (``NVFP4GemmSmallM.PDL``): M = 1, graph us, off / on (H200 2026-11-30,
    # ``tools/pdl_probe.py``, loads before the wait): 1024x7168 6.96 / 5.87, 4096x7168 9.92 /
    # 8.17, 36864x7168 50.1 / 47.9. The first step's weight loads go out before the wait: with
    # them after it (``tools/pdl_load_probe.py``, H200 2026-11-30, two alternated runs each)
    # 1024x7168 6.64 / 6.63 against 5.75 / 5.75, 4096x7168 9.18 / 9.14 against 8.37 / 8.34,
    # 36864x7168 48.8 / 48.6 against 48.9 / 47.7. The weights are constants of the model; the
    # one writer we ship, ``prepare_gate_up_weight``, synchronizes before it returns.
    PDL = True
    PDL_LOAD_BEFORE_WAIT = True
    # Register-path launches without a K split trigger the next kernel at the CTA start, not
    # after the main loop. H200 2026-12-02 (session 43, ``tools/wave_start_probe.py``, two
    # rounds, graph us, loop / start): 9216x7168 M = 2 / 4 / 8 15.26 / 15.19 / 15.31 -> 15.02
    # / 14.98 / 15.07, 36864x7168 M = 4 45.09 -> 44.69, 34816x5120 M = 4 33.69 -> 33.57,
    # 4096x7168 M = 4 / 8 8.58 / 8.68 -> 8.53 / 8.65. Staged tokens and K splits lost or won
    # nothing: 4096x7168 M = 1 / 2 7.67 / 8.09 -> 9.85 / 11.30, 2048x7168 (split in two) M = 1
    # 6.75 -> 8.01, M = 4 even, 1024x7168 (split in four) M = 1 / 4 5.78 / 6.38 -> 7.11 / 9.52,
    # 36864x7168 M = 1 43.58 -> 43.73, 34816x5120 30.77 -> 30.93 (9216x7168 M = 1 13.92 ->
    # 13.71 won). Held to the wave's CTAs per SM as the plain GEMM's one-wave launches, it did
    # no better (9216x7168 M = 1 / 4 13.82 / 15.00, 4096x7168 M = 1 7.77).
    REGISTER_PDL_START = True
    # The one-token row groups ((1, 1, 8, 1, 1, 2)) trigger at the CTA start up to three CTAs
    # an SM. H200 2026-12-02 (session 44, ``tools/fused_staged_start_probe.py``, two rounds,
    # graph us, loop / start; CTAs an SM in brackets): K = 7168, 2I = 6144 (1.5) 11.88 / 11.59
    # -> 10.53, 9216 (2.2) 13.94 / 13.93 -> 13.72 / 13.65, 12288 (2.9) 15.35 / 15.33 -> 15.27 /
    # 15.25, 16384 (3.9) 24.57 -> 24.85, 24576 (5.8) 30.0 -> 29.6; K = 5120: 8.96 / 8.91 ->
    # 8.36, 10.91 -> 10.58, 12.07 -> 11.93, 19.14 -> 19.43, 23.26 -> 22.82. Session 43:
    # 36864x7168 (8.7) 43.58 -> 43.73, 34816x5120 30.77 -> 30.93. The 5.8 wins are left out:
    # losses on both sides of them. In the DeepSeek-V3 TP4 MLP step at one token (quantize,
    # fused 9216x7168, down 7168x4608; ``tools/mlp_step_switch_probe.py`` point 21, rule / off):
    # 27.44, 27.36 / 28.18, 28.17.
    STAGED_GROUPS_START_CTAS = 3
    # The epilogue's tail at one token: the scale padding past M as whole words
    # (``zero_scale_padding_words``) instead of a byte a row, and (the balanced launch) the
    # blocks' out_scale looked up in a table of G filled at the CTA start (``epilogue_table``)
    # instead of two divisions after the main loop. H100 2026-12-06 (session 89 call 12,
    # ``tools/fused_gap_probe.py``, graph us, two rounds alike, the same codes and scale bytes):
    # the fused 9216x7168 M = 1 (balanced (8, 2)) 16.35 -> words 15.97, table 16.09, both 15.59.
    # The words on the other small-M paths (call 19, ``tools/padding_words_probe.py``, bytes /
    # words): 9216x7168 M = 2 / 4 / 8 16.78 / 16.81 / 16.83 -> 16.54 / 16.53 / 16.57,
    # 36864x7168 M = 1 56.4 -> 55.8, 1024x7168 M = 1 (K split) 6.39 -> 5.98; but 4096x7168
    # M = 1 8.65 -> 8.83-9.04 (its rounds 0.2 apart: to recheck).
    PADDING_WORDS = True
    # The table on the register and K-split paths too (``NVFP4GemmSmallM.kernel`` fills it
    # after the wait), where the launch is at most ``EPILOGUE_TABLE_MAX_CTAS`` CTAs (row blocks
    # times K splits): every CTA fills its own, so on many CTAs the fills cost more than the
    # divisions they save. H100 2026-12-06 (session 90 call 1, ``tools/padding_words_probe.py``,
    # two rounds, graph us, divisions / table, equal bytes): 9216x7168 (288 CTAs) M = 2 / 4 /
    # 8 16.45 / 16.53 / 16.56 -> 16.23 / 16.30 / 16.33, M = 16 19.82 -> 19.80, 4096x7168
    # M = 1 (128) 8.71-8.88 -> 8.57, 1024x7168 M = 1 (32 x 4 splits) 6.13 -> 5.62; but
    # 36864x7168 M = 1 (1152) 55.84 -> 56.21. With this cap (call 2, another H100, divisions /
    # the rule): 9216x7168 M = 2 / 4 / 8 16.08 / 16.18 / 16.18 -> 15.74 / 15.80 / 15.86,
    # 4096x7168 M = 1 8.75-8.89 -> 8.41, 1024x7168 M = 1 5.99-6.13 -> 5.62, 36864x7168 M = 1
    # 54.49 -> 54.46 (the table on it 54.52-54.61); 305 fused GPU tests passed, memcheck and
    # racecheck clean (``tools/sanitize_fused_table.py``).
    EPILOGUE_TABLE = True
    EPILOGUE_TABLE_MAX_CTAS = 3 * H200_SMS

    def __init__(self, i: int, k: int, a_fp4: bool, row_tiles: int = 2, token_tiles: int = 1,
                 warps: int = 4, prefetch: int = 1, x_tokens: int = 0, splits: int = 1,
                 permuted: bool = False, row_groups: int = 1, lane_columns: bool = False):
        tiles = row_tiles * row_groups
        assert i % GATE_UP_GROUP == 0
        assert tiles % 2 == 0 and GATE_UP_GROUP % (8 * tiles) == 0
        super().__init__(2 * i, k, a_fp4, cutlass.Uint8, row_tiles, token_tiles, warps, prefetch,
                         x_tokens, splits, permuted, row_groups, lane_columns)
        self.i = i
        self.half = tiles // 2  # up tiles per CTA; tiles half.. are their gate rows
        self.kb_out = i // BLOCK  # a multiple of 4: the scale buffer has no column padding

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mG: cute.Tensor, mQ: cute.Tensor, mSF: cute.Tensor,
                 stream):
        self._launch(mA, mASF, mB, mBSF, (mAlpha, mG), (mQ, mSF), stream)

    def tile_row(self, block, t: int):
        """Up tile ``t < half`` of block ``block`` holds output columns ``c .. c + 15``: weight
        rows ``128 (c // 64) + c % 64 ..``; tile ``t + half`` the gate rows 64 further."""
        c = block * (16 * self.half) + (t % self.half) * 16
        return (c // GATE_UP_GROUP) * (2 * GATE_UP_GROUP) + c % GATE_UP_GROUP + (
            t // self.half) * GATE_UP_GROUP

    @cute.jit
    def epilogue(self, acc, scalars, outs, block, tok0, g, lane_q, m):
        """SwiGLU, block scales, packed codes and the scale padding (see the module docstring).
        ``scalars`` = (alpha, G), ``outs`` = (packed [M, I/2], scale bytes)."""
        mQ, mSF = outs
        alpha = scalars[0][0]
        gs = scalars[1][0]
        table = scalars[2] if len(scalars) > 2 else None  # ``epilogue_table``'s
        kb0 = block * self.half  # the CTA's first scale block (= 16-column group)
        # tok0 is a multiple of 8 jt, so the CTA's 8 jt tokens lie in one 128-row tile
        sSF, r0 = scale_tile_at(mSF, self.kb_out, tok0, kb0, 128)

        # 1. h (over the up sums). Blocks (t, j, p) are token tok0 + 8 j + 2 q + p, columns
        #    16 (kb0 + t) ..; this lane holds columns g and g + 8 in acc[t, j, p] and
        #    acc[t, j, p + 2]: the accumulator slice quantize_block_pair takes.
        # 2. Scales and codes (quantize_block_pair); lane g = b % 8 stores block b.
        for t in cutlass.range_constexpr(self.half):
            for j in cutlass.range_constexpr(self.jt):
                for e in cutlass.range_constexpr(4):
                    # silu(gate) * up as silu_mul_nvfp4_quant and the large-M kernel form it
                    acc[t, j, e] = silu_mul_fast(alpha * acc[t + self.half, j, e],
                                                 alpha * acc[t, j, e])
                quant = quantize_block_pair(acc[t, j, 0], acc[t, j, 1], acc[t, j, 2],
                                            acc[t, j, 3], g, gs, table)
                for p in cutlass.range_constexpr(2):
                    b = (t * self.jt + j) * 2 + p
                    tok = tok0 + j * 8 + lane_q * 2 + p
                    if g == b % 8 and tok < m:
                        gQ = cute.recast_tensor(cute.local_tile(mQ, (1, 8), (tok, kb0 + t)),
                                                cutlass.Uint64)
                        gQ[0] = quant[p]
                        sSF[r0 + j * 8 + lane_q * 2 + p, t] = quant[2 + p]

        # 3. The last token tile's CTAs zero scale rows M .. pad128(M) of their blocks.
        if tok0 + 8 * self.jt >= m:
            if cutlass.const_expr(self.PADDING_WORDS):
                zero_scale_padding_words(mSF, self.kb_out, m, 4 * g + lane_q, kb0, self.half)
            else:
                zero_scale_padding(mSF, self.kb_out, m, 4 * g + lane_q, kb0, self.half)

    def epilogue_table_on(self) -> bool:
        """Whether the launch takes the out_scale table (``EPILOGUE_TABLE`` above)."""
        ctas = -(-self.n // (16 * self.rt_cta)) * self.splits
        return self.EPILOGUE_TABLE and ctas <= self.EPILOGUE_TABLE_MAX_CTAS

    def epilogue_table_bytes(self) -> int:
        """Shared memory ``epilogue_table`` allocates."""
        return 4 * RECIPROCAL_TABLE_SIZE + 16 if self.epilogue_table_on() else 0

    def epilogue_table(self, scalars, tid):
        """With ``epilogue_table_on``: ``scalars`` with the out_scale table of G appended
        (shared memory, filled by the CTA's threads ``tid``; the caller's next CTA barrier
        orders it before the epilogue's lookups); else ``scalars``."""
        if not self.epilogue_table_on():
            return scalars
        table = SmemAllocator().allocate_tensor(
            cutlass.Float32, cute.make_layout(RECIPROCAL_TABLE_SIZE), byte_alignment=16)
        fill_reciprocal_table(table, scalars[1][0], tid, self.cta_threads())
        if cutlass.const_expr(self.cta_threads() == 32):  # no CTA barrier follows: the warp's
            cute.arch.sync_warp()
        return (*scalars, table)


class NVFP4GemmSwigluQuantSmallMSplitK(NVFP4GemmSwigluQuantSmallM):
    """The fused small-M kernel with K split over grid z (``splits`` >= 2): the tile's last
    split CTA adds the fp32 partials (``reduce_split_partials``) and runs the SwiGLU +
    quantization epilogue. For shapes with few row blocks (1024x7168: 32 CTAs at M = 1)."""

    def __init__(self, i: int, k: int, a_fp4: bool, row_tiles: int, token_tiles: int,
                 warps: int, prefetch: int, x_tokens: int, splits: int,
                 permuted: bool = False, row_groups: int = 1, lane_columns: bool = False):
        assert splits >= 2
        super().__init__(i, k, a_fp4, row_tiles, token_tiles, warps, prefetch, x_tokens, splits,
                         permuted, row_groups, lane_columns)

    @cute.jit
    def __call__(self, mA: cute.Tensor, mASF: cute.Tensor, mB: cute.Tensor, mBSF: cute.Tensor,
                 mAlpha: cute.Tensor, mG: cute.Tensor, mQ: cute.Tensor, mSF: cute.Tensor,
                 mWork: cute.Tensor, mCount: cute.Tensor, stream):
        self._launch(mA, mASF, mB, mBSF, (mAlpha, mG), (mQ, mSF, mWork, mCount), stream)

    @cute.jit
    def epilogue(self, acc, scalars, outs, block, tok0, g, lane_q, m):
        mQ, mSF, mWork, mCount = outs
        if reduce_split_partials(acc, mWork, mCount, self.splits, g * 4 + lane_q):
            NVFP4GemmSwigluQuantSmallM.epilogue(self, acc, scalars, (mQ, mSF), block, tok0, g,
                                                lane_q, m)


@jit.cached
def compile_nvfp4_gemm_swiglu_quant_small_m(i: int, k: int, a_dtype: str, row_tiles: int = 2,
                                            token_tiles: int = 1, warps: int = 4,
                                            prefetch: int = 1, x_tokens: int = 0,
                                            splits: int = 1, permuted: bool = False,
                                            row_groups: int = 1, lane_columns: bool = False):
    """Static I (weights [2I, K/2]), K and tile config; M dynamic. ``a_dtype`` "fp4" or
    "torch.bfloat16" (W4A16). Arguments of the compiled function: a, a_sf, w, w_sf (as
    ``compile_nvfp4_gemm_small_m``), alpha, out_global_scale, out uint8 [M, I/2], out_sf bytes
    (flat uint8), and with ``splits`` > 1 ``split_buffers``' workspace and counters;
    ``permuted``: weights in ``permuted_fp4``'s layout; ``row_groups``: ``NVFP4GemmSmallM``'s
    (the up tile and its gate tile on warps of their own); ``lane_columns``: its too."""
    a_fp4 = a_dtype == "fp4"
    operands = fake_fused_operands(i, k, a_fp4)
    if splits == 1:
        kernel = NVFP4GemmSwigluQuantSmallM(i, k, a_fp4, row_tiles, token_tiles, warps,
                                            prefetch, x_tokens, permuted=permuted,
                                            row_groups=row_groups, lane_columns=lane_columns)
        extra = ()
    else:
        kernel = NVFP4GemmSwigluQuantSmallMSplitK(i, k, a_fp4, row_tiles, token_tiles, warps,
                                                  prefetch, x_tokens, splits, permuted,
                                                  row_groups, lane_columns)
        extra = fake_split_buffers()
    return cute.compile(kernel, *operands, *extra,
                        make_fake_stream(use_tvm_ffi_env_stream=True), options=compile_options())


def fake_fused_operands(i: int, k: int, a_fp4: bool) -> tuple:
    """(a, a_sf, w, w_sf, alpha, out_global_scale, out, out_sf): the fake arguments of the
    fused small-M kernels (static I and K, dynamic M), as their compiled functions take them."""
    m, a, a_sf, b, b_sf, alpha = fake_operands(2 * i, k, a_fp4)
    gs = make_fake_compact_tensor(cutlass.Float32, (1,))
    q = make_fake_compact_tensor(cutlass.Uint8, (m, i // 2), stride_order=(1, 0),
                                 assumed_align=16)
    sf = make_fake_compact_tensor(cutlass.Uint8, (cute.sym_int(),), assumed_align=16)
    return a, a_sf, b, b_sf, alpha, gs, q, sf
