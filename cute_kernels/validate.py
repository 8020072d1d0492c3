"""Input checks shared by the public functions: each raises a clear error naming the argument,
before anything is launched (a bad pointer must never reach a kernel)."""

from __future__ import annotations

import torch

from .constants import constant


def check_dtype(name: str, t, *dtypes: torch.dtype) -> None:
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(t).__name__}")
    if t.dtype not in dtypes:
        want = " or ".join(str(d) for d in dtypes)
        raise TypeError(f"{name}: expected dtype {want}, got {t.dtype}")


def check_cuda(name: str, t: torch.Tensor, like: torch.Tensor | None = None) -> None:
    if t.device.type != "cuda":
        raise ValueError(f"{name}: expected a CUDA tensor, got one on {t.device}")
    if like is not None and t.device != like.device:
        raise ValueError(f"{name}: on {t.device}, but the other inputs are on {like.device}")


def check_contiguous(name: str, t: torch.Tensor, align: int = 16) -> None:
    if not t.is_contiguous():
        raise ValueError(f"{name}: expected a contiguous tensor, got strides {tuple(t.stride())}")
    if t.numel() and t.data_ptr() % align:
        raise ValueError(f"{name}: data pointer must be {align}-byte aligned "
                         f"(got offset {t.data_ptr() % align})")


def as_scale_tensor(name: str, value, device: torch.device) -> torch.Tensor:
    """A float or a one-element fp32 tensor -> a one-element fp32 tensor on ``device``."""
    if isinstance(value, torch.Tensor):
        if value.numel() != 1:
            raise ValueError(f"{name}: expected a scalar or one-element tensor, got shape "
                             f"{tuple(value.shape)}")
        if value.dtype != torch.float32:
            raise TypeError(f"{name}: expected a float32 tensor, got {value.dtype}")
        if value.device != device:
            raise ValueError(f"{name}: on {value.device}, but the other inputs are on {device}")
        return value if value.dim() == 1 else value.reshape(1)
    if isinstance(value, (int, float)):
        return constant(1, torch.float32, device, float(value))
    raise TypeError(f"{name}: expected a float or a float32 tensor, got {type(value).__name__}")
