"""The wgmma kernels' bf16 weights (``KOrder.BF16``): NVFP4 weights [N, K] (packed bytes or
permuted words, with their swizzled scales) -> bf16 [N, K], K as it is, each value
``e2m1 * scale * 2^-63``: what the main loop's decode would give (``large_m_decode``), so the
kernels' epilogues stay as they are (they multiply by 2^63 and alpha). Exact: at most 6
significant bits, and ``e2m1 * scale * 2^-63`` >= 2^-73 is a normal bf16.

Why: with bf16 activations (W4A16) on a small weight at many tokens, every token tile decodes
the weights again in its main loop, and that decode, not the tensor core, sets the time
(1024x7168 at 2048 tokens: 62 us against the 46 of the same launch on permuted activations).
One pass over the weights (N x K, whatever M is) then a plain bf16 GEMM drops it.

The unit is ``NVFP4DequantUnitScale``'s (a quarter of a 64-element group: two words, four
scales, two 16-byte stores); each word becomes its 8 elements in order: packed bytes by
``e2m1x2_from_byte``, permuted words by ``e2m1x2_permuted_byte`` (``permuted_fp4.BYTE_PAIR``),
times ``bf16(scale * 2^63)`` and not again by 2^63.
"""

from __future__ import annotations

import cutlass
import cutlass.cute as cute
import torch

from . import jit
from .device_mma import POW2_63, bf16x2_splat, e2m1x2_from_byte, e2m1x2_permuted_byte, mul_bf16x2
from .nvfp4_dequant import NVFP4DequantUnitScale, compile_group_kernel
from .permuted_fp4 import BYTE_PAIR, weight_dims


class NVFP4DequantBF16Weights(NVFP4DequantUnitScale):
    """``NVFP4DequantUnitScale`` writing ``e2m1 * scale * 2^-63`` (the module docstring), from
    packed bytes or, ``permuted``, from ``permuted_fp4``'s words."""

    def __init__(self, k: int, permuted: bool):
        super().__init__(k)
        self.permuted = permuted

    @cute.jit
    def _chunk(self, words, sf32, r, b, two63, chunk):
        """Output chunk 4b + r: word 4b + r's elements in order, times its scale (block
        2b + r // 2) and 2^63 (``two63`` unused: the values stay 2^-63 down)."""
        scale = cutlass.Float32(cutlass.select_(r < 2, sf32[2 * b], sf32[2 * b + 1]))
        s = bf16x2_splat(scale * cutlass.Float32(POW2_63))
        word = cutlass.Uint32(words[0, b])
        for p in cutlass.range_constexpr(4):  # elements 2p, 2p + 1
            if cutlass.const_expr(self.permuted):
                raw = e2m1x2_permuted_byte(word, tuple(cutlass.Uint32(c) for c in BYTE_PAIR[p]))
            else:
                raw = e2m1x2_from_byte(word, cutlass.Uint32(0x4440 + p))
            chunk[0, p] = cutlass.Int32(mul_bf16x2(raw, s))


@jit.cached
def compile_bf16_weights(k: int, permuted: bool):
    """Tensor-free compile of ``NVFP4DequantBF16Weights``: static K (a multiple of 64),
    dynamic rows."""
    return compile_group_kernel(NVFP4DequantBF16Weights(k, permuted))


def bf16_weights(w: torch.Tensor, w_sf: torch.Tensor) -> torch.Tensor:
    """NVFP4 weights ``w`` (packed uint8 [N, K/2] or permuted int32 words [N, K/8]) and their
    swizzled scales [pad128(N), K/16] -> the ``KOrder.BF16`` operand, bf16 [N, K]."""
    n, k, permuted = weight_dims(w)
    assert k % 64 == 0, k
    out = torch.empty((n, k), dtype=torch.bfloat16, device=w.device)
    if n:
        compile_bf16_weights(k, permuted)(w.view(torch.int32).view(-1, 8), w_sf.view(-1),
                                          out.view(torch.int32).view(-1, 32))
    return out
