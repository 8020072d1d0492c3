"""CuTe layout algebra for NVFP4 scale factors and gate/up weight interleaves.

Every layout is one CuTe expression (a builder usable inside `@cute.jit` code);
the torch functions that move bytes derive their `torch.as_strided` views from
the same layout via `static_layout`. No GPU needed.

- scale_factor: the 128x4 swizzled scale layout, `swizzle_sf` / `unswizzle_sf`
- experts: the expert-grouped 6-D (32, 4, Mt, 4, KBt, E) view
- gate_up: the [gate; up] -> 64 up / 64 gate row interleave
- cute_static: host-side tracing of static layouts and the torch geometry
"""

from .cute_static import (
    cosize,
    flatten,
    layout_offsets,
    mode_geometry,
    static_layout,
    torch_geometry,
)
from .experts import (
    dense_to_experts_sf,
    experts_sf_layout,
    experts_sf_to_dense,
    experts_sf_view,
    num_sf_bytes,
)
from .gate_up import (
    GATE_UP_GROUP,
    composes_with_sf_layout,
    deinterleave_gate_up,
    gate_up_row_layout,
    interleave_gate_up,
    interleaved_sf_layout,
    interleaved_sf_permutation,
)
from .scale_factor import (
    ATOM_KB,
    ATOM_M,
    SF_VEC_SIZE,
    pad_up,
    sf_atom_layout,
    sf_atom_layout_elementwise,
    sf_byte_offset,
    sf_padded_shape,
    sf_tiled_layout,
    sf_tiled_layout_elementwise,
    swizzle_sf,
    unswizzle_sf,
)

__all__ = [
    "ATOM_KB", "ATOM_M", "GATE_UP_GROUP", "SF_VEC_SIZE",
    "cosize", "flatten", "layout_offsets", "mode_geometry", "static_layout", "torch_geometry",
    "dense_to_experts_sf", "experts_sf_layout", "experts_sf_to_dense", "experts_sf_view",
    "num_sf_bytes",
    "composes_with_sf_layout", "deinterleave_gate_up", "gate_up_row_layout", "interleave_gate_up",
    "interleaved_sf_layout", "interleaved_sf_permutation",
    "pad_up", "sf_atom_layout", "sf_atom_layout_elementwise", "sf_byte_offset",
    "sf_padded_shape",
    "sf_tiled_layout", "sf_tiled_layout_elementwise", "swizzle_sf", "unswizzle_sf",
]
