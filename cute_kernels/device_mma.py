"""Register-level helpers for the tensor-core kernels: packed bf16x2 arithmetic, FP4 decode
straight into MMA operand registers, and the sm_80+ ``mma.sync`` m16n8k16 bf16 instruction.

Called from inside ``@cute.jit``/``@cute.kernel`` code only. Registers are ``cutlass.Uint32``
holding two bf16 values (low half = first element).

FP4 -> bf16 without a conversion instruction (sm_90 has none for e2m1): an e2m1 code
``s e1 e0 m`` placed at bf16 bits 15 | 8 7 | 6 is the bf16 number ``e2m1 * 2^-126`` (e1e0 = 0
lands in bf16's subnormal range, which is exactly e2m1's subnormal 0.5). One bf16x2 multiply
by ``scale * 2^63`` then gives ``e2m1 * scale * 2^-63``, exact: at most 6 significant bits, and
always a bf16 normal (>= 2^-73) for any e4m3 scale. In the wgmma kernels (``nvfp4_gemm_large_m``,
``nvfp4_dequant``) the epilogue multiplies the sums by 2^63. The small-M kernels use
``SPLAT_POW2`` below instead, for weights and fp4 activations alike.
"""

from __future__ import annotations

import cutlass
from cutlass.cute.arch.nvvm_wrappers import inline_ptx

from .permuted_fp4 import (BYTE_PAIR, MASK_P, MASK_P_HIGH, MASK_P_LOW, PAIR3_MASK,
                           PAIR3_MULTIPLIER, PAIR_ROTATION)

BF16X2_POW2_63 = 0x5F005F00   # bf16 2^63 in both halves
POW2_63 = float(2**63)
# The small-M kernels put 2^118 in the splat instead: every fp4 operand, weights and
# activations, is then ``e2m1 * scale * 2^-8`` in one multiply (a bf16 normal for every e4m3
# scale: 448 * 2^118 < 2^127), bf16 activations enter as they are, and the sums, which carry
# 2^-8 per fp4 operand, are scaled back once at the end.
SPLAT_POW2 = 118
FP4_OPERAND_POW2 = SPLAT_POW2 - 126


def in_register(x):
    """``x`` as a register operand: PTX's packed-half instructions take no immediates, and a
    folded constant would otherwise be emitted as one."""
    return inline_ptx("mov.b32 {$w0}, {$r0};", write_only_types=[cutlass.Uint32],
                      read_only_args=[cutlass.Uint32(x)])


def mul_bf16x2(a, b):
    """Lane-wise bf16 product of two packed registers (round to nearest; exact here). The DSL
    has packed bf16 fma/add but no packed multiply."""
    return inline_ptx("mul.rn.bf16x2 {$w0}, {$r0}, {$r1};", write_only_types=[cutlass.Uint32],
                      read_only_args=[cutlass.Uint32(a), cutlass.Uint32(b)])


def prmt(a, b, selector: int):
    """Byte permute of the 8 bytes ``b:a`` (PTX ``prmt.b32``). Not ``cute.arch.prmt``: that one
    is emitted as a side-effecting asm statement, which pins it in place for the scheduler."""
    return inline_ptx(f"prmt.b32 {{$w0}}, {{$r0}}, {{$r1}}, {selector:#x};",
                      write_only_types=[cutlass.Uint32],
                      read_only_args=[cutlass.Uint32(a), cutlass.Uint32(b)])


def byte_of(word, selector):
    """One byte of ``word``, zero-extended: ``prmt.b32`` with a runtime ``selector`` (0x4440 +
    the byte's index; selector nibble 4 picks the zero operand's byte)."""
    return inline_ptx("prmt.b32 {$w0}, {$r0}, 0, {$r1};", write_only_types=[cutlass.Uint32],
                      read_only_args=[cutlass.Uint32(word), cutlass.Uint32(selector)])


def bf16x2_splat(x):
    """Both halves = bf16(x) for an fp32 ``x`` with at most 8 significant bits (exact). (A
    byte permute does it in one instruction, but in the small-M register path ptxas then
    holds ~20 more registers.)"""
    hi = cutlass.Float32(x).bitcast(cutlass.Uint32) & cutlass.Uint32(0xFFFF0000)
    return hi | (hi >> 16)


def _shift(word, left: int):
    return word << left if left > 0 else word >> -left if left < 0 else word


