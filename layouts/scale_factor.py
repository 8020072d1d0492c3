"""The NVFP4 swizzled scale-factor layout (`SWIZZLED_128x4`) as a CuTe layout.

One scale (e4m3 byte) covers 16 K elements. The scale matrix [M, KB] (KB = K/16)
is stored in 128x4 atoms of 512 bytes: row m, scale column kb of an atom sit at
`(m % 32) * 16 + (m // 32) * 4 + kb`, i.e. the atom `((32,4),4):((16,4),1)`.
Atoms are tiled K-fastest over the matrix padded to [pad128(M), pad4(KB)], so
the byte offset is (DESIGN.md's formula, where its KB4 is the number of 4-block
column tiles, pad4(KB) / 4 -- read as pad4(KB) it would be 4x too large)

    (m//128)*(KB4*512) + (kb//4)*512 + (m%32)*16 + ((m%128)//32)*4 + (kb%4)

and padding bytes are zero. `swizzle_sf`/`unswizzle_sf` move bytes through
`torch.as_strided` views derived from `sf_tiled_layout`.

Builders (`sf_atom_layout`, `sf_tiled_layout`, ...) return `cute.Layout`s and
must be called while a `@cute.jit` function is traced; M may be dynamic there.
On the host use `static_layout(sf_tiled_layout, m_padded, kb_padded)`.
"""

from __future__ import annotations

import math

import cutlass.cute as cute
import torch

from .cute_static import as_bytes, static_layout, strided, torch_geometry

SF_VEC_SIZE = 16  # K elements per scale
ATOM_M = 128  # rows per atom (32 x 4)
ATOM_KB = 4  # scale columns per atom
ATOM_BYTES = ATOM_M * ATOM_KB  # 512


