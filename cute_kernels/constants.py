"""Cached constant device tensors: the unit scale of a kernel compiled without one, the bias slot
of a kernel compiled without bias, the expert mask of a dense launch, and a float scale argument
(alpha, a global scale) as the one-element fp32 tensor the kernels read. One allocation per
(shape, dtype, device, value), then a dict lookup per call, so the host path stays free of
allocations and fills: a ``torch.full`` per call would be a fill kernel per call, in a CUDA
graph one more node (~1-2 us) in front of a decode GEMM of 5-50 us. Never write to them.

Kept per (device, value) for eager calls: created once and synchronized, so any stream may
read them, and never dropped (a captured graph may hold their address). During CUDA-graph
capture a missing tensor is made per capture sequence instead (its fill is captured at its
first use in that graph and runs only when the graph replays, so it must not serve eager
calls or other graphs). Pass a tensor for values that change from call to call.
"""

from __future__ import annotations

import torch

from .arrival_counters import capture_id

_CACHE: dict[tuple, torch.Tensor] = {}


def constant(n: int, dtype: torch.dtype, device: torch.device, value: float = 0) -> torch.Tensor:
    """A cached 1-D tensor of ``n`` elements, all ``value``."""
    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    key = (n, dtype, device, value)
    t = _CACHE.get(key)
    if t is not None:
        return t
    capturing = device.type == "cuda" and torch.cuda.is_current_stream_capturing()
    if capturing:
        key += (capture_id(torch.cuda.current_stream(device)),)
        t = _CACHE.get(key)
        if t is not None:
            return t
    t = torch.full((n,), value, dtype=dtype, device=device)
    if device.type == "cuda" and not capturing:
        torch.cuda.current_stream(device).synchronize()  # readable from any stream
    _CACHE[key] = t
    return t
