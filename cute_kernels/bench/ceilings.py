"""The two ceilings every benchmark row is a fraction of, measured once per run."""

from __future__ import annotations

import torch

from .timing import time_graph_us


def _warm_clocks(seconds: float = 0.5) -> None:
    """An idle GPU sits at low clocks; keep it busy briefly so the first ceiling is not low.
    With copies, not matmuls: half a second of dense bf16 matmuls left the SM clocks low for
    the kernel timed next (H200 2026-11-30: ``nvfp4_quantize`` M = 4096, K = 17408 62.7 us
    right after it, 51.3 us otherwise; ``tools/quant_output_probe.py``)."""
    src = torch.empty(64 << 20, device="cuda")
    dst = torch.empty_like(src)
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    while True:
        for _ in range(20):
            dst.copy_(src)
        stop.record()
        stop.synchronize()
        if start.elapsed_time(stop) > seconds * 1e3:
            return


def copy_bandwidth_tbs(nbytes: int = 256 << 20, kernel: str = "ours",
                       copies: int = 1) -> float:
    """Device-to-device copy of ``nbytes`` (per side), counting bytes read plus bytes written
    (TB/s); ``copies`` source/destination pairs taken in turn (enough to rotate a small copy
    past the L2).

    ``kernel="ours"`` is the DSL streaming copy (``copy_kernel``), ``"torch"`` is
    ``Tensor.copy_``; ``measure`` takes the better of the two (see there)."""
    from .copy_kernel import stream_copy

    _warm_clocks()
    pairs = [(torch.randn(nbytes // 4, device="cuda"), torch.empty(nbytes // 4, device="cuda"))
             for _ in range(copies)]
    if kernel == "ours":
        fns = [lambda s=s, d=d: stream_copy(s, d) for s, d in pairs]
    else:
        fns = [lambda s=s, d=d: d.copy_(s) for s, d in pairs]
    us = time_graph_us(fns, calls_per_graph=20, replays=9)
    if kernel == "ours" and not all(torch.equal(s, d) for s, d in pairs):
        raise RuntimeError("stream_copy produced a wrong copy")
    del pairs
    return 2 * (nbytes // 4 * 4) / (us * 1e-6) / 1e12


def bf16_matmul_tflops(n: int = 8192) -> float:
    """cuBLAS bf16 n^3 matmul on random data (TFLOP/s)."""
    a = torch.randn(n, n, dtype=torch.bfloat16, device="cuda")
    b = torch.randn(n, n, dtype=torch.bfloat16, device="cuda")
    c = torch.empty(n, n, dtype=torch.bfloat16, device="cuda")
    us = time_graph_us([lambda: torch.mm(a, b, out=c)], calls_per_graph=10, replays=7)
    return 2 * n**3 / (us * 1e-6) / 1e12


def measure() -> dict:
    # Neither copy reaches the ceiling at every size on the H200 (2026-11-29: ours 3.1-3.3 TB/s
    # at 256 MiB-2 GiB, Tensor.copy_ 4.22 TB/s at 256 MiB but 2.7 at 512 MiB+), so the ceiling
    # is the best of both at 256 MiB (4 x L2 per buffer), and both are reported.
    ours, torch_copy = copy_bandwidth_tbs(), copy_bandwidth_tbs(kernel="torch")
    return {"copy_tbs": max(ours, torch_copy), "our_copy_tbs": ours, "torch_copy_tbs": torch_copy,
            "bf16_tflops": bf16_matmul_tflops(),
            "device": torch.cuda.get_device_name()}