def e2m1x2_raw(word, r: int):
    """Nibbles ``r`` and ``r + 4`` of an 8-code word as bf16x2 ``e2m1 * 2^-126`` (see module).

    Magnitude bits go to 6..8 and the sign to 15 of each half: two shifts of the word, a mask
    and a masked OR (4 instructions). The activation side uses the same (r, r + 4) pairing."""
    mag = _shift(word, 6 - 4 * r) & cutlass.Uint32(0x01C001C0)
    sign = _shift(word, 12 - 4 * r) & cutlass.Uint32(0x80008000)
    return mag | sign


# ``e2m1x2_by_multiply``: pairs r = 0, 2 take the nibbles at bits 0..3 / 16..19 of their source
# word, pairs 1, 3 those at 4..7 / 20..23 (the source shifted right by STANDARD_HIGH_SHIFT for
# r >= 2); the multiplier's two bits are the shifts that put the magnitude at 6..8 and the sign
# at 15 (``tests/test_permuted_fp4.py`` checks them on every nibble pattern)
STANDARD_HIGH_SHIFT = 8
STANDARD_PAIR_MASKS = (0x000F000F, 0x00F000F0)
STANDARD_PAIR_MULTIPLIERS = ((1 << 6) | (1 << 12), (1 << 2) | (1 << 8))


def e2m1x2_by_multiply(word, shifted, r: int):
    """``e2m1x2_raw(word, r)`` in 3 instructions where that takes 4, one of them on the FMA
    pipe: nibbles r and r + 4 masked in place (from ``shifted`` = ``word >> 8`` for r >= 2,
    so every multiplier shifts left), then one multiply makes two copies that cannot overlap,
    one with the magnitude at bits 6..8 / 22..24, one with the sign at 15 / 31, and the mask
    ``MASK_P`` keeps those bits. With ``shifted`` shared by pairs 2 and 3: 13 integer
    instructions per word against 16."""
    src = word if r < 2 else shifted
    mask, multiplier = STANDARD_PAIR_MASKS[r % 2], STANDARD_PAIR_MULTIPLIERS[r % 2]
    return ((src & cutlass.Uint32(mask)) * cutlass.Uint32(multiplier)) & cutlass.Uint32(MASK_P)


def e2m1x2_from_byte(word, selector):
    """The byte of ``word`` that ``selector`` picks (``byte_of``; two e2m1 codes, low nibble
    first) as bf16x2 ``e2m1 * 2^-126``: magnitude at bits 8..6, sign at bit 15 of each half.
    Two multiplies place both nibbles at once (a byte times ``1 << a | 1 << b`` is two shifted
    copies that cannot overlap): ``x * 0x40040`` has the low magnitude at bits 6..8 and the
    high one at 22..24, ``x * 0x1001000`` the signs at bits 15 and 31; two masks keep them.
    Five integer instructions per pair where shift, mask and OR took about nine."""
    x = byte_of(word, selector)
    return (((x * cutlass.Uint32(0x40040)) & cutlass.Uint32(0x01C001C0))
            | ((x * cutlass.Uint32(0x1001000)) & cutlass.Uint32(0x80008000)))


def rotate_left(word, bits: int):
    """``word`` rotated left by ``bits`` (a funnel shift: one instruction; as a 64-bit multiply
    by a power of two ptxas turns it into two LEAs)."""
    return inline_ptx(f"shf.l.wrap.b32 {{$w0}}, {{$r0}}, {{$r0}}, {bits};",
                      write_only_types=[cutlass.Uint32], read_only_args=[cutlass.Uint32(word)])


def e2m1x2_permuted(word, r: int):
    """Pair ``r`` of a word in ``permuted_fp4``'s bit-permuted layout, as ``e2m1x2_raw`` gives
    it from the standard word: pair 0 one mask, pairs 1 and 2 a rotation and a mask, pair 3 a
    mask, a multiply (three non-overlapping shifted copies) and a mask (8 integer instructions
    per word against 16)."""
    if r == 0:
        return word & cutlass.Uint32(MASK_P)
    if r < 3:
        return rotate_left(word, PAIR_ROTATION[r]) & cutlass.Uint32(MASK_P)
    return (((word & cutlass.Uint32(PAIR3_MASK)) * cutlass.Uint32(PAIR3_MULTIPLIER))
            & cutlass.Uint32(MASK_P))


