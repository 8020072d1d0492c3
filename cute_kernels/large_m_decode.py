"""The wgmma kernels' weight decode (``NVFP4GemmLargeM``'s, the fused kernel's too): a mixin
with the consumer's per-stage decode of packed FP4 weights and their e4m3 scales from shared
memory into the wgmma A fragment, as bf16x2 ``e2m1 * scale * 2^-63`` (the module docstring of
``nvfp4_gemm_large_m`` says why 2^-63). Four word layouts (``KOrder``): packed bytes and
permuted words in place (IDENTITY, PERMUTED_IDENTITY: K as it is), permuted words two at a time
(PERMUTED) and packed bytes two words at a time (PAIRS); the last two fix the K order of the
activations (``k_order.PERMUTED_K_ORDER``).
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute

from .device_mma import (POW2_63, STANDARD_HIGH_SHIFT, bf16x2_splat, e2m1x2_by_multiply,
                         e2m1x2_from_byte, e2m1x2_permuted, e2m1x2_permuted_byte, mul_bf16x2,
                         permuted_byte_constants)
from .k_order import IN_PLACE_ORDERS, KOrder

TILE_K = 64  # K of a k-tile's group: four 16-element scale blocks, 4 scale bytes per row
SF_CHUNK_WORDS = 128  # 512 scale bytes of a 128-row x 4-block atom, as 32-bit words


def _plus(x, y):
    """x + y, or x itself where y is the constant 0 (no add in the kernels without it)."""
    return x if isinstance(y, int) and y == 0 else x + y


class WeightDecode:
    """The decode methods of ``NVFP4GemmLargeM`` (it sets ``k_order`` and ``frag_groups``)."""

    @cute.jit
    def _decode_tile(self, sW, sSF8, row0, k0, splat, g0, sf_row, stage, frag):
        """All k16 slots of ``frag`` (four per 64-element K group of the stage, the
        ``frag_groups`` groups from ``g0`` on) from the packed weights and scales of ``stage``;
        the rows' scales ``sf_row`` rows into their 128-row chunks (``_sf_row``).

        wgmma's A fragment (like mma.sync's m16n8k16 A, per k16 block ``kb``): 32-bit register
        ``p`` holds the bf16 pair at row ``row0 + 8 (p % 2)``, K ``16 kb + 8 (p // 2) + k0``
        and ``+ 1`` (k0 = 2q): byte ``q`` of packed word ``2 kb + p // 2`` of that row. So a
        thread reads its two rows whole (2 x 32 bytes a group) and their four scales each. A
        group's scales are its own 512-byte chunk of the stage (``_group_scales``). Permuted
        words (PERMUTED_IDENTITY) give byte q's elements by ``e2m1x2_permuted_byte``."""
        frag32 = cute.recast_tensor(frag, cutlass.Uint32)
        if cutlass.const_expr(self.k_order not in IN_PLACE_ORDERS):
            self._decode_tile_words(sW, sSF8, row0, k0, splat, g0, sf_row, stage, frag32)
            return
        q = cutlass.Uint32((k0 % 8) // 2)  # byte q of each word
        words_in_place = self.k_order == KOrder.PERMUTED_IDENTITY
        if cutlass.const_expr(words_in_place):
            constants = permuted_byte_constants(q)
        else:
            selector = cutlass.Uint32(0x4440) + q
        for gi in cutlass.range_constexpr(self.frag_groups):
            g = g0 + gi
            for h in cutlass.range_constexpr(2):
                row = row0 + 8 * h
                words = cute.make_rmem_tensor((TILE_K // 8,), cutlass.Int32)
                cute.autovec_copy(cute.local_tile(sW[row, None, stage], (TILE_K // 8,), (g,)),
                                  words)
                # The row's scale bytes for blocks 0..3: 4 contiguous bytes of the 128x4 atom.
                sf = cute.make_rmem_tensor((4,), sSF8.element_type)
                cute.autovec_copy(self._group_scales(sSF8, stage, g, _plus(row, sf_row)), sf)
                for kb in cutlass.range_constexpr(4):
                    s = self._scale_splat(splat, sf[kb])
                    for half in cutlass.range_constexpr(2):
                        word = words[2 * kb + half]
                        if cutlass.const_expr(words_in_place):
                            raw = e2m1x2_permuted_byte(word, constants)
                        else:
                            raw = e2m1x2_from_byte(word, selector)
                        frag32[h + 2 * half, 0, 4 * gi + kb] = mul_bf16x2(raw, s)

    def _scale_splat(self, splat, scale):
        """The bf16x2 splat of ``scale * 2^63``: from the shared table ``splat`` (the scale
        then a Uint8 byte, ``scale_table``), else converted from the e4m3 value."""
        if cutlass.const_expr(splat is not None):
            return splat[cutlass.Int32(scale)]
        return bf16x2_splat(scale.to(cutlass.Float32) * cutlass.Float32(POW2_63))

    def _group_scales(self, sSF8, stage, g: int, row):
        """The 4 scale bytes (blocks 0..3) of weight row ``row`` in K group ``g`` of ``stage``:
        4 contiguous bytes of the group's 128x4 atom (512 bytes a group)."""
        return cute.local_tile(sSF8[None, 0, stage], (4,),
                               (g * SF_CHUNK_WORDS + (row % 32) * 4 + row // 32,))

    @cute.jit
    def _decode_tile_words(self, sW, sSF8, row0, k0, splat, g0, sf_row, stage, frag32):
        """``_decode_tile`` for permuted words or packed bytes (PAIRS): per K
        group, thread q (k0 = 2q) takes the contiguous words 2q and 2q + 1 of each of its rows
        (one 8-byte load; a warp's loads of a row half cover 256 contiguous bytes, no bank
        conflict) and their one scale, block q. Word 2q + b goes to k16 blocks 2b and 2b + 1:
        its pair r (``_word_pair``) fills the slot pair of block 2b + r // 2, half r % 2. So
        MMA slot (block kb, 8 half + 2q + e) multiplies K element
        8 (2q + kb // 2) + 2 (kb % 2) + half + 4 e of the group (pair r: elements r and r + 4,
        ``PERMUTED_K_ORDER``): the order the activations come in."""
        self._convert_tile_words(
            self._load_tile_words(sW, sSF8, row0, k0, splat, g0, sf_row, stage), frag32)

    def _load_tile_words(self, sW, sSF8, row0, k0, splat, g0, sf_row, stage) -> list:
        """``_decode_tile_words``' shared-memory reads: per (K group, row half) the two words
        and the scale's bf16x2 splat, for ``_convert_tile_words`` (apart, so that a consumer
        can issue them before it waits for its wgmmas: ``EARLY_RELEASE``)."""
        q = (k0 % 8) // 2
        loaded = []
        for gi in range(self.frag_groups):
            g = g0 + gi
            for h in range(2):
                row = row0 + 8 * h
                words = cute.make_rmem_tensor((2,), cutlass.Int32)
                cute.autovec_copy(cute.local_tile(sW[row, None, stage], (2,), (4 * g + q,)),
                                  words)
                s = self._scale_splat(
                    splat, self._group_scales(sSF8, stage, g, _plus(row, sf_row))[q])
                loaded.append((words, s))
        return loaded

    def _convert_tile_words(self, loaded: list, frag32) -> None:
        """``_load_tile_words``' words times their splats into the fragment's slots."""
        for gi in range(self.frag_groups):
            for h in range(2):
                words, s = loaded[2 * gi + h]
                for b in range(2):
                    word = cutlass.Uint32(words[b])
                    shifted = None  # PAIRS' pairs 2 and 3 come from the word shifted once
                    if cutlass.const_expr(self.k_order == KOrder.PAIRS):
                        shifted = word >> cutlass.Uint32(STANDARD_HIGH_SHIFT)
                    for r in range(4):
                        frag32[h + 2 * (r % 2), 0, 4 * gi + 2 * b + r // 2] = mul_bf16x2(
                            self._word_pair(word, shifted, r), s)

    def _word_pair(self, word, shifted, r: int):
        """Pair ``r`` (elements r and r + 4) of a weight word as bf16x2 ``e2m1 * 2^-126``:
        ``e2m1x2_permuted`` of a permuted word, ``e2m1x2_by_multiply`` of a packed one."""
        if cutlass.const_expr(self.k_order == KOrder.PERMUTED):
            return e2m1x2_permuted(word, r)
        return e2m1x2_by_multiply(word, shifted, r)
