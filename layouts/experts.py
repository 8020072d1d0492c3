"""Expert-grouped scale factors: the 6-D (32, 4, Mt, 4, KBt, E) view.

Convention (pinned from FlashInfer and SGLang, see below): the memory is E dense
swizzled buffers stacked, one per expert, each [Mp, KBp] bytes in the layout of
`sf_tiled_layout`; physically (E, Mt, KBt, 32, 4, 4) row-major. The 6-D tensor
is a *view* of that memory with logical dims (32, 4, Mt, 4, KBt, E), i.e.

    sf6d[m % 32, (m // 32) % 4, m // 128, kb % 4, kb // 4, e] == scale_e[m, kb]

As a CuTe layout it is `sf_tiled_layout(Mp, KBp)` with an expert mode appended:

    ((32,4,Mt),(4,KBt),E) : ((16,4,KBt*512),(1,512),Mt*KBt*512)

and the six torch dims are exactly CuTe's flattened modes, in order.

Sources: FlashInfer `flashinfer/fp4_quantization.py`
(`silu_and_mul_scaled_nvfp4_experts_quantize_sm100`, `scaled_fp4_grouped_quant_sm100`)
allocate `[l, padded_m, padded_k/4]` int32, then
`.view(float8_e4m3fn).view(l, padded_m//128, padded_k//4, 32, 4, 4).permute(3, 4, 1, 5, 2, 0)`
("logical (32, 4, rm, 4, rk, l), physical (l, rm, rk, 32, 4, 4)"); SGLang's
`sgl-kernel/tests/test_fp4_quantize.py` undoes it with `.permute(5, 2, 4, 0, 1, 3)`
to get one dense swizzled buffer per expert. `permute(2, 4, 0, 1, 3, 5)` gives
(Mt, KBt, 32, 4, 4, E): expert e's dense buffer is `[..., e]` of that (E last).
"""

from __future__ import annotations

import math

import cutlass.cute as cute
import torch

from .cute_static import as_bytes, flatten, static_layout, strided
from .scale_factor import ATOM_KB, ATOM_M, sf_padded_shape, sf_tiled_layout


def experts_sf_layout(m_padded, kb_padded, num_experts) -> "cute.Layout":
    """(row, kb, expert) -> byte offset in E stacked swizzled buffers.

    `sf_tiled_layout(m_padded, kb_padded)` plus an expert mode whose stride is one
    expert's buffer size (the tiled layout's cosize). Flattened, this is the 6-D
    (32, 4, Mt, 4, KBt, E) view. Call during tracing (M may be dynamic).
    """
    per_expert = sf_tiled_layout(m_padded, kb_padded)
    return cute.append(per_expert, cute.make_layout(num_experts, stride=cute.cosize(per_expert)))


def _six_d_geometry(mp: int, kbp: int, e: int):
    """torch sizes/strides of the 6-D view: CuTe's flattened modes, no reordering."""
    shape, stride = static_layout(experts_sf_layout, mp, kbp, e)
    sizes, strides = list(flatten(shape)), list(flatten(stride))
    assert sizes == [32, 4, mp // ATOM_M, ATOM_KB, kbp // ATOM_KB, e], sizes
    return sizes, strides


def experts_sf_view(buf: torch.Tensor, m: int, kb: int, num_experts: int) -> torch.Tensor:
    """6-D (32, 4, Mt, 4, KBt, E) view of E stacked swizzled buffers (no copy).

    `buf`: contiguous, E*pad128(m)*pad4(kb) elements of a 1-byte dtype or any
    dtype whose elements are the scales (e.g. [E, Mp, KBp] from `swizzle_sf`).
    """
    mp, kbp = sf_padded_shape(m, kb)
    if num_experts < 1:
        raise ValueError(f"num_experts must be >= 1, got {num_experts}")
    if buf.numel() != num_experts * mp * kbp:
        raise ValueError(f"buf must have {num_experts}*{mp}*{kbp} elements for m={m}, "
                         f"kb={kb}, num_experts={num_experts}; got shape {tuple(buf.shape)}")
    if not buf.is_contiguous():
        raise ValueError("buf must be contiguous (the 6-D tensor is a view of it)")
    if mp * kbp == 0:
        raise ValueError(f"m and kb must be >= 1, got m={m}, kb={kb}")
    sizes, strides = _six_d_geometry(mp, kbp, num_experts)
    return strided(buf, sizes, strides)


def dense_to_experts_sf(dense: torch.Tensor) -> torch.Tensor:
    """[E, Mp, KBp] stacked swizzled buffers -> 6-D view (no copy if contiguous)."""
    if dense.dim() != 3 or dense.shape[1] % ATOM_M or dense.shape[2] % ATOM_KB:
        raise ValueError(f"dense must be [E, Mp, KBp] with Mp % 128 == 0 and KBp % 4 == 0, "
                         f"got shape {tuple(dense.shape)}")
    e, mp, kbp = dense.shape
    return experts_sf_view(dense.contiguous(), mp, kbp, e)


def experts_sf_to_dense(sf6d: torch.Tensor) -> torch.Tensor:
    """6-D (32, 4, Mt, 4, KBt, E) scales -> [E, Mp, KBp] stacked swizzled buffers.

    A zero-copy view when `sf6d` already is the canonical view (e.g. FlashInfer's
    output or `experts_sf_view`); otherwise the bytes are written through it.
    """
    if sf6d.dim() != 6 or tuple(sf6d.shape[:2]) != (32, 4) or sf6d.shape[3] != ATOM_KB:
        raise ValueError(f"sf6d must be (32, 4, Mt, 4, KBt, E), got shape {tuple(sf6d.shape)}")
    mt, kbt, e = sf6d.shape[2], sf6d.shape[4], sf6d.shape[5]
    mp, kbp = mt * ATOM_M, kbt * ATOM_KB
    sizes, strides = _six_d_geometry(mp, kbp, e)
    # Canonical view (size-1 dims may carry any stride): hand back its memory.
    if all(n == 1 or a == b for n, a, b in zip(sizes, sf6d.stride(), strides)):
        return sf6d.as_strided((e, mp, kbp), (mp * kbp, kbp, 1))
    src = as_bytes(sf6d)
    out = torch.empty((e, mp, kbp), dtype=src.dtype, device=src.device)
    strided(out, sizes, strides).copy_(src)
    return out.view(sf6d.dtype)


def num_sf_bytes(m: int, kb: int, num_experts: int = 1) -> int:
    """Bytes of `num_experts` swizzled buffers for an [m, kb] scale matrix."""
    return num_experts * math.prod(sf_padded_shape(m, kb))