def rotate_left_by(word, bits):
    """``word`` rotated left by a runtime ``bits`` (0..31; one funnel shift)."""
    return inline_ptx("shf.l.wrap.b32 {$w0}, {$r0}, {$r0}, {$r1};",
                      write_only_types=[cutlass.Uint32],
                      read_only_args=[cutlass.Uint32(word), cutlass.Uint32(bits)])


# q = 3's mask and multiplier are q = 1's moved by 16 bits (``permuted_byte_constants``)
assert BYTE_PAIR[3][2:] == (BYTE_PAIR[1][2] << 16, BYTE_PAIR[1][3] >> 16)


def permuted_byte_constants(q):
    """``permuted_fp4.BYTE_PAIR[q]`` for a runtime ``q`` (0..3), as the four registers
    ``e2m1x2_permuted_byte`` takes; computed once a thread, outside the decode loops."""
    def per_q(values):  # byte q of the constant that packs the four values
        packed = sum(v << (8 * i) for i, v in enumerate(values))
        return (cutlass.Uint32(packed) >> (q * 8)) & cutlass.Uint32(0xFF)
    lo_rot = per_q([c[0] for c in BYTE_PAIR])
    hi_rot = per_q([c[1] for c in BYTE_PAIR])
    odd, upper = q & 1, q >> 1
    # q even: all ones and 1 (the rotation alone places the element); q odd: pair 3's mask
    # (low half for q = 1, high for q = 3) and multiplier (16 bits up for q = 1)
    shift = cutlass.Uint32(16) * cutlass.Uint32(upper)
    hi_mask = cutlass.select_(odd == 1, cutlass.Uint32(BYTE_PAIR[1][2]) << shift,
                              cutlass.Uint32(0xFFFFFFFF))
    hi_mult = cutlass.select_(odd == 1, cutlass.Uint32(BYTE_PAIR[1][3]) >> shift,
                              cutlass.Uint32(1))
    return lo_rot, hi_rot, cutlass.Uint32(hi_mask), cutlass.Uint32(hi_mult)


def e2m1x2_permuted_byte(word, constants):
    """Elements 2q and 2q + 1 of a permuted word (byte q of the standard one) as
    ``e2m1x2_raw`` lays a pair out, ``constants`` = ``permuted_byte_constants(q)``: two
    funnel shifts, three masks and a multiply (``permuted_fp4.byte_pair``)."""
    lo_rot, hi_rot, hi_mask, hi_mult = constants
    low = rotate_left_by(word, lo_rot) & cutlass.Uint32(MASK_P_LOW)
    high = (rotate_left_by(word, hi_rot) & hi_mask) * hi_mult
    return low | (high & cutlass.Uint32(MASK_P_HIGH))


def bf16_pair(lo_word, hi_word, r: int):
    """Elements ``r`` and ``r + 4`` of 8 consecutive bf16s held as 4 words (w0..w3), packed:
    ``lo_word`` = w[r // 2], ``hi_word`` = w[r // 2 + 2]."""
    return prmt(lo_word, hi_word, 0x5410 if r % 2 == 0 else 0x7632)


def mma_bf16_m16n8k16(a, b, c):
    """``d = a @ b + c``: a 4 registers (16x16 bf16), b 2 registers (16x8), c/d 4 fp32.

    Fragment ownership (lane = 4 g + q): a0 = A[g, 2q:2q+2], a1 = A[g+8, 2q:2q+2],
    a2 = A[g, 8+2q:10+2q], a3 = A[g+8, 8+2q:10+2q]; b0 = B[2q:2q+2, g], b1 = B[8+2q:10+2q, g];
    c0, c1 = C[g, 2q:2q+2], c2, c3 = C[g+8, 2q:2q+2]."""
    return inline_ptx(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
        "{{$w0}, {$w1}, {$w2}, {$w3}}, {{$r0}, {$r1}, {$r2}, {$r3}}, {{$r4}, {$r5}}, "
        "{{$r6}, {$r7}, {$r8}, {$r9}};",
        write_only_types=[cutlass.Float32] * 4,
        read_only_args=[cutlass.Uint32(x) for x in a] + [cutlass.Uint32(x) for x in b]
        + [cutlass.Float32(x) for x in c])
