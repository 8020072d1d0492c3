"""The K order of the wgmma kernels' bf16 activations inside each 64-element group.

wgmma's A fragment gives thread q of each quad the slots (k16 block kb, 8 half + 2 q + e) of a
row's 64-element group; the weights' decode (``NVFP4GemmLargeM._decode_tile``) decides which
weight element each slot gets, and the activations must come with K in the same order, so
that slot s of both operands holds the same element. The orders:

* ``KOrder.IDENTITY``: packed weight bytes decoded as they lie: thread q reads all 8 words of
  the row's group (2 x LDS.128) and its 4 scales to use byte q of each. K as it is, for
  callers that pass the activations as they are (``launch_large_m``'s default on packed
  bytes); the public functions take ``PAIRS``.
* ``KOrder.PERMUTED``: ``permuted_fp4``'s words; thread q reads words 2q and 2q + 1 (one
  LDS.64) and one scale, block q, and takes their pairs (``e2m1x2_permuted``):
  ``PERMUTED_K_ORDER``.
* ``KOrder.PAIRS``: packed weight bytes read as ``PERMUTED`` reads words, each word's pairs
  (elements r and r + 4) taken by one multiply (``e2m1x2_by_multiply``: 13 integer
  instructions a word, against 8 for permuted words): the pairs are the permuted words', so
  the activations come in ``PERMUTED_K_ORDER``. It replaced session 28's byte order (each
  word's bytes in turn, 20 instructions a word; ``wgmma_k_order`` has the figures).
* ``KOrder.PERMUTED_IDENTITY``: permuted words decoded to K as it is: thread q reads all 8
  words of the row's group, as IDENTITY does, and takes elements 2q, 2q + 1 of each
  (``device_mma.e2m1x2_permuted_byte``: 6 instructions a word, against 2 for PERMUTED's
  whole words). bf16 activations then need no reordering copy (W4A16 at large M).
* ``KOrder.BF16``: no decode in the main loop: the weights come as bf16 [N, K] (K as it is,
  ``e2m1 * scale * 2^-63``: the values the decode would give; ``bf16_weights.bf16_weights``'
  pass) and wgmma reads both operands from shared memory. For bf16 activations on small
  weights at many tokens (W4A16), where the decode in the main loop costs more than the
  pass over the weights.
"""

from __future__ import annotations

import enum

import torch


class KOrder(enum.IntEnum):
    IDENTITY = 0
    PERMUTED = 1
    PAIRS = 2
    PERMUTED_IDENTITY = 3
    BF16 = 4


# The orders that leave K as it is (the activations need no reordering)
IN_PLACE_ORDERS = (KOrder.IDENTITY, KOrder.PERMUTED_IDENTITY, KOrder.BF16)
# The orders the main loop decodes (all but BF16's bf16 weights)
DECODE_ORDERS = tuple(order for order in KOrder if order != KOrder.BF16)
# The orders that decode permuted words (the others packed bytes)
WORD_ORDERS = (KOrder.PERMUTED, KOrder.PERMUTED_IDENTITY)


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
SLOT_ELEMENTS = {KOrder.PERMUTED: PERMUTED_K_ORDER, KOrder.PAIRS: PERMUTED_K_ORDER}

# PERMUTED_K_ORDER (both orders' activations) as a transpose of a group's mixed-radix digits
# (one strided copy, no index tensor, whose host-to-device copy would break CUDA-graph capture):
# the element's digits, most significant first, and which of them (axes of
# x.reshape(m, k // 64, *radices)) each slot digit is, most significant first. Element
# 16 q + 8 b + 4 e + 2 c + half -> slot 16 (2 b + c) + 8 half + 2 q + e.
_PERMUTED_DIGITS = ((4, 2, 2, 2, 2), (3, 5, 6, 2, 4))


