"""A bit-permuted NVFP4 weight layout that the GEMM kernels decode with fewer integer
instructions (``tools/permuted_decode_probe.py``: M = 1 4-12% faster on the H200).

The small-M loop turns each 32-bit word of 8 e2m1 codes (element j in bits 4j..4j+3) into
four bf16x2 MMA operand pairs: pair r holds elements r and r + 4 with their magnitude bits at
6..8 / 22..24 and their sign bits at 15 / 31 (``device_mma.e2m1x2_raw``: two shifts and two
masks per pair, 8 + 8 integer instructions per word, most of the loop's issue slots). Here
each word's bits are permuted once, on the host, so that the same pairs come out of (P = the
eight target bits)

* pair 0: ``w & P``;
* pair 1: ``rotl(w, 10) & P``;
* pair 2: ``rotl(w, 13) & P`` (the rotations are one funnel shift each);
* pair 3: the 8 bits left, {0, 1, 3, 4, 16, 17, 19, 20}, masked and multiplied by
  ``2^2 + 2^7 + 2^12``: three copies of them that never overlap, so no carries, with each
  target bit in exactly one copy: ``((w & R) * 0x1084) & P``;

8 integer instructions per word (5 masks, 2 rotations, 1 multiply) where the standard layout
takes 16 (and a first permutation, with left shifts 0 / 3 / 6 and three terms for pair 3, took
11 with 8 of them on the integer ALU; these take 7 there, the multiply goes to the FMA pipe).
No set of shifts without rotation serves all four pairs (``tests/test_permuted_fp4`` checks the
rule on every byte pattern), and no layout at all gives all four in two instructions each, by
rotations, or across two words by funnel shifts or selects (an exact-cover search,
``test_no_layout_gives_every_pair_in_two_instructions``): one pair takes three, so a word takes
at least 8, as here (two words at least 15). The pairs' values, and so the MMA operands and the
results, are bit-identical to the standard layout's. Scales are unchanged.

Permuted weights travel as int32 words [N, K/8] (``as_permuted_words``), so the GEMMs tell the
layouts apart by dtype (``weight_dims``): packed uint8 [N, K/2] is the standard layout. This
is the second permutation (2026-11-30, session 12, A/B against the first in one device run:
M = 1 1-5% faster on four of five shapes, 2% slower on 34816x5120); words prepared by an
earlier version are not these: prepare them again from the packed bytes (the models do, at
load).

The wgmma kernels take whole permuted words per thread, which fixes their MMA K order inside
each 64-element group (``k_order.PERMUTED_K_ORDER``): with permuted weights their bf16
activations come in that order (``k_order.order_k``, or the dequantize kernel writing it
directly).
"""

from __future__ import annotations

import torch

# target bit of (element half h, bit t of the nibble: m, e0, e1, sign) in the pair's bf16x2
_OUT_BITS = (6, 7, 8, 15)
MASK_P = 0x81C081C0
# pairs 1 and 2: rotate the word left by this many bits, then mask
PAIR_ROTATION = {1: 10, 2: 13}
# pair 3: mask the word with PAIR3_MASK, multiply by PAIR3_MULTIPLIER (copies shifted left by
# 2, 7 and 12), then mask with P; where each target bit comes from (low half; high half + 16)
PAIR3_MASK = 0x001B001B
PAIR3_MULTIPLIER = (1 << 2) | (1 << 7) | (1 << 12)
_PAIR3_SOURCE = {6: 4, 7: 0, 8: 1, 15: 3}

# Byte q of the standard word (elements 2q and 2q + 1, the low one in the low half) out of a
# permuted word, for the wgmma kernels' decode with K as it is (``KOrder.PERMUTED_IDENTITY``):
# the low element by a rotation and P's low half; the high one by a rotation, a mask and a
# multiply (pair 3's copies, 16 bits up where its element sits in the low half) and P's high
# half. Per q: (low rotation, high rotation, high mask, high multiplier), ``byte_pair``.
WORD_MASK = 0xFFFFFFFF
BYTE_PAIR = ((0, 26, WORD_MASK, 1),
             (13, 0, PAIR3_MASK & 0xFFFF, PAIR3_MULTIPLIER << 16),
             (16, 10, WORD_MASK, 1),
             (29, 0, PAIR3_MASK & 0xFFFF0000, PAIR3_MULTIPLIER))
MASK_P_LOW, MASK_P_HIGH = MASK_P & 0xFFFF, MASK_P & 0xFFFF0000


def byte_pair(word: int, q: int) -> int:
    """``BYTE_PAIR``'s rule on Python integers (the device's ``e2m1x2_permuted_byte``): the
    bf16x2 pair of elements 2q, 2q + 1 (as ``device_mma.e2m1x2_raw`` lays pairs out) of the
    permuted 32-bit ``word``."""
    def rotl(w, s):
        return ((w << s) | (w >> (32 - s))) & WORD_MASK if s else w
    lo_rot, hi_rot, hi_mask, hi_mult = BYTE_PAIR[q]
    high = ((rotl(word, hi_rot) & hi_mask) * hi_mult) & WORD_MASK
    return (rotl(word, lo_rot) & MASK_P_LOW) | (high & MASK_P_HIGH)


