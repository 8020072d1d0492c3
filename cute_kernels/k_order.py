"""The K order of the wgmma kernels' bf16 activations inside each 64-element group.

wgmma's A fragment gives thread q of each quad the slots (k16 block kb, 8 half + 2 q + e) of a
row's 64-element group; the weights' decode (``NVFP4GemmLargeM._decode_tile``) decides which
weight element each slot gets, and the activations must come with K in the same order, so
that slot s of both operands holds the same element. Three orders:

* ``KOrder.IDENTITY``: packed weight bytes decoded as they lie: thread q reads all 8 words of
  the row's group (2 x LDS.128) and its 4 scales to use byte q of each. K as it is: W4A16 on
  packed bytes, whose bf16 activations would pay a reordering copy for any other order
  (except at two CTAs an SM, ``wgmma_k_order``).
* ``KOrder.PERMUTED``: ``permuted_fp4``'s words; thread q reads words 2q and 2q + 1 (one
  LDS.64) and one scale, block q, and takes their pairs (``e2m1x2_permuted``):
  ``PERMUTED_K_ORDER``.
* ``KOrder.PAIRS``: packed weight bytes read as ``PERMUTED`` reads words, each word's pairs
  (elements r and r + 4) taken by one multiply (``e2m1x2_by_multiply``: 13 integer
  instructions a word, against 8 for permuted words and 20 for bytes): the pairs are the
  permuted words', so the activations come in ``PERMUTED_K_ORDER``.
* ``KOrder.BYTES``: packed weight bytes read as ``PERMUTED`` reads words, each word's bytes
  taken in turn (``e2m1x2_from_byte``): ``BYTES_K_ORDER``. NVFP4 activations on packed bytes,
  whose dequantize pass writes any order at no cost (H200 2026-12-01,
  ``tools/packed_order_probe.py``, public plans, us, in place / byte order / permuted words:
  nvfp4_gemm 36864x7168 M = 16 70.3 / 60.7 / 50.3, M = 64 89.3 / 81.4 / 69.2, M = 256 177.1 /
  174.9 / 173.1; 9216x7168 M = 64 31.1 / 29.0 / 25.6; 4096x7168 M = 64 21.9 / 20.3 / 18.5;
  the fused op 36864x7168 M = 64 94.5 / 80.7 / 70.8).
"""

from __future__ import annotations

import enum

import torch


class KOrder(enum.IntEnum):
    IDENTITY = 0
    PERMUTED = 1
    BYTES = 2
    PAIRS = 3


def _slot_elements(element_of) -> list[int]:
    """Slot p of a 64-element group -> the K element it multiplies, given ``element_of(kb,
    half, q, e)`` for slot 16 kb + 8 half + 2 q + e."""
    order = []
    for p in range(64):
        kb, s = divmod(p, 16)
        order.append(element_of(kb, s // 8, (s % 8) // 2, s % 2))
    assert sorted(order) == list(range(64))
    return order


# Word 2q + kb // 2 of the group, pair r = 2 (kb % 2) + half: elements r and r + 4 of the word
PERMUTED_K_ORDER = _slot_elements(
    lambda kb, half, q, e: 8 * (2 * q + kb // 2) + 2 * (kb % 2) + half + 4 * e)
# Word 2q + kb // 2 of the group, byte 2 (kb % 2) + half: elements 16 q + 4 kb + 2 half + e
BYTES_K_ORDER = _slot_elements(lambda kb, half, q, e: 16 * q + 4 * kb + 2 * half + e)
SLOT_ELEMENTS = {KOrder.PERMUTED: PERMUTED_K_ORDER, KOrder.BYTES: BYTES_K_ORDER,
                 KOrder.PAIRS: PERMUTED_K_ORDER}

# Each order as a transpose of a group's mixed-radix digits (one strided copy, no index tensor,
# whose host-to-device copy would break CUDA-graph capture): the element's digits, most
# significant first, and which of them (axes of x.reshape(m, k // 64, *radices)) each slot
# digit is, most significant first.
_DIGITS = {
    # element 16 q + 8 b + 4 e + 2 c + half -> slot 16 (2 b + c) + 8 half + 2 q + e
    KOrder.PERMUTED: ((4, 2, 2, 2, 2), (3, 5, 6, 2, 4)),
    # element 16 q + 4 kb + 2 half + e -> slot 16 kb + 8 half + 2 q + e
    KOrder.BYTES: ((4, 4, 2, 2), (3, 4, 2, 5)),
}
_DIGITS[KOrder.PAIRS] = _DIGITS[KOrder.PERMUTED]


def order_k(x: torch.Tensor, k_order: KOrder, rows: int | None = None) -> torch.Tensor:
    """Activations [M, K] (K a multiple of 64) with each 64-element group of K in ``k_order``
    (``PERMUTED``, ``PAIRS`` or ``BYTES``): out[:, 64 g + p] = x[:, 64 g + SLOT_ELEMENTS[k_order][p]].
    ``rows`` (>= M): the result has that many rows, zeros past M (``bf16_activations``' whole
    token tiles)."""
    radices, slot_axes = _DIGITS[KOrder(k_order)]
    m, k = x.shape
    moved = x.reshape(m, k // 64, *radices).permute(0, 1, *slot_axes)
    if rows is None or rows <= m:
        return moved.reshape(m, k)
    out = torch.empty((rows, k), dtype=x.dtype, device=x.device)
    out[:m].view(moved.shape).copy_(moved)  # the same strided copy, into the padded buffer
    out[m:].zero_()
    return out


def wgmma_k_order(b: torch.Tensor, a_fp4: bool, ctas_per_sm: int = 1) -> KOrder:
    """The order for weights ``b`` (permuted int32 words or packed uint8 bytes), activations
    that are NVFP4 (``a_fp4``) or bf16, and a launch of ``ctas_per_sm`` CTAs an SM. bf16
    activations on packed bytes take the byte order only at two CTAs an SM (the narrow tiles
    of the largest weights, where the decode is the most of the time): elsewhere the
    reordering copy (``order_k``) costs more than the decode saves
    (``tools/w4a16_order_probe.py``, H200 2026-12-01, W4A16, us, in place / byte order, two
    rounds: two CTAs an SM, nvfp4_gemm 36864x7168 M = 32 78.1, 78.1 / 67.8, 67.8, the fused op
    36864x7168 M = 64 92.8, 92.9 / 84.8, 85.0; one, nvfp4_gemm 36864x7168 M = 64 88.8 / 86.3,
    M = 256 183.1 / 187.3, 9216x7168 M = 64 30.5 / 33.2, 4096x7168 M = 256 41.2 / 43.5,
    7168x18432 M = 64 50.1 / 53.0, 7168x2048 M = 256 18.4 / 20.3)."""
    if b.dtype == torch.int32:
        return KOrder.PERMUTED
    return KOrder.PAIRS if a_fp4 or ctas_per_sm == 2 else KOrder.IDENTITY