def order_k(x: torch.Tensor, k_order: KOrder, rows: int | None = None) -> torch.Tensor:
    """Activations [M, K] (K a multiple of 64) with each 64-element group of K in ``k_order``
    (``PERMUTED`` or ``PAIRS``): out[:, 64 g + p] = x[:, 64 g + SLOT_ELEMENTS[k_order][p]].
    ``rows`` (>= M): the result has that many rows, zeros past M (``bf16_activations``' whole
    token tiles)."""
    assert KOrder(k_order) in SLOT_ELEMENTS, k_order
    radices, slot_axes = _PERMUTED_DIGITS
    m, k = x.shape
    moved = x.reshape(m, k // 64, *radices).permute(0, 1, *slot_axes)
    if rows is None or rows <= m:
        return moved.reshape(m, k)
    out = torch.empty((rows, k), dtype=x.dtype, device=x.device)
    out[:m].view(moved.shape).copy_(moved)  # the same strided copy, into the padded buffer
    out[m:].zero_()
    return out


# bf16 activations (W4A16) of at least W4A16_IN_PLACE_MIN_M tokens on permuted words of at
# most W4A16_IN_PLACE_MAX_N rows take PERMUTED_IDENTITY where they need no padding to whole
# token tiles. The copy it saves costs about as much as the GEMM over N / 400 rows; the
# in-place decode costs the wgmma kernels ~8% at 256-token tiles (~6% since its splats come
# from the shared table, ``NVFP4GemmLargeM.IN_PLACE_SCALE_TABLE``) and more on narrower ones.
# H200 2026-12-02 (session 52, ``tools/w4a16_in_place_probe.py``, graph us, two rounds alike,
# copy / in place, cuBLAS (+ silu) beside): the fused op 1024x7168 M = 256 18.2 / 19.9 (19.0),
# M = 1024 39.0 / 35.7 (29.9), M = 4096 113.8 / 85.6 (91.7), M = 16384 447.0 / 342.3 (362.5);
# 4096x7168 M = 1024 88.3 / 83.2, M = 4096 335.7 / 333.8; 9216x7168 M = 1024 189.6 / 197.5;
# 34816x5120 489.6 / 547.6, 36864x7168 706.3 / 787.2; nvfp4_gemm M = 1024 4096x7168 85.0 /
# 81.8, 5120x17408 263.6 / 258.3, 7168x2048 46.6 / 48.3, 9216x7168 184.7 / 189.7, 36864x7168
# 707.8 / 761.5; M = 256 4096x7168 26.3 / 30.3, 7168x2048 14.4 / 17.7; 7168x2048 M = 4096
# 169.1 / 169.9. Outputs equal to the copy route's within fp32 rounding (codes equal).
W4A16_IN_PLACE_MIN_M = 1024
W4A16_IN_PLACE_MAX_N = 5120
# Weights of at most W4A16_IN_PLACE_NARROW_N rows from W4A16_IN_PLACE_NARROW_MIN_M tokens: the
# copy is a larger share of a GEMM that narrow. H200 2026-12-03 (session 59 call 1,
# ``tools/stream_k_stretch_probe.py``, graph us, two rounds alike, copy / in place (cuBLAS +
# silu)): the fused op 1024x7168 M = 512 (four K pieces of 128-token tiles) 22.47 / 20.97
# (21.4); session 53 had 25.04 / 24.73 there on its route, and 4096-row weights losing 23-31%.
W4A16_IN_PLACE_NARROW_N = 1024
W4A16_IN_PLACE_NARROW_MIN_M = 512
# Token tails (the last token tile partial) are read in place too, the TMA filling the tile past M
# (``W4A16_IN_PLACE_TAIL``, the fused op's ``_large_m``): on narrow weights' tiles of up to 128
# tokens, and on tiles of W4A16_IN_PLACE_TAIL_WIDE_TILE_M tokens of weights up to
# W4A16_IN_PLACE_MAX_N rows, whatever the fill (the copy pads to whole tiles too: the empty rows
# cost the same either way). Session 60 read 256-token tails in place from 45% full only; H200
# 2026-12-03, session 61 call 3 (``tools/w4a16_wide_tail_probe.py``, graph us, two rounds
# alike, session 60's rule (the copy) / any fill (cuBLAS + silu)): 1024x7168 whole 256-token
# tiles M = 8000 (25% full) 222.7 / 163.5 (176.6), the 256-token stream-K M = 8500 (20%) 244.2 /
# 172.6 (189.2), M = 10000 (6%) 281.2 / 199.5 (216.1); 4096x7168 M = 2100 (20%) 202.4 / 193.2
# (183.8), M = 8000 687.4 / 677.1 (723.7), M = 10000 even (872.0 / 870.0; 895.9). The
# copy costs more than the fill: session 24's slow fill (9216x7168 M = 129, ``bf16_activations``)
# was a one-token tile on a 64-token launch. H200 2026-12-03 (``tools/w4a16_tail_probe.py``, graph
# us, two rounds alike, the fused op, copy / in place (cuBLAS + silu), the last tile's fill):
# session 59 call 4, 1024x7168 M = 700 (47%) 32.9 / 30.6 (25.1), M = 1000 (81%) 35.1 / 31.1 (31.6),
# M = 1100 (59%) 43.1 / 39.8 (32.2), M = 2500 (53%) 84.5 / 78.0 (59.3); session 60 calls 2-3, M =
# 660 (16%) 32.6 / 30.6 (23.3), M = 800 (25%) 33.2 / 31.0 (27.8), M = 1030 (5%) 42.6 / 39.9 (31.7),
# M = 1060 (28%) 42.9 / 39.7 (32.1), M = 1300 (16%) 48.4 / 45.2 (35.2); 4096x7168 on 256-token tiles
# M = 2200 (59%) 202.9 / 193.7 (195.8), M = 2500 (77%) 237.6 / 224.9-227.8 (217.9), M = 3500 (67%)
# 354.6 / 335.4-337.6 (310.7), call 4 (the rule) M = 1200 (69%) 118.2 / 111.3 (105.5), whole
# 256-token tiles M = 3000 (72%) 249.5 / 239.2 (263.3), M = 5000 (53%) 417.8 / 403.0 (431.4), but on
# 128-token tiles M = 1100 106.4 / 127.9. Codes equal to the copy route's but for 0-11 bytes (the K
# order inside a group rounds the sums). The fused op's three K pieces of 128-token tiles keep the
# copy (its comment).
W4A16_IN_PLACE_TAIL = True
W4A16_IN_PLACE_TAIL_WIDE_TILE_M = 256


def wgmma_k_order(b: torch.Tensor, bf16_m: int = 0, padded: bool = True) -> KOrder:
    """The order for weights ``b``: PERMUTED for permuted int32 words, PAIRS for packed uint8 bytes,
    with NVFP4 activations (their dequantize pass writes any order at no cost) and bf16 ones
    (``reorder_k``'s copy) alike; except that ``bf16_m`` bf16 tokens (0: NVFP4 activations) that the
    wgmma kernel can read as they are (not ``padded`` to whole token tiles) take PERMUTED_IDENTITY
    on permuted words from ``W4A16_IN_PLACE_MIN_M`` tokens and up to ``W4A16_IN_PLACE_MAX_N`` rows:
    no copy before the kernel. H200 2026-12-01 (``tools/packed_order_probe.py`` and
    ``tools/w4a16_order_probe.py``, public plans, us, in place / session 28's byte order / pairs /
    permuted words): NVFP4 activations, nvfp4_gemm 36864x7168 M = 16 70.5 / 60.6 / 53.4 / 51.0, M =
    64 89.9 / 82.0 / 74.5 / 70.7, M = 256 179.8 / 177.2 / 176.0 / 175.3, 4096x7168 M = 64 22.0 /
    20.2 / 19.1 / 18.5, the fused op 36864x7168 M = 64 95.1 / 81.4 / 75.3 / 71.9; bf16 activations,
    nvfp4_gemm 36864x7168 M = 64 88.5 / 82.4 / 74.9, 9216x7168 M = 64 30.3 / 29.3 / 27.1, 7168x18432
    M = 64 50.3 / 47.2 / 42.9, 7168x2048 M = 256 18.5 / 17.7 / 17.3, the fused op 36864x7168 M = 64
    93.0 / 81.6 / 75.6."""
    if b.dtype != torch.int32:
        return KOrder.PAIRS
    if w4a16_in_place(bf16_m, b.shape[0], padded):
        return KOrder.PERMUTED_IDENTITY
    return KOrder.PERMUTED


def w4a16_tail_in_place(bf16_m: int, n: int, tile_m: int) -> bool:
    """Whether ``bf16_m`` bf16 tokens on permuted words of ``n`` rows whose last ``tile_m``-token
    tile is partial are read in place all the same (``W4A16_IN_PLACE_TAIL``, the comment
    above); the caller asks ``w4a16_in_place`` then as if unpadded. (The rule reads the weights
    and the tile only; ``bf16_m`` is there for the probes' variants, which ask the fill.)"""
    if not W4A16_IN_PLACE_TAIL:
        return False
    if tile_m < W4A16_IN_PLACE_TAIL_WIDE_TILE_M:
        return n <= W4A16_IN_PLACE_NARROW_N
    return n <= W4A16_IN_PLACE_MAX_N


def w4a16_in_place(bf16_m: int, n: int, padded: bool) -> bool:
    """Whether ``bf16_m`` bf16 tokens, not ``padded`` to whole token tiles, on permuted words
    of ``n`` rows decode them in place (PERMUTED_IDENTITY: ``wgmma_k_order``'s rule; narrow
    weights from fewer tokens, the comment above ``W4A16_IN_PLACE_NARROW_N``)."""
    min_m = W4A16_IN_PLACE_MIN_M
    if n <= W4A16_IN_PLACE_NARROW_N:
        min_m = min(min_m, W4A16_IN_PLACE_NARROW_MIN_M)
    return bf16_m >= min_m and not padded and n <= W4A16_IN_PLACE_MAX_N