def _source_bit(j: int, t: int) -> int:
    """Bit of the permuted word that holds bit ``t`` of element ``j``'s code."""
    r, h = j % 4, j // 4
    out = 16 * h + _OUT_BITS[t]
    if r == 0:
        return out
    if r < 3:
        return (out - PAIR_ROTATION[r]) % 32
    return 16 * h + _PAIR3_SOURCE[_OUT_BITS[t]]


# original bit (4 j + t) -> permuted bit; a bijection of the 32 bits of a word
PERMUTATION = [_source_bit(b // 4, b % 4) for b in range(32)]
assert sorted(PERMUTATION) == list(range(32))


def permute_fp4_words(packed: torch.Tensor) -> torch.Tensor:
    """Packed uint8 NVFP4 codes [..., K/2] (K a multiple of 8) -> the permuted layout, same
    shape and dtype: each 4-byte word (8 codes, little-endian) with its bits moved as
    ``PERMUTATION`` says."""
    if packed.dtype != torch.uint8 or packed.shape[-1] % 4:
        raise ValueError(f"packed: expected uint8 [..., K/2] with K/2 a multiple of 4, got "
                         f"{packed.dtype} {tuple(packed.shape)}")
    return _move_bits(packed, enumerate(PERMUTATION))


def unpermute_fp4_words(permuted: torch.Tensor) -> torch.Tensor:
    """The inverse of ``permute_fp4_words``."""
    return _move_bits(permuted, ((dst, src) for src, dst in enumerate(PERMUTATION)))


def _move_bits(packed: torch.Tensor, moves) -> torch.Tensor:
    """Each 4-byte word of ``packed`` (uint8) with bit ``src`` moved to bit ``dst`` for every
    (src, dst) of ``moves``; same shape and dtype."""
    words = packed.contiguous().view(torch.int32).to(torch.int64) & 0xFFFFFFFF
    out = torch.zeros_like(words)
    for src, dst in moves:
        out |= ((words >> src) & 1) << dst
    out = torch.where(out >= 2**31, out - 2**32, out).to(torch.int32)
    return out.view(torch.uint8).view(packed.shape)


def as_permuted_words(packed: torch.Tensor) -> torch.Tensor:
    """Standard packed uint8 NVFP4 weights [N, K/2] -> permuted int32 words [N, K/8], the form
    ``nvfp4_gemm`` recognizes."""
    if packed.dim() != 2:
        raise ValueError(f"packed: expected a 2-D [N, K/2] tensor, got shape {tuple(packed.shape)}")
    return permute_fp4_words(packed).view(torch.int32)


def prepare_nvfp4_weight(weight: torch.Tensor) -> torch.Tensor:
    """Packed uint8 NVFP4 weights [N, K/2] (ModelOpt's, element 2i in the low nibble) -> the
    permuted int32 words [N, K/8] that ``nvfp4_gemm`` decodes with fewer instructions (H200
    2026-11-30, ``tools/permuted_weights_probe.py``: M = 1 2-12% faster, M = 64 7-26%). The
    scales stay as they are; ``standard_packed`` undoes it. On CUDA it synchronizes the stream
    before returning (outside graph capture): the small-M kernels may read weights before they
    wait for the kernel launched just before them (README "Launches")."""
    if not isinstance(weight, torch.Tensor) or weight.dtype != torch.uint8 or weight.dim() != 2:
        raise TypeError(f"weight: expected packed uint8 [N, K/2], got "
                        f"{getattr(weight, 'dtype', type(weight).__name__)} "
                        f"{tuple(getattr(weight, 'shape', ()))}")
    if weight.shape[1] % 4:
        raise ValueError(f"weight: K/2 = {weight.shape[1]} must be a multiple of 4 (K of 8)")
    return written_before_next_launch(as_permuted_words(weight))


def written_before_next_launch(t: torch.Tensor) -> torch.Tensor:
    """``t`` after its stream has finished writing it (outside graph capture; CPU: as is): the
    kernels that read weights before their PDL wait must not find them half written."""
    if t.is_cuda and not torch.cuda.is_current_stream_capturing():
        torch.cuda.current_stream(t.device).synchronize()
    return t


def standard_packed(words: torch.Tensor) -> torch.Tensor:
    """The inverse of ``as_permuted_words``: int32 words [N, K/8] -> packed uint8 [N, K/2]."""
    return unpermute_fp4_words(words.contiguous().view(torch.uint8))


def packed_form(b):
    """NVFP4 weights as packed uint8 [N, K/2]: permuted int32 words [N, K/8] unpermuted,
    anything else as it is (for the caller's own checks)."""
    if isinstance(b, torch.Tensor) and b.dtype == torch.int32 and b.dim() == 2:
        return standard_packed(b)
    return b


def weight_dims(b: torch.Tensor) -> tuple[int, int, bool]:
    """(N, K, permuted) of NVFP4 weights: packed uint8 [N, K/2], or permuted int32 words
    [N, K/8]."""
    if b.dtype == torch.int32:
        return b.shape[0], 8 * b.shape[1], True
    return b.shape[0], 2 * b.shape[1], False