def pad_up(x: int, m: int) -> int:
    """Smallest multiple of `m` that is >= `x`."""
    return -(-x // m) * m


def sf_padded_shape(m: int, kb: int) -> tuple[int, int]:
    """(pad128(m), pad4(kb)): the shape of the swizzled scale buffer."""
    if m < 0 or kb < 0:
        raise ValueError(f"m and kb must be >= 0, got m={m}, kb={kb}")
    return pad_up(m, ATOM_M), pad_up(kb, ATOM_KB)


def sf_byte_offset(m: int, kb: int, kb_padded: int) -> int:
    """Byte offset of scale (row m, column kb) in the swizzled buffer of a matrix with
    `kb_padded` (a multiple of 4) scale columns: `sf_tiled_layout` as host arithmetic, for
    kernels that fold offset differences into compile-time constants."""
    return ((m // ATOM_M) * (kb_padded // ATOM_KB) * ATOM_BYTES + (kb // ATOM_KB) * ATOM_BYTES
            + (m % 32) * 16 + ((m % ATOM_M) // 32) * 4 + kb % ATOM_KB)


# ---- CuTe builders (call during tracing) ----------------------------------

def sf_atom_layout() -> "cute.Layout":
    """Scale-matrix-level atom `((32,4),4):((16,4),1)`: (row, kb) -> byte in 512."""
    return cute.make_layout(((32, 4), ATOM_KB), stride=((16, 4), 1))


def sf_atom_layout_elementwise(sf_vec_size: int = SF_VEC_SIZE) -> "cute.Layout":
    """Element-level atom `((32,4),(16,4)):((16,4),(0,1))`: (row, k) -> byte.

    The stride-0 mode of size `sf_vec_size` broadcasts one scale over its K block,
    so kernels can index scales by K element (CUTLASS's BlockScaledBasicChunk).
    """
    return cute.make_layout(((32, 4), (sf_vec_size, ATOM_KB)), stride=((16, 4), (0, 1)))


def sf_tiled_layout(m_padded, kb_padded) -> "cute.Layout":
    """(row, kb) -> byte offset in the swizzled buffer of a [m_padded, kb_padded] matrix.

    Shape (((32,4),Mt),(4,KBt)), stride (((16,4),KBt*512),(1,512)). Tile order
    (1,0) puts K tiles innermost, as DESIGN.md's formula requires. `m_padded`
    may be dynamic (a multiple of 128); `kb_padded` a multiple of 4.
    """
    return cute.tile_to_shape(sf_atom_layout(), (m_padded, kb_padded), (1, 0))


def sf_tiled_layout_elementwise(m_padded, k_padded, sf_vec_size: int = SF_VEC_SIZE) -> "cute.Layout":
    """(row, k) -> byte offset; `k_padded` a multiple of 4*sf_vec_size (64).

    Same bytes as `sf_tiled_layout(m_padded, k_padded // sf_vec_size)` at kb = k // 16.
    """
    return cute.tile_to_shape(sf_atom_layout_elementwise(sf_vec_size), (m_padded, k_padded), (1, 0))


# ---- torch side -------------------------------------------------------------

def _swizzled_geometry(mp: int, kbp: int, batch: int):
    """as_strided sizes/strides of the buffer seen as [batch, Mt, 4, 32, KBt, 4]
    (row-major order of the logical [batch, Mp, KBp] matrix). Buffers of a batch
    follow each other; each is one swizzled buffer of mp*kbp bytes."""
    shape, stride = static_layout(sf_tiled_layout, mp, kbp)
    sizes, strides, logical = torch_geometry(shape, stride)
    assert logical == [mp, kbp], (logical, mp, kbp)
    return [batch] + sizes, [mp * kbp] + strides


def swizzle_sf(sf: torch.Tensor) -> torch.Tensor:
    """[..., M, KB] scale matrix -> [..., pad128(M), pad4(KB)] swizzled buffer.

    Same dtype (1-byte dtypes move as uint8). The result is contiguous and its flat
    memory (per leading index) IS the swizzled byte buffer; padding is zero. Its
    [Mp, KBp] shape is only a container: element [i, j] is byte i*KBp + j.
    """
    if sf.dim() < 2:
        raise ValueError(f"sf must be [..., M, KB], got shape {tuple(sf.shape)}")
    *lead, m, kb = sf.shape
    mp, kbp = sf_padded_shape(m, kb)
    src = as_bytes(sf)
    batch = math.prod(lead)
    if mp * kbp * batch == 0:  # nothing to lay out; avoid tracing empty layouts
        return torch.zeros((*lead, mp, kbp), dtype=sf.dtype, device=sf.device)
    padded = torch.zeros((batch, mp, kbp), dtype=src.dtype, device=src.device)
    padded[:, :m, :kb] = src.reshape(batch, m, kb)
    out = torch.empty((batch, mp, kbp), dtype=src.dtype, device=src.device)
    sizes, strides = _swizzled_geometry(mp, kbp, batch)
    strided(out, sizes, strides).copy_(padded.view(sizes))
    return out.view(*lead, mp, kbp).view(sf.dtype)


def unswizzle_sf(buf: torch.Tensor, m: int, kb: int) -> torch.Tensor:
    """Swizzled buffer -> [m, kb] scale matrix (a new contiguous tensor).

    `buf`: any tensor with pad128(m)*pad4(kb) elements (e.g. [Mp, KBp] or flat), or
    a batch [..., Mp, KBp] (3-D or more) -> [..., m, kb].
    """
    mp, kbp = sf_padded_shape(m, kb)
    if buf.dim() >= 3:
        if tuple(buf.shape[-2:]) != (mp, kbp):
            raise ValueError(f"buf must be [..., {mp}, {kbp}] for m={m}, kb={kb}, "
                             f"got shape {tuple(buf.shape)}")
        lead = list(buf.shape[:-2])
    else:
        if buf.numel() != mp * kbp:
            raise ValueError(f"buf must have {mp}*{kbp}={mp * kbp} elements for m={m}, "
                             f"kb={kb}, got shape {tuple(buf.shape)}")
        lead = []
    src = as_bytes(buf)
    batch = math.prod(lead)
    if mp * kbp * batch == 0:
        return torch.zeros((*lead, m, kb), dtype=buf.dtype, device=buf.device)
    sizes, strides = _swizzled_geometry(mp, kbp, batch)
    logical = strided(src, sizes, strides).reshape(batch, mp, kbp)
    return logical[:, :m, :kb].contiguous().view(*lead, m, kb).view(buf.dtype)
