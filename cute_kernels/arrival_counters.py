"""Zeroed int32 arrival counters for the in-launch reductions (small-M split-K, stream-K),
without a memset per call.

Every kernel that takes these counters leaves them zero: the CTA that arrives last on a tile
resets its counter. So a buffer that was zero once stays zero between launches, and launches
that run one after another may share it. A fresh ``torch.zeros`` per call costs a memset
node and a kernel boundary in every graph. Without them, on the H200 (2026-11-30,
``tools/counters_probe.py``): stream-K 36864x7168 M = 64 101.1 -> 97.1 us; the fused
1024x7168 M = 1 (split in four) 8.2 -> 7.2.

Sharing is safe only between launches that cannot overlap. The buffer is therefore kept:
- per (device, stream) for eager launches: a stream runs its kernels in order;
- per capture sequence during CUDA-graph capture (``cudaStreamGetCaptureInfo``'s id): each
  graph gets its own buffer, zeroed by one memset captured at its first use. Two graphs replayed
  at once on different streams then never share counters.

A stream used by two host threads at once is outside this contract, as it is for any stream.
"""

from __future__ import annotations

import torch
from cuda.bindings import runtime as cudart

_MIN_COUNTERS = 1024
_eager: dict[tuple[int, int], torch.Tensor] = {}
_captured: dict[int, torch.Tensor] = {}


def capture_id(stream: torch.cuda.Stream) -> int:
    """The id of the capture sequence ``stream`` is recording (one per CUDA graph capture)."""
    err, status, sequence, *_ = cudart.cudaStreamGetCaptureInfo(stream.cuda_stream)
    if err != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError(f"cudaStreamGetCaptureInfo failed: {err}")
    if status != cudart.cudaStreamCaptureStatus.cudaStreamCaptureStatusActive:
        raise RuntimeError("the current stream is capturing, but its capture is not active")
    return int(sequence)


def arrival_counters(n: int, device: torch.device) -> torch.Tensor:
    """``n`` zeroed int32 counters on ``device`` for one launch on the current stream, which the
    kernel must leave zero."""
    stream = torch.cuda.current_stream(device)
    if torch.cuda.is_current_stream_capturing():
        cache, key = _captured, capture_id(stream)
    else:
        cache, key = _eager, (device.index or 0, stream.cuda_stream)
    buf = cache.get(key)
    if buf is None or buf.numel() < n:
        buf = torch.zeros(max(n, _MIN_COUNTERS), dtype=torch.int32, device=device)
        cache[key] = buf
    return buf[:n]
