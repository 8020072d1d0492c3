"""The output scale bytes both fused gate_up kernels write (``nvfp4_gemm_swiglu_quant``'s
small-M kernel and ``swiglu_quant_large_m``): a view of one tile's swizzled scale bytes, and
the zeroed padding rows past M."""

import cutlass
import cutlass.cute as cute

from layouts import sf_tiled_layout

from .reference import FP4_BLOCK

BLOCK = FP4_BLOCK  # output columns per scale


def scale_tile_at(mSF: cute.Tensor, kb_out: int, tok0, kb, tile_rows: int):
    """(view, r0): the swizzled scale bytes of h as a ``sf_tiled_layout(tile_rows, kb_out)``
    tensor whose row ``r0 + t`` is token ``tok0 + t`` and column ``c`` is block ``kb + c``
    (r0 = tok0 % 128; ``kb % 4 + c < 4``). The 128-row tiles before tok0 and kb are folded into
    the base, so a store only adds the static-shape offset of its row: the layout at a dynamic
    M costs ~35 instructions per store."""
    r0 = tok0 % 128
    rows = sf_tiled_layout(tile_rows, kb_out)
    return cute.make_tensor(mSF.iterator + (tok0 - r0) * kb_out + cute.crd2idx((0, kb), rows),
                            rows), r0


@cute.jit
def zero_scale_padding(mSF: cute.Tensor, kb_out: int, m, first, kb, blocks: cutlass.Constexpr):
    """Scale rows M .. pad128(M) of blocks ``kb .. kb + blocks - 1``: rows ``M + first``,
    ``M + first + 32``, .. (the caller's lane ``first`` of 32)."""
    m_pad = (m + 127) // 128 * 128
    sSF = cute.make_tensor(mSF.iterator, sf_tiled_layout(m_pad, kb_out))
    for r in cutlass.range(m + first, m_pad, 32):
        for t in cutlass.range_constexpr(blocks):
            sSF[r, kb + t] = cutlass.Uint8(0)


@cute.jit
def zero_scale_padding_words(mSF: cute.Tensor, kb_out: int, m, lane, kb,
                             blocks: cutlass.Constexpr):
    """``zero_scale_padding``'s rows M .. pad128(M), as whole 4-byte words: in the swizzled
    layout a word is one row's 4 columns of a 4-column group (row ``l + 32 w`` of the 128-row
    tile at byte ``16 l + 4 w`` of the group's 512), so past M it is all padding. Each of blocks
    ``kb .. kb + blocks - 1`` zeroes its group's lines ``l`` with ``l % 4`` its place in the
    group: lane ``lane`` (of 32) word ``lane % 4`` of line ``4 (lane // 4) + kb % 4``, one
    store a lane and block (a byte a row each in ``zero_scale_padding``: ~4 stores and ~140
    address instructions a lane at one token). With every column of the buffer a caller's
    (``kb_out`` a multiple of 4) each padding word is written once; words of rows below M are
    never touched."""
    if m % 128 != 0:
        last = (m - 1) // 128
        m_rel = m - last * 128
        line, word = 4 * (lane // 4), lane % 4
        for t in cutlass.range_constexpr(blocks):
            col = kb + t
            row = line + col % 4 + 32 * word
            if row >= m_rel:
                offset = (cutlass.Int64(last) * (kb_out * 128) + (col // 4) * 512
                          + (line + col % 4) * 16 + word * 4)
                p = cute.make_ptr(cutlass.Uint32, mSF.iterator.toint() + offset,
                                  cute.AddressSpace.gmem, assumed_align=4)
                cute.make_tensor(p, cute.make_layout(1))[0] = cutlass.Uint32(0)
