"""ModelOpt NVFP4 gate_up checkpoint tensors <-> the fused SwiGLU GEMM's weight layout.

A ModelOpt checkpoint stores the fused ``gate_up_proj`` as

* ``weight``       uint8 [2I, K/2], packed NVFP4, rows ``[gate; up]`` (rows 0..I-1 gate, I..2I-1 up);
* ``weight_scale`` float8_e4m3fn [2I, K/16], plain row-major (not swizzled).

``nvfp4_gemm_swiglu_quant`` (and ``reference.swiglu_fp64`` / ``reference.gemm_swiglu_quant``)
want the rows as ``interleave([up; gate], group=64)`` -- 64 up rows, 64 gate rows, 64 up rows,
... (DESIGN.md "Numerics") -- and the scales of those interleaved rows in the swizzled 128x4
layout [pad128(2I), pad4(K/16)], padding zero. ``prepare_gate_up_weight`` builds that;
``restore_gate_up_weight`` is its exact (bit-for-bit) inverse, so the originals need not be kept.

All index math comes from ``layouts`` (``interleave_gate_up`` / ``deinterleave_gate_up`` for the
rows, ``swizzle_sf`` / ``unswizzle_sf`` for the 128x4 atoms). Pure torch byte moves: works on CPU
and CUDA tensors, computes on the inputs' device, launches none of our kernels.

Supported sizes: 2I a multiple of 128 (I a multiple of 64: whole 64-up + 64-gate groups; the
layouts interleave needs rows % (2*group) == 0), K a multiple of 16 (one scale per 16 elements).
Any such I works, also I not a multiple of 128 (e.g. 192): the rows are interleaved on the plain
scales first and then swizzled, which is always a gather. (Only reading the interleaved scales
straight out of the swizzled [up; gate] buffer as ONE strided CuTe layout,
``layouts.interleaved_sf_layout``, needs I % 128 == 0 or I == 64.)
"""

from __future__ import annotations

from typing import Tuple

import torch

from layouts import (
    GATE_UP_GROUP,
    SF_VEC_SIZE,
    deinterleave_gate_up,
    interleave_gate_up,
    sf_padded_shape,
    swizzle_sf,
    unswizzle_sf,
)

from .permuted_fp4 import as_permuted_words, packed_form, written_before_next_launch

__all__ = ["GATE_UP_GROUP", "prepare_gate_up_weight", "restore_gate_up_weight"]

_ROWS_MULTIPLE = 2 * GATE_UP_GROUP  # one group of 64 up rows + 64 gate rows
_SCALE_DTYPE = torch.float8_e4m3fn


def _shape(t) -> str:
    return str(tuple(t.shape)) if isinstance(t, torch.Tensor) else type(t).__name__


