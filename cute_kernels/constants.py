"""Cached constant device tensors for kernel arguments a call does not supply: the unit scale of
a kernel compiled without one, the bias slot of a kernel compiled without bias, the expert mask
of a dense launch. One allocation per (shape, dtype, device, value), then a dict lookup per call,
so the host path stays free of allocations and fills. Never write to them."""

from __future__ import annotations

import torch

_CACHE: dict[tuple, torch.Tensor] = {}


def constant(n: int, dtype: torch.dtype, device: torch.device, value: float = 0) -> torch.Tensor:
    """A cached 1-D tensor of ``n`` elements, all ``value``."""
    key = (n, dtype, device, value)
    t = _CACHE.get(key)
    if t is None:
        t = _CACHE[key] = torch.full((n,), value, dtype=dtype, device=device)
    return t
