"""torch dtype <-> CuTe DSL numeric type, keyed by the dtype's string so compile keys stay scalar."""

import cutlass
import torch

_TORCH_TO_CUTLASS = {
    "torch.bfloat16": cutlass.BFloat16,
    "torch.float16": cutlass.Float16,
    "torch.float32": cutlass.Float32,
    "torch.float8_e4m3fn": cutlass.Float8E4M3FN,
    "torch.uint8": cutlass.Uint8,
    "torch.int32": cutlass.Int32,
}


def torch_to_cutlass(dtype) -> type:
    """``torch.bfloat16`` or its string ``"torch.bfloat16"`` -> ``cutlass.BFloat16``."""
    key = str(dtype)
    if key not in _TORCH_TO_CUTLASS:
        raise TypeError(f"no CuTe DSL type for {key}")
    return _TORCH_TO_CUTLASS[key]


def is_torch_dtype(x) -> bool:
    return isinstance(x, torch.dtype)