def _check_weight(weight: torch.Tensor, name: str) -> Tuple[int, int]:
    """-> (rows = 2I, K) of a packed uint8 [2I, K/2] gate_up weight."""
    if not isinstance(weight, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {_shape(weight)}")
    if weight.dtype != torch.uint8:
        raise TypeError(f"{name}: expected packed NVFP4 as torch.uint8 [2I, K/2], got {weight.dtype}")
    if weight.dim() != 2:
        raise ValueError(f"{name}: expected a 2-D [2I, K/2] tensor, got shape {_shape(weight)}")
    rows, half_k = weight.shape
    if rows == 0 or rows % _ROWS_MULTIPLE:
        raise ValueError(f"{name}: 2I = {rows} rows must be a positive multiple of "
                         f"{_ROWS_MULTIPLE} (groups of {GATE_UP_GROUP} up + {GATE_UP_GROUP} gate "
                         f"rows, i.e. I a multiple of {GATE_UP_GROUP}), got shape {_shape(weight)}")
    k = 2 * half_k
    if k == 0 or k % SF_VEC_SIZE:
        raise ValueError(f"{name}: K = 2 * {half_k} = {k} must be a positive multiple of "
                         f"{SF_VEC_SIZE} (shape[1] = K/2 a multiple of {SF_VEC_SIZE // 2}), "
                         f"got shape {_shape(weight)}")
    return rows, k


def _check_scale(scale: torch.Tensor, name: str, weight: torch.Tensor, wname: str,
                 expected: Tuple[int, int], what: str) -> None:
    if not isinstance(scale, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {_shape(scale)}")
    if scale.dtype != _SCALE_DTYPE:
        raise TypeError(f"{name}: expected {_SCALE_DTYPE}, got {scale.dtype}")
    if scale.dim() != 2:
        raise ValueError(f"{name}: expected a 2-D {what} tensor, got shape {_shape(scale)}")
    if tuple(scale.shape) != expected:
        raise ValueError(f"{name}: expected shape {expected} ({what}) to match {wname} of shape "
                         f"{_shape(weight)}, got {_shape(scale)}")
    if scale.device != weight.device:
        raise ValueError(f"{name}: on {scale.device}, but {wname} is on {weight.device}")


def prepare_gate_up_weight(weight: torch.Tensor, weight_scale: torch.Tensor,
                           permute: bool = False) -> Tuple[torch.Tensor, torch.Tensor]:
    """ModelOpt ``[gate; up]`` gate_up tensors -> the fused SwiGLU GEMM's interleaved operands.

    Args:
        weight: uint8 [2I, K/2], packed NVFP4, rows [gate; up].
        weight_scale: float8_e4m3fn [2I, K/16], plain row-major scales of those rows.

    Returns:
        ``(weight_i, weight_scale_i)``, new contiguous tensors on the inputs' device:
        ``weight_i`` uint8 [2I, K/2] with rows ``interleave([up; gate], 64)`` (row r is
        up row 64*(r//128) + r%64 if (r//64) is even, else that gate row); ``weight_scale_i``
        float8_e4m3fn [pad128(2I), pad4(K/16)] = [2I, pad4(K/16)]: the scales of the rows of
        ``weight_i``, swizzled into 128x4 atoms, padding zero -- the ``w, w_sf`` that
        ``reference.gemm_swiglu_quant(..., swizzled=True)`` takes. With ``permute``,
        ``weight_i`` is those rows as permuted int32 words [2I, K/8]
        (``permuted_fp4.prepare_nvfp4_weight``), which the fused kernels decode faster.

    On CUDA it synchronizes the stream before returning (outside graph capture), so the
    results are written before any fused GEMM reads them (see README "Launches").

    Raises TypeError/ValueError naming the argument: wrong dtype, not 2-D, 2I not a multiple
    of 128, K not a multiple of 16, ``weight_scale`` not [2I, K/16], different devices.
    """
    rows, k = _check_weight(weight, "weight")
    _check_scale(weight_scale, "weight_scale", weight, "weight", (rows, k // SF_VEC_SIZE),
                 "[2I, K/16]")
    weight_i = interleave_gate_up(weight, GATE_UP_GROUP).contiguous()
    if permute:
        weight_i = as_permuted_words(weight_i)
    scale_i = swizzle_sf(interleave_gate_up(weight_scale, GATE_UP_GROUP)).contiguous()
    # The fused kernel reads its weights before it waits for the kernel launched just before
    # it (PDL, README "Launches"): that kernel must not be the one writing them.
    return written_before_next_launch(weight_i), scale_i


def restore_gate_up_weight(weight_i: torch.Tensor, weight_scale_i: torch.Tensor,
                           check_padding: bool = True) -> Tuple[torch.Tensor, torch.Tensor]:
    """Exact inverse of ``prepare_gate_up_weight``: -> ``(weight, weight_scale)``.

    Args:
        weight_i: uint8 [2I, K/2], rows ``interleave([up; gate], 64)`` (or those rows as the
            permuted int32 words of ``permute=True``).
        weight_scale_i: float8_e4m3fn [pad128(2I), pad4(K/16)], swizzled scales of those rows.
        check_padding: raise ValueError if a padding byte of ``weight_scale_i`` is not zero
            (then it was not made by ``prepare_gate_up_weight`` and the round trip would drop
            those bytes). Costs one reduction (a device sync on CUDA); pass False to skip.

    Returns:
        ``weight`` uint8 [2I, K/2] rows [gate; up] and ``weight_scale`` float8_e4m3fn
        [2I, K/16] plain row-major: bit-identical to the tensors ``prepare_gate_up_weight``
        was given. New contiguous tensors on the inputs' device.
    """
    weight_i = packed_form(weight_i)
    rows, k = _check_weight(weight_i, "weight_i")
    kb = k // SF_VEC_SIZE
    padded = sf_padded_shape(rows, kb)
    _check_scale(weight_scale_i, "weight_scale_i", weight_i, "weight_i", padded,
                 "swizzled [pad128(2I), pad4(K/16)]")
    if check_padding and padded[1] != kb:
        # the whole padded matrix, padding included, back in (row, kb) order
        full = unswizzle_sf(weight_scale_i.view(torch.uint8), *padded)
        if full[:, kb:].any():
            raise ValueError(f"weight_scale_i: padding bytes (scale columns {kb}..{padded[1] - 1} "
                             f"of the swizzled layout) must be zero; not a buffer made by "
                             f"prepare_gate_up_weight")
    scale_rows = unswizzle_sf(weight_scale_i, rows, kb)  # interleaved rows, [2I, K/16]
    weight = deinterleave_gate_up(weight_i, GATE_UP_GROUP)
    weight_scale = deinterleave_gate_up(scale_rows, GATE_UP_GROUP)
    return weight.contiguous(), weight_scale.contiguous()
