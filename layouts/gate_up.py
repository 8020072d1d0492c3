"""Gate/up row interleave of a fused gate_up weight, as a CuTe layout.

Checkpoints store gate_up rows as [gate; up] (first I rows gate, last I up).
The fused SwiGLU GEMM wants `interleave([up; gate], group)`: 64 up rows, 64 gate
rows, 64 up rows, ... (DESIGN.md), so one 128-row tile holds matching up and gate
rows. Over [up; gate] this row map is a plain layout over
(group_row, half, group_index):

    out row r = j + group*h + 2*group*g   ->   [up; gate] row j + I*h + group*g
    i.e. (group, 2, I/group) : (1, I, group)

[gate; up] -> [up; gate] is a rotation by I rows (torch.roll), which no layout
can express (it needs an offset), so the torch functions roll first.

Composition with the swizzled scale layout (`interleaved_sf_layout`): reading
the swizzled buffer of the [up; gate] scales through
`sf_tiled_layout o (row map, kb)` yields the interleaved scale matrix, and
`interleaved_sf_permutation` is the byte permutation between the two swizzled
buffers. Both are single CuTe layouts when the row map's parts j, group*g, I*h
never carry across the atom's row digits (32, 4, Mt):

    rows % 128 == 0, (I % 128 == 0 or I == 64), and
    (32 % group == 0 or group == 64 or group % 128 == 0)

For group 64 that is I % 128 == 0 (or I == 64). The builders check this
themselves: for whole tiles outside it, CuTe DSL 4.8.1 either rejects the
composition (I = 192) or, composing mode by mode, silently returns a wrong layout
(group 24 or 96; also rows 192 padded to 256), as tests/layouts shows.
Outside it the interleave on the swizzled buffer is still a permutation of whole
4-byte words (8-byte pieces for group 64: two 32-row words of one 16-byte line),
just not a strided one: a gather.
"""

from __future__ import annotations

import math

import cutlass.cute as cute
import torch

from .cute_static import as_bytes, mode_geometry, static_layout, strided
from .scale_factor import ATOM_M, sf_tiled_layout

GATE_UP_GROUP = 64


def _check_rows(rows: int, group: int, what: str = "rows") -> None:
    if not isinstance(group, int) or group < 1:
        raise ValueError(f"group must be a positive int, got {group!r}")
    if rows % (2 * group):
        raise ValueError(f"{what} = {rows} must be divisible by 2*group = {2 * group}")


def gate_up_row_layout(rows: int, group: int = GATE_UP_GROUP) -> "cute.Layout":
    """Interleaved row -> row of [up; gate]: `(group, 2, I/group):(1, I, group)`, I = rows/2.

    Its 1-D (colexicographic) index is the interleaved row. Call during tracing.
    """
    _check_rows(rows, group)
    half = rows // 2
    return cute.make_layout((group, 2, half // group), stride=(1, half, group))


def composes_with_sf_layout(rows: int, group: int = GATE_UP_GROUP) -> bool:
    """Whether `interleaved_sf_layout(rows, ., group)` is a layout (module docstring)."""
    half = rows // 2
    return (rows % (2 * group) == 0 and rows % ATOM_M == 0
            and (half % ATOM_M == 0 or half == 64)
            and (32 % group == 0 or group == 64 or group % ATOM_M == 0))


def interleaved_sf_layout(rows: int, kb_padded: int, group: int = GATE_UP_GROUP) -> "cute.Layout":
    """(interleaved row, kb) -> byte offset in the swizzled buffer of the [up; gate] scales.

    `sf_tiled_layout(rows, kb_padded) o (gate_up_row_layout, kb)`: a kernel can read
    interleaved scales straight from the non-interleaved swizzled buffer. Raises
    ValueError unless `composes_with_sf_layout(rows, group)`.
    """
    _check_rows(rows, group)
    if not composes_with_sf_layout(rows, group):
        raise ValueError(f"rows = {rows}, group = {group}: the row interleave is not a strided "
                         "permutation of the swizzled scales (needs rows % 128 == 0, "
                         "rows/2 % 128 == 0 or rows/2 == 64, and group | 32, 64 or 128 | group)")
    tiled = sf_tiled_layout(rows, kb_padded)
    return cute.composition(tiled, (gate_up_row_layout(rows, group), cute.make_layout(kb_padded)))


def interleaved_sf_permutation(rows: int, kb_padded: int, group: int = GATE_UP_GROUP) -> "cute.Layout":
    """Byte x of the swizzled *interleaved* scales -> byte of the swizzled [up; gate] scales.

    `interleaved_sf_layout o right_inverse(sf_tiled_layout)`; same conditions.
    """
    inverse = cute.right_inverse(sf_tiled_layout(rows, kb_padded))
    return cute.composition(interleaved_sf_layout(rows, kb_padded, group), inverse)


def _validate(t: torch.Tensor, group: int, name: str) -> int:
    if t.dim() < 2:
        raise ValueError(f"{name} must be [..., rows, cols], got shape {tuple(t.shape)}")
    rows = t.shape[-2]
    _check_rows(rows, group, f"{name}.shape[-2] (rows)")
    return rows


def _row_geometry(t: torch.Tensor, group: int):
    """as_strided sizes/strides of [up; gate] seen as [batch, I/group, 2, group, cols]
    in interleaved row order, from the row layout."""
    rows, cols = t.shape[-2], t.shape[-1]
    shape, stride = static_layout(gate_up_row_layout, rows, group)
    row_sizes, row_strides = mode_geometry(shape, stride)  # the whole layout is one index: r
    sizes = [math.prod(t.shape[:-2])] + row_sizes + [cols]
    strides = [rows * cols] + [d * cols for d in row_strides] + [1]
    return sizes, strides


def interleave_gate_up(t: torch.Tensor, group: int = GATE_UP_GROUP) -> torch.Tensor:
    """[..., 2I, C] rows [gate; up] -> rows 64 up, 64 gate, 64 up, ... (new tensor).

    Works for packed FP4 weights [2I, K/2] (uint8) and unswizzled scales [2I, K/16]
    (any dtype; 1-byte dtypes move as uint8). Rows are dim -2.
    """
    rows = _validate(t, group, "t")
    if t.numel() == 0:
        return t.clone()
    sizes, strides = _row_geometry(t, group)
    up_gate = torch.roll(as_bytes(t).contiguous(), rows // 2, dims=-2)
    return strided(up_gate, sizes, strides).reshape(t.shape).view(t.dtype)


def deinterleave_gate_up(t: torch.Tensor, group: int = GATE_UP_GROUP) -> torch.Tensor:
    """Inverse of `interleave_gate_up`: interleaved rows -> [gate; up] (new tensor)."""
    rows = _validate(t, group, "t")
    if t.numel() == 0:
        return t.clone()
    sizes, strides = _row_geometry(t, group)
    src = as_bytes(t).contiguous()
    up_gate = torch.empty_like(src)
    strided(up_gate, sizes, strides).copy_(src.view(sizes))
    return torch.roll(up_gate, rows // 2, dims=-2).view(t.dtype)
